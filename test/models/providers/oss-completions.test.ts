/**
 * The OSS path: the Qwen chat template (vectors produced by the reference's `QwenHandler._format_prompt`),
 * the generic ChatML fallback, and requests to the raw completions endpoint of a local server.
 */
import { describe, expect, it } from 'vitest';

import { CHATML_TEMPLATE } from '../../../src/models/providers/oss/chatml-template.js';
import { QWEN_TEMPLATE, splitThinking } from '../../../src/models/providers/oss/qwen-template.js';
import { ossMaxTokens } from '../../../src/models/providers/oss-completions.js';
import type { PyDict, PyValue } from '../../../src/py/value.js';
import { MockLlmServer, completionsReply } from '../../helpers/mock-llm-server.js';
import { begin, keyOrder, makeModel, registered, step, useMockLlmServer } from './helpers.js';

const dict = (record: Record<string, PyValue>): PyDict => new Map(Object.entries(record));

describe('Qwen chat template', () => {
  it('renders thinking, grouped tool results and the closing assistant header', () => {
    const messages = [
      dict({ role: 'system', content: 'SYS' }),
      dict({ role: 'user', content: 'q1' }),
      dict({ role: 'assistant', content: '<think>\nr1\n</think>\n\na1', reasoning_content: '' }),
      dict({ role: 'tool', name: 'f()', content: 'res1' }),
      dict({ role: 'tool', name: 'g()', content: 'res2' }),
      dict({ role: 'assistant', content: 'a2', reasoning_content: 'r2' }),
      dict({ role: 'tool', name: 'h()', content: 'res3' }),
    ];
    expect(QWEN_TEMPLATE.formatPrompt(messages, [])).toBe(
      '<|im_start|>system\nSYS<|im_end|>\n<|im_start|>user\nq1<|im_end|>\n<|im_start|>assistant\n<think>\nr1\n</think>\n\na1<|im_end|>\n' +
        '<|im_start|>user\n<tool_response>\nres1\n</tool_response>\n<tool_response>\nres2\n</tool_response><|im_end|>\n' +
        '<|im_start|>assistant\n<think>\nr2\n</think>\n\na2<|im_end|>\n<|im_start|>user\n<tool_response>\nres3\n</tool_response><|im_end|>\n' +
        '<|im_start|>assistant\n',
    );
  });

  it('treats a <tool_response> user message as no query, and renders a later system message', () => {
    const messages = [
      dict({ role: 'user', content: 'q1' }),
      dict({ role: 'assistant', content: 'a1', reasoning_content: 'r-old' }),
      dict({ role: 'system', content: 'mid system' }),
      dict({ role: 'user', content: '<tool_response>x</tool_response>' }),
      dict({ role: 'assistant', content: 'last', reasoning_content: '' }),
    ];
    expect(QWEN_TEMPLATE.formatPrompt(messages, [])).toBe(
      '<|im_start|>user\nq1<|im_end|>\n<|im_start|>assistant\n<think>\nr-old\n</think>\n\na1<|im_end|>\n' +
        '<|im_start|>system\nmid system<|im_end|>\n<|im_start|>user\n<tool_response>x</tool_response><|im_end|>\n' +
        '<|im_start|>assistant\n<think>\n\n</think>\n\nlast<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  it('splits the thinking off an answer', () => {
    expect(splitThinking('<think>\nplan\n</think>\n\n[f(a=1)]')).toEqual({ answer: '[f(a=1)]', reasoningContent: 'plan' });
    expect(splitThinking('no thinking')).toBeUndefined();
    expect(QWEN_TEMPLATE.parseAnswer('x</think>y</think>\nz')).toEqual({ answer: 'z', reasoningContent: 'x' });
  });
});

describe('ChatML fallback template', () => {
  it('renders every message and groups tool results into a user turn', () => {
    const messages = [
      dict({ role: 'system', content: 'S' }),
      dict({ role: 'user', content: 'U' }),
      dict({ role: 'assistant', content: 'A' }),
      dict({ role: 'tool', name: 'f()', content: 'R' }),
    ];
    expect(CHATML_TEMPLATE.formatPrompt(messages, [])).toBe(
      '<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nU<|im_end|>\n<|im_start|>assistant\nA<|im_end|>\n' +
        '<|im_start|>user\n<tool_response>\nR\n</tool_response><|im_end|>\n<|im_start|>assistant\n',
    );
  });
});

describe('ossMaxTokens', () => {
  it('asks for 4096 unless a known context length leaves less room', () => {
    expect(ossMaxTokens('x'.repeat(100_000), undefined)).toBe(4096);
    expect(ossMaxTokens('abc', 40960)).toBe(4096);
    expect(ossMaxTokens('x'.repeat(40_000), 40960)).toBe(958);
    expect(ossMaxTokens('x'.repeat(40_960), 40960)).toBe(1000);
  });
});

describe('Qwen/Qwen3-8B through the raw completions endpoint', () => {
  let server: MockLlmServer;
  useMockLlmServer((started) => (server = started));

  it('sends the rendered prompt and feeds tool results back as tool messages', async () => {
    server.enqueue(completionsReply.text('<think>\nok\n</think>\n\n[math.factorial(number=5)]'), completionsReply.text('[]'));
    const { hostname, port } = new URL(server.url);
    const model = makeModel(registered('Qwen/Qwen3-8B'), { env: { LOCAL_SERVER_ENDPOINT: hostname, LOCAL_SERVER_PORT: port } });
    expect(model.mode).toBe('prompting');
    expect(model.defaultNumThreads).toBe(100);
    const { conversation } = begin(model);
    const first = await step(model, conversation, () => ['120']);
    expect(first.step.responses).toBe('[math.factorial(number=5)]');
    expect(first.step.reasoningContent).toBe('ok');
    expect([first.step.inputTokens, first.step.outputTokens]).toEqual([13, 5]);
    await step(model, conversation);

    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/completions');
    expect(request.headers['authorization']).toBe('Bearer EMPTY');
    expect(keyOrder(request.json)).toEqual(['model', 'temperature', 'prompt', 'max_tokens']);
    const body = request.json as { model: string; prompt: string; max_tokens: number };
    expect(body.model).toBe('Qwen/Qwen3-8B');
    expect(body.max_tokens).toBe(4096);
    expect(body.prompt.startsWith('<|im_start|>system\nYou are an expert in composing functions.')).toBe(true);
    expect(body.prompt.endsWith('<|im_start|>user\nWhat is 5 factorial?<|im_end|>\n<|im_start|>assistant\n')).toBe(true);

    const second = (server.requests[1]!.json as { prompt: string }).prompt;
    expect(second.endsWith(
      '<|im_start|>assistant\n<think>\nok\n</think>\n\n[math.factorial(number=5)]<|im_end|>\n' +
        '<|im_start|>user\n<tool_response>\n120\n</tool_response><|im_end|>\n<|im_start|>assistant\n',
    )).toBe(true);
    expect((conversation.inferenceInputLog() as Map<string, unknown>).get('formatted_prompt')).toBe(second);
  });

  it('sends --local-model-path as the model and honours REMOTE_OPENAI_BASE_URL', async () => {
    server.enqueue(completionsReply.text('[]'));
    const model = makeModel(registered('Qwen/Qwen3-8B'), {
      env: { REMOTE_OPENAI_BASE_URL: server.openaiBaseUrl, REMOTE_OPENAI_API_KEY: 'k' },
      localModelPath: '/models/qwen3-8b',
    });
    await begin(model).conversation.query();
    expect((server.requests[0]!.json as { model: string }).model).toBe('/models/qwen3-8b');
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer k');
  });
});

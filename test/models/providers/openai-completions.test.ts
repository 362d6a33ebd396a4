/**
 * The chat-completions adapter (OpenAI and any OpenAI-compatible server) against a local server
 * speaking the protocol, through the real SDK client.
 */
import { describe, expect, it } from 'vitest';

import { resolveModel } from '../../../src/models/model-registry.js';
import { jsonDumps } from '../../../src/py/json.js';
import { ProviderCallError, type AttemptFailure } from '../../../src/models/retry.js';
import type { AttemptOutcome, RetryNotice } from '../../../src/spec/model.js';
import { queryFailureOf } from '../../../src/spec/model.js';
import { MockLlmServer, chatReply, errorReply, malformedReply } from '../../helpers/mock-llm-server.js';
import { SAMPLE_FUNCTIONS_OPENAI, begin, compatibleModel, keyOrder, makeModel, step, useMockLlmServer } from './helpers.js';

let server: MockLlmServer;
useMockLlmServer((started) => (server = started));

describe('FC', () => {
  const model = () => makeModel(compatibleModel('Qwen/Qwen2.5-7B-Instruct', true), { baseUrl: server.openaiBaseUrl });

  it('sends the reference request with the tools wrapped as functions', async () => {
    server.enqueue(chatReply.calls([{ name: 'math_factorial', arguments: '{"number": 5}' }]));
    const m = model();
    const answer = await begin(m, [[{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]]).conversation.query();
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(keyOrder(request.json)).toEqual(['messages', 'model', 'temperature', 'store', 'tools']);
    expect(request.json).toEqual({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      model: 'Qwen/Qwen2.5-7B-Instruct',
      temperature: 0.001,
      store: false,
      tools: SAMPLE_FUNCTIONS_OPENAI.map((f) => ({ type: 'function', function: f })),
    });
    expect(jsonDumps(answer.responses)).toBe('[{"math_factorial": "{\\"number\\": 5}"}]');
    expect([answer.inputTokens, answer.outputTokens]).toEqual([13, 5]);
  });

  it('sends the assistant message back as received, then one tool message per result', async () => {
    server.enqueue(
      chatReply.calls([
        { name: 'math_factorial', arguments: '{"number": 5}' },
        { name: 'scale', arguments: '{"value": 1.0, "factor": 3}' },
      ]),
      chatReply.text('Done.'),
    );
    const m = model();
    const { conversation } = begin(m);
    const first = await step(m, conversation, () => ['120', '3.0']);
    expect(first.calls).toEqual(['math_factorial(number=5)', 'scale(value=1.0,factor=3)']);
    await step(m, conversation);
    const messages = (server.requests[1]!.json as { messages: unknown[] }).messages;
    expect(messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_0', type: 'function', function: { name: 'math_factorial', arguments: '{"number": 5}' } },
          { id: 'call_1', type: 'function', function: { name: 'scale', arguments: '{"value": 1.0, "factor": 3}' } },
        ],
      },
      { role: 'tool', content: '120', tool_call_id: 'call_0' },
      { role: 'tool', content: '3.0', tool_call_id: 'call_1' },
    ]);
  });

  it('keeps reasoning_content of an OpenAI-compatible server for the result line, and re-sends the message as received', async () => {
    server.enqueue(chatReply.text('Hello', { reasoning_content: 'hmm' }), chatReply.text('again'));
    const m = model();
    const { conversation } = begin(m);
    const answer = await step(m, conversation);
    expect(answer.step.reasoningContent).toBe('hmm');
    conversation.addNextTurnMessages([{ role: 'user', content: 'next' }]);
    await step(m, conversation);
    const messages = (server.requests[1]!.json as { messages: unknown[] }).messages;
    expect(messages[1]).toEqual({ role: 'assistant', content: 'Hello', reasoning_content: 'hmm' });
  });

  it("stores a text reply as a string, and vLLM's tool_calls: [] as []", async () => {
    server.enqueue(chatReply.text('No call.'), chatReply.text('No call.', { tool_calls: [] }));
    const m = model();
    expect((await begin(m).conversation.query()).responses).toBe('No call.');
    const empty = await begin(m).conversation.query();
    expect(empty.responses).toEqual([]);
    expect(m.decodeExecute(empty.responses)).toEqual({ ok: true, value: [] });
  });

  it('falls back to the text when a tool call is malformed (the reference catches any error)', async () => {
    server.enqueue(chatReply.text('text', { tool_calls: [{ id: 'c', type: 'function' }] }));
    expect((await begin(model()).conversation.query()).responses).toBe('text');
  });

  it('keeps malformed argument JSON as it came', async () => {
    server.enqueue(chatReply.calls([{ name: 'scale', arguments: '{"value": ' }]));
    const m = model();
    const answer = await begin(m).conversation.query();
    expect(jsonDumps(answer.responses)).toBe('[{"scale": "{\\"value\\": "}]');
    expect(m.decodeExecute(answer.responses).ok).toBe(false);
  });
});

describe('prompting', () => {
  it('sends messages with the system prompt and no tools; results go back as one user message', async () => {
    server.enqueue(chatReply.text("[scale(value=2.5, tags=['a'])]"), chatReply.text('[]'));
    const m = makeModel(compatibleModel('local-model', false), { baseUrl: server.openaiBaseUrl });
    expect(m.mode).toBe('prompting');
    const { conversation } = begin(m);
    const first = await step(m, conversation, () => ['{"result": 2.5}']);
    expect(first.calls).toEqual(["scale(value=2.5, tags=['a'])"]);
    const second = await step(m, conversation);
    expect(second.calls).toBeUndefined();

    const body = server.requests[0]!.json as { messages: { role: string; content: string }[] };
    expect(keyOrder(body)).toEqual(['messages', 'model', 'temperature', 'store']);
    expect(body.messages[0]!.role).toBe('system');
    const next = server.requests[1]!.json as { messages: unknown[] };
    expect(next.messages.slice(2)).toEqual([
      { role: 'assistant', content: "[scale(value=2.5, tags=['a'])]" },
      { role: 'user', content: `[{'role': 'tool', 'name': "scale(value=2.5, tags=['a'])", 'content': '{"result": 2.5}'}]` },
    ]);
  });
});

describe('endpoints of openai-compatible/<id>', () => {
  it('defaults to the reference local server: LOCAL_SERVER_ENDPOINT and LOCAL_SERVER_PORT', async () => {
    server.enqueue(chatReply.text('ok'));
    const { hostname, port } = new URL(server.url);
    const config = resolveModel('openai-compatible/Qwen/Qwen2.5-7B-Instruct');
    const m = makeModel(config, { env: { OPENAI_API_KEY: '', LOCAL_SERVER_ENDPOINT: hostname, LOCAL_SERVER_PORT: port } });
    await begin(m).conversation.query();
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer EMPTY');
    expect((server.requests[0]!.json as { model: string }).model).toBe('Qwen/Qwen2.5-7B-Instruct');
  });

  it('uses REMOTE_OPENAI_BASE_URL and REMOTE_OPENAI_API_KEY', async () => {
    server.enqueue(chatReply.text('ok'));
    const config = resolveModel('openai-compatible/my-model');
    const m = makeModel(config, { env: { REMOTE_OPENAI_BASE_URL: server.openaiBaseUrl, REMOTE_OPENAI_API_KEY: 'remote-key' } });
    await begin(m).conversation.query();
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer remote-key');
  });

  it('prefers OPENAI_BASE_URL (with OPENAI_API_KEY) over the local-server variables', async () => {
    server.enqueue(chatReply.text('ok'));
    const config = resolveModel('openai-compatible/my-model');
    const m = makeModel(config, {
      env: { OPENAI_BASE_URL: server.openaiBaseUrl, REMOTE_OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    await begin(m).conversation.query();
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer sk-test');
  });
});

describe('retries', () => {
  it('retries 503 and 408, reporting each failure', async () => {
    server.enqueue(errorReply.status(503), errorReply.status(408), chatReply.text('ok'));
    const failures: AttemptFailure[] = [];
    const m = makeModel(compatibleModel('m', true), { baseUrl: server.openaiBaseUrl, onAttemptFailure: (f) => failures.push(f) });
    expect((await begin(m).conversation.query()).responses).toBe('ok');
    expect(failures.map((f) => f.status)).toEqual([503, 408]);
  });

  it('retries a 200 that is cut off, empty, has choices: [] or loses its connection mid-body (#24 item 5)', async () => {
    const full = JSON.stringify((chatReply.text('late') as { body: unknown }).body);
    server.enqueue(
      malformedReply.cutJson(),
      malformedReply.empty(),
      malformedReply.noChoices(),
      { kind: 'cutoff', text: full, bytes: 20 },
      chatReply.text('finally'),
    );
    const notices: RetryNotice[] = [];
    const m = makeModel(compatibleModel('m', true), { baseUrl: server.openaiBaseUrl, retry: { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 2 } });
    const answer = await begin(m).conversation.query({ onRetry: (n) => notices.push(n) });
    expect(answer.responses).toBe('finally');
    expect(server.requests).toHaveLength(5);
    expect(notices.map((n) => n.cause.label)).toEqual(['malformed answer', 'malformed answer', 'malformed answer', 'connection reset']);
    expect(notices[2]!.reason).toContain('response.choices is empty');
  });

  it('reports every attempt to the loop: start, and how it ended', async () => {
    server.enqueue(errorReply.status(502), chatReply.text('ok'));
    const events: string[] = [];
    const outcome = (o: AttemptOutcome): string => (o.ok ? 'ok' : `${o.cause.label}${o.willRetry ? ' (retry)' : ''}`);
    const m = makeModel(compatibleModel('m', true), { baseUrl: server.openaiBaseUrl });
    await begin(m).conversation.query({ onAttemptStart: (n) => events.push(`start ${n}`), onAttemptEnd: (o) => events.push(outcome(o)) });
    expect(events).toEqual(['start 1', 'HTTP 502 (retry)', 'start 2', 'ok']);
  });

  it('marks a 400 as a permanent failure and a 500 that outlasts the retries as a transient one', async () => {
    server.enqueue(errorReply.status(400), errorReply.status(500), errorReply.status(500));
    const m = makeModel(compatibleModel('m', true), { baseUrl: server.openaiBaseUrl, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const rejected = await begin(m).conversation.query().catch((e: unknown) => e);
    expect(queryFailureOf(rejected)).toEqual({ failureCause: { kind: 'http', status: 400, label: 'HTTP 400' }, permanent: true });
    const failed = await begin(m).conversation.query().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ProviderCallError);
    expect(queryFailureOf(failed)).toEqual({ failureCause: { kind: 'http', status: 500, label: 'HTTP 500' }, permanent: false });
  });
});

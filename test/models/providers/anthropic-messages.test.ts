/** The Claude adapter against a local server speaking the Anthropic messages protocol (the real SDK client). */
import { describe, expect, it } from 'vitest';

import { stripFcChars } from '../../../src/models/providers/anthropic-messages.js';
import { jsonDumps } from '../../../src/py/json.js';
import type { AttemptFailure } from '../../../src/models/retry.js';
import { MockLlmServer, anthropicReply, errorReply } from '../../helpers/mock-llm-server.js';
import { SAMPLE_DOCS, begin, keyOrder, makeModel, registered, step, useMockLlmServer } from './helpers.js';

let server: MockLlmServer;
useMockLlmServer((started) => (server = started));

const fcModel = (options: Parameters<typeof makeModel>[1] = {}) =>
  makeModel(registered('claude-sonnet-4-5-20250929-FC'), { baseUrl: server.anthropicBaseUrl, ...options });
const promptingModel = () => makeModel(registered('claude-sonnet-4-5-20250929'), { baseUrl: server.anthropicBaseUrl });

type Body = { system?: unknown; messages: { role: string; content: unknown }[]; tools?: Record<string, unknown>[] };

describe('FC (claude-sonnet-4-5-20250929-FC)', () => {
  it('extracts the system prompt, merges consecutive user messages and wraps text in blocks', async () => {
    server.enqueue(anthropicReply.text('No call.'));
    const model = fcModel();
    const { conversation, question } = begin(model, [
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'First.' },
        { role: 'user', content: 'Second.' },
      ],
    ]);
    expect(question[0]).toEqual([{ role: 'user', content: 'First.\n\nSecond.' }]);
    const answer = await conversation.query();

    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/messages');
    // The SDK sends the key as `x-api-key` or as a bearer token, depending on its version.
    expect([request.headers['x-api-key'], request.headers['authorization']]).toContainEqual(expect.stringMatching(/^(Bearer )?ant-test$/));
    expect(request.headers['anthropic-version']).toBeDefined();
    expect(keyOrder(request.json)).toEqual(['model', 'max_tokens', 'temperature', 'tools', 'messages', 'system']);
    const body = request.json as Body & { model: string; max_tokens: number };
    expect(body.model).toBe('claude-sonnet-4-5-20250929');
    expect(body.max_tokens).toBe(64000);
    expect(body.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'First.\n\nSecond.' }] }]);
    expect(body.tools![0]).toEqual({
      name: 'math_factorial',
      description: 'Compute a factorial.',
      input_schema: { type: 'object', properties: { number: { type: 'integer', description: 'The number.' } }, required: ['number'] },
    });
    expect(answer.responses).toEqual(['No call.']);
    expect([answer.inputTokens, answer.outputTokens]).toEqual([17, 9]);
    expect(model.decodeExecute(answer.responses)).toEqual({ ok: false, error: "'str' object has no attribute 'items'" });
  });

  it('stores tool uses as json.dumps of their input, exact for 5.0 and big integers', async () => {
    server.enqueue(
      anthropicReply.toolUses(
        [
          { name: 'scale', inputJson: '{"value": 5.0, "factor": 12345678901234567890}' },
          { name: 'math_factorial', inputJson: '{"number": 5}' },
        ],
        'Let me compute.',
      ),
      anthropicReply.text('Done.'),
    );
    const model = fcModel();
    const { conversation } = begin(model);
    const first = await step(model, conversation, () => ['a', 'b']);
    expect(jsonDumps(first.step.responses)).toBe(
      '[{"scale": "{\\"value\\": 5.0, \\"factor\\": 12345678901234567890}"}, {"math_factorial": "{\\"number\\": 5}"}]',
    );
    expect(first.calls).toEqual(['scale(value=5.0,factor=12345678901234567890)', 'math_factorial(number=5)']);
    await step(model, conversation);

    const second = server.requests[1]!;
    // The assistant blocks go back as received (raw text: the big integer must not be rounded).
    expect(second.bodyText).toContain('"input":{"value":5.0,"factor":12345678901234567890}');
    const body = second.json as Body;
    expect(body.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', content: 'a', tool_use_id: 'toolu_0' },
        { type: 'tool_result', content: 'b', tool_use_id: 'toolu_1' },
      ],
    });
  });

  it('caches multi-turn entries: last tool, system prompt, first block of the last two user messages', async () => {
    server.setHandler(() => anthropicReply.text('No call.'));
    const model = fcModel();
    const { conversation } = begin(model, [[{ role: 'system', content: 'S' }, { role: 'user', content: 'one' }]], 'multi_turn_base_0', SAMPLE_DOCS);
    await step(model, conversation);
    conversation.addNextTurnMessages([{ role: 'user', content: 'two' }]);
    await step(model, conversation);
    conversation.addNextTurnMessages([{ role: 'user', content: 'three' }]);
    await step(model, conversation);
    server.setHandler(() => errorReply.status(418));

    const ephemeral = { type: 'ephemeral' };
    const first = server.requests[0]!.json as Body;
    expect(first.tools!.at(-1)!['cache_control']).toEqual(ephemeral);
    expect(first.tools![0]!['cache_control']).toBeUndefined();
    expect(first.system).toEqual([{ type: 'text', text: 'S', cache_control: ephemeral }]);
    const third = server.requests[2]!.json as Body;
    const userBlocks = third.messages.filter((m) => m.role === 'user').map((m) => (m.content as Record<string, unknown>[])[0]);
    expect(userBlocks).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two', cache_control: ephemeral },
      { type: 'text', text: 'three', cache_control: ephemeral },
    ]);
  });

  it('does not cache single-turn entries', async () => {
    server.enqueue(anthropicReply.text('x'));
    await begin(fcModel()).conversation.query();
    expect(server.requests[0]!.bodyText).not.toContain('cache_control');
  });

  it('retries 529 overloaded and 429', async () => {
    server.enqueue(errorReply.status(529), errorReply.rateLimited('0'), anthropicReply.text('ok'));
    const failures: AttemptFailure[] = [];
    const answer = await begin(fcModel({ onAttemptFailure: (f) => failures.push(f) })).conversation.query();
    expect(answer.responses).toEqual(['ok']);
    expect(failures.map((f) => f.status)).toEqual([529, 429]);
  });
});

describe('prompting (claude-sonnet-4-5-20250929)', () => {
  it('moves the prompting system prompt to `system` and keeps the model name', async () => {
    server.enqueue(anthropicReply.text('[math.factorial(number=5)]'), anthropicReply.text('[]'));
    const model = promptingModel();
    const { conversation, question } = begin(model);
    expect(question[0]).toEqual([{ role: 'user', content: 'What is 5 factorial?' }]);
    const first = await step(model, conversation, () => ['120']);
    expect(first.step.responses).toBe('[math.factorial(number=5)]');
    await step(model, conversation);

    const body = server.requests[0]!.json as Body & { model: string };
    expect(keyOrder(body)).toEqual(['model', 'max_tokens', 'temperature', 'messages', 'system']);
    expect(body.model).toBe('claude-sonnet-4-5-20250929');
    const system = body.system as { text: string }[];
    expect(system[0]!.text.startsWith('You are an expert in composing functions.')).toBe(true);
    const next = server.requests[1]!.json as Body;
    expect(next.messages.slice(1)).toEqual([
      { role: 'assistant', content: '[math.factorial(number=5)]' },
      { role: 'user', content: [{ type: 'text', text: "[{'role': 'tool', 'name': 'math.factorial(number=5)', 'content': '120'}]" }] },
    ]);
  });
});

describe('stripFcChars', () => {
  it('strips the characters -, F and C from both ends, like Python str.strip("-FC")', () => {
    expect(stripFcChars('claude-sonnet-4-5-20250929-FC')).toBe('claude-sonnet-4-5-20250929');
    expect(stripFcChars('FC-model-CF')).toBe('model');
    expect(stripFcChars('claude')).toBe('claude');
  });
});

/** The OpenAI Responses adapter against a local server speaking the protocol (the real SDK client). */
import { describe, expect, it } from 'vitest';

import { jsonDumps } from '../../../src/py/json.js';
import type { AttemptFailure } from '../../../src/models/retry.js';
import { ProviderCallError } from '../../../src/models/retry.js';
import type { RetryNotice } from '../../../src/spec/model.js';
import { MockLlmServer, errorReply, responsesReply } from '../../helpers/mock-llm-server.js';
import { SAMPLE_DOCS, SAMPLE_FUNCTIONS_OPENAI, USER_QUESTION, begin, keyOrder, makeModel, registered, step, useMockLlmServer } from './helpers.js';

let server: MockLlmServer;
useMockLlmServer((started) => (server = started));

const fcModel = (options: Parameters<typeof makeModel>[1] = {}) =>
  makeModel(registered('gpt-4o-2024-11-20-FC'), { baseUrl: server.openaiBaseUrl, ...options });

describe('FC (gpt-4o-2024-11-20-FC)', () => {
  it('sends the reference request: developer role, store false, temperature, tools', async () => {
    server.enqueue(responsesReply.calls([{ name: 'math_factorial', arguments: '{"number": 5}' }]));
    const model = fcModel({ temperature: 0.7 });
    const { conversation } = begin(model, [[{ role: 'system', content: 'Be brief.' }, ...USER_QUESTION]]);
    const answer = await conversation.query();

    const [request] = server.requests;
    expect(request!.path).toBe('/v1/responses');
    expect(request!.headers['authorization']).toBe('Bearer sk-test');
    expect(keyOrder(request!.json)).toEqual(['input', 'model', 'store', 'temperature', 'tools']);
    expect(request!.json).toEqual({
      input: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'What is 5 factorial?' },
      ],
      model: 'gpt-4o-2024-11-20',
      store: false,
      temperature: 0.7,
      tools: SAMPLE_FUNCTIONS_OPENAI.map((f) => ({ ...f, type: 'function' })),
    });
    // Python float forms survive on the wire: the default 1.0 of `factor`.
    expect(request!.bodyText).toContain('"default":1.0');

    expect(jsonDumps(answer.responses)).toBe('[{"math_factorial": "{\\"number\\": 5}"}]');
    expect(answer.inputTokens).toBe(11);
    expect(answer.outputTokens).toBe(7);
    expect(answer.latency).toBeGreaterThan(0);
    expect(answer.reasoningContent).toBe('');
    expect(model.decodeExecute(answer.responses)).toEqual({ ok: true, value: ['math_factorial(number=5)'] });
  });

  it('feeds the output items and function_call_output items back', async () => {
    server.enqueue(
      responsesReply.calls([
        { name: 'math_factorial', arguments: '{"number": 5}' },
        { name: 'scale', arguments: '{"value": 2.5}' },
      ]),
      responsesReply.text('Done.'),
    );
    const model = fcModel();
    const { conversation } = begin(model);
    const first = await step(model, conversation, () => ['120', '2.5']);
    expect(first.calls).toEqual(['math_factorial(number=5)', 'scale(value=2.5)']);
    const second = await step(model, conversation);
    expect(second.step.responses).toBe('Done.');

    const input = (server.requests[1]!.json as { input: unknown[] }).input;
    expect(input).toEqual([
      { role: 'user', content: 'What is 5 factorial?' },
      { type: 'function_call', id: 'fc_0', call_id: 'call_0', name: 'math_factorial', arguments: '{"number": 5}', status: 'completed' },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'scale', arguments: '{"value": 2.5}', status: 'completed' },
      { type: 'function_call_output', call_id: 'call_0', output: '120' },
      { type: 'function_call_output', call_id: 'call_1', output: '2.5' },
    ]);
  });

  it('stores a text reply as a string, which FC decoding rejects', async () => {
    server.enqueue(responsesReply.text('I cannot help.'));
    const model = fcModel();
    const answer = await begin(model).conversation.query();
    expect(answer.responses).toBe('I cannot help.');
    expect(model.decodeExecute(answer.responses)).toEqual({ ok: false, error: "'str' object has no attribute 'items'" });
  });

  it('stores malformed tool-call JSON as it came; decoding then fails', async () => {
    server.enqueue(responsesReply.calls([{ name: 'scale', arguments: '{"value": 2' }]));
    const model = fcModel();
    const answer = await begin(model).conversation.query();
    expect(jsonDumps(answer.responses)).toBe('[{"scale": "{\\"value\\": 2"}]');
    expect(model.decodeExecute(answer.responses)).toEqual({
      ok: false,
      error: "Expecting ',' delimiter: line 1 column 12 (char 11)",
    });
  });

  it('recompiles the tools when functions are added (hold-out turn)', async () => {
    server.enqueue(responsesReply.text('a'), responsesReply.text('b'));
    const model = fcModel();
    const { conversation } = begin(model, [USER_QUESTION], 'multi_turn_miss_func_0', []);
    await step(model, conversation);
    expect((server.requests[0]!.json as Record<string, unknown>)['tools']).toBeUndefined();
    conversation.setFunctions(SAMPLE_DOCS);
    conversation.addNextTurnMessages([{ role: 'user', content: 'more' }]);
    await step(model, conversation);
    expect((server.requests[1]!.json as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(['math_factorial', 'scale']);
  });

  it('records the input log of the last query', async () => {
    server.enqueue(responsesReply.text('x'));
    const model = fcModel();
    const { conversation } = begin(model);
    await conversation.query();
    const log = conversation.inferenceInputLog() as Map<string, unknown>;
    expect([...log.keys()]).toEqual(['message', 'tools']);
    expect(log.get('message')).toBe("[{'role': 'user', 'content': 'What is 5 factorial?'}]");
  });
});

describe('reasoning model (o4-mini-2025-04-16-FC)', () => {
  it('sends reasoning/include instead of temperature and keeps the summary', async () => {
    server.enqueue(responsesReply.text('No call.', { reasoningSummary: 'Thinking.' }));
    const model = makeModel(registered('o4-mini-2025-04-16-FC'), { baseUrl: server.openaiBaseUrl });
    const answer = await begin(model).conversation.query();
    const body = server.requests[0]!.json as Record<string, unknown>;
    expect(keyOrder(body)).toEqual(['input', 'model', 'store', 'include', 'reasoning', 'tools']);
    expect(body['include']).toEqual(['reasoning.encrypted_content']);
    expect(body['reasoning']).toEqual({ summary: 'auto' });
    expect(answer.reasoningContent).toBe('Thinking.\n');
    expect(answer.responses).toBe('No call.');
  });
});

describe('prompting (gpt-4o-2024-11-20)', () => {
  it('puts the system prompt first as a developer message and sends no tools', async () => {
    server.enqueue(responsesReply.text('[math.factorial(number=5)]'), responsesReply.text('[]'));
    const model = makeModel(registered('gpt-4o-2024-11-20'), { baseUrl: server.openaiBaseUrl });
    expect(model.mode).toBe('prompting');
    const { conversation, question } = begin(model);
    expect(question[0]![0]!.role).toBe('system');
    const first = await step(model, conversation, () => ['120']);
    expect(first.step.responses).toBe('[math.factorial(number=5)]');
    expect(first.calls).toEqual(['math.factorial(number=5)']);
    await step(model, conversation);

    const body = server.requests[0]!.json as { input: { role: string; content: string }[] };
    expect(keyOrder(body)).toEqual(['input', 'model', 'store', 'temperature']);
    expect(body.input[0]!.role).toBe('developer');
    expect(body.input[0]!.content.startsWith('You are an expert in composing functions.')).toBe(true);
    expect(body.input[0]!.content).toContain('"name": "math.factorial"');
    const second = server.requests[1]!.json as { input: unknown[] };
    expect(second.input.at(-1)).toEqual({
      role: 'user',
      content: "[{'role': 'tool', 'name': 'math.factorial(number=5)', 'content': '120'}]",
    });
  });

  it('reports prompting output that does not parse as a decode failure', async () => {
    server.enqueue(responsesReply.text('I think you want math.factorial(5'));
    const model = makeModel(registered('gpt-4o-2024-11-20'), { baseUrl: server.openaiBaseUrl });
    const answer = await begin(model).conversation.query();
    const decoded = model.decodeExecute(answer.responses);
    expect(decoded.ok).toBe(false);
  });
});

describe('retries', () => {
  it('waits for Retry-After after a 429, then succeeds (2 requests)', async () => {
    server.enqueue(errorReply.rateLimited('1'), responsesReply.text('ok'));
    const failures: AttemptFailure[] = [];
    const model = fcModel({ onAttemptFailure: (f) => failures.push(f) });
    const answer = await begin(model).conversation.query();
    expect(answer.responses).toBe('ok');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(990);
    expect(failures).toMatchObject([{ attempt: 1, status: 429, retriable: true, retryAfterMs: 1000 }]);
    // The server's wait plus jitter of up to half of it.
    expect(failures[0]!.delayMs).toBeGreaterThanOrEqual(1000);
    expect(failures[0]!.delayMs).toBeLessThan(1500);
  });

  it('retries a 500 and a dropped connection', async () => {
    server.enqueue(errorReply.status(500), { kind: 'reset' }, responsesReply.text('ok'));
    const failures: AttemptFailure[] = [];
    const model = fcModel({ onAttemptFailure: (f) => failures.push(f) });
    const answer = await begin(model).conversation.query();
    expect(answer.responses).toBe('ok');
    expect(server.requests).toHaveLength(3);
    expect(failures.map((f) => f.retriable)).toEqual([true, true]);
    expect(failures[0]!.status).toBe(500);
    expect(failures[1]!.status).toBeUndefined();
  });

  it('gives up on a hanging server after the bounded attempts', async () => {
    server.enqueue({ kind: 'hang', maxMs: 3000 }, { kind: 'hang', maxMs: 3000 });
    const failures: AttemptFailure[] = [];
    const model = fcModel({ requestTimeoutMs: 200, retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 5 }, onAttemptFailure: (f) => failures.push(f) });
    const started = performance.now();
    const error = await begin(model).conversation.query().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderCallError);
    expect((error as ProviderCallError).failures).toHaveLength(2);
    expect((error as ProviderCallError).message).toMatch(/^openai POST \/responses failed \(2 attempts\): /);
    expect(failures.every((f) => f.retriable)).toBe(true);
    expect(performance.now() - started).toBeLessThan(2500);
  });

  it('tells the loop about each retry through QueryOptions.onRetry', async () => {
    server.enqueue(errorReply.status(502), { kind: 'reset' }, responsesReply.text('ok'));
    const notices: RetryNotice[] = [];
    const answer = await begin(fcModel()).conversation.query({ onRetry: (n) => notices.push(n) });
    expect(answer.responses).toBe('ok');
    expect(notices.map((n) => n.attempt)).toEqual([1, 2]);
    expect(notices[0]!.reason).toContain('502');
    expect(notices.every((n) => n.delayMs >= 0 && n.delayMs <= 20)).toBe(true);
  });

  it('stops a hanging request when the query signal fires (Ctrl-C)', async () => {
    server.enqueue({ kind: 'hang', maxMs: 3000 });
    const controller = new AbortController();
    const started = performance.now();
    const pending = begin(fcModel()).conversation.query({ signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderCallError);
    expect((error as ProviderCallError).failures).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('does not retry a 400', async () => {
    server.enqueue(errorReply.status(400));
    const error = await begin(fcModel()).conversation.query().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, retriable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a 200 whose body is not JSON, and names it once the attempts are used up', async () => {
    server.enqueue({ kind: 'text', text: '<html>gateway</html>' }, responsesReply.text('ok'));
    expect((await begin(fcModel()).conversation.query()).responses).toBe('ok');
    expect(server.requests).toHaveLength(2);
    server.enqueue({ kind: 'text', text: '{"output": [' }, { kind: 'text', text: '' });
    const error = await begin(fcModel({ retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } })).conversation.query().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderCallError);
    expect((error as ProviderCallError).message).toContain('the response is empty');
    expect((error as ProviderCallError).failureCause).toEqual({ kind: 'malformed', label: 'malformed answer' });
    expect((error as ProviderCallError).failures[0]!.message).toContain('the response is not JSON (cut off?)');
  });
});

describe('client settings', () => {
  it('sends OPENAI_DEFAULT_HEADERS and uses OPENAI_BASE_URL', async () => {
    server.enqueue(responsesReply.text('ok'));
    const model = makeModel(registered('gpt-4o-2024-11-20-FC'), {
      env: { OPENAI_BASE_URL: server.openaiBaseUrl, OPENAI_DEFAULT_HEADERS: '{"X-Team": "bfcl"}' },
    });
    await begin(model).conversation.query();
    expect(server.requests[0]!.headers['x-team']).toBe('bfcl');
  });

  it('names the model facts as the reference does', () => {
    const model = fcModel();
    expect(model.registryName).toBe('gpt-4o-2024-11-20-FC');
    expect(model.resultDirName).toBe('gpt-4o-2024-11-20-FC');
    expect(model.instanceModelName).toBe('gpt_4o_2024_11_20');
    expect(model.mode).toBe('fc');
    expect(model.defaultNumThreads).toBe(1);
  });
});

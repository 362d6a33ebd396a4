/**
 * Every OpenAI-shaped request goes through the `openai` SDK client over undici, against a local
 * server: what reaches the server, and how failures are classified and retried by our one policy.
 */
import { describe, expect, it } from 'vitest';

import { createModel, type CreateModelOptions } from '../../../src/models/create-model.js';
import { resolveModel } from '../../../src/models/model-registry.js';
import { ProviderCallError, type AttemptFailure } from '../../../src/models/retry.js';
import type { Model } from '../../../src/spec/model.js';
import { MockLlmServer, chatReply, errorReply } from '../../helpers/mock-llm-server.js';
import { FAST_RETRY, begin, useMockLlmServer } from './helpers.js';

let server: MockLlmServer;
useMockLlmServer((started) => (server = started));

/** An `openai-compatible/local` model on the mock server, its failed attempts collected. */
function localModel(options: CreateModelOptions = {}): { model: Model; failures: AttemptFailure[] } {
  const failures: AttemptFailure[] = [];
  const model = createModel(resolveModel('openai-compatible/local'), {
    baseUrl: server.openaiBaseUrl,
    env: {},
    retry: FAST_RETRY,
    onAttemptFailure: (failure) => failures.push(failure),
    ...options,
  });
  return { model, failures };
}

/** The final error of one query. */
async function failedQuery(model: Model): Promise<ProviderCallError> {
  const error = await begin(model).conversation.query().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderCallError);
  return error as ProviderCallError;
}

describe('OpenAI-compatible servers through the openai SDK', () => {
  it('posts our JSON body to base URL + path with the key and OPENAI_DEFAULT_HEADERS', async () => {
    server.enqueue(chatReply.text('ok'));
    const { model } = localModel({ baseUrl: `${server.openaiBaseUrl}/`, env: { REMOTE_OPENAI_API_KEY: 'k-1', OPENAI_DEFAULT_HEADERS: '{"X-Team":"lab"}' } });
    expect((await begin(model).conversation.query()).responses).toBe('ok');
    const request = server.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/chat/completions'); // the trailing slash of the base URL is not doubled
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['authorization']).toBe('Bearer k-1');
    expect(request.headers['x-team']).toBe('lab');
    expect(request.headers['content-length']).toBe(String(Buffer.byteLength(request.bodyText, 'utf8')));
    expect(JSON.parse(request.bodyText)).toMatchObject({ model: 'local', messages: [{ role: 'user' }] });
  });

  it('retries 429 (Retry-After 0) and 500, then answers; a 401 fails at once with its status and message', async () => {
    server.enqueue(errorReply.rateLimited('0'), errorReply.status(500), chatReply.text('ok'), errorReply.status(401));
    const { model, failures } = localModel();
    expect((await begin(model).conversation.query()).responses).toBe('ok');
    expect(failures.map((f) => [f.status, f.retriable])).toEqual([
      [429, true],
      [500, true],
    ]);
    // Retry-After: 0 still gets a little jitter, so a crowd of rate-limited requests does not return at once.
    expect(failures[0]!.delayMs).toBeGreaterThanOrEqual(0);
    expect(failures[0]!.delayMs).toBeLessThan(250);
    const error = await failedQuery(model);
    expect(error.message).toContain('401');
    expect(error.status).toBe(401);
    expect(error.failures).toHaveLength(1);
    expect(server.requests).toHaveLength(4);
  });

  it('reads Retry-After from a 429 answer', async () => {
    server.enqueue(errorReply.rateLimited('7'));
    const { model, failures } = localModel({ retry: { ...FAST_RETRY, maxAttempts: 1, maxRateLimitRetries: 0 } });
    await failedQuery(model);
    expect(failures[0]).toMatchObject({ status: 429, retriable: true, retryAfterMs: 7_000 });
  });

  it('takes a 400 as not retriable', async () => {
    server.enqueue({ kind: 'text', status: 400, text: '{"error":{"message":"context too long"}}' });
    const { model, failures } = localModel();
    const error = await failedQuery(model);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ status: 400, retriable: false });
    expect(error.message).toContain('context too long');
  });

  it('drops a request past its time limit and retries it', async () => {
    server.enqueue({ kind: 'hang', maxMs: 2_000 }, chatReply.text('second try'));
    const { model, failures } = localModel({ requestTimeoutMs: 100 });
    const started = performance.now();
    expect((await begin(model).conversation.query()).responses).toBe('second try');
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.retriable).toBe(true);
  });

  it('takes a dropped connection as retriable', async () => {
    server.enqueue({ kind: 'reset' }, chatReply.text('after reset'));
    const { model, failures } = localModel();
    expect((await begin(model).conversation.query()).responses).toBe('after reset');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.retriable).toBe(true);
  });

  it('reports a server that cannot be reached as such', async () => {
    const closed = await MockLlmServer.start();
    const url = closed.openaiBaseUrl;
    await closed.close();
    const { model } = localModel({ baseUrl: url, retry: { ...FAST_RETRY, maxAttempts: 2 } });
    const error = await failedQuery(model);
    expect(error.serverUnreachable).toBe(true);
    expect(error.failures.map((f) => f.code)).toEqual(['ECONNREFUSED', 'ECONNREFUSED']);
  });

  it('stops at once when the run aborts', async () => {
    server.enqueue({ kind: 'hang', maxMs: 2_000 });
    const controller = new AbortController();
    const { model } = localModel({ signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    await failedQuery(model);
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(server.requests).toHaveLength(1);
  });

  it('sends OSS handler completions (prompting through a chat template) through the same client', async () => {
    server.enqueue({ kind: 'json', status: 200, body: { id: 'c', object: 'text_completion', choices: [{ index: 0, text: '[f(a=1)]', finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 4 } } });
    const model = createModel(resolveModel('Qwen/Qwen3-0.6B'), { baseUrl: server.openaiBaseUrl, env: {}, retry: FAST_RETRY });
    await begin(model).conversation.query();
    expect(server.requests[0]!.path).toBe('/v1/completions');
    expect(JSON.parse(server.requests[0]!.bodyText)).toMatchObject({ model: 'Qwen/Qwen3-0.6B' });
  });
});

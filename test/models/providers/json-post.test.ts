/**
 * The plain JSON client of OpenAI-compatible servers (no SDK client), against a local server: what it
 * sends, and that its failures are classified and retried exactly as the SDK path's are.
 */
import { describe, expect, it } from 'vitest';

import { createModel } from '../../../src/models/create-model.js';
import { resolveModel } from '../../../src/models/model-registry.js';
import { HttpStatusError, jsonPost } from '../../../src/models/providers/json-post.js';
import { classifyFailure, ProviderCallError, type AttemptFailure } from '../../../src/models/retry.js';
import { MockLlmServer, chatReply, errorReply } from '../../helpers/mock-llm-server.js';
import { FAST_RETRY, begin, useMockLlmServer } from './helpers.js';

let server: MockLlmServer;
useMockLlmServer((started) => (server = started));

const BODY = Buffer.from('{"model":"m","é":1}', 'utf8');

describe('jsonPost', () => {
  it('posts the bytes as they are to base URL + path, with the key, JSON headers and OPENAI_DEFAULT_HEADERS', async () => {
    server.enqueue(chatReply.text('ok'));
    const post = jsonPost({ baseURL: `${server.openaiBaseUrl}/`, apiKey: 'k-1', defaultHeaders: { 'X-Team': 'lab' } });
    const answer = await post('/chat/completions', BODY, { timeoutMs: 5_000, signal: undefined });
    const request = server.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/chat/completions'); // the trailing slash of the base URL is not doubled
    expect(request.bodyText).toBe('{"model":"m","é":1}');
    expect(request.headers['content-length']).toBe(String(BODY.byteLength));
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['authorization']).toBe('Bearer k-1');
    expect(request.headers['x-team']).toBe('lab');
    expect(JSON.parse(await answer.text())).toMatchObject({ choices: [{ message: { content: 'ok' } }] });
  });

  it('rejects a non-2xx answer with its status, headers and the server message, as the SDK errors read', async () => {
    server.enqueue(errorReply.rateLimited('7'));
    const post = jsonPost({ baseURL: server.openaiBaseUrl, apiKey: 'k' });
    const error = await post('/chat/completions', BODY, { timeoutMs: 5_000, signal: undefined }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect((error as HttpStatusError).message).toBe('429 mock error 429');
    expect(classifyFailure(error)).toMatchObject({ retriable: true, status: 429, retryAfterMs: 7_000 });
  });

  it('rejects a client error as not retriable, and a body without detail says so', async () => {
    server.enqueue({ kind: 'text', status: 400, text: '' });
    const post = jsonPost({ baseURL: server.openaiBaseUrl, apiKey: 'k' });
    const error = await post('/chat/completions', BODY, { timeoutMs: 5_000, signal: undefined }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('400 status code (no body)');
    expect(classifyFailure(error)).toMatchObject({ retriable: false, status: 400 });
  });

  it('follows a 307/308 redirect with the same POST, keeping the key on the same origin', async () => {
    server.enqueue(
      { kind: 'text', status: 308, headers: { location: '/v2/chat/completions' }, text: '' },
      chatReply.text('moved'),
    );
    const post = jsonPost({ baseURL: server.openaiBaseUrl, apiKey: 'k-2' });
    const answer = await post('/chat/completions', BODY, { timeoutMs: 5_000, signal: undefined });
    expect(JSON.parse(await answer.text())).toMatchObject({ choices: [{ message: { content: 'moved' } }] });
    expect(server.requests.map((r) => [r.method, r.path, r.bodyText, r.headers['authorization']])).toEqual([
      ['POST', '/v1/chat/completions', '{"model":"m","é":1}', 'Bearer k-2'],
      ['POST', '/v2/chat/completions', '{"model":"m","é":1}', 'Bearer k-2'],
    ]);
  });

  it('does not send the key to another origin a redirect points to', async () => {
    const other = await MockLlmServer.start();
    try {
      other.enqueue(chatReply.text('there'));
      server.enqueue({ kind: 'text', status: 307, headers: { location: `${other.openaiBaseUrl}/chat/completions` }, text: '' });
      const post = jsonPost({ baseURL: server.openaiBaseUrl, apiKey: 'secret' });
      await post('/chat/completions', BODY, { timeoutMs: 5_000, signal: undefined });
      expect(server.requests[0]!.headers['authorization']).toBe('Bearer secret');
      expect(other.requests[0]!.headers['authorization']).toBeUndefined();
      expect(other.requests[0]!.bodyText).toBe('{"model":"m","é":1}');
    } finally {
      await other.close();
    }
  });

  it('does not follow a redirect that would turn the POST into a GET (302): it is a non-retriable failure', async () => {
    server.enqueue({ kind: 'text', status: 302, headers: { location: '/elsewhere' }, text: '' });
    const post = jsonPost({ baseURL: server.openaiBaseUrl, apiKey: 'k' });
    const error = await post('/chat/completions', BODY, { timeoutMs: 5_000, signal: undefined }).catch((e: unknown) => e);
    expect(classifyFailure(error)).toMatchObject({ retriable: false, status: 302 });
    expect(server.requests).toHaveLength(1);
  });

  it('drops a request past its time limit with a retriable TimeoutError', async () => {
    server.enqueue({ kind: 'hang', maxMs: 2_000 });
    const post = jsonPost({ baseURL: server.openaiBaseUrl, apiKey: 'k' });
    const started = performance.now();
    const error = await post('/chat/completions', BODY, { timeoutMs: 100, signal: undefined }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(1_500);
    expect((error as Error).name).toBe('TimeoutError');
    expect(classifyFailure(error).retriable).toBe(true);
  });

  it('takes a time limit beyond what a timer holds as no limit (a longer timer would fire at once)', async () => {
    const slow = await MockLlmServer.start();
    try {
      slow.setHandler(async () => {
        await new Promise((ok) => setTimeout(ok, 30));
        return chatReply.text('late but fine');
      });
      const post = jsonPost({ baseURL: slow.openaiBaseUrl, apiKey: 'k' });
      const answer = await post('/chat/completions', BODY, { timeoutMs: 2 ** 31 + 5, signal: undefined });
      expect(await answer.text()).toContain('late but fine');
    } finally {
      await slow.close();
    }
  });

  it('rejects a dropped connection as retriable, naming the socket error', async () => {
    server.enqueue({ kind: 'reset' });
    const post = jsonPost({ baseURL: server.openaiBaseUrl, apiKey: 'k' });
    const error = await post('/chat/completions', BODY, { timeoutMs: 5_000, signal: undefined }).catch((e: unknown) => e);
    expect(classifyFailure(error)).toMatchObject({ retriable: true, code: 'ECONNRESET' });
  });

  it('stops at once when its signal aborts', async () => {
    server.enqueue({ kind: 'hang', maxMs: 2_000 });
    const post = jsonPost({ baseURL: server.openaiBaseUrl, apiKey: 'k' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await post('/chat/completions', BODY, { timeoutMs: 5_000, signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
  });

  it('goes through an injected fetch when one is given (body as text), with the same error shape', async () => {
    const seen: { url: string; body: unknown; auth: string | null }[] = [];
    const fetchImpl = (async (url: string, init: RequestInit) => {
      seen.push({ url, body: init.body, auth: new Headers(init.headers).get('authorization') });
      return new Response('{"error":{"message":"busy"}}', { status: 503, headers: { 'retry-after': '0' } });
    }) as unknown as typeof fetch;
    const post = jsonPost({ baseURL: 'http://example.test/v1', apiKey: 'k' }, fetchImpl);
    const error = await post('/chat/completions', BODY, { timeoutMs: 5_000, signal: undefined }).catch((e: unknown) => e);
    expect(seen).toEqual([{ url: 'http://example.test/v1/chat/completions', body: '{"model":"m","é":1}', auth: 'Bearer k' }]);
    expect(classifyFailure(error)).toMatchObject({ retriable: true, status: 503, retryAfterMs: 0 });
  });
});

describe('openai-compatible/<id> models use it, with our retry policy', () => {
  it('retries 429 (Retry-After 0) and 500, then answers; a 401 fails at once with the status', async () => {
    server.enqueue(errorReply.rateLimited('0'), errorReply.status(500), chatReply.text('ok'), errorReply.status(401));
    const failures: AttemptFailure[] = [];
    const model = createModel(resolveModel('openai-compatible/local'), {
      baseUrl: server.openaiBaseUrl,
      env: {},
      retry: FAST_RETRY,
      onAttemptFailure: (failure) => failures.push(failure),
    });
    expect((await begin(model).conversation.query()).responses).toBe('ok');
    expect(failures.map((f) => [f.status, f.delayMs])).toEqual([
      [429, 0],
      [500, failures[1]!.delayMs],
    ]);
    expect(server.requests[0]!.headers['user-agent']).toBe('bfcl-ts');
    const error = await begin(model).conversation.query().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderCallError);
    expect((error as ProviderCallError).message).toContain('401 mock error 401');
    expect(server.requests).toHaveLength(4);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createRetryPolicy, retryWaitMs, type RetryNotice } from '../../../src/agentic/web/retry-policy.js';
import { SerpApiSearchProvider } from '../../../src/agentic/web/serpapi-search-provider.js';
import { WebSearchServiceError } from '../../../src/agentic/web/web-errors.js';
import type { SearchRequest } from '../../../src/agentic/web/search-provider.js';
import { fixture, startServer, toolText, webApi, type LocalServer } from './web-test-helpers.js';

const REQUEST: SearchRequest = {
  engine: 'duckduckgo',
  params: [
    ['q', "mountain gorilla & co's (1) ~*"],
    ['kl', 'wt-wt'],
  ],
};

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server answering each request with the next scripted [status, body]; the last one repeats. */
async function scripted(answers: readonly (readonly [number, string])[]): Promise<LocalServer> {
  let next = 0;
  server = await startServer((_req, res) => {
    const [status, body] = answers[Math.min(next++, answers.length - 1)]!;
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(body);
  });
  return server;
}

/** A provider whose waits are recorded instead of slept. */
function provider(local: LocalServer, options: { apiKey?: string; maxAttempts?: number } = {}) {
  const waits: number[] = [];
  const notices: RetryNotice[] = [];
  const search = new SerpApiSearchProvider({
    apiKey: 'apiKey' in options ? options.apiKey : 'KEY',
    baseUrl: `${local.origin}/`,
    retry: createRetryPolicy({
      maxAttempts: options.maxAttempts ?? 8,
      random: () => 0.5,
      sleep: async (ms) => {
        waits.push(ms);
      },
      onRetry: (notice) => notices.push(notice),
    }),
  });
  return { search, waits, notices };
}

describe('SerpApiSearchProvider', () => {
  it('sends one GET /search with the reference parameters in order, quoted like requests', async () => {
    const local = await scripted([[200, fixture('serpapi-duckduckgo.json')]]);
    const { search } = provider(local);
    const outcome = await search.search(REQUEST);
    expect(outcome).toEqual({ kind: 'response', status: 200, body: fixture('serpapi-duckduckgo.json') });
    expect(local.requests.map((r) => [r.method, r.url])).toEqual([
      ['GET', '/search?engine=duckduckgo&q=mountain+gorilla+%26+co%27s+%281%29+~%2A&kl=wt-wt&api_key=KEY&output=json&source=python'],
    ]);
  });

  it('retries HTTP 429 with the reference backoff, then returns the success', async () => {
    const local = await scripted([
      [429, '{"error": "Hourly throughput limit exceeded."}'],
      [429, '{"error": "Hourly throughput limit exceeded."}'],
      [200, '{"organic_results": []}'],
    ]);
    const { search, waits, notices } = provider(local);
    expect(await search.search(REQUEST)).toEqual({ kind: 'response', status: 200, body: '{"organic_results": []}' });
    expect(local.requests).toHaveLength(3);
    // backoff 2 s then 4 s, each plus uniform(0, backoff) = 0.5 * backoff here.
    expect(waits).toEqual([3000, 6000]);
    expect(notices.map((n) => [n.attempt, n.reason])).toEqual([
      [1, 'HTTP 429: Hourly throughput limit exceeded.'],
      [2, 'HTTP 429: Hourly throughput limit exceeded.'],
    ]);
  });

  it('retries a 200 payload whose error mentions 429 (the reference test)', async () => {
    const local = await scripted([
      [200, '{"error": "429 Too Many Requests"}'],
      [200, '{"organic_results": []}'],
    ]);
    const { search, waits } = provider(local);
    expect((await search.search(REQUEST)).kind).toBe('response');
    expect(waits).toEqual([3000]);
  });

  it('gives up after maxAttempts with a clear rate-limit error', async () => {
    const local = await scripted([[429, '{"error": "Hourly throughput limit exceeded."}']]);
    const { search, waits } = provider(local, { maxAttempts: 3 });
    const failure = search.search(REQUEST);
    await expect(failure).rejects.toBeInstanceOf(WebSearchServiceError);
    await expect(failure).rejects.toMatchObject({ failure: 'rate_limited', status: 429 });
    await expect(failure).rejects.toThrow(/still rate-limited after 3 attempts/);
    expect(local.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('caps the doubling backoff at maxBackoffMs', () => {
    const policy = createRetryPolicy({ maxBackoffMs: 120_000, random: () => 0 });
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => retryWaitMs(policy, n))).toEqual([
      2000, 4000, 8000, 16000, 32000, 64000, 120000, 120000, 120000,
    ]);
    expect(retryWaitMs(createRetryPolicy({ random: () => 0.999 }), 1)).toBeCloseTo(3998);
  });

  it('refuses to search without a key, before any request', async () => {
    const local = await scripted([[200, '{}']]);
    const { search } = provider(local, { apiKey: undefined });
    await expect(search.search(REQUEST)).rejects.toMatchObject({ failure: 'missing_api_key' });
    await expect(search.search(REQUEST)).rejects.toThrow(/SerpAPI key missing/);
    expect(local.requests).toHaveLength(0);
  });

  it('reports an invalid key and an exhausted account as service errors, without retrying', async () => {
    const invalid = await scripted([[401, '{"error": "Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key"}']]);
    await expect(provider(invalid).search.search(REQUEST)).rejects.toMatchObject({ failure: 'invalid_api_key', status: 401 });
    await invalid.close();
    const exhausted = await scripted([[429, '{"error": "Your account has run out of searches."}']]);
    const { search, waits } = provider(exhausted);
    await expect(search.search(REQUEST)).rejects.toMatchObject({ failure: 'out_of_searches', status: 429 });
    await expect(search.search(REQUEST)).rejects.toThrow('SerpAPI account has no searches left (HTTP 429): Your account has run out of searches.');
    expect(waits).toEqual([]);
  });

  it('returns other error answers as they are (the API turns them into tool results)', async () => {
    const local = await scripted([[503, '<html>Service Unavailable</html>']]);
    expect(await provider(local).search.search(REQUEST)).toEqual({ kind: 'response', status: 503, body: '<html>Service Unavailable</html>' });
  });

  it('turns a refused connection into a network_error outcome', async () => {
    const local = await scripted([[200, '{}']]);
    const origin = local.origin;
    await local.close();
    server = undefined;
    const search = new SerpApiSearchProvider({ apiKey: 'KEY', baseUrl: origin, retry: createRetryPolicy({ maxAttempts: 1 }) });
    const outcome = await search.search(REQUEST);
    expect(outcome.kind).toBe('network_error');
    expect(outcome.kind === 'network_error' ? outcome.message : '').toMatch(/^fetch failed: .*ECONNREFUSED/);
  });

  it('times out an attempt that never answers', async () => {
    server = await startServer(() => {
      // never answers
    });
    const search = new SerpApiSearchProvider({ apiKey: 'KEY', baseUrl: server.origin, timeoutMs: 100, retry: createRetryPolicy({ maxAttempts: 1 }) });
    expect(await search.search(REQUEST)).toEqual({ kind: 'network_error', message: 'Request timed out after 100 ms' });
  });

  it('rejects with the caller abort reason instead of an outcome', async () => {
    server = await startServer(() => {
      // never answers
    });
    const controller = new AbortController();
    const search = new SerpApiSearchProvider({ apiKey: 'KEY', baseUrl: server.origin });
    const pending = search.search(REQUEST, controller.signal);
    controller.abort(new Error('run cancelled'));
    await expect(pending).rejects.toThrow('run cancelled');
  });

  it('serves WebSearchAPI end to end: the tool text of a live search', async () => {
    const local = await scripted([[200, fixture('serpapi-duckduckgo.json')]]);
    const { search } = provider(local);
    const text = await toolText(webApi({ search }, false), 'search_engine_query', { keywords: 'gorillas', max_results: 1n, region: 'us-en' });
    expect(text).toBe("[{'title': 'Mountain gorilla - Wikipedia', 'href': 'https://en.wikipedia.org/wiki/Mountain_gorilla'}]");
    expect(local.requests[0]!.url).toBe('/search?engine=duckduckgo&q=gorillas&kl=us-en&api_key=KEY&output=json&source=python');
  });
});

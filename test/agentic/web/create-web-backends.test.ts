import { describe, expect, it } from 'vitest';
import { CachedPageFetcher } from '../../../src/agentic/web/cached-page-fetcher.js';
import { CachedSearchProvider } from '../../../src/agentic/web/cached-search-provider.js';
import { createWebBackends } from '../../../src/agentic/web/create-web-backends.js';
import { HttpPageFetcher } from '../../../src/agentic/web/http-page-fetcher.js';
import { SerpApiSearchProvider } from '../../../src/agentic/web/serpapi-search-provider.js';
import { UsageError } from '../../../src/util/errors.js';

describe('createWebBackends', () => {
  it('wires the live SerpAPI provider and HTTP fetcher when the cache is off', () => {
    const controller = new AbortController();
    const backends = createWebBackends({ serpApiKey: 'KEY', signal: controller.signal });
    expect(backends.search).toBeInstanceOf(SerpApiSearchProvider);
    expect(backends.fetcher).toBeInstanceOf(HttpPageFetcher);
    expect(backends.signal).toBe(controller.signal);
  });

  it('puts the cache in front of both in record, replay and auto modes', () => {
    for (const cacheMode of ['record', 'auto'] as const) {
      const backends = createWebBackends({ serpApiKey: 'KEY', cacheMode, cacheDir: '/tmp/x' });
      expect([backends.search, backends.fetcher]).toEqual([expect.any(CachedSearchProvider), expect.any(CachedPageFetcher)]);
    }
    const replay = createWebBackends({ cacheMode: 'replay', cacheDir: '/tmp/x' });
    expect(replay.search.name).toBe('serpapi');
    expect(replay.fetcher.name).toBe('cache(replay)');
  });

  it.each([
    [{}, /need a SerpAPI key/],
    [{ serpApiKey: '' }, /need a SerpAPI key/],
    [{ serpApiKey: 'KEY', cacheMode: 'record' as const }, /web cache mode record needs a cache directory/],
    [{ cacheMode: 'auto' as const, cacheDir: '/tmp/x' }, /SerpAPI key \(SERPAPI_API_KEY\) in web cache mode auto/],
    [{ serpApiKey: 'KEY', cacheMode: 'sometimes' as never }, /unknown web cache mode 'sometimes'/],
    [{ serpApiKey: 'KEY', retryMaxAttempts: 0 }, /retryMaxAttempts must be a positive whole number, got 0/],
    [{ serpApiKey: 'KEY', maxPageBytes: 1.5 }, /maxPageBytes must be a positive whole number/],
    [{ serpApiKey: 'KEY', fetchTimeoutMs: -1 }, /fetchTimeoutMs must be a positive number/],
    [{ serpApiKey: 'KEY', maxRedirects: -1 }, /maxRedirects must be a whole number >= 0/],
  ])('refuses an unusable combination with a UsageError (%o)', (options, message) => {
    expect(() => createWebBackends(options)).toThrow(UsageError);
    expect(() => createWebBackends(options)).toThrow(message);
  });
});

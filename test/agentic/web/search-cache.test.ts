import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CachedPageFetcher, pageCacheRequest } from '../../../src/agentic/web/cached-page-fetcher.js';
import { CachedSearchProvider, searchCacheRequest } from '../../../src/agentic/web/cached-search-provider.js';
import { createWebBackends, type WebBackendOptions } from '../../../src/agentic/web/create-web-backends.js';
import { SearchCache, summarizeWebCache, writeWebCacheManifest } from '../../../src/agentic/web/search-cache.js';
import type { SearchRequest } from '../../../src/agentic/web/search-provider.js';
import { WebCacheCorruptError, WebCacheMissError, WebSearchServiceError } from '../../../src/agentic/web/web-errors.js';
import type { WebSearchAPI } from '../../../src/agentic/web/web-search-api.js';
import { StubFetcher, StubSearch, fixture, pageResponse, startServer, toolText, webApi, type LocalServer } from './web-test-helpers.js';

let dir: string;
let server: LocalServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bfcl-web-cache-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const FIXED_CLOCK = (): Date => new Date('2025-01-02T03:04:05.000Z');

/** SerpAPI at `/search` and pages under `/page/...` on one loopback server. */
async function web(): Promise<LocalServer> {
  server = await startServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/search?')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(fixture('serpapi-duckduckgo.json'));
    } else if (url === '/page/article') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(fixture('article.html'));
    } else if (url === '/page/broken') {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('oops');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  return server;
}

function options(local: LocalServer, more: WebBackendOptions): WebBackendOptions {
  return { serpApiKey: 'KEY', serpApiBaseUrl: local.origin, cacheDir: dir, allowPrivateAddresses: true, now: FIXED_CLOCK, ...more };
}

/** Every tool text a scripted session produces: searches, the three modes, an error page. */
async function session(api: WebSearchAPI, origin: string): Promise<string[]> {
  const texts: string[] = [];
  texts.push(await toolText(api, 'search_engine_query', { keywords: 'mountain gorilla population' }));
  texts.push(await toolText(api, 'search_engine_query', { keywords: 'gorilla', max_results: 1n, region: 'us-en' }));
  for (const mode of ['raw', 'markdown', 'truncate']) texts.push(await toolText(api, 'fetch_url_content', { url: `${origin}/page/article`, mode }));
  texts.push(await toolText(api, 'fetch_url_content', { url: `${origin}/page/broken` }));
  return texts;
}

const REQUEST: SearchRequest = { engine: 'duckduckgo', params: [['q', 'gorilla'], ['kl', 'wt-wt']] };

describe('record/replay cache', () => {
  it('replays a recorded session with identical tool texts and no network', async () => {
    const local = await web();
    const recorded = await session(webApi(createWebBackends(options(local, { cacheMode: 'record' }))), local.origin);
    expect(recorded[0]).toContain("'title': 'Mountain gorilla - Wikipedia'");
    expect(recorded[5]).toContain('500 Server Error: Internal Server Error');
    const liveRequests = local.requests.length;
    // One page record serves all three modes: 2 searches + 3 fetches of one URL + 1 error page = 4 files.
    expect(readdirSync(dir).sort()).toHaveLength(4);

    const replayed = await session(webApi(createWebBackends({ cacheMode: 'replay', cacheDir: dir })), local.origin);
    expect(replayed).toEqual(recorded);
    expect(local.requests.length).toBe(liveRequests);
  });

  it('names the key and the request on a replay miss, without touching the network', async () => {
    const local = await web();
    const api = webApi(createWebBackends({ cacheMode: 'replay', cacheDir: dir }));
    const search = toolText(api, 'search_engine_query', { keywords: 'never recorded' });
    await expect(search).rejects.toBeInstanceOf(WebCacheMissError);
    const canonical = '{"kind":"serp","provider":"serpapi","engine":"duckduckgo","params":[["q","never recorded"],["kl","wt-wt"]]}';
    const key = createHash('sha256').update(canonical).digest('hex');
    await expect(search).rejects.toThrow(`no record ${key} (${join(dir, `${key}.json`)}) for the request ${canonical}`);
    await expect(toolText(api, 'fetch_url_content', { url: `${local.origin}/page/article` })).rejects.toThrow(
      `for the request {"kind":"page","url":"${local.origin}/page/article"}`,
    );
    expect(local.requests).toHaveLength(0);
  });

  it('replays a hit and records a miss in auto mode', async () => {
    const local = await web();
    const api = webApi(createWebBackends(options(local, { cacheMode: 'auto' })));
    const first = await toolText(api, 'search_engine_query', { keywords: 'gorilla' });
    const second = await toolText(api, 'search_engine_query', { keywords: 'gorilla' });
    expect(second).toBe(first);
    expect(local.requests).toHaveLength(1);
    await toolText(api, 'search_engine_query', { keywords: 'other' });
    expect(local.requests).toHaveLength(2);
  });

  it('always goes live and overwrites in record mode', async () => {
    let body = '{"organic_results": [{"title": "old", "link": "https://o/", "snippet": "s"}]}';
    const search = new StubSearch(() => ({ kind: 'response', status: 200, body }));
    const cache = new SearchCache({ dir, mode: 'record', now: FIXED_CLOCK });
    const api = webApi({ search: new CachedSearchProvider(cache, search) });
    await api.search_engine_query('q', 10n, 'wt-wt');
    body = body.replace('old', 'new');
    await api.search_engine_query('q', 10n, 'wt-wt');
    expect(search.requests).toHaveLength(2);
    const replay = webApi({ search: new CachedSearchProvider(new SearchCache({ dir, mode: 'replay' }), undefined, 'stub') });
    expect(await toolText(replay, 'search_engine_query', { keywords: 'q' })).toBe("[{'title': 'new', 'href': 'https://o/', 'body': 's'}]");
  });

  it('stores one pretty JSON record per request under its sha256, written atomically', async () => {
    const cache = new SearchCache({ dir, mode: 'record', now: FIXED_CLOCK });
    const provider = new CachedSearchProvider(cache, new StubSearch(() => ({ kind: 'network_error', message: 'boom' })));
    expect(await provider.search(REQUEST)).toEqual({ kind: 'network_error', message: 'boom' });
    const { key, canonical } = cache.keyOf(searchCacheRequest('stub', REQUEST));
    expect(canonical).toBe('{"kind":"serp","provider":"stub","engine":"duckduckgo","params":[["q","gorilla"],["kl","wt-wt"]]}');
    expect(readdirSync(dir)).toEqual([`${key}.json`]);
    expect(JSON.parse(readFileSync(join(dir, `${key}.json`), 'utf8'))).toEqual({
      version: 1,
      key,
      request: JSON.parse(canonical),
      recorded_at: '2025-01-02T03:04:05.000Z',
      outcome: { kind: 'network_error', message: 'boom' },
    });
  });

  it('keys pages on the URL alone and stores the bytes gzip-compressed', async () => {
    const cache = new SearchCache({ dir, mode: 'record', now: FIXED_CLOCK });
    const body = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
    const fetcher = new CachedPageFetcher(cache, new StubFetcher(() => pageResponse(body, 'text/html', { truncatedAt: 4 })));
    await fetcher.fetch('https://example.org/p');
    const { key } = cache.keyOf(pageCacheRequest('https://example.org/p'));
    const record = JSON.parse(readFileSync(join(dir, `${key}.json`), 'utf8')) as { outcome: Record<string, unknown> };
    expect(record.outcome).toMatchObject({ kind: 'response', status: 200, content_type: 'text/html', truncated_at: 4 });
    const replayed = await new CachedPageFetcher(new SearchCache({ dir, mode: 'replay' }), undefined).fetch('https://example.org/p');
    expect(replayed).toEqual(pageResponse(new Uint8Array(body), 'text/html', { truncatedAt: 4 }));
  });

  it('does not record a search that failed for the service (429 budget spent)', async () => {
    const cache = new SearchCache({ dir, mode: 'auto' });
    const failing = new StubSearch(() => {
      throw new WebSearchServiceError('rate_limited', 'still rate-limited');
    });
    await expect(new CachedSearchProvider(cache, failing).search(REQUEST)).rejects.toBeInstanceOf(WebSearchServiceError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['not JSON', () => '{"version": 1, "key": ', /not valid JSON/],
    ['not a record', () => '{"hello": "world"}', /not a web cache record \(version: /],
    ['another version', (key: string, request: string) => JSON.stringify({ version: 99, key, request: JSON.parse(request), recorded_at: '', outcome: {} }), /record version 99, this version reads 1/],
    ['another key', (_key: string, request: string) => JSON.stringify({ version: 1, key: 'abc', request: JSON.parse(request), recorded_at: '', outcome: {} }), /holds the record of key abc/],
    ['another request', (key: string) => JSON.stringify({ version: 1, key, request: { kind: 'serp', q: 'x' }, recorded_at: '', outcome: {} }), /it records \{"kind":"serp","q":"x"\}/],
    ['a bad outcome', (key: string, request: string) => JSON.stringify({ version: 1, key, request: JSON.parse(request), recorded_at: '', outcome: { kind: 'response', status: 'x' } }), /unusable outcome/],
  ])('reports a corrupted record (%s) naming the file', async (_name, content, detail) => {
    const cache = new SearchCache({ dir, mode: 'replay' });
    const { key, canonical } = cache.keyOf(searchCacheRequest('serpapi', REQUEST));
    const file = join(dir, `${key}.json`);
    writeFileSync(file, content(key, canonical));
    const search = new CachedSearchProvider(cache, undefined, 'serpapi').search(REQUEST);
    await expect(search).rejects.toBeInstanceOf(WebCacheCorruptError);
    await expect(search).rejects.toThrow(`web cache file ${file} is unusable: `);
    await expect(search).rejects.toThrow(detail);
    // auto mode reports it too rather than silently re-recording over it
    const live = new StubSearch(() => ({ kind: 'network_error', message: 'x' }));
    await expect(new CachedSearchProvider(new SearchCache({ dir, mode: 'auto' }), live, 'serpapi').search(REQUEST)).rejects.toBeInstanceOf(
      WebCacheCorruptError,
    );
    expect(live.requests).toEqual([]);
  });

  it('reports a page record whose body is not gzip', async () => {
    const cache = new SearchCache({ dir, mode: 'replay' });
    const { key, canonical } = cache.keyOf(pageCacheRequest('https://e.org/'));
    const outcome = { kind: 'response', status: 200, reason: 'OK', final_url: 'https://e.org/', content_type: null, body_gzip_base64: 'bm90IGd6aXA=', truncated_at: null };
    writeFileSync(join(dir, `${key}.json`), JSON.stringify({ version: 1, key, request: JSON.parse(canonical), recorded_at: '', outcome }));
    await expect(new CachedPageFetcher(cache, undefined).fetch('https://e.org/')).rejects.toThrow(/unusable outcome \(incorrect header check\)/);
  });

  it('summarises the records and writes a manifest beside them', async () => {
    const cache = new SearchCache({ dir, mode: 'record', now: FIXED_CLOCK });
    const provider = new CachedSearchProvider(cache, new StubSearch(() => ({ kind: 'response', status: 200, body: '{}' })));
    await provider.search(REQUEST);
    await provider.search({ ...REQUEST, params: [['q', 'other']] });
    const summary = await writeWebCacheManifest(dir, 'bfcl-ts 0.1.0', FIXED_CLOCK());
    expect(summary.records).toBe(2);
    expect(await summarizeWebCache(dir)).toEqual(summary);
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))).toEqual({
      created: '2025-01-02T03:04:05.000Z',
      tool_version: 'bfcl-ts 0.1.0',
      record_count: 2,
      digest: summary.digest,
    });
    expect(await summarizeWebCache(join(dir, 'absent'))).toMatchObject({ records: 0 });
  });
});

/**
 * The executor's agentic instances and its async path: calls of a step run one after another in
 * decoded order, promised results and prepared calls are awaited, Python exceptions become tool
 * text as in the sync path, harness errors and aborts are thrown.
 */
import { describe, expect, it } from 'vitest';

import type { Embedder } from '../../src/agentic/memory/embedder.js';
import { HashEmbedder } from '../../src/agentic/memory/hash-embedder.js';
import { InMemorySnapshotStore } from '../../src/agentic/memory/in-memory-snapshot-store.js';
import { WebCacheMissError, WebSearchServiceError } from '../../src/agentic/web/web-errors.js';
import { type WebBackends, createWebSearchApiFactory } from '../../src/agentic/web/web-search-api.js';
import type { AgenticBackends } from '../../src/exec/agentic-instances.js';
import { EntryExecutor } from '../../src/exec/executor.js';
import { pyDict, type PyDict } from '../../src/py/value.js';
import { InternalError } from '../../src/util/errors.js';
import { EMPTY_CONTEXT } from '../helpers/sim.js';
import { StubFetcher, StubSearch, pageResponse } from '../agentic/web/web-test-helpers.js';

const RESULT_DIR = '/results/model';

function memoryExecutor(className: string, entryId: string, backends: AgenticBackends): EntryExecutor {
  const config: PyDict = pyDict({ model_result_dir: RESULT_DIR, scenario: 'customer', test_id: entryId, test_category: 'x' });
  return new EntryExecutor({
    modelName: 'tester',
    entryId,
    initialConfig: new Map([[className, config]]),
    involvedClasses: [className],
    longContext: false,
    context: EMPTY_CONTEXT,
    agentic: backends,
  });
}

function memoryBackends(embedder?: Embedder): { backends: AgenticBackends; store: InMemorySnapshotStore; warnings: string[] } {
  const store = new InMemorySnapshotStore();
  const warnings: string[] = [];
  return { store, warnings, backends: { memory: { snapshots: store, warn: (m) => warnings.push(m), ...(embedder !== undefined && { embedder }) } } };
}

function webExecutor(backends: Partial<WebBackends>, showSnippet = true): EntryExecutor {
  const search = backends.search ?? new StubSearch(() => ({ kind: 'response', status: 200, body: '{}' }));
  const fetcher = backends.fetcher ?? new StubFetcher(() => pageResponse('<p>x</p>'));
  return new EntryExecutor({
    modelName: 'tester',
    entryId: 'web_search_base_0',
    initialConfig: new Map([['WebSearchAPI', pyDict({ show_snippet: showSnippet })]]),
    involvedClasses: ['WebSearchAPI'],
    longContext: false,
    context: EMPTY_CONTEXT,
    agentic: { webSearch: createWebSearchApiFactory({ search, fetcher }) },
  });
}

const serp = (results: object[]): string => JSON.stringify({ organic_results: results });

describe('EntryExecutor.executeAsync', () => {
  it('runs memory calls in order with state across calls, and errors as the sync path shows them', async () => {
    const { backends } = memoryBackends();
    const ex = memoryExecutor('MemoryAPI_rec_sum', 'memory_rec_sum_prereq_0-customer-0', backends);
    expect(ex.needsAsync()).toBe(false);
    expect(
      await ex.executeAsync([
        "memory_append(text='Likes tea. ')",
        'memory_append(text=42)',
        'memory_retrieve()',
        "memory_replace(old_text='tea', new_text='green tea')",
        'memory_retrieve(1)',
        'kill()',
        'memory_nope()',
        'memory_append(',
      ]),
    ).toEqual([
      '{"status": "Memory appended."}',
      '{"status": "Memory appended."}',
      '{"memory_content": "Likes tea. 42"}',
      '{"status": "Memory updated."}',
      'Error during execution: MemoryAPI_rec_sum.memory_retrieve() takes 1 positional argument but 2 were given',
      'Error during execution: Function call kill is not allowed.',
      "Error during execution: name 'memory_nope' is not defined",
      expect.stringMatching(/^Error during execution: /),
    ]);
    // The sync path gives the same texts for instances without async work.
    const sync = memoryExecutor('MemoryAPI_rec_sum', 'memory_rec_sum_prereq_0-customer-0', memoryBackends().backends);
    expect(sync.execute(["memory_append(text='a')", 'memory_retrieve(1)'])).toEqual([
      '{"status": "Memory appended."}',
      'Error during execution: MemoryAPI_rec_sum.memory_retrieve() takes 1 positional argument but 2 were given',
    ]);
  });

  it('evaluates nested calls first, awaiting each', async () => {
    const { backends } = memoryBackends();
    const ex = memoryExecutor('MemoryAPI_kv', 'memory_kv_prereq_0-customer-0', backends);
    expect(await ex.executeAsync(["core_memory_add(key='a', value=core_memory_list_keys())", "core_memory_retrieve(key='a')"])).toEqual([
      '{"status": "Key-value pair added."}',
      '{"value": "{\'keys\': []}"}',
    ]);
  });

  it('awaits WebSearchAPI results and formats them like any other method (a list through str())', async () => {
    const search = new StubSearch(() => ({ kind: 'response', status: 200, body: serp([{ title: "It's", link: 'https://x.org/', snippet: 'café' }]) }));
    const ex = webExecutor({ search });
    expect(ex.needsAsync()).toBe(true);
    expect(await ex.executeAsync(["search_engine_query(keywords='x', max_results=1)", "fetch_url_content(url='ftp://x')"])).toEqual([
      `[{'title': "It's", 'href': 'https://x.org/', 'body': 'café'}]`,
      'Error during execution: Invalid URL: ftp://x',
    ]);
    expect(() => ex.execute(["search_engine_query(keywords='x')"])).toThrow(InternalError);
  });

  it('runs the calls of a step one after another, never two at once', async () => {
    const events: string[] = [];
    let running = 0;
    const fetcher = new StubFetcher(async (url) => {
      running++;
      events.push(`start ${url} (${running} running)`);
      await new Promise((resolve) => setTimeout(resolve, url.endsWith('slow') ? 30 : 1));
      running--;
      events.push(`end ${url}`);
      return pageResponse(url);
    });
    const ex = webExecutor({ fetcher });
    const results = await ex.executeAsync(["fetch_url_content(url='https://a/slow')", "fetch_url_content(url='https://b/fast')"]);
    expect(results).toEqual(['{"content": "https://a/slow"}', '{"content": "https://b/fast"}']);
    expect(events).toEqual(['start https://a/slow (1 running)', 'end https://a/slow', 'start https://b/fast (1 running)', 'end https://b/fast']);
  });

  it('throws harness errors and aborts instead of showing them to the model', async () => {
    const miss = new WebCacheMissError('k', '{"kind": "serp"}', '/cache/k.json');
    await expect(webExecutor({ search: new StubSearch(() => Promise.reject(miss)) }).executeAsync(["search_engine_query(keywords='x')"])).rejects.toBe(miss);
    const service = new WebSearchServiceError('invalid_api_key', 'Invalid API key.');
    await expect(webExecutor({ search: new StubSearch(() => Promise.reject(service)) }).executeAsync(["search_engine_query(keywords='x')"])).rejects.toBe(service);
    const abort = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    await expect(webExecutor({ fetcher: new StubFetcher(() => Promise.reject(abort)) }).executeAsync(["fetch_url_content(url='https://x/')"])).rejects.toBe(abort);
    // Any other JS error is tool text, as in the sync path.
    const plain = webExecutor({ fetcher: new StubFetcher(() => Promise.reject(new TypeError('boom'))) });
    expect(await plain.executeAsync(["fetch_url_content(url='https://x/')"])).toEqual(['Error during execution: boom']);
  });

  it('prepares vector searches with an asynchronous embedder before the call runs', async () => {
    const hash = new HashEmbedder();
    const batches: string[][] = [];
    // No embedSync: a search fails unless its texts were embedded ahead of the call.
    const asyncOnly: Embedder = { embed: async (texts) => (batches.push([...texts]), hash.embedSync(texts)) };
    const { backends } = memoryBackends(asyncOnly);
    const ex = memoryExecutor('MemoryAPI_vector', 'memory_vector_prereq_0-customer-0', backends);
    expect(ex.needsAsync()).toBe(true);
    const results = await ex.executeAsync([
      "archival_memory_add(text='likes green tea')",
      "archival_memory_add(text='lives in Freiburg')",
      "archival_memory_retrieve(query='tea', top_k=1)",
      'archival_memory_retrieve(query=3)',
    ]);
    expect(results.slice(0, 2)).toEqual(['{"id": 0}', '{"id": 1}']);
    expect(results[2]).toMatch(/^\{"result": \[\{"id": 0, "similarity_score": [0-9.e-]+, "text": "likes green tea"\}\]\}$/);
    expect(results[3]).toBe("Error during execution: 'int' object is not subscriptable");
    expect(batches).toEqual([['likes green tea', 'lives in Freiburg', 'tea']]);
  });

  it('needs the backends of the classes it creates', () => {
    const bare = (className: string) =>
      new EntryExecutor({ modelName: 'm', entryId: 'x_0', initialConfig: new Map(), involvedClasses: [className], longContext: false, context: EMPTY_CONTEXT });
    expect(() => bare('WebSearchAPI').getInstances()).toThrow(/WebSearchAPI needs web backends/);
    expect(() => bare('MemoryAPI_kv').getInstances()).toThrow(/MemoryAPI_kv needs memory backends/);
    expect(bare('MathAPI').execute(['add(a=1, b=2)'])).toEqual(['{"result": 3}']);
  });
});

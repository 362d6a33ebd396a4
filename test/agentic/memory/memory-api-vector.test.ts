import { describe, expect, it } from 'vitest';

import { EmbeddingsUnavailableError, type Embedder } from '../../../src/agentic/memory/embedder.js';
import { HashEmbedder } from '../../../src/agentic/memory/hash-embedder.js';
import { MemoryAPI_vector } from '../../../src/agentic/memory/memory-api-vector.js';
import { MemorySnapshotError } from '../../../src/agentic/memory/memory-snapshot-error.js';
import type { PyValue } from '../../../src/py/value.js';
import { InternalError } from '../../../src/util/errors.js';
import { EMPTY_CONTEXT, callMethod, shownOrRaised } from '../../helpers/sim.js';
import { RESULT_DIR, loadMemory, makeKit, type Kit } from './memory-kit.js';

const FOLDER = `${RESULT_DIR}/agentic/memory/vector/memory_snapshot`;
const FIRST_PREREQ = 'memory_vector_prereq_15-finance-0';

const vector = (kit: Kit = makeKit(new HashEmbedder()), testId = FIRST_PREREQ): MemoryAPI_vector =>
  loadMemory((ctx, deps) => new MemoryAPI_vector(ctx, deps), kit, testId, 'finance');

const call = (api: MemoryAPI_vector, method: string, kwargs: Record<string, PyValue> = {}): string =>
  shownOrRaised(() => callMethod(api, method, kwargs));

/** A vector memory whose core (or archival) memory holds `texts` with ids 0.. in order. */
function withTexts(texts: readonly string[], prefix: 'core' | 'archival' = 'core', kit?: Kit): MemoryAPI_vector {
  const api = vector(kit);
  for (const text of texts) call(api, `${prefix}_memory_add`, { text });
  return api;
}

/** The ids a retrieval returns, in order. */
function retrievedIds(api: MemoryAPI_vector, query: PyValue, topK: PyValue = 5n, prefix: 'core' | 'archival' = 'core'): PyValue[] {
  const result = callMethod(api, `${prefix}_memory_retrieve`, { query, top_k: topK }) as Map<string, PyValue>;
  return (result.get('result') as Map<string, PyValue>[]).map((entry) => entry.get('id')!);
}

/** One-token texts: each one's hash-embedder vector is a single ±1 component, so scores are exactly 1.0, 0.0 or -1.0. */
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta'];

describe('MemoryAPI_vector: signatures, state, construction', () => {
  it('exposes the 12 documented methods with top_k defaulting to 5', () => {
    const signatures = vector()._signatures;
    expect(Object.keys(signatures)).toHaveLength(12);
    expect(signatures.archival_memory_retrieve![1]).toEqual({ name: 'top_k', default: 5n });
  });

  it('lists public state in the reference vars() order', () => {
    expect(vector()._publicState().map(([name]) => name)).toEqual([
      'core_memory',
      'archival_memory',
      'snapshot_folder',
      'test_id',
      'scenario',
      'latest_snapshot_file',
    ]);
  });

  it('needs an embedder, and says how to get one', () => {
    expect(() => new MemoryAPI_vector(EMPTY_CONTEXT, makeKit().deps)).toThrow(EmbeddingsUnavailableError);
    expect(() => new MemoryAPI_vector(EMPTY_CONTEXT, makeKit().deps)).toThrow(/BFCL_EMBEDDINGS_BASE_URL/);
  });
});

describe('MemoryAPI_vector: add, remove, update, clear, retrieve_all', () => {
  it.each([
    ['core_memory_add', { text: 'first' }, '{"id": 0}'],
    ['archival_memory_add', { text: 'first' }, '{"id": 0}'],
    ['core_memory_add', { text: 'x'.repeat(300) }, '{"id": 0}'],
    ['core_memory_add', { text: 'x'.repeat(301) }, '{"error": "Entry length exceeds maximum length of 300 characters."}'],
    ['core_memory_add', { text: '😀'.repeat(300) }, '{"id": 0}'],
    ['archival_memory_add', { text: 'x'.repeat(2000) }, '{"id": 0}'],
    ['archival_memory_add', { text: 'x'.repeat(2001) }, '{"error": "Entry length exceeds maximum length of 2000 characters."}'],
    ['core_memory_add', { text: 5n }, "raises TypeError: object of type 'int' has no len()"],
    ['core_memory_add', { text: null }, "raises TypeError: object of type 'NoneType' has no len()"],
    ['core_memory_add', { text: ['a', 'b'] }, 'raises AssertionError: not same nb of vectors as ids'],
    ['core_memory_add', { text: [] }, 'raises ValueError: not enough values to unpack (expected 2, got 1)'],
    ['core_memory_add', { text: ['only'] }, '{"id": 0}'],
  ])('%s(%o) -> %s', (method, kwargs, expected) => {
    expect(call(vector(), method, kwargs)).toBe(expected);
  });

  it('numbers entries from 0, and a text that fails to embed burns its id', () => {
    const api = vector();
    expect(call(api, 'core_memory_add', { text: 'a' })).toBe('{"id": 0}');
    call(api, 'core_memory_add', { text: ['x', 'y'] });
    expect(call(api, 'core_memory_add', { text: 'b' })).toBe('{"id": 2}');
    expect(call(api, 'core_memory_retrieve_all')).toBe('{"result": [{"id": 0, "text": "a"}, {"id": 2, "text": "b"}]}');
  });

  it('stores a one-item list as a list', () => {
    const api = vector();
    call(api, 'core_memory_add', { text: ['only'] });
    expect(call(api, 'core_memory_retrieve_all')).toBe('{"result": [{"id": 0, "text": ["only"]}]}');
    expect(call(api, 'core_memory_retrieve', { query: 'only' })).toBe('{"result": [{"id": 0, "similarity_score": 1.0, "text": ["only"]}]}');
  });

  it.each([
    ['core', 7, '{"error": "Memory size exceeds maximum size of 7 entries."}'],
    ['archival', 50, '{"error": "Memory size exceeds maximum size of 50 entries."}'],
  ] as const)('refuses the entry after %s memory holds %i (length is checked first)', (prefix, max, message) => {
    const api = withTexts(Array.from({ length: max }, (_, i) => `text ${i}`), prefix);
    expect(call(api, `${prefix}_memory_add`, { text: 'one more' })).toBe(message);
    expect(call(api, `${prefix}_memory_add`, { text: 'x'.repeat(5000) })).toMatch(/Entry length exceeds/);
  });

  it.each([
    [{ vec_id: 1n }, '{"status": "ID 1 removed from store."}', [0n, 2n]],
    [{ vec_id: 1.0 }, '{"status": "ID 1.0 removed from store."}', [0n, 2n]],
    [{ vec_id: true }, '{"status": "ID True removed from store."}', [0n, 2n]],
    [{ vec_id: '1' }, '{"error": "ID 1 not present in store."}', [0n, 1n, 2n]],
    [{ vec_id: 7n }, '{"error": "ID 7 not present in store."}', [0n, 1n, 2n]],
    [{ vec_id: [1n] }, "raises TypeError: unhashable type: 'list'", [0n, 1n, 2n]],
  ])('core_memory_remove(%o) -> %s', (kwargs, expected, idsLeft) => {
    const api = withTexts(['alpha', 'beta', 'gamma']);
    expect(call(api, 'core_memory_remove', kwargs)).toBe(expected);
    expect(retrievedIds(api, 'alpha', 10n)).toHaveLength(idsLeft.length);
    const all = callMethod(api, 'core_memory_retrieve_all') as Map<string, PyValue>;
    expect((all.get('result') as Map<string, PyValue>[]).map((entry) => entry.get('id'))).toEqual(idsLeft);
  });

  it.each([
    [{ vec_id: 1n, new_text: 'delta' }, '{"status": "ID 1 updated."}'],
    [{ vec_id: 1.0, new_text: 'delta' }, '{"status": "ID 1.0 updated."}'],
    [{ vec_id: 9n, new_text: 'delta' }, '{"error": "ID 9 not present in store."}'],
    [{ vec_id: 9n, new_text: 5n }, '{"error": "ID 9 not present in store."}'],
    [{ vec_id: 1n, new_text: 'x'.repeat(301) }, '{"error": "Entry length exceeds maximum length of 300 characters."}'],
    [{ vec_id: 1n, new_text: 5n }, "raises TypeError: object of type 'int' has no len()"],
  ])('core_memory_update(%o) -> %s', (kwargs, expected) => {
    expect(call(withTexts(['alpha', 'beta', 'gamma']), 'core_memory_update', kwargs)).toBe(expected);
  });

  it('updates the text in place in the store but moves its vector to the end of the index', () => {
    const api = withTexts(['alpha', 'beta', 'gamma']);
    call(api, 'core_memory_update', { vec_id: 0n, new_text: 'delta' });
    expect(call(api, 'core_memory_retrieve_all')).toBe(
      '{"result": [{"id": 0, "text": "delta"}, {"id": 1, "text": "beta"}, {"id": 2, "text": "gamma"}]}',
    );
    // All score 0.0 against an unrelated query: ties list later index positions first (positions 1, 2, 0 hold ids 1, 2, 0).
    expect(retrievedIds(api, 'omega', 3n)).toEqual([0n, 2n, 1n]);
  });

  it('keeps a text that fails to embed on update in the store, out of the index', () => {
    const api = withTexts(['alpha', 'beta']);
    expect(call(api, 'core_memory_update', { vec_id: 0n, new_text: ['x', 'y'] })).toBe('raises AssertionError: not same nb of vectors as ids');
    expect(call(api, 'core_memory_retrieve_all')).toBe('{"result": [{"id": 0, "text": "alpha"}, {"id": 1, "text": "beta"}]}');
    // k = min(5, 2) = 2, but the index holds one vector: the unfilled slot is skipped.
    expect(retrievedIds(api, 'alpha')).toEqual([1n]);
  });

  it('clears one memory, restarting its ids', () => {
    const api = withTexts(['alpha', 'beta']);
    call(api, 'archival_memory_add', { text: 'kept' });
    expect(call(api, 'core_memory_clear')).toBe('{"status": "Memory cleared."}');
    expect(call(api, 'core_memory_retrieve_all')).toBe('{"result": []}');
    expect(call(api, 'core_memory_add', { text: 'again' })).toBe('{"id": 0}');
    expect(call(api, 'archival_memory_retrieve_all')).toBe('{"result": [{"id": 0, "text": "kept"}]}');
    expect(call(api, 'archival_memory_clear')).toBe('{"status": "Memory cleared."}');
  });
});

describe('MemoryAPI_vector: retrieve', () => {
  it('returns {"result": []} on an empty memory, whatever the arguments', () => {
    expect(call(vector(), 'core_memory_retrieve', { query: 'x' })).toBe('{"result": []}');
    expect(call(vector(), 'archival_memory_retrieve', { query: 5n, top_k: null })).toBe('{"result": []}');
  });

  it('returns id, float32 similarity as a Python float repr, and text, best first', () => {
    const api = withTexts(['alpha beta', 'alpha', 'gamma'], 'archival');
    expect(call(api, 'archival_memory_retrieve', { query: 'alpha', top_k: 2n })).toBe(
      '{"result": [{"id": 1, "similarity_score": 1.0, "text": "alpha"}, {"id": 0, "similarity_score": 0.7071067690849304, "text": "alpha beta"}]}',
    );
  });

  it('orders exact ties as FAISS: k = 1 the first, k > 1 later positions first', () => {
    const api = withTexts(WORDS.slice(0, 4));
    expect(retrievedIds(api, 'omega', 1n)).toEqual([0n]);
    expect(retrievedIds(api, 'omega', 2n)).toEqual([1n, 0n]);
    expect(retrievedIds(api, 'omega', 4n)).toEqual([3n, 2n, 1n, 0n]);
    // top_k above the store size is cut to it.
    expect(retrievedIds(api, 'omega', 50n)).toEqual([3n, 2n, 1n, 0n]);
    // One better match among ties: it comes first, then the ties that got slots, later positions first.
    expect(retrievedIds(api, 'gamma', 3n)).toEqual([2n, 1n, 0n]);
  });

  it('scores identical texts exactly alike', () => {
    const api = withTexts(['same words here', 'other', 'same words here']);
    const result = callMethod(api, 'core_memory_retrieve', { query: 'same words here', top_k: 2n }) as Map<string, PyValue>;
    const entries = result.get('result') as Map<string, PyValue>[];
    expect(entries.map((entry) => entry.get('id'))).toEqual([2n, 0n]);
    expect(entries[0]!.get('similarity_score')).toBe(entries[1]!.get('similarity_score'));
  });

  it.each([
    [{ query: 'alpha', top_k: 0n }, 'raises AssertionError: '],
    [{ query: 'alpha', top_k: -1n }, 'raises AssertionError: '],
    [{ query: 'alpha', top_k: false }, 'raises AssertionError: '],
    [{ query: 'alpha', top_k: null }, "raises TypeError: '<' not supported between instances of 'int' and 'NoneType'"],
    [{ query: 'alpha', top_k: '2' }, "raises TypeError: '<' not supported between instances of 'int' and 'str'"],
    [{ query: 'alpha', top_k: 2.0 }, "raises TypeError: 'float' object cannot be interpreted as an integer"],
    [{ query: 'alpha', top_k: 3.0 }, "raises TypeError: 'float' object cannot be interpreted as an integer"],
    [{ query: 5n, top_k: null }, "raises TypeError: 'int' object is not subscriptable"],
    [{ query: [1n] }, "raises TypeError: 'int' object is not subscriptable"],
    [{ query: ['alpha', 1n] }, 'raises TypeError: TextEncodeInput must be Union[TextInputSequence, Tuple[InputSequence, InputSequence]]'],
    [{ query: [], top_k: null }, "raises TypeError: '<' not supported between instances of 'int' and 'NoneType'"],
    [{ query: [] }, 'raises ValueError: not enough values to unpack (expected 2, got 1)'],
  ])('core_memory_retrieve(%o) on 3 entries -> %s', (kwargs, expected) => {
    expect(call(withTexts(['alpha', 'beta', 'gamma']), 'core_memory_retrieve', kwargs)).toBe(expected);
  });

  it.each([
    [{ query: 'alpha', top_k: 5.0 }, [0n, 2n, 1n]],
    [{ query: 'alpha', top_k: true }, [0n]],
    // A list is a batch of queries: the first one's results are returned.
    [{ query: ['alpha', 'beta'], top_k: 1n }, [0n]],
  ])('core_memory_retrieve(%o) returns ids %o', (kwargs, ids) => {
    expect(retrievedIds(withTexts(['alpha', 'beta', 'gamma']), kwargs.query, kwargs.top_k)).toEqual(ids);
  });
});

describe('MemoryAPI_vector: asynchronous embedders', () => {
  /** An embedder with no synchronous path, recording what it is asked. */
  function recordingEmbedder(): Embedder & { calls: string[][] } {
    const inner = new HashEmbedder();
    const calls: string[][] = [];
    return {
      calls,
      embed: (texts) => {
        calls.push([...texts]);
        return inner.embed(texts);
      },
    };
  }

  it('needs nothing embedded to add, update or remove; a retrieval embeds the pending texts and the query once', async () => {
    const embedder = recordingEmbedder();
    const api = vector(makeKit(embedder));
    for (const [method, args] of [
      ['core_memory_add', ['alpha']],
      ['core_memory_add', ['beta']],
      ['core_memory_update', [1n, 'gamma']],
    ] as const) {
      await api._prepareCall(method, args);
      callMethod(api, method, method === 'core_memory_add' ? { text: args[0] } : { vec_id: args[0], new_text: args[1]! });
    }
    expect(embedder.calls).toEqual([]);
    await api._prepareCall('core_memory_retrieve', ['gamma', 5n]);
    expect(embedder.calls).toEqual([['alpha', 'gamma']]);
    expect(call(api, 'core_memory_retrieve', { query: 'gamma' })).toBe(
      '{"result": [{"id": 1, "similarity_score": 1.0, "text": "gamma"}, {"id": 0, "similarity_score": 0.0, "text": "alpha"}]}',
    );
    await api._prepareCall('core_memory_retrieve', ['alpha', 5n]);
    expect(embedder.calls).toEqual([['alpha', 'gamma']]);
    await api._prepareCall('archival_memory_retrieve', ['alpha', 5n]);
    expect(embedder.calls).toHaveLength(1);
  });

  it('fails loudly (a harness bug) when a retrieval was not prepared', () => {
    const api = vector(makeKit(recordingEmbedder()));
    callMethod(api, 'core_memory_add', { text: 'alpha' });
    expect(() => callMethod(api, 'core_memory_retrieve', { query: 'alpha' })).toThrow(InternalError);
    expect(() => callMethod(api, 'core_memory_retrieve', { query: 'alpha' })).toThrow(/await _prepareCall/);
  });

  it('leaves bad arguments to the call itself', async () => {
    const embedder = recordingEmbedder();
    const api = vector(makeKit(embedder));
    callMethod(api, 'core_memory_add', { text: 'alpha' });
    await api._prepareCall('core_memory_retrieve', [5n, 5n]);
    await api._prepareCall('core_memory_retrieve', []);
    expect(embedder.calls).toEqual([]);
    expect(call(api, 'core_memory_retrieve', { query: 5n })).toBe("raises TypeError: 'int' object is not subscriptable");
  });

  it('passes an embedder failure on from _prepareCall', async () => {
    const failing: Embedder = { embed: () => Promise.reject(new Error('server down')) };
    const api = vector(makeKit(failing));
    callMethod(api, 'core_memory_add', { text: 'alpha' });
    await expect(api._prepareCall('core_memory_retrieve', ['alpha', 5n])).rejects.toThrow('server down');
  });
});

describe('MemoryAPI_vector: prompt content and snapshots', () => {
  it('prints {} for an empty core memory (the reference bug), else pyJson4 of {id: text}', () => {
    expect(vector()._dumpCoreMemoryToContext()).toBe('{}');
    const api = withTexts(['Zoë', 'two']);
    call(api, 'archival_memory_add', { text: 'hidden' });
    expect(api._dumpCoreMemoryToContext()).toBe('{\n    "0": "Zo\\u00eb",\n    "1": "two"\n}');
  });

  const EXPECTED = [
    '{',
    '    "core_memory": {',
    '        "next_id": 3,',
    '        "store": {',
    '            "0": "Zo\\u00eb \\ud83d\\ude00",',
    '            "2": "DEL\\u007f \\"q\\""',
    '        }',
    '    },',
    '    "archival_memory": {',
    '        "next_id": 0,',
    '        "store": {}',
    '    }',
    '}',
  ].join('\n');

  it('flushes next_id and the store with string ids, as pyJson4, to both files', () => {
    const kit = makeKit(new HashEmbedder());
    const api = vector(kit, 'memory_vector_prereq_16-finance-1');
    kit.warnings.length = 0;
    for (const text of ['Zoë 😀', 'gone', 'DEL\x7f "q"']) call(api, 'core_memory_add', { text });
    call(api, 'core_memory_remove', { vec_id: 1n });
    api._flushSnapshot();
    expect(kit.store.files.get(`${FOLDER}/prereq_checkpoints/memory_vector_prereq_16-finance-1.json`)).toBe(EXPECTED);
    expect(kit.store.files.get(`${FOLDER}/finance_final.json`)).toBe(EXPECTED);
  });

  it('reloads: store in file order, next_id kept, index in ascending id order', () => {
    const kit = makeKit(new HashEmbedder());
    kit.store.files.set(
      `${FOLDER}/finance_final.json`,
      '{"core_memory": {"next_id": 9, "store": {"5": "beta", "2": "alpha", "7": "gamma"}}, "archival_memory": {"next_id": 0, "store": {}}}',
    );
    const api = vector(kit, 'memory_vector_60-finance-5');
    expect(call(api, 'core_memory_retrieve_all')).toBe(
      '{"result": [{"id": 5, "text": "beta"}, {"id": 2, "text": "alpha"}, {"id": 7, "text": "gamma"}]}',
    );
    // Ties: later index positions first, and the index is ordered 2, 5, 7.
    expect(retrievedIds(api, 'omega', 3n)).toEqual([7n, 5n, 2n]);
    expect(call(api, 'core_memory_add', { text: 'delta' })).toBe('{"id": 9}');
    expect(kit.warnings).toEqual([]);
  });

  it('round-trips a flushed memory', () => {
    const kit = makeKit(new HashEmbedder());
    const first = vector(kit);
    for (const text of ['Zoë 😀', 'gone', 'DEL\x7f "q"']) call(first, 'core_memory_add', { text });
    call(first, 'core_memory_remove', { vec_id: 1n });
    first._flushSnapshot();
    const next = vector(kit, 'memory_vector_prereq_16-finance-1');
    next._flushSnapshot();
    expect(kit.store.files.get(`${FOLDER}/prereq_checkpoints/memory_vector_prereq_16-finance-1.json`)).toBe(EXPECTED);
  });

  it('warns and starts empty when a question finds no snapshot', () => {
    const kit = makeKit(new HashEmbedder());
    vector(kit, 'memory_vector_60-finance-5');
    expect(kit.warnings).toHaveLength(1);
    expect(kit.warnings[0]).toMatch(/^(⚠️){100}\nWarning: Not first memory entry, but no snapshot file found in this path: .*finance_final\.json\. The memory will start empty for memory_vector_60-finance-5\.\n(⚠️){100}$/u);
  });

  it.each([
    ['{"core_memory": {"store": {}}, "archival_memory": {}}', "KeyError: 'next_id'"],
    ['{"core_memory": {"next_id": 0, "store": []}, "archival_memory": {}}', "AttributeError: 'list' object has no attribute 'items'"],
    ['{"core_memory": {"next_id": 1, "store": {"x": "a"}}, "archival_memory": {}}', "ValueError: invalid literal for int() with base 10: 'x'"],
    ['{"core_memory": {"next_id": 1, "store": {"0": ["a"]}}, "archival_memory": {}}', 'TypeError: the text of id 0 is a list, which cannot be re-embedded'],
    ['{"core_memory": {"next_id": 0, "store": {}}}', "KeyError: 'archival_memory'"],
    ['{"core_memory": ', 'JSONDecodeError: Expecting value: line 1 column 17 (char 16)'],
  ])('raises an error naming the file for %s', (text, detail) => {
    const kit = makeKit(new HashEmbedder());
    kit.store.files.set(`${FOLDER}/finance_final.json`, text);
    expect(() => vector(kit, 'memory_vector_60-finance-5')).toThrow(new MemorySnapshotError(`${FOLDER}/finance_final.json`, detail));
  });
});

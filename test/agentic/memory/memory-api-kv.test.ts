import { describe, expect, it } from 'vitest';

import { MemoryAPI_kv } from '../../../src/agentic/memory/memory-api-kv.js';
import { MemorySnapshotError } from '../../../src/agentic/memory/memory-snapshot-error.js';
import { PyTuple, pyDict, type PyValue } from '../../../src/py/value.js';
import { callMethod, show, shownOrRaised } from '../../helpers/sim.js';
import { RESULT_DIR, loadMemory, makeKit, type Kit } from './memory-kit.js';

const FOLDER = `${RESULT_DIR}/agentic/memory/kv/memory_snapshot`;
const FIRST_PREREQ = 'memory_kv_prereq_0-customer-0';

const kv = (kit: Kit = makeKit(), testId = FIRST_PREREQ, scenario = 'customer'): MemoryAPI_kv =>
  loadMemory((ctx, deps) => new MemoryAPI_kv(ctx, deps), kit, testId, scenario);

/** Call as the executor does (keyword arguments bound to the signature) and show the result as the model sees it. */
const call = (api: MemoryAPI_kv, method: string, kwargs: Record<string, PyValue> = {}): string =>
  shownOrRaised(() => callMethod(api, method, kwargs));

/** A kv memory with `n` core or archival entries `key_<i>`. */
function filled(prefix: 'core' | 'archival', n: number): MemoryAPI_kv {
  const api = kv();
  for (let i = 0; i < n; i++) call(api, `${prefix}_memory_add`, { key: `key_${i}`, value: 'v' });
  return api;
}

describe('MemoryAPI_kv: signatures and state', () => {
  it('exposes the 15 documented methods with their Python defaults', () => {
    const api = kv();
    expect(Object.keys(api._signatures)).toHaveLength(15);
    expect(api._signatures.core_memory_key_search).toEqual([
      { name: 'query', default: expect.any(Symbol) },
      { name: 'k', default: 5n },
    ]);
  });

  it('lists public state in the reference vars() order, paths as str', () => {
    const api = kv(makeKit(), 'memory_kv_prereq_3-customer-3');
    expect(api._publicState()).toEqual([
      ['core_memory', new Map()],
      ['archival_memory', new Map()],
      ['snapshot_folder', `${FOLDER}/prereq_checkpoints`],
      ['test_id', 'memory_kv_prereq_3-customer-3'],
      ['scenario', 'customer'],
      ['latest_snapshot_file', `${FOLDER}/customer_final.json`],
    ]);
  });

  it('keeps a question snapshot folder at the memory_snapshot level', () => {
    const kit = makeKit();
    expect(kv(kit, 'memory_kv_12-customer-12').snapshot_folder).toBe(FOLDER);
  });
});

describe('MemoryAPI_kv: add', () => {
  it.each([
    ['core_memory_add', { key: 'user_name', value: 'Ana' }, '{"status": "Key-value pair added."}'],
    ['archival_memory_add', { key: 'user_name', value: 'Ana' }, '{"status": "Key added."}'],
    ['core_memory_add', { key: 'User Name', value: 'x' }, '{"error": "Key must be in snake_case format and cannot contain spaces."}'],
    ['core_memory_add', { key: 'name_', value: 'x' }, '{"error": "Key must be in snake_case format and cannot contain spaces."}'],
    ['core_memory_add', { key: '1abc', value: 'x' }, '{"error": "Key must be in snake_case format and cannot contain spaces."}'],
    ['core_memory_add', { key: 'name\n', value: 'x' }, '{"status": "Key-value pair added."}'],
    ['core_memory_add', { key: 'name\n\n', value: 'x' }, '{"error": "Key must be in snake_case format and cannot contain spaces."}'],
    ['core_memory_add', { key: 'a_1_b2', value: 'x' }, '{"status": "Key-value pair added."}'],
    ['core_memory_add', { key: 'k', value: 'x'.repeat(300) }, '{"status": "Key-value pair added."}'],
    [
      'core_memory_add',
      { key: 'k', value: 'x'.repeat(301) },
      '{"error": "Entry is too long. Please shorten the entry to less than 300 characters."}',
    ],
    ['archival_memory_add', { key: 'k', value: 'x'.repeat(2000) }, '{"status": "Key added."}'],
    [
      'archival_memory_add',
      { key: 'k', value: 'x'.repeat(2001) },
      '{"error": "Entry is too long. Please shorten the entry to less than 2000 characters."}',
    ],
    // 300 code points in 600 UTF-16 units: the limit counts code points.
    ['core_memory_add', { key: 'k', value: '😀'.repeat(300) }, '{"status": "Key-value pair added."}'],
    // The length is checked before the key format.
    [
      'core_memory_add',
      { key: 'Bad Key', value: 'x'.repeat(301) },
      '{"error": "Entry is too long. Please shorten the entry to less than 300 characters."}',
    ],
  ])('%s(%o) -> %s', (method, kwargs, expected) => {
    expect(call(kv(), method, kwargs)).toBe(expected);
  });

  it.each([
    [5n, '5'],
    [true, 'True'],
    [null, 'None'],
    [[1n, 'a'], "[1, 'a']"],
    [2.5, '2.5'],
  ])('stores str() of a value %o', (value, stored) => {
    const api = kv();
    call(api, 'core_memory_add', { key: 'k', value });
    expect(api.core_memory.get('k')).toBe(stored);
  });

  it('takes str() of the key too (an int key fails the format check)', () => {
    expect(call(kv(), 'core_memory_add', { key: 12n, value: 'x' })).toBe(
      '{"error": "Key must be in snake_case format and cannot contain spaces."}',
    );
  });

  it('refuses a duplicate key', () => {
    const api = kv();
    call(api, 'core_memory_add', { key: 'k', value: 'a' });
    expect(call(api, 'core_memory_add', { key: 'k', value: 'b' })).toBe('{"error": "Key name must be unique."}');
    expect(api.core_memory.get('k')).toBe('a');
  });

  it.each([
    ['core', 7, '{"error": "Core memory is full. Please clear some entries."}'],
    ['archival', 50, '{"error": "Long term memory is full. Please clear some entries."}'],
  ] as const)('refuses the entry after %s memory holds %i, before any other check', (prefix, max, message) => {
    const api = filled(prefix, max - 1);
    expect(call(api, `${prefix}_memory_add`, { key: 'last_one', value: 'v' })).toMatch(/added/);
    expect(call(api, `${prefix}_memory_add`, { key: 'Bad Key', value: 'x'.repeat(5000) })).toBe(message);
  });
});

describe('MemoryAPI_kv: remove, replace, retrieve, clear, list', () => {
  const withEntry = (): MemoryAPI_kv => {
    const api = kv();
    call(api, 'core_memory_add', { key: 'a_key', value: 'one' });
    call(api, 'core_memory_add', { key: 'b_key', value: 'two' });
    call(api, 'archival_memory_add', { key: 'arch', value: 'three' });
    return api;
  };

  it.each([
    ['core_memory_remove', { key: 'a_key' }, '{"status": "Key removed."}'],
    ['core_memory_remove', { key: 'arch' }, '{"error": "Key not found."}'],
    ['archival_memory_remove', { key: 'arch' }, '{"status": "Key removed."}'],
    ['archival_memory_remove', { key: 5n }, '{"error": "Key not found."}'],
    ['core_memory_remove', { key: [1n] }, "raises TypeError: unhashable type: 'list'"],
    ['core_memory_replace', { key: 'a_key', value: 'uno' }, '{"status": "Key replaced."}'],
    ['core_memory_replace', { key: 'zzz', value: 'x' }, '{"error": "Key not found."}'],
    [
      'core_memory_replace',
      { key: 'a_key', value: 'x'.repeat(301) },
      '{"error": "Entry is too long. Please shorten the entry to less than 300 characters."}',
    ],
    ['archival_memory_replace', { key: 'arch', value: 'x'.repeat(2000) }, '{"status": "Key replaced."}'],
    [
      'archival_memory_replace',
      { key: 'arch', value: 'x'.repeat(2001) },
      '{"error": "Entry is too long. Please shorten the entry to less than 2000 characters."}',
    ],
    ['archival_memory_replace', { key: 'zzz', value: 'x'.repeat(2001) }, '{"error": "Key not found."}'],
    ['core_memory_retrieve', { key: 'b_key' }, '{"value": "two"}'],
    ['core_memory_retrieve', { key: 'arch' }, '{"error": "Key not found."}'],
    ['archival_memory_retrieve', { key: 'arch' }, '{"value": "three"}'],
    ['archival_memory_retrieve', { key: {} as unknown as PyValue }, '{"error": "Key not found."}'],
    ['core_memory_list_keys', {}, '{"keys": ["a_key", "b_key"]}'],
    ['archival_memory_list_keys', {}, '{"keys": ["arch"]}'],
    ['core_memory_retrieve_all', {}, '{"a_key": "one", "b_key": "two"}'],
    ['core_memory_clear', {}, '{"status": "Short term memory cleared."}'],
    ['archival_memory_clear', {}, '{"status": "Long term memory cleared."}'],
  ])('%s(%o) -> %s', (method, kwargs, expected) => {
    expect(call(withEntry(), method, kwargs)).toBe(expected);
  });

  it('replaces in place (position kept) with str() of the value', () => {
    const api = withEntry();
    call(api, 'core_memory_replace', { key: 'a_key', value: 7n });
    expect([...api.core_memory]).toEqual([
      ['a_key', '7'],
      ['b_key', 'two'],
    ]);
  });

  it('clears one memory only', () => {
    const api = withEntry();
    call(api, 'core_memory_clear');
    expect(call(api, 'core_memory_retrieve_all')).toBe('{}');
    expect(call(api, 'archival_memory_list_keys')).toBe('{"keys": ["arch"]}');
  });

  it('retrieve_all returns the dict itself', () => {
    const api = withEntry();
    expect(api.core_memory_retrieve_all()).toBe(api.core_memory);
  });
});

describe('MemoryAPI_kv: key search', () => {
  const searchable = (prefix: 'core' | 'archival'): MemoryAPI_kv => {
    const api = kv();
    for (const key of ['user_first_name', 'user_age', 'user_city', 'favorite_coffee_drink', 'espresso_machine_preference', 'user_name_alias']) {
      call(api, `${prefix}_memory_add`, { key, value: `value of ${key}` });
    }
    return api;
  };

  it('returns [[score, key], ...] as pyJson with Python float reprs (archival)', () => {
    expect(call(searchable('archival'), 'archival_memory_key_search', { query: 'user name' })).toBe(
      '{"ranked_results": [[3.5282403009806513, "user_first_name"], [3.5282403009806513, "user_name_alias"], ' +
        '[2.442931756921408, "user_age"], [2.442931756921408, "user_city"], [1.8123787564307907, "favorite_coffee_drink"]]}',
    );
  });

  it('returns tuples, printed 0.0 for zero scores', () => {
    const api = kv();
    call(api, 'core_memory_add', { key: 'a_name', value: 'x' });
    const result = api.core_memory_key_search('zzz', 5n) as Map<string, PyValue>;
    expect((result.get('ranked_results') as PyValue[])[0]).toBeInstanceOf(PyTuple);
    expect(show(result)).toBe('{"ranked_results": [[0.0, "a_name"]]}');
  });

  it.each([
    [{ query: 'user name', k: 2n }, ['user_first_name', 'user_name_alias']],
    [{ query: 'user name', k: 0n }, []],
    [{ query: 'user name', k: -4n }, ['user_first_name', 'user_name_alias']],
    [{ query: 'user name', k: -10n }, []],
    [{ query: 'user name', k: true }, ['user_first_name']],
    [{ query: 'user name', k: null }, ['user_first_name', 'user_name_alias', 'user_age', 'user_city', 'favorite_coffee_drink', 'espresso_machine_preference']],
    [{ query: 'USER_NAME', k: 1n }, ['user_first_name']],
  ])('slices with Python semantics: %o', (kwargs, keys) => {
    const result = callMethod(searchable('core'), 'core_memory_key_search', kwargs) as Map<string, PyValue>;
    expect((result.get('ranked_results') as PyTuple[]).map((pair) => pair.items[1])).toEqual(keys);
  });

  it.each([
    [{ query: 'x', k: 2.0 }, 'raises TypeError: slice indices must be integers or None or have an __index__ method'],
    [{ query: 5n }, "raises AttributeError: 'int' object has no attribute 'replace'"],
  ])('raises for %o', (kwargs, expected) => {
    expect(call(searchable('core'), 'core_memory_key_search', kwargs)).toBe(expected);
  });

  it('raises division by zero on an empty memory, before reading the query', () => {
    expect(call(kv(), 'core_memory_key_search', { query: 5n })).toBe('raises ZeroDivisionError: division by zero');
    expect(call(kv(), 'archival_memory_key_search', { query: 'x' })).toBe('raises ZeroDivisionError: division by zero');
  });

  it('searches key names only, never values (score as CPython computes it)', () => {
    const api = kv();
    call(api, 'core_memory_add', { key: 'a_key', value: 'espresso' });
    call(api, 'core_memory_add', { key: 'espresso', value: 'x' });
    expect(call(api, 'core_memory_key_search', { query: 'espresso', k: 1n })).toBe('{"ranked_results": [[2.391097334160004, "espresso"]]}');
  });
});

describe('MemoryAPI_kv: memory prompt content', () => {
  it('prints the no-content sentence for an empty core memory', () => {
    expect(kv()._dumpCoreMemoryToContext()).toBe('There is no content in the core memory at this point.');
  });

  it('prints pyJson4 of the core memory, ASCII-escaped', () => {
    const api = kv();
    call(api, 'core_memory_add', { key: 'name', value: 'Zoë' });
    call(api, 'archival_memory_add', { key: 'hidden', value: 'x' });
    expect(api._dumpCoreMemoryToContext()).toBe('{\n    "name": "Zo\\u00eb"\n}');
  });
});

describe('MemoryAPI_kv: snapshots', () => {
  const EXPECTED = [
    '{',
    '    "core_memory": {',
    '        "user_name": "Zo\\u00eb \\"Z\\" caf\\u00e9",',
    '        "odd_chars": "tab\\there\\nDEL\\u007f emoji \\ud83d\\ude00 back\\\\slash"',
    '    },',
    '    "archival_memory": {}',
    '}',
  ].join('\n');

  const sample = (kit: Kit, testId = 'memory_kv_prereq_3-customer-3'): MemoryAPI_kv => {
    const api = kv(kit, testId);
    call(api, 'core_memory_add', { key: 'user_name', value: 'Zoë "Z" café' });
    call(api, 'core_memory_add', { key: 'odd_chars', value: 'tab\there\nDEL\x7f emoji 😀 back\\slash' });
    return api;
  };

  it('writes the checkpoint, then the latest file, byte-identical pyJson4 without a trailing newline', () => {
    const kit = makeKit();
    kit.store.files.set(`${FOLDER}/customer_final.json`, '{"core_memory": {}, "archival_memory": {}}');
    sample(kit)._flushSnapshot();
    expect([...kit.store.files.keys()]).toEqual([
      `${FOLDER}/customer_final.json`,
      `${FOLDER}/prereq_checkpoints/memory_kv_prereq_3-customer-3.json`,
    ]);
    expect(kit.store.files.get(`${FOLDER}/prereq_checkpoints/memory_kv_prereq_3-customer-3.json`)).toBe(EXPECTED);
    expect(kit.store.files.get(`${FOLDER}/customer_final.json`)).toBe(EXPECTED);
  });

  it('loads the latest snapshot in a later entry (round trip, order kept)', () => {
    const kit = makeKit();
    sample(kit, FIRST_PREREQ)._flushSnapshot();
    const next = kv(kit, 'memory_kv_prereq_1-customer-1');
    expect([...next.core_memory.keys()]).toEqual(['user_name', 'odd_chars']);
    expect(next.core_memory.get('odd_chars')).toBe('tab\there\nDEL\x7f emoji 😀 back\\slash');
    next._flushSnapshot();
    expect(kit.store.files.get(`${FOLDER}/prereq_checkpoints/memory_kv_prereq_1-customer-1.json`)).toBe(EXPECTED);
    expect(kit.warnings).toEqual([]);
  });

  it('loads a copy: changes do not reach the snapshot text until flushed', () => {
    const kit = makeKit();
    sample(kit, FIRST_PREREQ)._flushSnapshot();
    const question = kv(kit, 'memory_kv_7-customer-7');
    call(question, 'core_memory_clear');
    expect(kit.store.files.get(`${FOLDER}/customer_final.json`)).toBe(EXPECTED);
  });

  it('ignores an existing snapshot in the first prerequisite of a chain', () => {
    const kit = makeKit();
    sample(kit, 'memory_kv_prereq_5-customer-5')._flushSnapshot();
    kit.warnings.length = 0;
    expect(kv(kit, FIRST_PREREQ).core_memory.size).toBe(0);
    expect(kit.warnings).toEqual([]);
  });

  it('reads the scenario own file', () => {
    const kit = makeKit();
    kit.store.files.set(`${FOLDER}/student_final.json`, '{"core_memory": {"a": "student"}, "archival_memory": {}}');
    kit.store.files.set(`${FOLDER}/customer_final.json`, '{"core_memory": {"a": "customer"}, "archival_memory": {}}');
    expect(kv(kit, 'memory_kv_80-student-0', 'student').core_memory.get('a')).toBe('student');
  });

  it('warns and starts empty when a later entry finds no snapshot', () => {
    const kit = makeKit();
    const api = kv(kit, 'memory_kv_12-customer-12');
    expect(api.core_memory.size).toBe(0);
    expect(kit.warnings).toEqual([
      '⚠️'.repeat(100) +
        `\nWarning: Not first memory entry, but no snapshot file found in this path: ${FOLDER}/customer_final.json. ` +
        'The memory will start empty for memory_kv_12-customer-12.\n' +
        '⚠️'.repeat(100),
    ]);
  });

  it.each(['{}', '[]', 'null', '""'])('starts empty from a falsy snapshot %s', (text) => {
    const kit = makeKit();
    kit.store.files.set(`${FOLDER}/customer_final.json`, text);
    expect(kv(kit, 'memory_kv_12-customer-12').core_memory.size).toBe(0);
  });

  it.each([
    ['{"core_memory": {', 'JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 18 (char 17)'],
    ['', 'JSONDecodeError: Expecting value: line 1 column 1 (char 0)'],
    ['{"core_memory": {}}', "KeyError: 'archival_memory'"],
    ['[1]', 'TypeError: list indices must be integers or slices, not str'],
    ['{"core_memory": [], "archival_memory": {}}', "TypeError: 'core_memory' must be a dict, not list"],
  ])('raises an error naming the file for the corrupt snapshot %o', (text, detail) => {
    const kit = makeKit();
    kit.store.files.set(`${FOLDER}/customer_final.json`, text);
    let thrown: unknown;
    try {
      kv(kit, 'memory_kv_prereq_2-customer-2');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MemorySnapshotError);
    expect((thrown as MemorySnapshotError).message).toBe(`Corrupt memory snapshot ${FOLDER}/customer_final.json: ${detail}`);
    expect((thrown as MemorySnapshotError).file).toBe(`${FOLDER}/customer_final.json`);
  });

  it('raises an error naming the file when the store cannot read it', () => {
    const kit = makeKit();
    kit.store.readText = () => {
      throw new Error('EISDIR: illegal operation on a directory, read');
    };
    expect(() => kv(kit, 'memory_kv_prereq_2-customer-2')).toThrow(
      `Corrupt memory snapshot ${FOLDER}/customer_final.json: EISDIR: illegal operation on a directory, read`,
    );
  });

  it('refuses to flush before loading', () => {
    const api = new MemoryAPI_kv({ longContext: new Map() }, makeKit().deps);
    expect(() => api._flushSnapshot()).toThrow('_flushSnapshot before _loadScenario');
  });

  it('keeps values of a hand-edited snapshot as they are (keys unchecked)', () => {
    const kit = makeKit();
    kit.store.files.set(`${FOLDER}/customer_final.json`, '{"core_memory": {"Bad Key": 5}, "archival_memory": {"x": [1.5]}}');
    const api = kv(kit, 'memory_kv_3-customer-3');
    expect(call(api, 'core_memory_retrieve', { key: 'Bad Key' })).toBe('{"value": 5}');
    expect(api.archival_memory).toEqual(pyDict({ x: [1.5] }));
  });
});

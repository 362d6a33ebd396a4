import { describe, expect, it } from 'vitest';

import { MemoryAPI_rec_sum } from '../../../src/agentic/memory/memory-api-rec-sum.js';
import { MemorySnapshotError } from '../../../src/agentic/memory/memory-snapshot-error.js';
import type { PyValue } from '../../../src/py/value.js';
import { callMethod, shownOrRaised } from '../../helpers/sim.js';
import { RESULT_DIR, loadMemory, makeKit, type Kit } from './memory-kit.js';

const FOLDER = `${RESULT_DIR}/agentic/memory/rec_sum/memory_snapshot`;
const FIRST_PREREQ = 'memory_rec_sum_prereq_32-notetaker-0';

const recSum = (kit: Kit = makeKit(), testId = FIRST_PREREQ, memory?: string): MemoryAPI_rec_sum => {
  const api = loadMemory((ctx, deps) => new MemoryAPI_rec_sum(ctx, deps), kit, testId, 'notetaker');
  if (memory !== undefined) api.memory = memory;
  return api;
};

const call = (api: MemoryAPI_rec_sum, method: string, kwargs: Record<string, PyValue> = {}): string =>
  shownOrRaised(() => callMethod(api, method, kwargs));

const TOO_LONG = (after: string): string =>
  `{"error": "Entry will be too long after ${after}. Please shorten the entry to less than 10000 characters."}`;

describe('MemoryAPI_rec_sum: methods', () => {
  it('exposes the 5 documented methods, all parameters required', () => {
    expect(recSum()._signatures).toEqual({
      memory_append: [{ name: 'text', default: expect.any(Symbol) }],
      memory_update: [{ name: 'text', default: expect.any(Symbol) }],
      memory_clear: [],
      memory_replace: [
        { name: 'old_text', default: expect.any(Symbol) },
        { name: 'new_text', default: expect.any(Symbol) },
      ],
      memory_retrieve: [],
    });
  });

  it('lists public state in the reference vars() order', () => {
    expect(recSum()._publicState().map(([name]) => name)).toEqual([
      'memory',
      'snapshot_folder',
      'test_id',
      'scenario',
      'latest_snapshot_file',
    ]);
  });

  it.each([
    // [initial memory, method, kwargs, tool text, memory after]
    ['', 'memory_append', { text: 'abc' }, '{"status": "Memory appended."}', 'abc'],
    ['abc', 'memory_append', { text: 'def' }, '{"status": "Memory appended."}', 'abcdef'],
    ['', 'memory_append', { text: 12n }, '{"status": "Memory appended."}', '12'],
    ['', 'memory_append', { text: null }, '{"status": "Memory appended."}', 'None'],
    ['x', 'memory_append', { text: ['a', true] }, '{"status": "Memory appended."}', "x['a', True]"],
    ['x'.repeat(9999), 'memory_append', { text: 'y' }, '{"status": "Memory appended."}', 'x'.repeat(9999) + 'y'],
    ['x'.repeat(9999), 'memory_append', { text: 'yz' }, TOO_LONG('appending'), 'x'.repeat(9999)],
    // Code points, not UTF-16 units: 5000 emoji + 5000 chars is exactly 10000.
    ['😀'.repeat(5000), 'memory_append', { text: 'x'.repeat(5000) }, '{"status": "Memory appended."}', '😀'.repeat(5000) + 'x'.repeat(5000)],
    ['old', 'memory_update', { text: 'new' }, '{"status": "Memory updated."}', 'new'],
    ['old', 'memory_update', { text: 'x'.repeat(10000) }, '{"status": "Memory updated."}', 'x'.repeat(10000)],
    ['old', 'memory_update', { text: 'x'.repeat(10001) }, TOO_LONG('updating'), 'old'],
    ['old', 'memory_update', { text: false }, '{"status": "Memory updated."}', 'False'],
    ['old', 'memory_clear', {}, '{"status": "Short term memory cleared."}', ''],
    ['', 'memory_clear', {}, '{"status": "Short term memory cleared."}', ''],
    ['a-b-a', 'memory_replace', { old_text: 'a', new_text: 'X' }, '{"status": "Memory updated."}', 'X-b-X'],
    ['a-b', 'memory_replace', { old_text: 'c', new_text: 'X' }, `{"error": "Text 'c' not found in memory."}`, 'a-b'],
    ['a-b', 'memory_replace', { old_text: 1n, new_text: 'X' }, `{"error": "Text '1' not found in memory."}`, 'a-b'],
    ['n=1', 'memory_replace', { old_text: 1n, new_text: 2n }, '{"status": "Memory updated."}', 'n=2'],
    ['cost', 'memory_replace', { old_text: 'cost', new_text: '$& and $$' }, '{"status": "Memory updated."}', '$& and $$'],
    ['abc', 'memory_replace', { old_text: '', new_text: 'X' }, '{"status": "Memory updated."}', 'XaXbXcX'],
    ['', 'memory_replace', { old_text: '', new_text: 'X' }, '{"status": "Memory updated."}', 'X'],
    ['😀b', 'memory_replace', { old_text: '', new_text: '-' }, '{"status": "Memory updated."}', '-😀-b-'],
    ['a', 'memory_replace', { old_text: 'a', new_text: 'x'.repeat(10001) }, TOO_LONG('replacing'), 'a'],
    ['a', 'memory_replace', { old_text: 'zz', new_text: 'x'.repeat(10001) }, `{"error": "Text 'zz' not found in memory."}`, 'a'],
    // Only new_text is measured: the buffer may grow past the limit.
    ['aa', 'memory_replace', { old_text: 'a', new_text: 'x'.repeat(6000) }, '{"status": "Memory updated."}', 'x'.repeat(12000)],
    ['', 'memory_retrieve', {}, '{"error": "Memory is empty."}', ''],
    ['café', 'memory_retrieve', {}, '{"memory_content": "caf\\u00e9"}', 'café'],
  ])('%#: %s then %s(%o) -> %s', (initial, method, kwargs, shown, after) => {
    const api = recSum(makeKit(), FIRST_PREREQ, initial);
    expect(call(api, method, kwargs)).toBe(shown);
    expect(api.memory).toBe(after);
  });

  it('refuses every append once the buffer is past the limit', () => {
    const api = recSum(makeKit(), FIRST_PREREQ, 'x'.repeat(12000));
    expect(call(api, 'memory_append', { text: '' })).toBe(TOO_LONG('appending'));
  });

  it.each([
    ['memory_append', {}, "raises TypeError: MemoryAPI_rec_sum.memory_append() missing 1 required positional argument: 'text'"],
    ['memory_replace', { old_text: 'a' }, "raises TypeError: MemoryAPI_rec_sum.memory_replace() missing 1 required positional argument: 'new_text'"],
  ])('binds arguments as Python: %s(%o)', (method, kwargs, expected) => {
    expect(call(recSum(), method, kwargs)).toBe(expected);
  });
});

describe('MemoryAPI_rec_sum: prompt content and snapshots', () => {
  it('prints the no-content sentence, else the buffer verbatim', () => {
    expect(recSum()._dumpCoreMemoryToContext()).toBe('There is no content in the memory at this point.');
    expect(recSum(makeKit(), FIRST_PREREQ, 'Zoë {x} $1')._dumpCoreMemoryToContext()).toBe('Zoë {x} $1');
  });

  it('flushes {"memory": ...} as pyJson4, with ASCII escapes and DEL escaped, to both files', () => {
    const kit = makeKit();
    const api = recSum(kit, 'memory_rec_sum_prereq_34-notetaker-2');
    kit.warnings.length = 0;
    call(api, 'memory_append', { text: 'Zoë likes\ttea\x7f 😀 "quoted"' });
    api._flushSnapshot();
    const expected = '{\n    "memory": "Zo\\u00eb likes\\ttea\\u007f \\ud83d\\ude00 \\"quoted\\""\n}';
    expect(kit.store.files.get(`${FOLDER}/prereq_checkpoints/memory_rec_sum_prereq_34-notetaker-2.json`)).toBe(expected);
    expect(kit.store.files.get(`${FOLDER}/notetaker_final.json`)).toBe(expected);
  });

  it('round-trips through the latest snapshot', () => {
    const kit = makeKit();
    const first = recSum(kit);
    call(first, 'memory_update', { text: 'line 1\nZoë' });
    first._flushSnapshot();
    expect(recSum(kit, 'memory_rec_sum_140-notetaker-8').memory).toBe('line 1\nZoë');
    expect(kit.warnings).toEqual([]);
  });

  it('warns and starts empty when a question finds no snapshot', () => {
    const kit = makeKit();
    expect(recSum(kit, 'memory_rec_sum_140-notetaker-8').memory).toBe('');
    expect(kit.warnings).toHaveLength(1);
    expect(kit.warnings[0]).toContain(`no snapshot file found in this path: ${FOLDER}/notetaker_final.json. The memory will start empty for memory_rec_sum_140-notetaker-8.\n`);
  });

  it.each([
    ['{"memory": 5}', "AssertionError: Memory data should be a string, but got <class 'int'> instead."],
    ['{"memory": null}', "AssertionError: Memory data should be a string, but got <class 'NoneType'> instead."],
    ['{"other": ""}', "KeyError: 'memory'"],
    ['{"memory": "abc"', "JSONDecodeError: Expecting ',' delimiter: line 1 column 17 (char 16)"],
  ])('raises an error naming the file for %s', (text, detail) => {
    const kit = makeKit();
    kit.store.files.set(`${FOLDER}/notetaker_final.json`, text);
    expect(() => recSum(kit, 'memory_rec_sum_140-notetaker-8')).toThrow(new MemorySnapshotError(`${FOLDER}/notetaker_final.json`, detail));
  });
});

/**
 * The generation-parity comparator on tiny hand-made folders; and, with BFCL_DATA_DIR, the
 * shipped reference folder read and compared with itself.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compareGenerationResults,
  compareResultEntry,
  excerptPair,
  parseResultFile,
  readResultFolder,
  type ResultFile,
  type ResultFolder,
} from '../../src/conformance/generation-check.js';
import type { PyDict } from '../../src/py/value.js';

const SIMPLE = 'non_live/BFCL_v4_simple_python_result.json';
const PREREQ = 'agentic/memory/rec_sum/BFCL_v4_memory_rec_sum_prereq_result.json';
const QUESTIONS = 'agentic/memory/rec_sum/BFCL_v4_memory_rec_sum_result.json';
const SNAPSHOT = 'agentic/memory/rec_sum/memory_snapshot/student_final.json';

const LINE_0 = '{"id": "simple_python_0", "result": [{"f": "{\\"a\\":1}"}], "input_token_count": 100, "output_token_count": 10, "latency": 0.5}';
const LINE_1 = '{"id": "simple_python_1", "result": "Answer: x", "input_token_count": 100, "output_token_count": 10, "latency": 0.25}';

function file(relativePath: string, lines: readonly string[]): ResultFile {
  const name = relativePath.split('/').at(-1)!;
  const category = name.replace(/^BFCL_v4_/, '').replace(/_result\.json$/, '');
  return parseResultFile(relativePath, category, lines.join('\n') + '\n');
}

function folder(files: readonly ResultFile[], snapshots: Record<string, string> = {}): ResultFolder {
  return { files, snapshots: new Map(Object.entries(snapshots).map(([path, text]) => [path, Buffer.from(text, 'utf8')])) };
}

function dict(text: string): PyDict {
  return parseResultFile('x', 'x', text).lines[0]!.value!;
}

describe('compareGenerationResults', () => {
  const reference = folder([file(SIMPLE, [LINE_0, LINE_1])]);

  it('counts identical entries', () => {
    const [c] = compareGenerationResults(folder([file(SIMPLE, [LINE_0, LINE_1])]), reference).categories;
    expect(c).toMatchObject({ category: 'simple_python', total: 2, identical: 2, oursEntries: 2, mismatches: [], keyOrder: [], notes: [] });
  });

  it('ignores latency (its value, and a nested list of them in multi-turn lines)', () => {
    const ours = [LINE_0.replace('0.5}', '[[0.1], [0.2, 0.3]]}'), LINE_1.replace('0.25', '9.75')];
    expect(compareGenerationResults(folder([file(SIMPLE, ours)]), reference).categories[0]!.identical).toBe(2);
  });

  it('names the first differing field with both values', () => {
    const ours = [LINE_0.replace('\\"a\\":1', '\\"a\\":2'), LINE_1.replace('"output_token_count": 10', '"output_token_count": 11')];
    const [c] = compareGenerationResults(folder([file(SIMPLE, ours)]), reference).categories;
    expect(c!.identical).toBe(0);
    expect(c!.mismatches).toEqual([
      { id: 'simple_python_0', path: 'result[0].f', ours: '"{\\"a\\":2}"', reference: '"{\\"a\\":1}"' },
      { id: 'simple_python_1', path: 'output_token_count', ours: '11', reference: '10' },
    ]);
  });

  it('tells an int from a float of the same value, and an absent field from null', () => {
    const floatCount = LINE_1.replace('"input_token_count": 100', '"input_token_count": 100.0');
    expect(compareResultEntry('i', dict(floatCount), dict(LINE_1)).value).toMatchObject({ path: 'input_token_count', ours: '100.0', reference: '100' });
    const absent = LINE_1.replace('"result": "Answer: x", ', '');
    expect(compareResultEntry('i', dict(absent), dict(LINE_1)).value).toMatchObject({ path: 'result', ours: '(absent)' });
  });

  it('counts a missing entry as not identical and lists entries only in ours', () => {
    const extra = LINE_1.replace('simple_python_1', 'simple_python_7');
    const [c] = compareGenerationResults(folder([file(SIMPLE, [LINE_0, extra])]), reference).categories;
    expect(c).toMatchObject({ total: 2, identical: 1, oursEntries: 2 });
    expect(c!.mismatches).toEqual([{ id: 'simple_python_1', path: '(entry)', ours: 'missing', reference: 'present' }]);
    expect(c!.notes).toEqual(['1 entries only in ours (simple_python_7)']);
  });

  it('reports a category we did not generate as 0 of the reference entries', () => {
    const [c] = compareGenerationResults(folder([]), reference).categories;
    expect(c).toMatchObject({ total: 2, identical: 0, oursEntries: 0 });
  });

  it('reports key order apart from values', () => {
    const reordered = '{"result": "Answer: x", "id": "simple_python_1", "input_token_count": 100, "output_token_count": 10, "latency": 0.25}';
    const [c] = compareGenerationResults(folder([file(SIMPLE, [LINE_0, reordered])]), reference).categories;
    expect(c!.identical).toBe(2);
    expect(c!.keyOrder).toHaveLength(1);
    expect(c!.keyOrder[0]).toMatchObject({ id: 'simple_python_1', path: '(keys)' });
    expect(c!.keyOrder[0]!.ours.startsWith('["result", "id"')).toBe(true);
  });

  it('notes a different line order and an unreadable line', () => {
    const [c] = compareGenerationResults(folder([file(SIMPLE, [LINE_1, LINE_0])]), reference).categories;
    expect(c!.identical).toBe(2);
    expect(c!.notes).toEqual(['simple_python: line order differs from line 1 (ours simple_python_1, reference simple_python_0)']);
    const [broken] = compareGenerationResults(folder([file(SIMPLE, [LINE_0, '{"id": "simple_python_1", '])]), reference).categories;
    expect(broken!.identical).toBe(1);
    expect(broken!.mismatches[0]).toMatchObject({ id: 'simple_python_1', ours: 'missing' });
  });

  it('folds a memory prereq file into its category and compares snapshots byte for byte', () => {
    const prereq = '{"id": "memory_rec_sum_prereq_0-student-0", "result": [], "latency": 1}';
    const question = '{"id": "memory_rec_sum_0-student-0", "result": [], "latency": 1}';
    const ref = folder([file(PREREQ, [prereq]), file(QUESTIONS, [question]), file(SIMPLE, [LINE_0])], {
      [SNAPSHOT]: '{"core": "é"}',
      'agentic/memory/rec_sum/memory_snapshot/prereq_checkpoints/a.json': '{}',
    });
    const ours = folder([file(PREREQ, [prereq]), file(QUESTIONS, [question]), file(SIMPLE, [LINE_0])], {
      [SNAPSHOT]: '{"core":  "é"}',
      'agentic/memory/rec_sum/memory_snapshot/extra.json': '{}',
    });
    const comparison = compareGenerationResults(ours, ref);
    expect(comparison.categories.map((c) => [c.category, c.identical, c.total])).toEqual([
      ['simple_python', 1, 1],
      ['memory_rec_sum', 2, 2],
    ]);
    const [s] = comparison.snapshots;
    expect(s).toMatchObject({ category: 'memory_rec_sum', folder: 'agentic/memory/rec_sum/memory_snapshot', total: 2, identical: 0, extra: ['extra.json'] });
    expect(s!.mismatches).toEqual([
      { id: 'prereq_checkpoints/a.json', path: '(file)', ours: 'missing', reference: '2 bytes' },
      { id: 'student_final.json', path: 'byte 9 (ours 15 bytes, reference 14)', ours: '{"core":  "é"}', reference: '{"core": "é"}' },
    ]);
    const same = compareGenerationResults(ref, ref).snapshots[0]!;
    expect([same.identical, same.total]).toEqual([2, 2]);
  });
});

describe('excerptPair', () => {
  it('keeps short texts whole and shows long ones around their first difference', () => {
    expect(excerptPair('abc', 'abd')).toEqual(['abc', 'abd']);
    const [ours, reference] = excerptPair('x'.repeat(1000) + 'A' + 'y'.repeat(1000), 'x'.repeat(1000) + 'B' + 'y'.repeat(1000));
    expect(ours.startsWith('…' + 'x'.repeat(100) + 'A')).toBe(true);
    expect(reference.startsWith('…' + 'x'.repeat(100) + 'B')).toBe(true);
    expect(ours.length).toBeLessThanOrEqual(302);
  });
});

const dataDir = process.env.BFCL_DATA_DIR;
const generationDir =
  dataDir === undefined ? '' : join(resolve(process.env.BFCL_CONFORMANCE_DIR ?? join(dirname(resolve(dataDir)), 'conformance')), 'generation');

describe.skipIf(dataDir === undefined || !existsSync(generationDir))('the shipped reference results', () => {
  it('read completely and compare identical with themselves', () => {
    const reference = readResultFolder(join(generationDir, 'result', 'openai-compatible_mock'));
    const comparison = compareGenerationResults(reference, reference);
    expect(comparison.categories.map((c) => [c.category, c.identical, c.total, c.notes.length])).toEqual([
      ['simple_python', 400, 400, 0],
      ['live_multiple', 1053, 1053, 0],
      ['multi_turn_base', 200, 200, 0],
      ['multi_turn_miss_func', 200, 200, 0],
      ['memory_rec_sum', 192, 192, 0],
    ]);
    expect(comparison.snapshots.map((s) => [s.category, s.identical, s.total])).toEqual([['memory_rec_sum', 42, 42]]);
  });
});

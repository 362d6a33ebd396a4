import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { readJsonFile, readJsonLinesFile } from '../../src/data/json-file.js';
import { toPlain } from '../../src/data/plain.js';
import { listResultFiles } from '../../src/data/result-files.js';
import { jsonDumps } from '../../src/py/json.js';
import { PY_ELLIPSIS, PySet, PyTuple, pyDict, type PyDict, type PyValue } from '../../src/py/value.js';
import { datasetSchemas } from '../../src/spec/schemas.js';
import { DatasetError } from '../../src/util/errors.js';

const { functionDocSchema, singleTurnEntrySchema, singleTurnEntryWithoutDocsSchema } = datasetSchemas();

const anyObject = z.looseObject({ id: z.string() });

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'bfcl-json-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function thrown(f: () => unknown): DatasetError {
  try {
    f();
  } catch (e) {
    if (e instanceof DatasetError) return e;
    throw e;
  }
  throw new Error('expected a DatasetError');
}

describe('readJsonLinesFile', () => {
  it('parses losslessly, skips blank lines and accepts CRLF / CR line ends', () => {
    const file = tempFile('a.json', '\uFEFF{"id": "a_0", "n": 5, "x": 5.0, "big": 12345678901234567890}\r\n\r\n  \n{"id": "a_1", "d": {"b": 1, "a": 2}}\r{"id": "a_2"}');
    const entries = readJsonLinesFile(file, anyObject);
    expect(entries.map((e) => e.get('id'))).toEqual(['a_0', 'a_1', 'a_2']);
    expect(entries[0]!.get('n')).toBe(5n);
    expect(entries[0]!.get('x')).toBe(5);
    expect(entries[0]!.get('big')).toBe(12345678901234567890n);
    expect([...(entries[1]!.get('d') as Map<string, unknown>).keys()]).toEqual(['b', 'a']);
  });

  it('reports invalid JSON with file, 1-based line and the id when readable', () => {
    const file = tempFile('b.json', '{"id": "b_0"}\n\n{"id": "b_1", "x": [1, 2}\n');
    const e = thrown(() => readJsonLinesFile(file, anyObject));
    expect([e.file, e.line, e.entryId]).toEqual([file, 3, 'b_1']);
    expect(e.message).toMatch(new RegExp(`${file}:3: entry b_1: invalid JSON: `));
    expect(e.exitCode).toBe(1);
  });

  it('reports schema problems with the zod path', () => {
    const line = JSON.stringify({ id: 'c_0', question: [[{ role: 'user', content: 'q' }]], function: [{ name: 'f', description: 3, parameters: { type: 'dict', properties: {} } }] });
    const file = tempFile('c.json', `${line}\n`);
    const e = thrown(() => readJsonLinesFile(file, singleTurnEntrySchema));
    expect([e.line, e.entryId, e.path]).toEqual([1, 'c_0', ['function', 0, 'description']]);
    expect(e.message).toContain(`${file}:1: entry c_0: at function.0.description: `);
  });

  it('rejects lines that are not objects and missing files', () => {
    const file = tempFile('d.json', '[1, 2]\n');
    expect(thrown(() => readJsonLinesFile(file, anyObject)).message).toBe(`${file}:1: expected a JSON object, found an array`);
    expect(thrown(() => readJsonLinesFile(join(tmpdir(), 'no-such-bfcl.json'), anyObject)).detail).toBe('file not found');
  });
});

describe('readJsonFile', () => {
  it('parses and validates a whole-file document', () => {
    const file = tempFile('fs.json', '{\n    "simple_python": ["simple_python_3"],\n    "parallel": []\n}');
    expect(readJsonFile(file, z.record(z.string(), z.array(z.string())))).toEqual(
      new Map([['simple_python', ['simple_python_3']], ['parallel', []]]),
    );
    const bad = tempFile('bad.json', '{"a": "b"}');
    const e = thrown(() => readJsonFile(bad, z.record(z.string(), z.array(z.string()))));
    expect([e.line, e.path]).toEqual([undefined, ['a']]);
  });
});

describe('toPlain', () => {
  it('converts Python values to plain JSON-like values', () => {
    const value = pyDict([
      ['a', 1n],
      [2n, 2.5],
      ['t', new PyTuple([true, null])],
      ['s', new PySet(['x'])],
      ['e', PY_ELLIPSIS],
      ['l', [pyDict({ k: 'v' })]],
    ]);
    expect(toPlain(value)).toEqual({ a: 1, 2: 2.5, t: [true, null], s: ['x'], e: 'Ellipsis', l: [{ k: 'v' }] });
  });
});

describe('listResultFiles', () => {
  it('finds result files per model directory, sorted, with entry counts', () => {
    const root = mkdtempSync(join(tmpdir(), 'bfcl-results-'));
    mkdirSync(join(root, 'model-b', 'non_live'), { recursive: true });
    mkdirSync(join(root, 'model-a', 'agentic', 'memory', 'kv'), { recursive: true });
    writeFileSync(join(root, 'model-b', 'non_live', 'BFCL_v4_simple_python_result.json'), '{"id": 1}\n{"id": 2}\n\n');
    writeFileSync(join(root, 'model-b', 'non_live', 'notes.txt'), 'x');
    writeFileSync(join(root, 'model-a', 'agentic', 'memory', 'kv', 'BFCL_v4_memory_kv_prereq_result.json'), '{"id": 1}');
    writeFileSync(join(root, 'stray.json'), '');
    expect(listResultFiles(root).map((f) => [f.model, f.category, f.entries, f.relativePath])).toEqual([
      ['model-a', 'memory_kv_prereq', 1, join('agentic', 'memory', 'kv', 'BFCL_v4_memory_kv_prereq_result.json')],
      ['model-b', 'simple_python', 2, join('non_live', 'BFCL_v4_simple_python_result.json')],
    ]);
    expect(listResultFiles(join(root, 'missing'))).toEqual([]);
  });

  it('follows a symlinked model directory and symlinked result files, but not symlinked sub-folders (as Python 3.12 rglob)', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'bfcl-results-elsewhere-'));
    mkdirSync(join(elsewhere, 'model-x', 'non_live'), { recursive: true });
    writeFileSync(join(elsewhere, 'model-x', 'non_live', 'BFCL_v4_simple_python_result.json'), '{"id": 1}\n');
    mkdirSync(join(elsewhere, 'live'), { recursive: true });
    writeFileSync(join(elsewhere, 'live', 'BFCL_v4_live_simple_result.json'), '{"id": 1}\n');
    writeFileSync(join(elsewhere, 'BFCL_v4_parallel_result.json'), '{"id": 1}\n');
    const root = mkdtempSync(join(tmpdir(), 'bfcl-results-links-'));
    symlinkSync(join(elsewhere, 'model-x'), join(root, 'model-x'));
    mkdirSync(join(root, 'model-y'));
    symlinkSync(join(elsewhere, 'BFCL_v4_parallel_result.json'), join(root, 'model-y', 'BFCL_v4_parallel_result.json'));
    symlinkSync(join(elsewhere, 'live'), join(root, 'model-y', 'live'));
    expect(listResultFiles(root).map((f) => [f.model, f.category])).toEqual([
      ['model-x', 'simple_python'],
      ['model-y', 'parallel'],
    ]);
  });
});

describe('readJsonLinesFile with shared items (function docs repeated across lines)', () => {
  const shared = { key: 'function', itemSchema: functionDocSchema, lineSchema: singleTurnEntryWithoutDocsSchema };
  const doc = (name: string, extra = '') =>
    `{"name": "${name}", "description": "d", "parameters": {"type": "dict", "properties": {"x": {"type": "float", "default": 1.0${extra}}}}}`;
  const line = (id: string, docs: string[]) => `{"id": "${id}", "question": [[{"role": "user", "content": "q"}]], "function": [${docs.join(', ')}]}`;

  it('gives the same values as plain reading, sharing one parsed object per distinct doc text', () => {
    const file = tempFile('shared.json', [line('a_0', [doc('f'), doc('g')]), line('a_1', [doc('g')]), line('a_2', [])].join('\n'));
    const plain = readJsonLinesFile(file, singleTurnEntrySchema);
    const fast = readJsonLinesFile(file, singleTurnEntrySchema, shared);
    expect(fast.map((e) => jsonDumps(e))).toEqual(plain.map((e) => jsonDumps(e)));
    const docsOf = (entry: PyDict) => entry.get('function') as PyValue[];
    expect(docsOf(fast[0]!)[1]).toBe(docsOf(fast[1]!)[0]); // the same `g` doc object
    expect(((docsOf(fast[0]!)[0] as PyDict).get('parameters') as PyDict).get('properties')).toEqual(
      ((docsOf(plain[0]!)[0] as PyDict).get('parameters') as PyDict).get('properties'),
    );
  });

  it('reports a bad doc or a bad line exactly as plain reading does', () => {
    const cases = [
      [line('a_0', [doc('f')]), line('a_1', [doc('f', ', "bad": ]')])], // invalid JSON inside a doc
      [line('a_0', [doc('f')]), line('a_1', ['{"name": "", "description": "d", "parameters": {"type": "dict", "properties": {}}}'])], // schema
      [line('a_0', [doc('f')]), '{"id": "a_1", "question": "not a list", "function": []}'], // the rest of the line
      [line('a_0', ['"not an object"'])],
      [line('a_0', [doc('f')]).replace('"function": [', '"function": {').replace(/\]\}$/, '}}')],
    ];
    for (const lines of cases) {
      const file = tempFile('bad.json', lines.join('\n'));
      const plain = thrown(() => readJsonLinesFile(file, singleTurnEntrySchema));
      const fast = thrown(() => readJsonLinesFile(file, singleTurnEntrySchema, shared));
      expect(fast).toBeInstanceOf(DatasetError);
      expect(fast.message).toBe(plain.message);
    }
  });
});

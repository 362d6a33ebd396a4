import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { filesUnder } from '../../src/util/files-under.js';
import { decodeExecuteFC, decodeExecutePrompting } from '../../src/exec/decode/index.js';
import { parsePythonEval } from '../../src/exec/python-parser.js';
import { parseSimpleCall } from '../../src/exec/simple-call-parser.js';
import { parseJsonLossless } from '../../src/py/json.js';
import type { PyDict, PyValue } from '../../src/py/value.js';

/** The node without source positions, as comparable text. */
function shape(node: unknown): string {
  return JSON.stringify(node, (key, value: unknown) => {
    if (key === 'start' || key === 'end' || key === 'lineno' || key === 'endLineno') return undefined;
    return typeof value === 'bigint' ? `${value}n` : value;
  });
}

function expectSameAsFullParser(text: string): boolean {
  const fast = parseSimpleCall(text);
  if (fast === undefined) return false;
  const full = parsePythonEval(text);
  expect(full.ok, text).toBe(true);
  if (full.ok) expect(shape(fast), text).toBe(shape(full.node));
  return true;
}

describe('parseSimpleCall', () => {
  it.each([
    "cd(folder='document')",
    "mv(source='a b.txt',destination=\"x'y\")",
    'f(1, -2, 3.5, 1e-05, 10000000000000000000000, True, False, None)',
    "f(xs=[1, [2, 'a']], d={'k': [1.0, -3]}, t=(1, 2), e=())",
    "  f(a='line\\nbreak\\t\\\\', b='é😀',)",
  ])('builds the full parser\'s nodes for %s', (text) => {
    expect(expectSameAsFullParser(text)).toBe(true);
  });

  it.each([
    "f(a=1, a=2)", // repeated keyword: a compile error with CPython's wording
    "f(a=1, 2)", // positional after keyword
    "f(x=g(1))", // nested call
    "f(x=y)", // a name
    "f(x='a' 'b')", // implicit concatenation
    "f(x=r'\\d')", // prefixes
    "f(x='\\x41')", // other escapes
    'f(x=0x1F)',
    'f(x=1_000)',
    'f(x=(1))',
    'f(x={})',
    'a.b(x=1)',
    'f(x=1',
    'f(x=1) + 1',
    "f(x='''a''')",
    'f(\nx=1)',
  ])('leaves %s to the full parser', (text) => {
    expect(parseSimpleCall(text)).toBeUndefined();
  });
});

const dataDir = process.env.BFCL_DATA_DIR;
const conformanceDir = dataDir === undefined ? '' : resolve(dirname(resolve(dataDir)), 'conformance');

describe.skipIf(dataDir === undefined)('parseSimpleCall on the official calls', () => {
  it('agrees with the full parser on every ground-truth call and every decoded model call of the conformance runs', () => {
    const texts = new Set<string>();
    for (const file of readdirSync(join(dataDir!, 'possible_answer'))) {
      if (!file.includes('multi_turn')) continue;
      for (const line of readFileSync(join(dataDir!, 'possible_answer', file), 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        for (const turn of (JSON.parse(line) as { ground_truth: string[][] }).ground_truth) for (const call of turn) texts.add(call);
      }
    }
    for (const file of [...filesUnder(join(conformanceDir, 'synthetic', 'result')), ...filesUnder(join(conformanceDir, 'real-run', 'result'))]) {
      if (!file.includes('multi_turn')) continue;
      const prompting = file.includes('prompt');
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const result = (parseJsonLossless(line) as PyDict).get('result');
        if (!Array.isArray(result)) continue;
        for (const turn of result) {
          if (!Array.isArray(turn)) continue;
          for (const step of turn as PyValue[]) {
            const decoded = prompting ? decodeExecutePrompting(step, false) : decodeExecuteFC(step);
            if (decoded.ok) for (const call of decoded.value) texts.add(call);
          }
        }
      }
    }
    let fast = 0;
    for (const text of texts) if (expectSameAsFullParser(text)) fast++;
    expect(texts.size).toBeGreaterThan(1000);
    // Most calls take the fast path; the figure is informative, the equality above is the test.
    expect(fast / texts.size).toBeGreaterThan(0.8);
  });
});

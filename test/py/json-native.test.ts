/**
 * The native fast path of `parseJsonLossless`: it may only take the texts `JSON.parse` reads back
 * exactly as `json.loads` does, and must then give the same value as the JS reader.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { filesUnder } from '../../src/util/files-under.js';

import { parseJsonLossless, parseJsonNatively, parseJsonWithReader } from '../../src/py/json.js';
import { pyRepr } from '../../src/py/repr.js';

/** `repr` tells int from float, and shows dict order. */
const same = (text: string): void => {
  expect(pyRepr(parseJsonLossless(text))).toBe(pyRepr(parseJsonWithReader(text)));
};

describe('parseJsonNatively', () => {
  it.each([
    ['{"a": 1, "b": [2, -3, 0.5], "c": null, "d": true, "e": "x\\u00c9\\n"}', "{'a': 1, 'b': [2, -3, 0.5], 'c': None, 'd': True, 'e': 'xÉ\\n'}"],
    ['[-0, 123456789012345, -1.25]', '[0, 123456789012345, -1.25]'],
    ['{"a": 1, "b": 2, "a": 3}', "{'a': 3, 'b': 2}"], // a repeated key keeps its first place and its last value
    ['{"__proto__": {"x": 1}}', "{'__proto__': {'x': 1}}"],
    ['{"k1": 1, "10a": 2}', "{'k1': 1, '10a': 2}"],
  ])('reads %s natively, as json.loads does', (text, repr) => {
    const native = parseJsonNatively(text);
    expect(native).toBeDefined();
    expect(pyRepr(native!.value)).toBe(repr);
    same(text);
  });

  it.each([
    ['[1.0]', "an integral float stays a float: JS would read 1"],
    ['[2.50, 1.00]', 'trailing zeros after an integral part'],
    ['[2e3]', 'an exponent can make an integral float'],
    ['[1E-2]', 'upper-case exponent'],
    ['[12345678901234567890]', 'an int beyond 2^53'],
    ['[1.00000000000000001]', 'a fraction long enough to round to a whole double: JS would read 1'],
    ['{"b": 1, "2": 2}', 'an all-digit key: JS objects would list it first'],
    ['{"0" : 1}', 'all-digit key with a space before the colon'],
    ['[NaN, Infinity]', 'json.loads accepts these; JSON.parse does not'],
    ['[1, 2,]', 'invalid JSON: the JS reader gives the CPython message'],
    ['\ufeff[1]', 'a byte-order mark'],
    ['["\\u00e9"]', 'a false alarm (0e in an escape) costs only speed'],
  ])('leaves %s to the JS reader (%s)', (text) => {
    expect(parseJsonNatively(text)).toBeUndefined();
    let native: unknown;
    let reader: unknown;
    try {
      native = pyRepr(parseJsonLossless(text));
    } catch (e) {
      native = (e as Error).message;
    }
    try {
      reader = pyRepr(parseJsonWithReader(text));
    } catch (e) {
      reader = (e as Error).message;
    }
    expect(native).toBe(reader);
  });

  it('keeps a float 1.0 a float and 2^53 + 1 exact through parseJsonLossless', () => {
    expect(pyRepr(parseJsonLossless('{"x": 1.0, "n": 9007199254740993}'))).toBe("{'x': 1.0, 'n': 9007199254740993}");
  });
});

// Every line of the official dataset, its possible answers and the conformance result files.
const dataDir = process.env.BFCL_DATA_DIR;
const conformanceDir =
  dataDir === undefined ? '' : resolve(process.env.BFCL_CONFORMANCE_DIR ?? join(dirname(resolve(dataDir)), 'conformance'));

function jsonFiles(dir: string): string[] {
  return existsSync(dir) ? [...filesUnder(dir)].filter((file) => file.endsWith('.json')) : [];
}

describe.skipIf(dataDir === undefined)('the native path on real files', () => {
  it('gives the JS reader\'s value for every line it takes, and takes most lines', () => {
    const files = [...jsonFiles(resolve(dataDir!)), ...jsonFiles(join(conformanceDir, 'real-run', 'result'))];
    let lines = 0;
    let native = 0;
    const mismatches: string[] = [];
    for (const file of files) {
      for (const text of readFileSync(file, 'utf8').split('\n')) {
        if (text.trim() === '') continue;
        lines++;
        const fast = parseJsonNatively(text);
        if (fast === undefined) continue;
        native++;
        if (pyRepr(fast.value) !== pyRepr(parseJsonWithReader(text))) mismatches.push(`${file}: ${text.slice(0, 80)}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(lines).toBeGreaterThan(10_000);
    expect(native / lines).toBeGreaterThan(0.5);
  });
});

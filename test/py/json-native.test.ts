/**
 * The native fast path of `parseJsonLossless`: it may only take the texts `JSON.parse` reads back
 * exactly as `json.loads` does, and must then give the same value as the JS reader.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { filesUnder } from '../../src/util/files-under.js';

import { parseDeferredNatively, parseJsonLossless, parseJsonNatively, parseJsonWithReader, type DeferredKeys } from '../../src/py/json.js';
import { JsonFragment } from '../../src/py/json-fragment.js';
import { pyRepr } from '../../src/py/repr.js';
import { randomNumberToken, seededRandom } from '../helpers/random.js';

/** `repr` tells int from float, and shows dict order. */
const same = (text: string): void => {
  expect(pyRepr(parseJsonLossless(text))).toBe(pyRepr(parseJsonWithReader(text)));
};

/** `repr` of each member, and the raw text of a deferred fragment. */
function shapeOf(value: unknown): string {
  if (!(value instanceof Map)) return pyRepr(value as never);
  return JSON.stringify([...value].map(([k, v]) => [k, v instanceof JsonFragment ? `fragment ${v.raw}` : pyRepr(v as never)]));
}

function readWith(parse: () => unknown): string {
  try {
    return shapeOf(parse());
  } catch (error) {
    return `error ${(error as Error).message}`;
  }
}

describe('parseJsonNatively', () => {
  it.each([
    ['{"a": 1, "b": [2, -3, 0.5], "c": null, "d": true, "e": "x\\u00c9\\n"}', "{'a': 1, 'b': [2, -3, 0.5], 'c': None, 'd': True, 'e': 'xÉ\\n'}"],
    ['[-0, 123456789012345, -1.25]', '[0, 123456789012345, -1.25]'],
    ['{"a": 1, "b": 2, "a": 3}', "{'a': 3, 'b': 2}"], // a repeated key keeps its first place and its last value
    ['{"__proto__": {"x": 1}}', "{'__proto__': {'x': 1}}"],
    ['{"k1": 1, "10a": 2}', "{'k1': 1, '10a': 2}"],
    ['["\\u00e9", "version 2.0", "1e5", {"a": "0"}]', "['é', 'version 2.0', '1e5', {'a': '0'}]"], // strings are skipped whole
    ['{"latency": [0.7847423553466797, 3.178370952606201, -0.5, 999999999.25]}', "{'latency': [0.7847423553466797, 3.178370952606201, -0.5, 999999999.25]}"],
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
    ['[0.999999]', 'six nines could be a whole number rounded up: a false alarm costs only speed'],
    ['[0.0000001]', 'six zeros could be a whole number rounded down'],
    ['[1234567890.5]', 'ten integral digits'],
    ['[1234567890123456]', 'sixteen digits'],
  ])('leaves %s to the JS reader (%s)', (text) => {
    expect(parseJsonNatively(text)).toBeUndefined();
    expect(readWith(() => parseJsonLossless(text))).toBe(readWith(() => parseJsonWithReader(text)));
  });

  it('reads every number it takes as the JS reader does (20000 random number spellings)', () => {
    const next = seededRandom(53);
    let taken = 0;
    for (let i = 0; i < 20000; i++) {
      const token = randomNumberToken(next);
      const text = `[${token}, {"k": ${token}}]`;
      const native = parseJsonNatively(text);
      if (native === undefined) continue;
      taken++;
      expect(pyRepr(native.value), text).toBe(pyRepr(parseJsonWithReader(text)));
    }
    expect(taken).toBeGreaterThan(4000);
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

describe('parseJsonLossless with repeatedShortTexts', () => {
  it('reads a repeated text to a fresh value each time, as json.loads does, native or not', () => {
    for (const text of ['{"a": true, "n": [1, 2.5]}', '{"a": 1.0}', '{"0": 1, "b": 2}', '{}']) {
      const first = parseJsonLossless(text, { repeatedShortTexts: true });
      (first as Map<string, unknown>).set('mutated', true);
      const second = parseJsonLossless(text, { repeatedShortTexts: true });
      expect(second).not.toBe(first);
      expect(pyRepr(second)).toBe(pyRepr(parseJsonWithReader(text)));
    }
    expect(() => parseJsonLossless('{"a": }', { repeatedShortTexts: true })).toThrow();
    expect(() => parseJsonLossless('{"a": }', { repeatedShortTexts: true })).toThrow();
  });
});

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

const LOG: DeferredKeys = { keys: new Set(['log']), read: (reader) => JsonFragment.read(reader) };

describe('parseDeferredNatively (a result line around its inference log)', () => {
  it.each([
    ['{"id": "a", "result": [[1, 0.5]], "latency": [0.7847423553466797], "log": [{"role": "user"}], "n": 2}', true],
    ['{"id": "a", "log": [1, 2]}', true],
    ['{"id": "a", "log": [1, 2]} \r\n', true],
    ['{"id": "a", "log": "text", "n": [3]}', true],
    ['{"id": "a", "n": 1}', true],
    ['{"id": "a", "log": [1], "id": "b", "log": [2]}', true], // repeated keys: first place, last value
    ['{"id": "a", "log": [{"x": 1, "log": [2]}]}', true], // the first `, "log": ` is the object's, the last one inside the log
    ['{"id": "a", "r": {"q": 1, "log": [2]}, "log": [{"log": 3}]}', true], // nested keys before and inside the value
    ['{"id": "a", "log": [1], "n": {"log": 2}, "log": [2]}', true], // a repeated key after a nested one
    ['{"id": "a", "r": {"q": 1, "log": [2]}, "log": [3]}', true],
    ['{"id": "a", "r": {"q": 1, "log": [2]}}', false], // only a nested one: the text before it is an unclosed object
    ['{"log": [1], "id": "a"}', false],
    ['{"id": "a", "r": 1.0, "log": [1]}', false], // an integral float before the log
    ['{"id": "a", "log": [1], "r": 2.0}', false],
    ['{"id": "a", "log": [1]} x', false],
    ['{"id": "a", "log": [1]]', false],
    ['{"id": "a", "log": [1, }', false],
    ['{"id": "a", , "log": [1]}', false],
    ['{"id": "a", "log": [1], }', false],
    ['{"id": "a", "log": [1],  }', false],
    ['{, "log": [1]}', false],
    ['{"id": "a", "log": [1],  "n": 1}', true],
  ])('%s: the value and errors of the JS reader (native: %s)', (text, native) => {
    expect(parseDeferredNatively(text, LOG) !== undefined).toBe(native);
    expect(readWith(() => parseJsonLossless(text, { deferred: LOG }))).toBe(readWith(() => parseJsonWithReader(text, { deferred: LOG })));
  });
});

describe.skipIf(dataDir === undefined)('parseDeferredNatively on real result lines', () => {
  it("gives the JS reader's value for every line, and takes most lines natively", () => {
    const inferenceLog: DeferredKeys = { keys: new Set(['inference_log']), read: (reader) => JsonFragment.read(reader) };
    let lines = 0;
    let native = 0;
    const mismatches: string[] = [];
    for (const file of jsonFiles(join(conformanceDir, 'real-run', 'result'))) {
      for (const text of readFileSync(file, 'utf8').split('\n')) {
        if (text.trim() === '') continue;
        lines++;
        if (parseDeferredNatively(text, inferenceLog) !== undefined) native++;
        const fast = readWith(() => parseJsonLossless(text, { deferred: inferenceLog }));
        if (fast !== readWith(() => parseJsonWithReader(text, { deferred: inferenceLog }))) mismatches.push(`${file}: ${text.slice(0, 80)}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(lines).toBeGreaterThan(4000);
    expect(native / lines).toBeGreaterThan(0.9);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { filesUnder } from '../../src/util/files-under.js';
import { JsonDecodeError, JsonReader, jsonDumps, parseJsonLossless } from '../../src/py/json.js';
import { JsonFragment, canonicalJsonAt } from '../../src/py/json-fragment.js';
import { pyRepr } from '../../src/py/repr.js';
import { pyDict } from '../../src/py/value.js';

/** What the fragment path must always equal: parse into Python values, then dump. */
function viaValues(text: string, ensureAscii: boolean): string {
  return jsonDumps(parseJsonLossless(text), { ensureAscii });
}

function viaFragment(text: string, ensureAscii: boolean): string {
  const reader = new JsonReader(text);
  reader.skipWs();
  const out = canonicalJsonAt(reader, ensureAscii);
  reader.skipWs();
  if (reader.i !== text.length) reader.fail('Extra data');
  return out;
}

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return error instanceof JsonDecodeError ? error.message : `unexpected ${String(error)}`;
  }
  return 'no error';
}

const CASES = [
  '{"a": 1, "b": [1, 2.5, "x"]}',
  '{"a":1,"b":[1,2.5,"x"]}',
  ' { "a" :\t1 ,\n "b" : [ ] , "c" : { } } ',
  '[1.0, 1.50, 1e5, 1E-7, -0, -0.0, 12345678901234567890, 0.1, 1e400, -1e400]',
  '[NaN, Infinity, -Infinity, true, false, null]',
  '"caf\\u00e9 \\ud83d\\ude00 \\/ \\"q\\" \\\\ \\n\\t\\b\\f\\r \\u001f \\u007f"',
  '"café 😀 ñ \u007f"',
  '"del \u007f alone is not ASCII to ensure_ascii"',
  '{"k\\u00e9y": "v", "plain": "x"}',
  '{"a": 1, "a": 2, "b": 3}',
  '[{"x": {"y": 1, "y": [2]}}]',
  '[[[]], [{}], ""]',
  '"\\ud800 lone surrogate"',
];

const INVALID = ['{"a": 1,}', '[1, 2', '{"a" 1}', '"abc', '"bad \\x escape"', '"ctl \u0001 char"', '[01]', '{"a": }', "{'a': 1}", '[1 2]', '"\\u12G4"', ''];

describe('canonicalJsonAt (json.dumps(json.loads(text)) without building values)', () => {
  for (const text of CASES) {
    for (const ensureAscii of [false, true]) {
      it(`${JSON.stringify(text)} ensure_ascii=${ensureAscii}`, () => {
        expect(viaFragment(text, ensureAscii)).toBe(viaValues(text, ensureAscii));
      });
    }
  }

  it('keeps canonical input as it is and rewrites only what differs', () => {
    expect(viaFragment('{"a": [1, 2.0], "b": "é"}', false)).toBe('{"a": [1, 2.0], "b": "é"}');
    expect(viaFragment('{"a":[1,2.00],"b":"\\u00e9"}', false)).toBe('{"a": [1, 2.0], "b": "é"}');
    expect(viaFragment('{"a": 1, "a": 2}', false)).toBe('{"a": 2}');
  });

  for (const text of INVALID) {
    it(`rejects ${JSON.stringify(text)} with json.loads's message`, () => {
      const expected = errorOf(() => parseJsonLossless(text));
      expect(expected).not.toBe('no error');
      expect(errorOf(() => viaFragment(text, false))).toBe(expected);
    });
  }
});

describe('JsonFragment', () => {
  it('is read lazily from a deferred key and dumps like the parsed value', () => {
    const line = '{"id": "x_1", "log": [{"role": "user", "content": "h\\u00e9"}], "n": 2}';
    const parsed = parseJsonLossless(line, { deferred: { keys: new Set(['log']), read: (r) => JsonFragment.read(r) } });
    const log = (parsed as Map<string, unknown>).get('log');
    expect(log).toBeInstanceOf(JsonFragment);
    const fragment = log as JsonFragment;
    expect(jsonDumps(parsed as Map<string, never>, { ensureAscii: false })).toBe(jsonDumps(parseJsonLossless(line), { ensureAscii: false }));
    expect(jsonDumps(parsed as Map<string, never>)).toBe(jsonDumps(parseJsonLossless(line)));
    expect(jsonDumps(pyDict({ log: fragment }), { indent: 2 })).toBe(jsonDumps(pyDict({ log: fragment.value }), { indent: 2 }));
    expect(fragment.pyRepr()).toBe(pyRepr(fragment.value));
    expect(fragment.pyTypeName).toBe('list');
  });

  it('fails a line whose deferred value is not valid JSON, with the position in the line', () => {
    const line = '{"id": "x_1", "log": [1, 2,], "n": 2}';
    const deferred = { keys: new Set(['log']), read: (r: JsonReader) => JsonFragment.read(r) };
    expect(errorOf(() => parseJsonLossless(line, { deferred }))).toBe(errorOf(() => parseJsonLossless(line)));
  });
});

// Every line of every result file in the conformance runs (skipped without the shared data).
const dataDir = process.env.BFCL_DATA_DIR;
const conformanceDir =
  dataDir === undefined ? '' : resolve(process.env.BFCL_CONFORMANCE_DIR ?? join(dirname(resolve(dataDir)), 'conformance'));

function resultFiles(dir: string): string[] {
  return [...filesUnder(dir)].filter((file) => file.endsWith('_result.json'));
}

describe.skipIf(dataDir === undefined || !existsSync(conformanceDir))('canonicalJsonAt on real result files', () => {
  it('equals parse-then-dump on every line, both ensure_ascii modes', () => {
    let lines = 0;
    const mismatches: string[] = [];
    for (const file of [...resultFiles(join(conformanceDir, 'real-run')), ...resultFiles(join(conformanceDir, 'synthetic'))]) {
      for (const text of readFileSync(file, 'utf8').split('\n')) {
        if (text.trim() === '') continue;
        lines++;
        for (const ensureAscii of [false, true]) {
          if (viaFragment(text, ensureAscii) !== viaValues(text, ensureAscii)) mismatches.push(`${file}: ${text.slice(0, 60)}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(lines).toBeGreaterThan(10_000);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { filesUnder } from '../../src/util/files-under.js';
import { JsonDecodeError, JsonReader, jsonDumps, parseJsonLossless } from '../../src/py/json.js';
import { JsonFragment, canonicalJsonAt } from '../../src/py/json-fragment.js';
import { pyRepr } from '../../src/py/repr.js';
import { pyDict } from '../../src/py/value.js';
import { seededRandom } from '../helpers/random.js';

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

/** The `log` key of a test line, read as a fragment. */
const LOG_AS_FRAGMENT = { keys: new Set(['log']), read: (r: JsonReader) => JsonFragment.read(r) };

describe('JsonFragment', () => {
  it('is read lazily from a deferred key and dumps like the parsed value', () => {
    const line = '{"id": "x_1", "log": [{"role": "user", "content": "h\\u00e9"}], "n": 2}';
    const parsed = parseJsonLossless(line, { deferred: LOG_AS_FRAGMENT });
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
    expect(errorOf(() => parseJsonLossless(line, { deferred: LOG_AS_FRAGMENT }))).toBe(errorOf(() => parseJsonLossless(line)));
  });
});

/** The fragment a deferred key of a line reads (the fast path when its value is a container). */
function fragmentOf(valueText: string): JsonFragment {
  const line = `{"id": "x_1", "log": ${valueText}, "n": 2}`;
  return (parseJsonLossless(line, { deferred: LOG_AS_FRAGMENT }) as Map<string, unknown>).get('log') as JsonFragment;
}

/** Valid containers, several of them not written as `json.dumps` writes them (those take the exact path). */
/** An object of `count` keys `k0`, `k1`..., where the key at index `repeat[1]` is `repeat[0]` again. */
function manyKeys(count: number, repeat: string[]): string {
  const members = Array.from({ length: count }, (_, i) => `"${`k${i}` === repeat[1] ? repeat[0] : `k${i}`}": {"n": ${i}}`);
  return `[{${members.join(', ')}}]`;
}

const FAST_PATH_CASES = [
  '{"a": 1, "a": 2}',
  '[{"k": {"x": 1, "y": {"x": 2, "x": 3}}}]',
  '{"a\\\\": 1, "b": "x\\": y", "c": "\\\\\\": "}',
  '{"q": "say \\"x\\": y", "q": 1}',
  '["\\\\u00e9 is not an escape", "\\\\\\u00e9 is one"]',
  '["\\u0041", "\\u00E9", "\\u00e9", "\\ud83d\\ude00", "\\ud800", "\\u007f", "\\u001f", "\\u000a", "\\/"]',
  '["café", "\\u00e9", "mixed é \\u00e9", "del \u007f", "😀"]',
  '[1.5, 0.1, 1e-05, 1e+16, 1.0E5, 0.0001, 100.0, 1.10, -0.0, 0.7847423553466797, 12345678901234567890, 1e400]',
  '[-0, 0, -1, 10]',
  '{"__proto__": {"a": 1}, "constructor": 2}',
  '[{"a": "}{\\"a\\": ", "b": "x\\\\"}, {"a": "{", "b": 1}, "a"]',
  // Keys of one length that differ, the same key in a sibling and in a child (no repeat), a repeat
  // after a nested object closed, and a repeat in an object after its child's keys.
  '{"ab": 1, "cd": 2, "ac": {"ab": 3, "ab": [4]}}',
  '[{"a": 1}, {"a": 2, "b": {"a": {"a": 3}}}]',
  '{"a": {"b": 1, "c": {"d": 2}}, "b": 3, "a": 4}',
  '{"x": [{"y": 1, "z": 2}], "y": 3, "z": 4, "x": 5}',
  // Objects past the list size of the repeated-key check: a repeat early, late, and none.
  manyKeys(40, ['k3', 'k30']),
  manyKeys(40, ['k20', 'k35']),
  manyKeys(40, []),
  '[ 1, 2 ]',
  '{"a":1}',
  '[]',
  '{}',
];

describe('JsonFragment on containers', () => {
  for (const text of [...FAST_PATH_CASES, ...CASES.filter((c) => c.startsWith('{') || c.startsWith('['))]) {
    it(`${JSON.stringify(text)} dumps as its parsed value`, () => {
      const fragment = fragmentOf(text);
      expect(fragment.jsonText(false)).toBe(viaValues(text, false));
      expect(fragment.jsonText(true)).toBe(viaValues(text, true));
    });
  }

  it('keeps text json.dumps wrote as it is, in both ensure_ascii forms', () => {
    const unicode = '[{"role": "user", "content": "café \\n x"}, 2.5]';
    expect(fragmentOf('[{"role": "user", "content": "caf\\u00e9 \\n x"}, 2.5]').jsonText(false)).toBe(unicode);
    expect(fragmentOf(unicode).jsonText(false)).toBe(unicode);
  });

  it('reads a log with a 20 MB string', () => {
    const text = `[{"role": "tool", "content": "${'x'.repeat(20_000_000)}"}, 1.0]`;
    expect(fragmentOf(text).jsonText(false)).toBe(text);
  });

  for (const text of ['[1, 2,]', '[NaN]', '{"a": Infinity}', '[1 2]', '{"a" 1}', '["ctl raw \u0001"]', '[1, 2', '[1, "a]']) {
    it(`leaves ${JSON.stringify(text)} to the exact path (same value or same error as json.loads)`, () => {
      const line = `{"id": "x_1", "log": ${text}, "n": 2}`;
      const expected = errorOf(() => parseJsonLossless(line));
      if (expected !== 'no error') expect(errorOf(() => parseJsonLossless(line, { deferred: LOG_AS_FRAGMENT }))).toBe(expected);
      else expect(fragmentOf(text).jsonText(false)).toBe(viaValues(text, false));
    });
  }
});

const STRING_PIECES = ['a', 'role', ' ', ': ', '", "', '\\', '"', '\n', '\t', '\u0001', '\u001f', '\u007f', 'é', '😀', '\ud800', '/', 'u00e9', '\\u00e9'];
const NUMBER_SPELLINGS = ['0', '-0', '7', '-12', '12345678901234567890', '1.5', '2.0', '-0.0', '0.1', '1e-05', '1E5', '1.10', '0.7847423553466797', '100.0', '1e400'];

/** JSON text of a random value, written in a random one of the spellings json.loads accepts. */
function randomJsonText(next: (n: number) => number, depth: number, dumpsSeparators = false): string {
  const ws = (): string => (dumpsSeparators ? '' : ['', '', ' ', '\n', '  '][next(5)]!);
  const kind = depth > 3 ? next(3) : next(6);
  if (kind === 0) return NUMBER_SPELLINGS[next(NUMBER_SPELLINGS.length)]!;
  if (kind === 1) return ['true', 'false', 'null'][next(3)]!;
  if (kind === 2) {
    let value = '';
    for (let i = next(5); i > 0; i--) value += STRING_PIECES[next(STRING_PIECES.length)];
    const spelled = JSON.stringify(value);
    // Some strings escaped as ensure_ascii=True writes them, some with upper-case hex.
    const ascii = next(2) === 0 ? spelled : spelled.replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
    return next(4) === 0 ? ascii.replace(/\\u00([0-9a-f]{2})/g, (_m, h: string) => '\\u00' + h.toUpperCase()) : ascii;
  }
  const items: string[] = [];
  const count = next(4);
  if (kind === 3 || kind === 5) {
    for (let i = 0; i < count; i++) items.push(ws() + randomJsonText(next, depth + 1, dumpsSeparators) + ws());
    return '[' + items.join(dumpsSeparators || next(2) === 0 ? ', ' : ',') + ']';
  }
  const keys = ['a', 'b', 'role', 'a\\"b', '__proto__', '1'];
  for (let i = 0; i < count; i++) {
    const colon = dumpsSeparators ? ': ' : ':' + [' ', '', '  '][next(3)]!;
    items.push(`${ws()}"${keys[next(keys.length)]}"${ws()}${colon}${randomJsonText(next, depth + 1, dumpsSeparators)}${ws()}`);
  }
  return '{' + items.join(dumpsSeparators || next(2) === 0 ? ', ' : ',') + '}';
}

describe('JsonFragment on random JSON spellings', () => {
  it('dumps every random container exactly as parse-then-dump does, in both ensure_ascii modes', () => {
    const next = seededRandom(20261122);
    const mismatches: string[] = [];
    let containers = 0;
    for (let i = 0; i < 4000; i++) {
      const text = randomJsonText(next, 0);
      if (!text.startsWith('[') && !text.startsWith('{')) continue;
      containers++;
      const fragment = fragmentOf(text);
      if (fragment.jsonText(false) !== viaValues(text, false) || fragment.jsonText(true) !== viaValues(text, true)) mismatches.push(text);
    }
    expect(mismatches).toEqual([]);
    expect(containers).toBeGreaterThan(1000);
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
    let logLines = 0;
    const mismatches: string[] = [];
    for (const file of [...resultFiles(join(conformanceDir, 'real-run')), ...resultFiles(join(conformanceDir, 'synthetic'))]) {
      for (const text of readFileSync(file, 'utf8').split('\n')) {
        if (text.trim() === '') continue;
        lines++;
        for (const ensureAscii of [false, true]) {
          if (viaFragment(text, ensureAscii) !== viaValues(text, ensureAscii)) mismatches.push(`${file}: ${text.slice(0, 60)}`);
        }
        // The line's own log text and the ensure_ascii=True spelling of it.
        const log = (parseJsonLossless(text) as Map<string, unknown>).get('inference_log');
        if (log !== undefined && typeof log === 'object') {
          const unicode = jsonDumps(log as never, { ensureAscii: false });
          for (const spelling of [unicode, jsonDumps(log as never)]) {
            if (fragmentOf(spelling).jsonText(false) !== unicode) mismatches.push(`log ${file}: ${text.slice(0, 60)}`);
          }
          logLines++;
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(lines).toBeGreaterThan(10_000);
    expect(logLines).toBeGreaterThan(1_000);
  });
});

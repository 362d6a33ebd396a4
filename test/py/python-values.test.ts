import { describe, expect, it } from 'vitest';
import { formatFixed, pyRound, pySplitlines, pySplitWhitespace, pySum } from '../../src/py/builtins.js';
import { jsonDumps, parseJsonLossless } from '../../src/py/json.js';
import { PyRandom } from '../../src/py/random.js';
import { floatRepr, pyRepr } from '../../src/py/repr.js';
import { PySet, PyTuple, pyDict, pyEquals } from '../../src/py/value.js';

// Expected strings below were printed once by CPython 3.11/3.12.
describe('PyRandom matches CPython random.Random', () => {
  it('getrandbits and randint (MessageAPI seed)', () => {
    const r = new PyRandom(200191);
    expect([r.getrandbits(32), r.getrandbits(32), r.getrandbits(32)]).toEqual([1881223403n, 1041125569n, 476682860n]);
    const s = new PyRandom(200191);
    expect([s.randint(10000n, 99999n), s.randint(10000n, 99999n), s.randint(10000n, 99999n)]).toEqual([67410n, 41772n, 24547n]);
  });
  it('keeps matching past the first and second twist, for a first and a later generator of a seed', () => {
    for (const r of [new PyRandom(200191), new PyRandom(200191)]) {
      const words = Array.from({ length: 1300 }, () => r.getrandbits(32));
      expect([words[623], words[624], words[1299]]).toEqual([1978123611n, 1383305942n, 3784514169n]);
    }
  });
  it('randint sequences of the TradingBot and TravelAPI seeds', () => {
    const t = new PyRandom(1053520);
    expect([t.randint(0n, 86400n), t.randint(0n, 86400n), t.randint(0n, 86400n)]).toEqual([69015n, 6994n, 64788n]);
    const v = new PyRandom(141053);
    expect(v.randint(100000n, 999999n)).toBe(251675n);
    expect(v.randint(100000000000n, 999999999999n)).toBe(391310425148n);
    expect(v.randint(10000n, 99999n)).toBe(58617n);
  });
  it('uniform, random, wide getrandbits, big seeds and choice', () => {
    const v = new PyRandom(141053);
    expect(v.uniform(-10.0, 40.0)).toBe(36.63485703790535);
    expect(v.uniform(0.0, 120.0)).toBe(99.11925428879405);
    const big = new PyRandom(2n ** 70n + 5n);
    expect(big.getrandbits(70)).toBe(560594729951035403435n);
    expect(big.random()).toBe(0.6256962744028001);
    expect(big.choice(['a', 'b', 'c', 'd', 'e'])).toBe('c');
    expect(new PyRandom(0).random()).toBe(0.8444218515250481);
  });
});

describe('repr', () => {
  it.each([
    [1e-5, '1e-05'], [1.5e16, '1.5e+16'], [1e16, '1e+16'], [123456789012345678.0, '1.2345678901234568e+17'],
    [0.1, '0.1'], [100.0, '100.0'], [-0.0, '-0.0'], [1e22, '1e+22'], [5e-324, '5e-324'], [0.0001, '0.0001'],
    [12345.678, '12345.678'], [1 / 3, '0.3333333333333333'], [2.5e-7, '2.5e-07'], [Infinity, 'inf'],
  ])('float %s → %s', (x, expected) => expect(floatRepr(x)).toBe(expected));

  it.each([
    ["a'b", `"a'b"`], ['a"b', `'a"b'`], [`a'b"c`, `'a\\'b"c'`], ['tab\there', "'tab\\there'"], ['nl\n', "'nl\\n'"],
    ['\x00\x7f', "'\\x00\\x7f'"], ['café', "'café'"], ['\u00a0', "'\\xa0'"], ['\u2028', "'\\u2028'"],
    ['emoji\u{1F600}', "'emoji\u{1F600}'"], ['\\', "'\\\\'"], ['\x85', "'\\x85'"], ['\u200b', "'\\u200b'"],
  ])('str %j → %s', (s, expected) => expect(pyRepr(s)).toBe(expected));

  it('repr of every ASCII character alone and between plain text, as CPython writes it', () => {
    // CPython: \t \n \r and \\ by name, other controls and DEL as \xNN, a ' switches to "..." quotes.
    const escaped = (ch: string): string => {
      const named: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' };
      const code = ch.charCodeAt(0);
      return named[ch] ?? (code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : ch);
    };
    for (let code = 0; code < 0x80; code++) {
      const ch = String.fromCharCode(code);
      for (const text of [ch, `ab ${ch} cd`]) {
        const expected = ch === "'" ? `"${text}"` : `'${[...text].map(escaped).join('')}'`;
        expect(pyRepr(text), JSON.stringify(text)).toBe(expected);
      }
    }
  });

  it('containers', () => {
    expect(pyRepr(new PyTuple([1n]))).toBe('(1,)');
    expect(pyRepr(new PyTuple([]))).toBe('()');
    expect(pyRepr(new PySet())).toBe('set()');
    expect(pyRepr(new PySet([1n, 2n]))).toBe('{1, 2}');
    expect(pyRepr(pyDict({ a: new PyTuple([1n, 2.0]) }))).toBe("{'a': (1, 2.0)}");
    expect(pyRepr([null, true, 'x', 3n, 3.0])).toBe("[None, True, 'x', 3, 3.0]");
  });
});

describe('json', () => {
  it('dumps like Python json.dumps', () => {
    const value = new Map<string | bigint, unknown>([
      ['a', [1n, 2.0, 'é\u2028', null, true]],
      [3n, pyDict({ x: 1e-5 })],
    ]);
    expect(jsonDumps(value as never)).toBe('{"a": [1, 2.0, "\\u00e9\\u2028", null, true], "3": {"x": 1e-05}}');
    const nested = pyDict({ a: [1n, pyDict({ b: [] })], c: new Map() });
    expect(jsonDumps(nested, { indent: 4 })).toBe(
      '{\n    "a": [\n        1,\n        {\n            "b": []\n        }\n    ],\n    "c": {}\n}',
    );
    expect(() => jsonDumps(new PySet([1n]))).toThrow('Object of type set is not JSON serializable');
  });
  it('parses losslessly', () => {
    const v = parseJsonLossless('{"b": 1, "a": [1.0, -2, 3e2, "\\u00e9\\n"], "12": null}');
    expect(v).toEqual(new Map<string, unknown>([['b', 1n], ['a', [1.0, -2n, 300, 'é\n']], ['12', null]]));
    expect(jsonDumps(v)).toBe('{"b": 1, "a": [1.0, -2, 300.0, "\\u00e9\\n"], "12": null}');
    expect(() => parseJsonLossless('{"a": 1,}')).toThrow(
      'Expecting property name enclosed in double quotes: line 1 column 9 (char 8)',
    );
    expect(() => parseJsonLossless('[1 2]')).toThrow("Expecting ',' delimiter: line 1 column 4 (char 3)");
  });
  it('reads ints of every size exactly and rejects leading zeros as json.loads does', () => {
    expect(parseJsonLossless('[0, 7, 123456789012345, 1234567890123456, 98765432109876543210, -0, -12, 5e0, 0.0]')).toEqual([
      0n, 7n, 123456789012345n, 1234567890123456n, 98765432109876543210n, 0n, -12n, 5, 0,
    ]);
    expect(() => parseJsonLossless('[01]')).toThrow("Expecting ',' delimiter: line 1 column 3 (char 2)");
    expect(() => parseJsonLossless('[00]')).toThrow("Expecting ',' delimiter: line 1 column 3 (char 2)");
  });
});

describe('numeric builtins', () => {
  it('round and %.2f tie to even on the exact binary value', () => {
    expect([2.675, 0.125, 0.375, 1.005, -2.675].map((x) => pyRound(x, 2))).toEqual([2.67, 0.12, 0.38, 1.0, -2.67]);
    expect([pyRound(2.5), pyRound(3.5), pyRound(-2.5), pyRound(1234n, -2), pyRound(1250n, -2), pyRound(5.0, 0)]).toEqual([
      2n, 4n, -2n, 1200n, 1200n, 5.0,
    ]);
    expect([0.125, 0.375, 2.675, 1e20, -0.001, 0.005, 1.5].map((x) => formatFixed(x, 2))).toEqual([
      '0.12', '0.38', '2.67', '100000000000000000000.00', '-0.00', '0.01', '1.50',
    ]);
  });
  it('sum is exact for ints and compensated for floats (3.12)', () => {
    expect(pySum([1n, 2n, true])).toBe(4n);
    expect(pySum([0.1, 0.2, 0.3])).toBe(0.6);
    expect(pySum([1e100, 1.0, -1e100])).toBe(1.0);
  });
  it('splitlines and split', () => {
    expect(pySplitlines('a\x1cb\rc\r\nd\n')).toEqual(['a', 'b', 'c', 'd']);
    expect(pySplitWhitespace('a \u3000b\x1fc\x85d')).toEqual(['a', 'b', 'c', 'd']);
  });
  it('Python equality', () => {
    expect(pyEquals(1n, 1.0)).toBe(true);
    expect(pyEquals(true, 1n)).toBe(true);
    expect(pyEquals([1n], new PyTuple([1n]))).toBe(false);
    expect(pyEquals(pyDict({ a: 1n, b: 2n }), pyDict({ b: 2.0, a: 1n }))).toBe(true);
  });
});

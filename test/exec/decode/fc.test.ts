/**
 * The FC decoders (OpenAI Responses / chat completions / Claude). `raw` is the result-file JSON
 * of the case; every expectation was produced by running the reference's `decode_ast` /
 * `convert_to_function_call` under CPython on the same value.
 */
import { describe, expect, it } from 'vitest';
import { decodeAstFC, decodeExecuteFC, type DecodeResult } from '../../../src/exec/decode/index.js';
import { parseJsonLossless } from '../../../src/py/json.js';
import type { PyValue } from '../../../src/py/value.js';
import { outcome } from './helpers.js';

interface Case {
  kind: 'fc_ast' | 'fc_exec';
  /** The `result` value, as JSON text. */
  raw: string;
  repr?: string;
  error?: string;
}

const CASES: Case[] = [
  {"kind": "fc_ast", "raw": "[{\"f\": \"{\\\"a\\\": 1, \\\"b\\\": [1.0, 2.5e-7], \\\"c\\\": {\\\"d\\\": null}}\"}]", "repr": "[{'f': {'a': 1, 'b': [1.0, 2.5e-07], 'c': {'d': None}}}]"},
  {"kind": "fc_exec", "raw": "[{\"f\": \"{\\\"a\\\": 1, \\\"b\\\": [1.0, 2.5e-7], \\\"c\\\": {\\\"d\\\": null}}\"}]", "repr": "[\"f(a=1,b=[1.0, 2.5e-07],c={'d': None})\"]"},
  {"kind": "fc_ast", "raw": "[{\"f\": \"{}\"}, {\"g\": \"{\\\"x\\\": \\\"it's\\\"}\"}]", "repr": "[{'f': {}}, {'g': {'x': \"it's\"}}]"},
  {"kind": "fc_exec", "raw": "[{\"f\": \"{}\"}, {\"g\": \"{\\\"x\\\": \\\"it's\\\"}\"}]", "repr": "['f()', 'g(x=\"it\\'s\")']"},
  {"kind": "fc_ast", "raw": "[{\"f\": \"{\\\"a\\\": 1}\", \"g\": \"{\\\"b\\\": 2}\"}]", "repr": "[{'f': {'a': 1}}]"},
  {"kind": "fc_exec", "raw": "[{\"f\": \"{\\\"a\\\": 1}\", \"g\": \"{\\\"b\\\": 2}\"}]", "repr": "['f(a=1)', 'g(b=2)']"},
  {"kind": "fc_ast", "raw": "{\"f\": \"{\\\"a\\\": 1}\"}", "error": "AttributeError: 'str' object has no attribute 'keys'"},
  {"kind": "fc_exec", "raw": "{\"f\": \"{\\\"a\\\": 1}\"}", "repr": "['f(a=1)']"},
  {"kind": "fc_ast", "raw": "[{\"f\": {\"a\": 1}}]", "error": "TypeError: the JSON object must be str, bytes or bytearray, not dict"},
  {"kind": "fc_exec", "raw": "[{\"f\": {\"a\": 1}}]", "repr": "['f(a=1)']"},
  {"kind": "fc_ast", "raw": "[{\"f\": \"[1, 2]\"}]", "repr": "[{'f': [1, 2]}]"},
  {"kind": "fc_exec", "raw": "[{\"f\": \"[1, 2]\"}]", "error": "AttributeError: 'list' object has no attribute 'items'"},
  {"kind": "fc_ast", "raw": "[{\"f\": \"5\"}]", "repr": "[{'f': 5}]"},
  {"kind": "fc_exec", "raw": "[{\"f\": \"\\\"text\\\"\"}]", "error": "AttributeError: 'str' object has no attribute 'items'"},
  {"kind": "fc_ast", "raw": "[{\"f\": \"{'a': 1}\"}]", "error": "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
  {"kind": "fc_exec", "raw": "[{\"f\": \"{'a': 1}\"}]", "error": "JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
  {"kind": "fc_ast", "raw": "[{\"f\": \"{\\\"a\\\": 1} extra\"}]", "error": "JSONDecodeError: Extra data: line 1 column 10 (char 9)"},
  {"kind": "fc_ast", "raw": "[{\"f\": \"\"}]", "error": "JSONDecodeError: Expecting value: line 1 column 1 (char 0)"},
  {"kind": "fc_ast", "raw": "[{\"f\": \"{\\\"a\\\": NaN, \\\"b\\\": -Infinity}\"}]", "repr": "[{'f': {'a': nan, 'b': -inf}}]"},
  {"kind": "fc_exec", "raw": "[{\"f\": \"{\\\"a\\\": NaN, \\\"b\\\": -Infinity}\"}]", "repr": "['f(a=nan,b=-inf)']"},
  {"kind": "fc_ast", "raw": "[{\"f\": null}]", "error": "TypeError: the JSON object must be str, bytes or bytearray, not NoneType"},
  {"kind": "fc_exec", "raw": "[{\"f\": null}]", "error": "AttributeError: 'NoneType' object has no attribute 'items'"},
  {"kind": "fc_ast", "raw": "[{\"f\": 3}]", "error": "TypeError: the JSON object must be str, bytes or bytearray, not int"},
  {"kind": "fc_ast", "raw": "[{}]", "error": "IndexError: list index out of range"},
  {"kind": "fc_exec", "raw": "[{}]", "repr": "[]"},
  {"kind": "fc_ast", "raw": "[]", "repr": "[]"},
  {"kind": "fc_exec", "raw": "[]", "repr": "[]"},
  {"kind": "fc_ast", "raw": "\"\"", "repr": "[]"},
  {"kind": "fc_exec", "raw": "\"\"", "repr": "[]"},
  {"kind": "fc_ast", "raw": "\"text\"", "error": "AttributeError: 'str' object has no attribute 'keys'"},
  {"kind": "fc_exec", "raw": "\"text\"", "error": "AttributeError: 'str' object has no attribute 'items'"},
  {"kind": "fc_ast", "raw": "null", "error": "TypeError: 'NoneType' object is not iterable"},
  {"kind": "fc_exec", "raw": "null", "error": "TypeError: 'NoneType' object is not iterable"},
  {"kind": "fc_ast", "raw": "7", "error": "TypeError: 'int' object is not iterable"},
  {"kind": "fc_exec", "raw": "1.5", "error": "TypeError: 'float' object is not iterable"},
  {"kind": "fc_ast", "raw": "true", "error": "TypeError: 'bool' object is not iterable"},
  {"kind": "fc_ast", "raw": "{}", "repr": "[]"},
  {"kind": "fc_exec", "raw": "{}", "repr": "[]"},
  {"kind": "fc_ast", "raw": "[\"a\", \"b\"]", "error": "AttributeError: 'str' object has no attribute 'keys'"},
  {"kind": "fc_exec", "raw": "[\"a\"]", "error": "AttributeError: 'str' object has no attribute 'items'"},
  {"kind": "fc_ast", "raw": "[null]", "error": "AttributeError: 'NoneType' object has no attribute 'keys'"},
  {"kind": "fc_exec", "raw": "[null]", "error": "AttributeError: 'NoneType' object has no attribute 'items'"},
  {"kind": "fc_ast", "raw": "[[{\"f\": \"{}\"}]]", "error": "AttributeError: 'list' object has no attribute 'keys'"},
  {"kind": "fc_exec", "raw": "[[{\"f\": \"{}\"}]]", "error": "AttributeError: 'list' object has no attribute 'items'"},
  {"kind": "fc_exec", "raw": "[{\"f\": \"{\\\"s\\\": \\\"São \\\\\\\\ \\\\n \\\\u0007 \\\\\\\"q\\\\\\\"\\\", \\\"big\\\": 123456789012345678901234567890, \\\"t\\\": true}\"}]", "repr": "['f(s=\\'São \\\\\\\\ \\\\n \\\\x07 \"q\"\\',big=123456789012345678901234567890,t=True)']"},
];

describe('FC decoders (expectations from CPython)', () => {
  for (const c of CASES) {
    it(`${c.kind} ${c.raw}`, () => {
      const raw = parseJsonLossless(c.raw);
      const result = c.kind === 'fc_ast' ? decodeAstFC(raw) : decodeExecuteFC(raw);
      expect(outcome(result as DecodeResult<PyValue>)).toBe(c.repr ?? c.error);
    });
  }

  it('a tuple argument value prints as a tuple in call strings', () => {
    const raw: PyValue = [new Map([['f', new Map<string, PyValue>([['t', [1n, 2.5]]])]])];
    expect(decodeExecuteFC(raw)).toEqual({ ok: true, value: ['f(t=[1, 2.5])'] });
  });

  it('counts JSON error positions in code points, as Python does', () => {
    const result = decodeAstFC([new Map([['f', '{"a": "\u{1F600}",\n "b": 1 x}']])]);
    expect(outcome(result)).toBe("JSONDecodeError: Expecting ',' delimiter: line 2 column 9 (char 19)");
  });

  it('a string starting with a byte-order mark is a JSON error, as json.loads says', () => {
    const result = decodeAstFC([new Map([['f', '\ufeff{}']])]);
    expect(result).toEqual({
      ok: false,
      errorType: 'JSONDecodeError',
      error: 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)',
    });
  });
});

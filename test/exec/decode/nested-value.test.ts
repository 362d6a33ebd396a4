/** `parse_nested_value`: argument-value rendering of execution call strings. Expectations from CPython. */
import { describe, expect, it } from 'vitest';
import { parseNestedValue } from '../../../src/exec/decode/index.js';
import { PyException, PyTuple, type PyDict, type PyValue } from '../../../src/py/value.js';

/** `f()` or `Type: message`. */
function run(f: () => string): string {
  try {
    return f();
  } catch (error) {
    if (error instanceof PyException) return `${error.pyType}: ${error.message}`;
    throw error;
  }
}

describe('parse_nested_value', () => {
  const call = (name: string, args: [string, PyValue][]): PyDict => new Map([[name, new Map(args)]]);
  it.each([
    ['x', "'x'"],
    [[1n, new Map([['k', 2n]])], "[1, {'k': 2}]"],
    [call('g', [['a', 1n], ['b', call('h', [])]]), 'g(a=1, b=h())'],
    [new Map<string, PyValue>([['k', "it's"], ['n', null]]), `{'k': "it's", 'n': None}`],
    [new Map<PyValue, PyValue>([[1n, 'x'], [null, 2.5]]) as PyDict, "{'1': 'x', 'None': 2.5}"],
    [new PyTuple([1n, 'a']), "(1, 'a')"],
  ] as [PyValue, string][])('%o → %s', (value, expected) => {
    expect(parseNestedValue(value)).toBe(expected);
  });

  it('raises IndexError on an empty dict, as the reference does', () => {
    expect(run(() => parseNestedValue(new Map()))).toBe('IndexError: list index out of range');
  });
});

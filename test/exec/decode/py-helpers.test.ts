/**
 * Small Python behaviours of the decoders: `int(str)` / `float(str)` (XML parameter types),
 * `str.strip`, dict insertion with Python key equality, argument-value rendering of call strings,
 * and the arithmetic evaluation of argument values. Expectations from CPython.
 */
import { describe, expect, it } from 'vitest';
import { parseNestedValue } from '../../../src/exec/decode/index.js';
import { pyDictSet, pyFloatFromString, pyIntFromString, pyStrip } from '../../../src/exec/decode/py-helpers.js';
import { pyRepr } from '../../../src/py/repr.js';
import { PyException, PyTuple, type PyDict, type PyValue } from '../../../src/py/value.js';

/** `repr(f(s))` or `Type: message`. */
function run(f: (s: string) => PyValue, s: string): string {
  try {
    return pyRepr(f(s));
  } catch (error) {
    if (error instanceof PyException) return `${error.pyType}: ${error.message}`;
    throw error;
  }
}

const NUMBERS: [kind: 'int' | 'float', text: string, expected: string][] = [
  ["int", "007", "7"],
  ["int", "-5", "-5"],
  ["int", " 12 ", "12"],
  ["int", "1_000", "1000"],
  ["int", "1__0", "ValueError: invalid literal for int() with base 10: '1__0'"],
  ["int", "+3", "3"],
  ["int", "٣", "3"],
  ["int", "0x10", "ValueError: invalid literal for int() with base 10: '0x10'"],
  ["int", "1.0", "ValueError: invalid literal for int() with base 10: '1.0'"],
  ["int", "", "ValueError: invalid literal for int() with base 10: ''"],
  ["int", "\t42\n", "42"],
  ["int", "-0", "0"],
  ["int", "1_", "ValueError: invalid literal for int() with base 10: '1_'"],
  ["int", "_1", "ValueError: invalid literal for int() with base 10: '_1'"],
  ["int", "１２", "12"],
  ["float", "1e5", "100000.0"],
  ["float", "inf", "inf"],
  ["float", "-Infinity", "-inf"],
  ["float", "nan", "nan"],
  ["float", " 2.5 ", "2.5"],
  ["float", "1_0.5", "10.5"],
  ["float", ".5", "0.5"],
  ["float", "5.", "5.0"],
  ["float", "0x1", "ValueError: could not convert string to float: '0x1'"],
  ["float", "1e", "ValueError: could not convert string to float: '1e'"],
  ["float", "+.5e-3", "0.0005"],
  ["float", "infinit", "ValueError: could not convert string to float: 'infinit'"],
  ["float", "iNF", "inf"],
  ["float", "1_000", "1000.0"],
  ["float", "1__0", "ValueError: could not convert string to float: '1__0'"],
  ["float", "1e1_0", "10000000000.0"],
  ["float", "-0.0", "-0.0"],
  ["float", "1E+2", "100.0"],
  ["float", "١.٥", "1.5"],
  ["float", "", "ValueError: could not convert string to float: ''"],
  ["float", ".", "ValueError: could not convert string to float: '.'"],
  ["float", "e5", "ValueError: could not convert string to float: 'e5'"],
];

describe('int(str) and float(str)', () => {
  it.each(NUMBERS)('%s(%j)', (kind, text, expected) => {
    expect(run(kind === 'int' ? pyIntFromString : pyFloatFromString, text)).toBe(expected);
  });
});

describe('str.strip', () => {
  it('strips Unicode whitespace by default and the given characters otherwise', () => {
    expect(pyStrip('\u3000\x1c x \x85\n')).toBe('x');
    expect(pyStrip('\ufeffx')).toBe('\ufeffx');
    expect(pyStrip('``\n [f()] \n```', '`\n ')).toBe('[f()]');
  });
});

describe('dict insertion with Python key equality', () => {
  it('keeps the first equal key and its position, with the last value', () => {
    const d: PyDict = new Map();
    pyDictSet(d, 1n, 'a');
    pyDictSet(d, 'k', 'b');
    pyDictSet(d, 1.0, 'c');
    pyDictSet(d, true, 'd');
    pyDictSet(d, new PyTuple([1n, 2n]), 'e');
    pyDictSet(d, new PyTuple([1n, 2.0]), 'f');
    expect(pyRepr(d)).toBe("{1: 'd', 'k': 'b', (1, 2): 'f'}");
  });

  it('rejects unhashable keys', () => {
    const insert = (key: PyValue) => (): PyValue => {
      pyDictSet(new Map(), key, 1n);
      return null;
    };
    expect(run(insert(['x']), '')).toBe("TypeError: unhashable type: 'list'");
    expect(run(insert(new PyTuple(['x', new Map()])), '')).toBe("TypeError: unhashable type: 'dict'");
  });
});

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
    expect(run(() => parseNestedValue(new Map()), '')).toBe('IndexError: list index out of range');
  });
});

/** Python str behaviour: strip, code-point slices, int(s) and float(s). Expected values are CPython's. */
import { describe, expect, it } from 'vitest';
import { pyRepr } from '../../src/py/repr.js';
import {
  decimalDigitValue,
  pyFloatFromString,
  pyFloatParse,
  pyIntFromString,
  pyIntParse,
  pyLstrip,
  pyStrip,
  strSlice,
} from '../../src/py/str.js';
import { PyException, type PyValue } from '../../src/py/value.js';

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

describe('int(str) and float(str)', () => {
  it.each(NUMBERS)('%s(%j)', (kind, text, expected) => {
    expect(run(kind === 'int' ? pyIntFromString : pyFloatFromString, text)).toBe(expected);
  });
});

describe('pyIntParse (int(s))', () => {
  it('parses what int() accepts', () => {
    expect(pyIntParse('42')).toBe(42n);
    expect(pyIntParse(' -7\n')).toBe(-7n);
    expect(pyIntParse('+3')).toBe(3n);
    expect(pyIntParse('1_000')).toBe(1000n);
    expect(pyIntParse('007')).toBe(7n);
    expect(pyIntParse('٤٢')).toBe(42n);
    expect(pyIntParse('123456789012345678901234567890')).toBe(123456789012345678901234567890n);
  });

  it('rejects the rest', () => {
    for (const s of ['', '1.0', '1e3', '_1', '1__0', '1_', '0x10', 'abc', '1 2']) expect(pyIntParse(s)).toBeUndefined();
  });
});

describe('pyFloatParse (float(s))', () => {
  it('parses what float() accepts', () => {
    expect(pyFloatParse('1.5')).toBe(1.5);
    expect(pyFloatParse(' .5 ')).toBe(0.5);
    expect(pyFloatParse('5.')).toBe(5);
    expect(pyFloatParse('1e-05')).toBe(1e-5);
    expect(pyFloatParse('1_0.2_5')).toBe(10.25);
    expect(pyFloatParse('Infinity')).toBe(Infinity);
    expect(pyFloatParse('-inf')).toBe(-Infinity);
    expect(pyFloatParse('NaN')).toBeNaN();
    expect(pyFloatParse('1e400')).toBe(Infinity);
  });

  it('rejects the rest', () => {
    for (const s of ['', '.', 'e5', '1e', '1.5f', 'infinite', '0x1p3', '1,5']) expect(pyFloatParse(s)).toBeUndefined();
  });
});

describe('str.strip and str.lstrip', () => {
  it('strips Unicode whitespace by default and the given characters otherwise', () => {
    expect(pyStrip('\u3000\x1c x \x85\n')).toBe('x');
    expect(pyStrip('\x1c a \x85')).toBe('a');
    expect(pyStrip('\ufeffx')).toBe('\ufeffx'); // U+FEFF is not whitespace for Python
    expect(pyStrip('``\n [f()] \n```', '`\n ')).toBe('[f()]');
    expect(pyStrip(`"'key'"`, `'"`)).toBe('key');
    expect(pyLstrip('  x  ')).toBe('x  ');
    expect(pyLstrip('//a/', '/')).toBe('a/');
  });

  it('strips astral characters as whole code points', () => {
    expect(pyStrip('😀a😀', '😀')).toBe('a');
    expect(pyStrip('😀a😁', '😀')).toBe('a😁');
    expect(pyLstrip('😀😀a', '😀')).toBe('a');
  });
});

describe('code points', () => {
  it('slices by code point', () => {
    expect(strSlice('"😀"', 1, -1)).toBe('😀');
    expect(strSlice('x', 1, -1)).toBe('');
    expect(strSlice('ab😀', 0, -1)).toBe('ab');
  });

  it('reads the value of Unicode decimal digits', () => {
    expect(['7', '٣', '１', '𝟗', 'a', '²'].map(decimalDigitValue)).toEqual([7, 3, 1, 9, undefined, undefined]);
  });
});

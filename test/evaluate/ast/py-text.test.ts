/** Python text helpers used by the type converters (expected values are CPython's). */
import { describe, expect, it } from 'vitest';

import { pyFloatParse, pyInner, pyIntParse, pyStrip, pyStripChars } from '../../../src/evaluate/ast/py-text.js';

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

describe('strings', () => {
  it('strips Python whitespace only', () => {
    expect(pyStrip('\x1c a \x85')).toBe('a');
    expect(pyStrip('\ufeffa')).toBe('\ufeffa'); // U+FEFF is not whitespace for Python
    expect(pyStripChars(`"'key'"`, `'"`)).toBe('key');
  });

  it('slices by code point', () => {
    expect(pyInner('"😀"')).toBe('😀');
    expect(pyInner('x')).toBe('');
  });
});

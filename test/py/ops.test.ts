/** Python operations on arbitrary values (src/py/ops.ts, src/py/operators.ts); expected values are CPython 3.11's. */
import { describe, expect, it } from 'vitest';
import { pyLen } from '../../src/py/builtins.js';
import { PyComplex } from '../../src/py/complex.js';
import { intToFloat, intTrueDivide } from '../../src/py/numbers.js';
import { pyBinaryOp } from '../../src/py/operators.js';
import {
  augmented,
  deleteItem,
  dictContains,
  dictGetOr,
  dictLookup,
  dictSet,
  expectDictFor,
  expectListFor,
  getItem,
  joinStrings,
  lower,
  pyAbs,
  pyCompare,
  pyContains,
  pyFloat,
  pyIntConvert,
  pyIterate,
  setItem,
} from '../../src/py/ops.js';
import { pyRepr } from '../../src/py/repr.js';
import { PY_ELLIPSIS, PyException, PySet, PyTuple, pyDict, type PyDict, type PyValue } from '../../src/py/value.js';

/** `repr(f())` or `Type: message`. */
function run(f: () => PyValue): string {
  try {
    return pyRepr(f());
  } catch (error) {
    if (error instanceof PyException) return `${error.pyType}: ${error.message}`;
    throw error;
  }
}

const tuple = (...items: PyValue[]): PyTuple => new PyTuple(items);

describe('dicts with Python key equality', () => {
  it('keeps the first equal key and its position, with the last value', () => {
    const d: PyDict = new Map();
    dictSet(d, 1n, 'a');
    dictSet(d, 'k', 'b');
    dictSet(d, 1.0, 'c');
    dictSet(d, true, 'd');
    dictSet(d, tuple(1n, 2n), 'e');
    dictSet(d, tuple(1n, 2.0), 'f');
    expect(pyRepr(d)).toBe("{1: 'd', 'k': 'b', (1, 2): 'f'}");
  });

  it('rejects unhashable keys, also inside a tuple', () => {
    expect(run(() => (dictSet(new Map(), ['x'], 1n), null))).toBe("TypeError: unhashable type: 'list'");
    expect(run(() => (dictSet(new Map(), tuple('x', new Map()), 1n), null))).toBe("TypeError: unhashable type: 'dict'");
    expect(run(() => dictContains(new Map(), new PySet()))).toBe("TypeError: unhashable type: 'set'");
  });

  it('looks keys up as Python does: {1: "a"}[1.0], an Ellipsis key by identity', () => {
    const d = new Map<PyValue, PyValue>([[1n, 'a']]) as PyDict;
    expect(dictLookup(d, 1.0)).toBe('a');
    expect(dictLookup(d, '1')).toBeUndefined();
    dictSet(d, PY_ELLIPSIS, 'dots');
    expect(dictContains(d, PY_ELLIPSIS)).toBe(true);
    expect(getItem(d, PY_ELLIPSIS)).toBe('dots');
  });

  it('get, set and del with their exceptions', () => {
    const d = pyDict({ k: 1n });
    expect(dictGetOr(d, 'k', 0n)).toBe(1n);
    expect(dictGetOr(pyDict({ k: null }), 'k', 0n)).toBe(null);
    expect(dictGetOr(d, 'x', 0n)).toBe(0n);
    expect(run(() => dictGetOr(['k'], 'k', 0n))).toBe("AttributeError: 'list' object has no attribute 'get'");
    expect(run(() => (setItem('s', 'k', 1n), null))).toBe("TypeError: 'str' object does not support item assignment");
    expect(run(() => (deleteItem(new Map<PyValue, PyValue>([[1n, 2n]]) as PyDict, 3n), null))).toBe('KeyError: 3');
    const e = new Map<PyValue, PyValue>([[1n, 'a'], [2n, 'b']]) as PyDict;
    deleteItem(e, 1.0);
    expect(pyRepr(e)).toBe("{2: 'b'}");
  });

  it('names the missing method of a value of the wrong type', () => {
    expect(run(() => expectDictFor('x', 'items'))).toBe("AttributeError: 'str' object has no attribute 'items'");
    expect(run(() => expectListFor(null, 'append'))).toBe("AttributeError: 'NoneType' object has no attribute 'append'");
  });
});

describe('subscripts', () => {
  it.each([
    [new Map<PyValue, PyValue>([[1n, 'a']]) as PyDict, 1.0, "'a'"],
    [new Map<PyValue, PyValue>([[1n, 'a']]) as PyDict, 2n, 'KeyError: 2'],
    [pyDict({ k: 1n }), 'x', "KeyError: 'x'"],
    [pyDict({ k: 1n }), tuple(1n, [2n]), "TypeError: unhashable type: 'list'"],
    [[1n, 2n, 3n], -1n, '3'],
    [[1n, 2n], 5n, 'IndexError: list index out of range'],
    [[1n], 'a', 'TypeError: list indices must be integers or slices, not str'],
    [tuple(1n, 2n), true, '2'],
    [tuple(1n), 3n, 'IndexError: tuple index out of range'],
    ['abc', 1n, "'b'"],
    ['abc', -4n, 'IndexError: string index out of range'],
    ['abc', 'a', "TypeError: string indices must be integers, not 'str'"],
    [5n, 'a', "TypeError: 'int' object is not subscriptable"],
    [null, 'a', "TypeError: 'NoneType' object is not subscriptable"],
  ] as [PyValue, PyValue, string][])('%o[%o] → %s', (container, key, expected) => {
    expect(run(() => getItem(container, key))).toBe(expected);
  });
});

describe('membership, iteration and len', () => {
  it.each([
    [[[1n]], [1n], 'True'],
    ['abc', 'b', 'True'],
    ['abc', 1n, "TypeError: 'in <string>' requires string as left operand, not int"],
    [new Map<PyValue, PyValue>([[1n, 2n]]) as PyDict, 1.0, 'True'],
    [new Map<PyValue, PyValue>([[1n, 2n]]) as PyDict, [1n], "TypeError: unhashable type: 'list'"],
    [new PySet([1.0]), 1n, 'True'],
    [new PySet([1n]), [1n], "TypeError: unhashable type: 'list'"],
    [tuple(1.0), 1n, 'True'],
    [5n, 1n, "TypeError: argument of type 'int' is not iterable"],
  ] as [PyValue, PyValue, string][])('%o in %o', (container, item, expected) => {
    expect(run(() => pyContains(container, item))).toBe(expected);
  });

  it('iterates list and tuple items, str characters, dict keys and set members', () => {
    expect(pyIterate('a😀')).toEqual(['a', '😀']);
    expect(pyIterate(pyDict({ a: 1n, b: 2n }))).toEqual(['a', 'b']);
    expect(pyIterate(tuple(1n, 2n))).toEqual([1n, 2n]);
    expect(pyIterate(new PySet(['x']))).toEqual(['x']);
    expect(run(() => [...pyIterate(1.5)])).toBe("TypeError: 'float' object is not iterable");
  });

  it('len counts code points and container items', () => {
    expect([pyLen('a😀'), pyLen([1n]), pyLen(tuple()), pyLen(pyDict({ a: 1n })), pyLen(new PySet([1n, 2n]))]).toEqual([
      2, 1, 0, 1, 2,
    ]);
    expect(run(() => pyLen(3n))).toBe("TypeError: object of type 'int' has no len()");
  });
});

describe('comparisons', () => {
  it.each([
    ['<', 1n, 2.5, 'True'],
    ['<', 'a', 'b', 'True'],
    ['<', '\uffff', '😀', 'True'], // code point order, not UTF-16
    ['<', [1n, 2n], [1n, 3n], 'True'],
    ['<', tuple(1n, 'a'), tuple(1n, 'b'), 'True'],
    ['>=', [1n], [1n], 'True'],
    ['<', NaN, 1n, 'False'],
    ['>=', NaN, 1n, 'False'],
    ['<=', true, 1n, 'True'],
    ['<', [1n], tuple(1n), "TypeError: '<' not supported between instances of 'list' and 'tuple'"],
    ['<', 1n, 'a', "TypeError: '<' not supported between instances of 'int' and 'str'"],
    ['<', [1n, 'a'], [1n, 2n], "TypeError: '<' not supported between instances of 'str' and 'int'"],
  ] as ['<' | '<=' | '>' | '>=', PyValue, PyValue, string][])('%o %s %o', (op, a, b, expected) => {
    expect(run(() => pyCompare(op, a, b))).toBe(expected);
  });
});

describe('numbers: abs(), float(), int()', () => {
  it.each([
    [() => pyAbs(-3n), '3'],
    [() => pyAbs(true), '1'],
    [() => pyAbs(-2.5), '2.5'],
    [() => pyAbs('x'), "TypeError: bad operand type for abs(): 'str'"],
    [() => pyFloat(' 1_000.5 '), '1000.5'],
    [() => pyFloat(true), '1.0'],
    [() => pyFloat(null), "TypeError: float() argument must be a string or a real number, not 'NoneType'"],
    [() => pyFloat('x'), "ValueError: could not convert string to float: 'x'"],
    [() => pyFloat(10n ** 400n), 'OverflowError: int too large to convert to float'],
    [() => pyIntConvert(-2.9), '-2'],
    [() => pyIntConvert(' ٤٢ '), '42'],
    [() => pyIntConvert('4.2'), "ValueError: invalid literal for int() with base 10: '4.2'"],
    [() => pyIntConvert(NaN), 'ValueError: cannot convert float NaN to integer'],
    [() => pyIntConvert(Infinity), 'OverflowError: cannot convert float infinity to integer'],
    [() => pyIntConvert([1n]), "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'list'"],
  ] as [() => PyValue, string][])('%#', (f, expected) => {
    expect(run(f)).toBe(expected);
  });

  it('int / int is the correctly rounded quotient', () => {
    expect(intTrueDivide(10n ** 30n, 7n)).toBe(1.4285714285714285e29);
    expect(intTrueDivide(1n, 3n)).toBe(1 / 3);
    expect(intTrueDivide(2n ** 53n + 1n, 1n)).toBe(9007199254740992); // tie → even
    expect(intTrueDivide(2n ** 54n + 6n, 1n)).toBe(18014398509481992); // tie → even, upwards
    expect(intTrueDivide(10n ** 400n, 10n ** 380n)).toBe(1e20);
    expect(intTrueDivide(-7n, 3600n)).toBe(-7 / 3600);
    expect(intTrueDivide(1n, 2n ** 1074n)).toBe(5e-324);
    expect(intTrueDivide(1n, 2n ** 1075n)).toBe(0); // exactly half the smallest subnormal: ties to even (0)
    expect(intTrueDivide(3n, 2n ** 1076n)).toBe(5e-324);
    expect(Object.is(intTrueDivide(0n, -5n), -0)).toBe(true);
    expect(run(() => intTrueDivide(2n ** 1024n - 2n ** 970n, 1n))).toBe(
      'OverflowError: integer division result too large for a float',
    );
    expect(run(() => intTrueDivide(1n, 0n))).toBe('ZeroDivisionError: division by zero');
  });

  it('float(int) is correctly rounded, OverflowError beyond the double range', () => {
    expect(intToFloat(2n ** 53n + 1n)).toBe(9007199254740992);
    expect(run(() => intToFloat(10n ** 400n))).toBe('OverflowError: int too large to convert to float');
  });
});

describe('binary operators', () => {
  it.each([
    [() => pyBinaryOp('/', 10n ** 30n, 7n), '1.4285714285714285e+29'],
    [() => pyBinaryOp('+', 'a', 1n), 'TypeError: can only concatenate str (not "int") to str'],
    [() => pyBinaryOp('+', [1n], 'a'), 'TypeError: can only concatenate list (not "str") to list'],
    [() => pyBinaryOp('+', tuple(1n), [1n]), 'TypeError: can only concatenate tuple (not "list") to tuple'],
    [() => pyBinaryOp('+', 1n, 'a'), "TypeError: unsupported operand type(s) for +: 'int' and 'str'"],
    [() => pyBinaryOp('*', 'ab', 2.0), "TypeError: can't multiply sequence by non-int of type 'float'"],
    [() => pyBinaryOp('*', [1n], [2n]), "TypeError: can't multiply sequence by non-int of type 'list'"],
    [() => pyBinaryOp('*', null, 'a'), "TypeError: can't multiply sequence by non-int of type 'NoneType'"],
    [() => pyBinaryOp('*', true, 'ab'), "'ab'"],
    [() => pyBinaryOp('*', 'ab', -1n), "''"],
    [() => pyBinaryOp('-', new PySet([1n, 2n]), new PySet([1.0])), '{2}'],
    [() => pyBinaryOp('+', 1n, 2.5), '3.5'],
    [() => pyBinaryOp('*', 10n ** 400n, 1.5), 'OverflowError: int too large to convert to float'],
  ] as [() => PyValue, string][])('%#', (f, expected) => {
    expect(run(f)).toBe(expected);
  });

  it('augmented assignment: list += extends in place, errors name the operator', () => {
    const list: PyValue[] = [1n];
    expect(augmented('+', list, 'ab')).toBe(list);
    expect(pyRepr(list)).toBe("[1, 'a', 'b']");
    expect(run(() => augmented('+', [1n], 1n))).toBe("TypeError: 'int' object is not iterable");
    expect(run(() => augmented('+', 'ab', 1n))).toBe('TypeError: can only concatenate str (not "int") to str');
    expect(run(() => augmented('-', null, 1n))).toBe("TypeError: unsupported operand type(s) for -=: 'NoneType' and 'int'");
    expect(run(() => augmented('+', tuple(1n), 'x'))).toBe('TypeError: can only concatenate tuple (not "str") to tuple');
    expect(augmented('+', 3n, 1n)).toBe(4n);
  });
});

describe('str methods', () => {
  it('lower and join with their type errors', () => {
    expect(lower('AbC')).toBe('abc');
    expect(run(() => lower(1n))).toBe("AttributeError: 'int' object has no attribute 'lower'");
    expect(joinStrings(['a', 'b'])).toBe('a, b');
    expect(run(() => joinStrings(['a', 1n]))).toBe('TypeError: sequence item 1: expected str instance, int found');
  });
});

describe('complex', () => {
  it('prints and compares as CPython', () => {
    const reprs = [
      new PyComplex(1, NaN),
      new PyComplex(NaN, 1),
      new PyComplex(0, Infinity),
      new PyComplex(-0, 2),
      new PyComplex(1, -0),
      new PyComplex(1e16, 1e-5),
      new PyComplex(0, NaN),
    ].map((z) => z.pyRepr());
    expect(reprs).toEqual(['(1+nanj)', '(nan+1j)', 'infj', '(-0+2j)', '(1-0j)', '(1e+16+1e-05j)', 'nanj']);
    expect(new PyComplex(1, 0).pyEquals(true)).toBe(true);
    expect(new PyComplex(2, 0).pyEquals(2n)).toBe(true);
    expect(new PyComplex(2, 1).pyEquals(2)).toBe(false);
  });
});

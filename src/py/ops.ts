/**
 * Python operations on arbitrary values, with CPython's result types and error messages, for code
 * that applies Python semantics to values a model supplies (simulated APIs, decoders, checkers):
 * hashing and dict access with Python key equality, subscripts, `in`, `len()`, iteration,
 * ordering comparisons, `abs()`, `float()` / `int()`, augmented assignment and a few str methods.
 */
import { compareCodePoints } from './builtins.js';
import { intToFloat } from './numbers.js';
import { pyBinaryOp, type BinaryOperator } from './operators.js';
import { pyRepr } from './repr.js';
import { pyFloatFromString, pyIntFromString } from './str.js';
import {
  PyException,
  PySet,
  PyTuple,
  dictGet,
  listContains,
  pyEquals,
  pyTypeName,
  setHas,
  type PyDict,
  type PyKey,
  type PyValue,
} from './value.js';

// ---------------------------------------------------------------------------------------------
// Hashing and dicts

/**
 * `key` as a dict key or set member, or Python's `TypeError: unhashable type` for a list, dict or
 * set (also inside a tuple). Other objects (Ellipsis, bytes, a simulated File...) hash by identity
 * in Python, and a JS Map holds them the same way.
 */
export function hashKey(key: PyValue): PyKey {
  if (Array.isArray(key) || key instanceof Map || key instanceof PySet) {
    throw new PyException('TypeError', `unhashable type: '${pyTypeName(key)}'`);
  }
  if (key instanceof PyTuple) key.items.forEach(hashKey);
  return key as PyKey;
}

/** Raise Python's TypeError when a value cannot be a dict key or set member (`hash(v)`). */
export function requireHashable(key: PyValue): void {
  hashKey(key);
}

/** The value stored under `key` with Python key equality (`1`, `1.0`, `True`), or undefined. */
export function dictLookup(d: PyDict, key: PyValue): PyValue | undefined {
  return dictGet(d, hashKey(key));
}

/** `key in d` for a dict. */
export function dictContains(d: PyDict, key: PyValue): boolean {
  return dictLookup(d, key) !== undefined;
}

/** The stored key equal to `key` (Python keeps the first of equal keys); the key itself when absent. */
function storedKey(d: PyDict, key: PyKey): PyKey {
  if (d.has(key) || typeof key === 'string' || key === null) return key;
  for (const k of d.keys()) if (pyEquals(k, key)) return k;
  return key;
}

/** `d[key] = value` on a dict: an equal existing key keeps its identity and position. */
export function dictSet(d: PyDict, key: PyValue, value: PyValue): void {
  d.set(storedKey(d, hashKey(key)), value);
}

/** `container[key] = value`, where the container must be a dict. */
export function setItem(container: PyValue, key: PyValue, value: PyValue): void {
  if (!(container instanceof Map)) {
    throw new PyException('TypeError', `'${pyTypeName(container)}' object does not support item assignment`);
  }
  dictSet(container, key, value);
}

/** `del d[key]`. */
export function deleteItem(d: PyDict, key: PyValue): void {
  if (!dictContains(d, key)) throw new PyException('KeyError', pyRepr(key));
  d.delete(storedKey(d, key as PyKey));
}

/** Python `d.get(key, fallback)`: a present key wins even when its value is None. */
export function dictGetOr(d: PyValue, key: PyValue, fallback: PyValue): PyValue {
  const value = dictLookup(expectDictFor(d, 'get'), key);
  return value === undefined ? fallback : value;
}

/** `d` itself when it is a dict, else Python's AttributeError for calling `d.<method>(...)`. */
export function expectDictFor(d: PyValue, method: string): PyDict {
  if (d instanceof Map) return d;
  throw noAttribute(d, method);
}

/** `value` itself when it is a list, else Python's AttributeError for calling `value.<method>(...)`. */
export function expectListFor(value: PyValue, method: string): PyValue[] {
  if (Array.isArray(value)) return value;
  throw noAttribute(value, method);
}

// ---------------------------------------------------------------------------------------------
// Subscripts, membership and iteration

/**
 * Python `container[key]` on a dict (KeyError with the key's repr), a list, a tuple or a str
 * (int index, negative from the end, IndexError past the end).
 */
export function getItem(container: PyValue, key: PyValue): PyValue {
  if (container instanceof Map) {
    const value = dictLookup(container, key);
    if (value === undefined) throw new PyException('KeyError', pyRepr(key));
    return value;
  }
  const items = Array.isArray(container)
    ? container
    : container instanceof PyTuple
      ? container.items
      : typeof container === 'string'
        ? [...container]
        : undefined;
  if (items === undefined) throw new PyException('TypeError', `'${pyTypeName(container)}' object is not subscriptable`);
  const isStr = typeof container === 'string';
  if (typeof key !== 'bigint' && typeof key !== 'boolean') {
    const message = isStr
      ? `string indices must be integers, not '${pyTypeName(key)}'`
      : `${pyTypeName(container)} indices must be integers or slices, not ${pyTypeName(key)}`;
    throw new PyException('TypeError', message);
  }
  const index = typeof key === 'boolean' ? (key ? 1n : 0n) : key;
  const i = Number(index < 0n ? index + BigInt(items.length) : index);
  if (i < 0 || i >= items.length) {
    throw new PyException('IndexError', `${isStr ? 'string' : pyTypeName(container)} index out of range`);
  }
  return items[i]!;
}

/** Python `item in container` (substring for a str, Python equality for the others). */
export function pyContains(container: PyValue, item: PyValue): boolean {
  if (typeof container === 'string') {
    if (typeof item !== 'string') {
      throw new PyException('TypeError', `'in <string>' requires string as left operand, not ${pyTypeName(item)}`);
    }
    return container.includes(item);
  }
  if (Array.isArray(container)) return listContains(container, item);
  if (container instanceof PyTuple) return listContains(container.items, item);
  if (container instanceof Map) return dictContains(container, item);
  if (container instanceof PySet) return setHas(container, hashKey(item));
  throw new PyException('TypeError', `argument of type '${pyTypeName(container)}' is not iterable`);
}

/**
 * The items `for x in value` visits (list and tuple items, str characters, dict keys, set members),
 * or Python's TypeError. A list or tuple is returned as is, not copied.
 */
export function pyIterate(value: PyValue): readonly PyValue[] {
  if (Array.isArray(value)) return value;
  if (value instanceof PyTuple) return value.items;
  if (typeof value === 'string') return [...value];
  if (value instanceof Map) return [...value.keys()];
  if (value instanceof PySet) return [...value.items];
  throw new PyException('TypeError', `'${pyTypeName(value)}' object is not iterable`);
}

// ---------------------------------------------------------------------------------------------
// Numbers and comparisons

/** Python `isinstance(v, (int, float))` (true for bool, an int subclass). */
export function isIntOrFloat(v: PyValue): v is bigint | number | boolean {
  return typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean';
}

/** Python `abs(v)`. */
export function pyAbs(v: PyValue): PyValue {
  if (typeof v === 'bigint') return v < 0n ? -v : v;
  if (typeof v === 'number') return Math.abs(v);
  if (typeof v === 'boolean') return v ? 1n : 0n;
  throw new PyException('TypeError', `bad operand type for abs(): '${pyTypeName(v)}'`);
}

/** Python `float(v)`, including the str forms it accepts ("12.5", " 1e3 ", "1_000", "-inf"). */
export function pyFloat(v: PyValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return intToFloat(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') return pyFloatFromString(v);
  throw new PyException('TypeError', `float() argument must be a string or a real number, not '${pyTypeName(v)}'`);
}

/** Python `int(v)`: a float truncates, a str is parsed in base 10, a bool is 0 or 1. */
export function pyIntConvert(v: PyValue): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'number') {
    if (Number.isNaN(v)) throw new PyException('ValueError', 'cannot convert float NaN to integer');
    if (!Number.isFinite(v)) throw new PyException('OverflowError', 'cannot convert float infinity to integer');
    return BigInt(Math.trunc(v));
  }
  if (typeof v === 'string') return pyIntFromString(v);
  throw new PyException(
    'TypeError',
    `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`,
  );
}

/**
 * Python `a op= b`: `a op b`, except that a list `+=` extends the list in place (any iterable), and
 * a type error names the augmented operator (`-=`).
 */
export function augmented(op: BinaryOperator, a: PyValue, b: PyValue): PyValue {
  if (op === '+' && Array.isArray(a)) {
    a.push(...pyIterate(b));
    return a;
  }
  try {
    return pyBinaryOp(op, a, b);
  } catch (e) {
    if (e instanceof PyException && e.pyType === 'TypeError') {
      throw new PyException('TypeError', e.message.replace(`for ${op}:`, `for ${op}=:`));
    }
    throw e;
  }
}

export type ComparisonOperator = '<' | '<=' | '>' | '>=';

/**
 * -1, 0 or 1 for two orderable values, NaN when a NaN decides; for a pair Python cannot order,
 * CPython's TypeError, naming the first unorderable pair (inside sequences, their items).
 */
function order(op: ComparisonOperator, a: PyValue, b: PyValue): number {
  const x = typeof a === 'boolean' ? (a ? 1n : 0n) : a;
  const y = typeof b === 'boolean' ? (b ? 1n : 0n) : b;
  if ((typeof x === 'bigint' || typeof x === 'number') && (typeof y === 'bigint' || typeof y === 'number')) {
    if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
    // Mixed bigint/number comparison is exact in JS, as in Python.
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof x === 'string' && typeof y === 'string') return Math.sign(compareCodePoints(x, y));
  const xs = Array.isArray(x) ? x : x instanceof PyTuple ? x.items : undefined;
  const ys = Array.isArray(y) ? y : y instanceof PyTuple ? y.items : undefined;
  if (xs !== undefined && ys !== undefined && Array.isArray(x) === Array.isArray(y)) {
    // Sequences compare at their first unequal items, else by length.
    for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
      if (!pyEquals(xs[i]!, ys[i]!)) return order(op, xs[i]!, ys[i]!);
    }
    return Math.sign(xs.length - ys.length);
  }
  throw new PyException('TypeError', `'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

/**
 * Python `a <op> b` for numbers, str (by code point), lists and tuples, with CPython's TypeError
 * for pairs it cannot order. NaN compares false both ways.
 */
export function pyCompare(op: ComparisonOperator, a: PyValue, b: PyValue): boolean {
  const sign = order(op, a, b);
  switch (op) {
    case '<':
      return sign < 0;
    case '<=':
      return sign <= 0;
    case '>':
      return sign > 0;
    case '>=':
      return sign >= 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Attributes and str methods

/** Python's AttributeError for `value.<name>` on a value of the wrong type. */
export function noAttribute(value: PyValue, name: string): PyException {
  return new PyException('AttributeError', `'${pyTypeName(value)}' object has no attribute '${name}'`);
}

/** The value as a str, or the AttributeError Python raises for `value.<method>(...)` on another type. */
export function expectStr(value: PyValue, method: string): string {
  if (typeof value !== 'string') throw noAttribute(value, method);
  return value;
}

/** Python `s.lower()`. */
export function lower(s: PyValue): string {
  return expectStr(s, 'lower').toLowerCase();
}

/** `sep.join(items)`, with Python's TypeError for an item that is not a str. */
export function joinStrings(items: readonly PyValue[], separator = ', '): string {
  return expectStrItems(items).join(separator);
}

/** The items of a `str.join` argument, all of which must be str. */
export function expectStrItems(items: readonly PyValue[]): string[] {
  items.forEach((item, i) => {
    if (typeof item !== 'string') {
      throw new PyException('TypeError', `sequence item ${i}: expected str instance, ${pyTypeName(item)} found`);
    }
  });
  return items as string[];
}

/**
 * Python operations that the simulated APIs apply to model-supplied arguments, with CPython's
 * result types and error messages: comparisons, `float(x)`, `*` and augmented assignment,
 * dict membership and item access (KeyError / unhashable keys), `scenario.get(...)`.
 */
import { compareCodePoints } from '../py/builtins.js';
import { pyBinaryOp, type BinaryOperator } from '../py/operators.js';
import { pyRepr } from '../py/repr.js';
import {
  PyException,
  PySet,
  PyTuple,
  dictGet,
  listContains,
  pyEquals,
  pyTypeName,
  toFloat,
  type PyDict,
  type PyKey,
  type PyValue,
} from '../py/value.js';

// ---------------------------------------------------------------------------------------------
// Scenario loading

/** `scenario.get(key, default)`. */
export function scenarioGet(scenario: PyDict, key: string, fallback: PyValue): PyValue {
  const value = dictGet(scenario, key);
  return value === undefined ? fallback : value;
}

/** A scenario value that must be a dict. */
export function expectDict(value: PyValue, name: string): PyDict {
  if (!(value instanceof Map)) throw new PyException('TypeError', `${name} must be a dict, not '${pyTypeName(value)}'`);
  return value;
}

/** The seed of `random.Random(seed)` (int or float seeds only; the data has ints). */
export function randomSeed(value: PyValue): bigint | number {
  if (typeof value === 'bigint' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1n : 0n;
  throw new PyException('TypeError', `unsupported random_seed type: '${pyTypeName(value)}'`);
}

// ---------------------------------------------------------------------------------------------
// Dict access

/** Python's `TypeError: unhashable type` for keys used in dict or set lookups. */
export function requireHashable(key: PyValue): void {
  if (Array.isArray(key) || key instanceof Map || key instanceof PySet) {
    throw new PyException('TypeError', `unhashable type: '${pyTypeName(key)}'`);
  }
  if (key instanceof PyTuple) key.items.forEach(requireHashable);
}

/** The dict entry for `key` with Python key equality, or undefined; raises for unhashable keys. */
function lookup(d: PyDict, key: PyValue): PyValue | undefined {
  requireHashable(key);
  // Other objects hash by identity and never equal the str/int keys of the simulated state.
  if (key !== null && typeof key === 'object' && !(key instanceof PyTuple)) return undefined;
  return dictGet(d, key as PyKey);
}

/** `key in d` for a dict. */
export function dictContains(d: PyDict, key: PyValue): boolean {
  return lookup(d, key) !== undefined;
}

/** `key in container` (dict keys, substring, list items), e.g. `"balance" in card`. */
export function containerContains(container: PyValue, key: PyValue): boolean {
  if (container instanceof Map) return dictContains(container, key);
  if (typeof container === 'string' && typeof key === 'string') return container.includes(key);
  if (Array.isArray(container)) return listContains(container, key);
  throw new PyException('TypeError', `argument of type '${pyTypeName(container)}' is not iterable`);
}

/** `container[key]` on a dict; a missing key is a KeyError whose message is the key's repr. */
export function getItem(container: PyValue, key: PyValue): PyValue {
  if (!(container instanceof Map)) {
    throw new PyException('TypeError', `'${pyTypeName(container)}' object is not subscriptable`);
  }
  const value = lookup(container, key);
  if (value === undefined) throw new PyException('KeyError', pyRepr(key));
  return value;
}

/** The stored key equal to `key` (Python finds `1` under `1.0`); the key itself when absent. */
function storedKey(d: PyDict, key: PyKey): PyKey {
  if (d.has(key)) return key;
  for (const k of d.keys()) if (pyEquals(k, key)) return k;
  return key;
}

/** `container[key] = value` on a dict; an existing key keeps its position. */
export function setItem(container: PyValue, key: PyValue, value: PyValue): void {
  if (!(container instanceof Map)) {
    throw new PyException('TypeError', `'${pyTypeName(container)}' object does not support item assignment`);
  }
  requireHashable(key);
  container.set(storedKey(container, key as PyKey), value);
}

/** `del d[key]`. */
export function deleteItem(d: PyDict, key: PyValue): void {
  if (!dictContains(d, key)) throw new PyException('KeyError', pyRepr(key));
  d.delete(storedKey(d, key as PyKey));
}

/** Python's AttributeError for a method missing on a value of the wrong type. */
export function noAttribute(value: PyValue, name: string): PyException {
  return new PyException('AttributeError', `'${pyTypeName(value)}' object has no attribute '${name}'`);
}

// ---------------------------------------------------------------------------------------------
// Arithmetic and comparison

/** Python `a * b`, with CPython's own message for a sequence times a float. */
export function multiply(a: PyValue, b: PyValue): PyValue {
  const isSequence = (v: PyValue): boolean => typeof v === 'string' || Array.isArray(v) || v instanceof PyTuple;
  if ((isSequence(a) && typeof b === 'number') || (isSequence(b) && typeof a === 'number')) {
    throw new PyException('TypeError', "can't multiply sequence by non-int of type 'float'");
  }
  return pyBinaryOp('*', a, b);
}

/** Python `a op b` for `+ - /`, with CPython's message for `str + non-str`. */
export function binary(op: BinaryOperator, a: PyValue, b: PyValue): PyValue {
  if (op === '+' && typeof a === 'string' && typeof b !== 'string') {
    throw new PyException('TypeError', `can only concatenate str (not "${pyTypeName(b)}") to str`);
  }
  return op === '*' ? multiply(a, b) : pyBinaryOp(op, a, b);
}

/** Python `a op= b`: as `a op b`, but a type error names the augmented operator (`-=`). */
export function augmented(op: BinaryOperator, a: PyValue, b: PyValue): PyValue {
  try {
    return binary(op, a, b);
  } catch (e) {
    if (e instanceof PyException && e.pyType === 'TypeError') {
      throw new PyException('TypeError', e.message.replace(`for ${op}:`, `for ${op}=:`));
    }
    throw e;
  }
}

export type ComparisonOperator = '<' | '<=' | '>' | '>=';

/** -1, 0 or 1 for two orderable values, or undefined when Python has no ordering for the pair. */
function order(a: PyValue, b: PyValue): number | undefined {
  const x = typeof a === 'boolean' ? (a ? 1n : 0n) : a;
  const y = typeof b === 'boolean' ? (b ? 1n : 0n) : b;
  if ((typeof x === 'bigint' || typeof x === 'number') && (typeof y === 'bigint' || typeof y === 'number')) {
    if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof x === 'string' && typeof y === 'string') return Math.sign(compareCodePoints(x, y));
  const xs = Array.isArray(x) ? x : x instanceof PyTuple ? x.items : undefined;
  const ys = Array.isArray(y) ? y : y instanceof PyTuple ? y.items : undefined;
  if (xs !== undefined && ys !== undefined && Array.isArray(x) === Array.isArray(y)) {
    for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
      if (!pyEquals(xs[i]!, ys[i]!)) return order(xs[i]!, ys[i]!);
    }
    return Math.sign(xs.length - ys.length);
  }
  return undefined;
}

/** Python `a <op> b` (`<`, `<=`, `>`, `>=`); a TypeError for unorderable pairs, as in CPython. */
export function pyCompare(op: ComparisonOperator, a: PyValue, b: PyValue): boolean {
  const sign = order(a, b);
  if (sign === undefined) {
    throw new PyException(
      'TypeError',
      `'${op}' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`,
    );
  }
  // NaN compares false both ways, as in Python.
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

/** Python `float(x)`, including the string forms it accepts ("12.5", " 1e3 ", "1_000", "-inf"). */
export function pyFloat(v: PyValue): number {
  if (typeof v !== 'string') return toFloat(v);
  const text = v.trim();
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (special !== null) {
    if (special[2]!.toLowerCase() === 'nan') return NaN;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  if (!FLOAT_LITERAL.test(text)) {
    throw new PyException('ValueError', `could not convert string to float: ${pyRepr(v)}`);
  }
  return Number(text.replace(/_/g, ''));
}

const DIGITS = String.raw`\d(?:_?\d)*`;
const FLOAT_LITERAL = new RegExp(
  `^[+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`,
);

/**
 * The value of one Unicode decimal digit (what Python's `\d`, `str.isdigit` and `int(c)` accept
 * for category Nd), or undefined. Unicode encodes each Nd digit set as ten consecutive code points
 * starting at zero.
 */
export function decimalDigitValue(ch: string): number | undefined {
  if (ch.length === 1 && ch >= '0' && ch <= '9') return ch.charCodeAt(0) - 48;
  if (!/^\p{Nd}$/u.test(ch)) return undefined;
  const cp = ch.codePointAt(0)!;
  let start = cp;
  while (/^\p{Nd}$/u.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

/**
 * Small Python built-in behaviours the decoders need and the shared value model does not offer:
 * `str.strip`, iteration of arbitrary values, dict insertion with Python key equality,
 * `int(str)` / `float(str)`, and the `str()` used by f-strings.
 */
import { pyStr, strRepr } from '../../py/repr.js';
import { PyException, PySet, PyTuple, pyEquals, pyTypeName, type PyDict, type PyKey, type PyValue } from '../../py/value.js';

/** The characters for which Python's `str.isspace()` is true (what `str.strip()` removes). */
const PY_WHITESPACE = '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

/** Python `s.strip(chars)`; with no `chars`, strips Unicode whitespace as `str.strip()` does. */
export function pyStrip(s: string, chars: string = PY_WHITESPACE): string {
  let start = 0;
  let end = s.length;
  while (start < end && chars.includes(s[start]!)) start++;
  while (end > start && chars.includes(s[end - 1]!)) end--;
  return s.slice(start, end);
}

/** Python `s.lstrip(chars)`. */
export function pyLstrip(s: string, chars: string = PY_WHITESPACE): string {
  let start = 0;
  while (start < s.length && chars.includes(s[start]!)) start++;
  return s.slice(start);
}

/** Python `s[1:-1]` on a str (code points, not UTF-16 units). */
export function pyDropFirstAndLast(s: string): string {
  const cps = [...s];
  return cps.slice(1, -1).join('');
}

/** `getattr(value, 'strip')` etc. on a value that is not a str. */
export function attributeError(value: PyValue, attr: string): PyException {
  return new PyException('AttributeError', `'${pyTypeName(value)}' object has no attribute '${attr}'`);
}

/** The elements Python's `for x in value` visits, or the TypeError it raises. */
export function pyIterate(value: PyValue): PyValue[] {
  if (Array.isArray(value)) return value;
  if (value instanceof PyTuple) return value.items;
  if (typeof value === 'string') return [...value];
  if (value instanceof Map) return [...value.keys()];
  if (value instanceof PySet) return [...value.items];
  throw new PyException('TypeError', `'${pyTypeName(value)}' object is not iterable`);
}

/** The Python type name of an unhashable value inside a would-be dict key, if any. */
function unhashableType(key: PyValue): string | undefined {
  if (Array.isArray(key)) return 'list';
  if (key instanceof Map) return 'dict';
  if (key instanceof PySet) return 'set';
  if (key instanceof PyTuple) {
    for (const item of key.items) {
      const inner = unhashableType(item);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** Check that a value can be a dict key (Python raises `TypeError: unhashable type: 'list'`). */
export function asDictKey(key: PyValue): PyKey {
  const unhashable = unhashableType(key);
  if (unhashable !== undefined) throw new PyException('TypeError', `unhashable type: '${unhashable}'`);
  // bytes and complex keys are hashable in Python; the key model has no place for them, so they
  // are stored as they are (compared by identity).
  return key as PyKey;
}

/**
 * Python `d[key] = value`: a key equal to an existing one (`1`, `1.0`, `True`) keeps the
 * existing key and its position and replaces the value.
 */
export function pyDictSet(d: PyDict, key: PyValue, value: PyValue): void {
  const k = asDictKey(key);
  if (d.has(k)) {
    d.set(k, value);
    return;
  }
  if (typeof k !== 'string' && k !== null) {
    for (const existing of d.keys()) {
      if (pyEquals(existing, k)) {
        d.set(existing, value);
        return;
      }
    }
  }
  d.set(k, value);
}

/** Python `str(x)` as an f-string field prints it. */
export function fstr(value: PyValue): string {
  return pyStr(value);
}

// ---------------------------------------------------------------------------------------------
// int(str) and float(str)

const UNICODE_DIGIT = /\p{Nd}/u;

/** The value of a Unicode decimal digit (`int('٣') == 3`), or -1. */
function digitValue(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  if (!UNICODE_DIGIT.test(ch)) return -1;
  // Decimal digits come in runs of ten consecutive code points (some runs are adjacent).
  let start = cp;
  while (UNICODE_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

/** Replace Unicode decimal digits by ASCII ones; undefined if a character is not a digit/sign/etc. */
function asciiDigits(s: string): string {
  let out = '';
  for (const ch of s) {
    const d = digitValue(ch);
    out += d >= 0 ? String(d) : ch;
  }
  return out;
}

/** Python `int(s)` for a str (base 10): surrounding whitespace, a sign, `_` between digits. */
export function pyIntFromString(s: string): bigint {
  const text = asciiDigits(pyStrip(s));
  if (!/^[+-]?\d+(?:_\d+)*$/.test(text)) {
    throw new PyException('ValueError', `invalid literal for int() with base 10: ${strRepr(s)}`);
  }
  return BigInt(text.replace(/_/g, ''));
}

const FLOAT_TEXT = /^[+-]?(?:(?:\d+(?:_\d+)*)?\.\d+(?:_\d+)*|\d+(?:_\d+)*\.?)(?:[eE][+-]?\d+(?:_\d+)*)?$/;
const FLOAT_SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/** Python `float(s)` for a str. */
export function pyFloatFromString(s: string): number {
  const text = asciiDigits(pyStrip(s));
  const special = FLOAT_SPECIAL.exec(text);
  if (special !== null) {
    const negative = special[1] === '-';
    if (special[2]!.toLowerCase() === 'nan') return NaN;
    return negative ? -Infinity : Infinity;
  }
  if (!FLOAT_TEXT.test(text)) {
    throw new PyException('ValueError', `could not convert string to float: ${strRepr(s)}`);
  }
  return Number(text.replace(/_/g, ''));
}

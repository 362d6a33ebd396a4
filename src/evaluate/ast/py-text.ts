/**
 * Python text semantics needed by the AST checker and its type converters: `str.strip()`, `int(s)`,
 * `float(s)`, code-point slicing, `in`, `len()` and the pieces of Python's `re` syntax that behave
 * differently in JS regular expressions.
 */

import { dictGet, dictHas, listContains, PyException, PyTuple, pyTypeName, type PyKey, type PyValue } from '../../py/value.js';
import { strRepr } from '../../py/repr.js';

// ---------------------------------------------------------------------------------------------
// Regex building blocks. Python's `re` on str patterns is Unicode-aware where JS (even with the `u`
// flag) is ASCII-only, and Python's `$` also matches before a final newline.

/** Characters for which Python's `str.isspace()` is true (also what `\s` matches in `re`). */
const PY_SPACE_CHARS = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** Python `\s`. */
export const RE_S = `[${PY_SPACE_CHARS}]`;
/** Python `\d`: any Unicode decimal digit. */
export const RE_D = '\\p{Nd}';
/** Python `\w`: Unicode letters and numbers plus `_`. */
export const RE_W = '[\\p{L}\\p{N}_]';
/** Python `.` without DOTALL: anything but `\n` (JS `.` also stops at `\r`, U+2028 and U+2029). */
export const RE_DOT = '[^\\n]';
/** Python `.` with DOTALL. */
export const RE_DOT_ALL = '[\\s\\S]';
/** Python `$` without MULTILINE: the end, or just before a final `\n`. */
export const RE_END = '(?=\\n?$)';

/** A JS regex from pattern text built with the blocks above (always Unicode mode). */
export const pyRegex = (source: string, flags = ''): RegExp => new RegExp(source, `u${flags}`);

// ---------------------------------------------------------------------------------------------
// Strings

const PY_SPACE = new RegExp(RE_S, 'u');

/** Python `str.strip()` with no argument (Unicode whitespace as `str.isspace()` defines it). */
export function pyStrip(s: string): string {
  const cps = Array.from(s);
  let start = 0;
  let end = cps.length;
  while (start < end && PY_SPACE.test(cps[start]!)) start++;
  while (end > start && PY_SPACE.test(cps[end - 1]!)) end--;
  return cps.slice(start, end).join('');
}

/** Python `str.strip(chars)`. */
export function pyStripChars(s: string, chars: string): string {
  const set = new Set(Array.from(chars));
  const cps = Array.from(s);
  let start = 0;
  let end = cps.length;
  while (start < end && set.has(cps[start]!)) start++;
  while (end > start && set.has(cps[end - 1]!)) end--;
  return cps.slice(start, end).join('');
}

/** Python `s[1:-1]` (code points, not UTF-16 units). */
export function pyInner(s: string): string {
  return Array.from(s).slice(1, -1).join('');
}

/** Python `s[:-1]`. */
export function pyDropLast(s: string): string {
  return Array.from(s).slice(0, -1).join('');
}

// ---------------------------------------------------------------------------------------------
// int(s) and float(s)

const IS_ND = /^\p{Nd}$/u;

/** The value of a Unicode decimal digit: Nd characters come in runs of ten, 0 to 9. */
function digitValue(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  let start = cp;
  while (IS_ND.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

/** Unicode decimal digits replaced by ASCII ones (what CPython does before parsing a number). */
function asciiDigits(s: string): string {
  return s.replace(/\p{Nd}/gu, (d) => String(digitValue(d)));
}

const DIGIT_PART = `${RE_D}(?:_?${RE_D})*`;
const INT_LITERAL = pyRegex(`^[+-]?${DIGIT_PART}$`);
const FLOAT_LITERAL = pyRegex(
  `^[+-]?(?:(?:(?:${DIGIT_PART})?\\.${DIGIT_PART}|${DIGIT_PART}\\.?)(?:[eE][+-]?${DIGIT_PART})?|inf|infinity|nan)$`,
  'i',
);

/** Python `int(s)` (base 10); `undefined` where Python raises ValueError. */
export function pyIntParse(s: string): bigint | undefined {
  const text = pyStrip(s);
  if (!INT_LITERAL.test(text)) return undefined;
  return BigInt(asciiDigits(text).replace(/_/g, ''));
}

/** Python `float(s)`; `undefined` where Python raises ValueError. */
export function pyFloatParse(s: string): number | undefined {
  const text = pyStrip(s);
  if (!FLOAT_LITERAL.test(text)) return undefined;
  const lower = text.toLowerCase();
  const negative = lower.startsWith('-');
  const body = lower.replace(/^[+-]/, '');
  if (body === 'nan') return NaN;
  if (body === 'inf' || body === 'infinity') return negative ? -Infinity : Infinity;
  // JS number parsing of a decimal string is correctly rounded, as CPython's is.
  return Number(asciiDigits(text).replace(/_/g, ''));
}

/** `int(s)` where the reference does not catch the ValueError. */
export function pyIntOrRaise(s: string): bigint {
  const n = pyIntParse(s);
  if (n === undefined) throw new PyException('ValueError', `invalid literal for int() with base 10: ${strRepr(s)}`);
  return n;
}

/** `float(s)` where the reference does not catch the ValueError. */
export function pyFloatOrRaise(s: string): number {
  const n = pyFloatParse(s);
  if (n === undefined) throw new PyException('ValueError', `could not convert string to float: ${strRepr(s)}`);
  return n;
}

/** Python `float(n)` of an int (OverflowError beyond the double range). */
export function intToFloat(n: bigint): number {
  const x = Number(n);
  if (!Number.isFinite(x)) throw new PyException('OverflowError', 'int too large to convert to float');
  return x;
}

// ---------------------------------------------------------------------------------------------
// Containers

/** Whether a value can be a dict key (and so be looked up with `in` on a dict). */
function isHashable(v: PyValue): v is PyKey {
  if (v instanceof PyTuple) return v.items.every(isHashable);
  return v === null || typeof v !== 'object';
}

/** Python `item in container` for the containers the checker meets. */
export function pyContains(container: PyValue, item: PyValue): boolean {
  if (Array.isArray(container)) return listContains(container, item);
  if (container instanceof PyTuple) return listContains(container.items, item);
  if (container instanceof Map) {
    if (!isHashable(item)) throw new PyException('TypeError', `unhashable type: '${pyTypeName(item)}'`);
    return dictHas(container, item);
  }
  if (typeof container === 'string') {
    if (typeof item !== 'string') {
      throw new PyException('TypeError', `'in <string>' requires string as left operand, not ${pyTypeName(item)}`);
    }
    return container.includes(item);
  }
  throw new PyException('TypeError', `argument of type '${pyTypeName(container)}' is not iterable`);
}

/**
 * The items `container[0] .. container[len - 1]` (the reference indexes with `range(len(x))`):
 * a list's or tuple's elements, a string's characters.
 */
export function pyIndexedItems(container: PyValue): PyValue[] {
  if (Array.isArray(container)) return container;
  if (container instanceof PyTuple) return container.items;
  if (typeof container === 'string') return Array.from(container);
  if (container instanceof Map) {
    // `d[i]` looks the int up as a key.
    return Array.from({ length: container.size }, (_, i) => {
      const v = dictGet(container, BigInt(i));
      if (v === undefined) throw new PyException('KeyError', String(i));
      return v;
    });
  }
  throw new PyException('TypeError', `object of type '${pyTypeName(container)}' has no len()`);
}

/** Python `len(x)` for the containers the checker meets. */
export function pyLen(container: PyValue): number {
  if (Array.isArray(container)) return container.length;
  if (container instanceof PyTuple) return container.items.length;
  if (typeof container === 'string') return Array.from(container).length;
  if (container instanceof Map) return container.size;
  throw new PyException('TypeError', `object of type '${pyTypeName(container)}' has no len()`);
}

/** Python `d[key]` for a str key (KeyError with the key's repr when absent). */
export function pyGetItem(container: PyValue, key: string): PyValue {
  if (container instanceof Map) {
    const v = container.get(key);
    if (v === undefined) throw new PyException('KeyError', strRepr(key));
    return v;
  }
  if (container === null) throw new PyException('TypeError', "'NoneType' object is not subscriptable");
  throw new PyException('TypeError', `${pyTypeName(container)} indices must be integers or slices, not str`);
}

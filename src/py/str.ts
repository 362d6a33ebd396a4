/**
 * Python str behaviour that JS strings do not have: Unicode whitespace as `str.isspace()` defines
 * it, `str.strip` / `str.lstrip`, the value of Unicode decimal digits, and `int(s)` / `float(s)`.
 */
import { strRepr } from './repr.js';
import { PyException } from './value.js';

/**
 * The characters for which Python's `str.isspace()` is true (what `str.split()`, `str.strip()` and
 * `re`'s `\s` treat as whitespace), as the body of a regex character class. All are in the BMP.
 */
export const PY_SPACE_CLASS = String.raw`\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000`;

const PY_SPACE = new RegExp(`[${PY_SPACE_CLASS}]`);

/**
 * `s` cut after its leading (and, with `bothEnds`, trailing) characters in `chars` (default:
 * Unicode whitespace). `s` is scanned by UTF-16 unit, which is exact while `chars` is all BMP (a
 * surrogate of `s` then never matches); with astral `chars` it is scanned by code point.
 */
function stripEnds(s: string, chars: string | undefined, bothEnds: boolean): string {
  const astral = chars !== undefined && /[\ud800-\udfff]/.test(chars);
  const codePoints = astral ? Array.from(s) : undefined;
  const set = astral ? new Set(Array.from(chars)) : undefined;
  const strips = (unit: string): boolean =>
    chars === undefined ? PY_SPACE.test(unit) : set !== undefined ? set.has(unit) : chars.includes(unit);
  const units: ArrayLike<string> = codePoints ?? s;
  let start = 0;
  let end = units.length;
  while (start < end && strips(units[start]!)) start++;
  if (bothEnds) while (end > start && strips(units[end - 1]!)) end--;
  return codePoints === undefined ? s.slice(start, end) : codePoints.slice(start, end).join('');
}

/** Python `s.strip(chars)`; with no `chars`, strips Unicode whitespace as `str.strip()` does. */
export function pyStrip(s: string, chars?: string): string {
  return stripEnds(s, chars, true);
}

/** Python `s.lstrip(chars)`. */
export function pyLstrip(s: string, chars?: string): string {
  return stripEnds(s, chars, false);
}

/** Python `s[start:end]` (code points, not UTF-16 units; negative bounds count from the end). */
export function strSlice(s: string, start: number, end?: number): string {
  return Array.from(s).slice(start, end).join('');
}

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

/** Unicode decimal digits replaced by ASCII ones (what CPython does before parsing a number). */
function asciiDigits(s: string): string {
  if (!/[^\x00-\x7f]/.test(s)) return s;
  return s.replace(/\p{Nd}/gu, (d) => String(decimalDigitValue(d)));
}

const INT_TEXT = /^[+-]?\d+(?:_\d+)*$/;
const FLOAT_TEXT = /^[+-]?(?:(?:\d+(?:_\d+)*)?\.\d+(?:_\d+)*|\d+(?:_\d+)*\.?)(?:[eE][+-]?\d+(?:_\d+)*)?$/;
const FLOAT_SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * Python `int(s)` in base 10 (surrounding whitespace, a sign, `_` between digits, any Unicode
 * decimal digits); undefined where Python raises ValueError.
 */
export function pyIntParse(s: string): bigint | undefined {
  const text = asciiDigits(pyStrip(s));
  return INT_TEXT.test(text) ? BigInt(text.replace(/_/g, '')) : undefined;
}

/** Python `float(s)`; undefined where Python raises ValueError. */
export function pyFloatParse(s: string): number | undefined {
  const text = asciiDigits(pyStrip(s));
  const special = FLOAT_SPECIAL.exec(text);
  if (special !== null) {
    if (special[2]!.toLowerCase() === 'nan') return NaN;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  // JS number parsing of a decimal string is correctly rounded, as CPython's is.
  return FLOAT_TEXT.test(text) ? Number(text.replace(/_/g, '')) : undefined;
}

/** Python `int(s)` for a str, with its ValueError. */
export function pyIntFromString(s: string): bigint {
  const n = pyIntParse(s);
  if (n === undefined) throw new PyException('ValueError', `invalid literal for int() with base 10: ${strRepr(s)}`);
  return n;
}

/** Python `float(s)` for a str, with its ValueError. */
export function pyFloatFromString(s: string): number {
  const n = pyFloatParse(s);
  if (n === undefined) throw new PyException('ValueError', `could not convert string to float: ${strRepr(s)}`);
  return n;
}

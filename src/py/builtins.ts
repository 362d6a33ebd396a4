import { floatToRatio } from './numbers.js';
import { PY_SPACE_CLASS } from './str.js';
import { PyException, PySet, PyTuple, pyTypeName, type PyValue } from './value.js';

/** round(x * 10^digits) of the exact binary value of x, ties to even, as a bigint. */
function scaledRoundHalfEven(x: number, digits: number): bigint {
  const { mantissa, exponent } = floatToRatio(x);
  let num = mantissa;
  let den = 1n;
  if (digits >= 0) num *= 10n ** BigInt(digits);
  else den *= 10n ** BigInt(-digits);
  if (exponent >= 0) num *= 2n ** BigInt(exponent);
  else den *= 2n ** BigInt(-exponent);
  const negative = num < 0n;
  const absNum = negative ? -num : num;
  let q = absNum / den;
  const twiceRem = (absNum % den) * 2n;
  if (twiceRem > den || (twiceRem === den && q % 2n === 1n)) q += 1n;
  return negative ? -q : q;
}

/** Python `"%.Nf" % x` / `"{:.Nf}".format(x)`: correctly rounded, ties to even on the exact value. */
export function formatFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const q = scaledRoundHalfEven(x, digits);
  const negative = q < 0n || Object.is(x, -0) || (q === 0n && x < 0);
  const abs = (q < 0n ? -q : q).toString().padStart(digits + 1, '0');
  const body = digits > 0 ? `${abs.slice(0, abs.length - digits)}.${abs.slice(abs.length - digits)}` : abs;
  return (negative ? '-' : '') + body;
}

/**
 * Python `round(x[, ndigits])`: an int stays an int; a float with no ndigits becomes an int;
 * a float with ndigits stays a float, rounded half-to-even on its exact binary value.
 */
export function pyRound(x: number | bigint | boolean, ndigits?: number | bigint | null): number | bigint {
  if (typeof x === 'boolean') x = x ? 1n : 0n;
  if (typeof x === 'bigint') {
    if (ndigits === undefined || ndigits === null || ndigits >= 0) return x;
    const unit = 10n ** BigInt(-Number(ndigits));
    const negative = x < 0n;
    const abs = negative ? -x : x;
    let q = abs / unit;
    const twiceRem = (abs % unit) * 2n;
    if (twiceRem > unit || (twiceRem === unit && q % 2n === 1n)) q += 1n;
    return (negative ? -q : q) * unit;
  }
  if (ndigits === undefined || ndigits === null) {
    if (!Number.isFinite(x)) {
      throw new PyException(
        Number.isNaN(x) ? 'ValueError' : 'OverflowError',
        Number.isNaN(x) ? 'cannot convert float NaN to integer' : 'cannot convert float infinity to integer',
      );
    }
    return scaledRoundHalfEven(x, 0);
  }
  if (!Number.isFinite(x)) return x;
  const digits = Number(ndigits);
  if (digits > 308) return x;
  if (digits < -308) return 0 * x;
  const q = scaledRoundHalfEven(x, digits);
  const result = digits >= 0 ? Number(formatScaled(q, digits)) : Number(q * 10n ** BigInt(-digits));
  return result === 0 && (x < 0 || Object.is(x, -0)) ? -0 : result;
}

function formatScaled(q: bigint, digits: number): string {
  return `${q.toString()}e-${digits}`;
}

/**
 * Python 3.12 `sum(values)`: ints add exactly; once a float appears, floats are added with
 * Neumaier compensation while ints are added plainly (CPython's `builtin_sum_impl`).
 */
export function pySum(values: readonly PyValue[], start: bigint | number = 0n): bigint | number {
  let i = 0;
  let intTotal: bigint | undefined = typeof start === 'bigint' ? start : undefined;
  let floatTotal = typeof start === 'number' ? start : 0;
  if (intTotal !== undefined) {
    for (; i < values.length; i++) {
      const v = values[i]!;
      if (typeof v === 'bigint') intTotal += v;
      else if (typeof v === 'boolean') intTotal += v ? 1n : 0n;
      else break;
    }
    if (i === values.length) return intTotal;
    const first = values[i]!;
    if (typeof first !== 'number') throw unsupportedAdd(intTotal, first);
    floatTotal = Number(intTotal) + first;
    i++;
  }
  let compensation = 0;
  for (; i < values.length; i++) {
    const v = values[i]!;
    if (typeof v === 'number') {
      const t = floatTotal + v;
      if (Math.abs(floatTotal) >= Math.abs(v)) compensation += floatTotal - t + v;
      else compensation += v - t + floatTotal;
      floatTotal = t;
    } else if (typeof v === 'bigint' || typeof v === 'boolean') {
      floatTotal += Number(v);
    } else {
      throw unsupportedAdd(floatTotal, v);
    }
  }
  if (compensation !== 0 && Number.isFinite(compensation)) floatTotal += compensation;
  return floatTotal;
}

function unsupportedAdd(left: PyValue, right: PyValue): PyException {
  return new PyException(
    'TypeError',
    `unsupported operand type(s) for +: '${pyTypeName(left)}' and '${pyTypeName(right)}'`,
  );
}

// str.splitlines() line boundaries: \n \r \r\n \v \f \x1c \x1d \x1e \x85 \u2028 \u2029
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** Python `s.splitlines()` (no trailing empty line; every Unicode line boundary). */
export function pySplitlines(s: string): string[] {
  if (s.length === 0) return [];
  const parts = s.split(LINE_BREAK);
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

// str.split() with no separator splits on runs of Unicode whitespace (str.isspace()).
const WHITESPACE_RUN = new RegExp(`[${PY_SPACE_CLASS}]+`);

/** Python `s.split()` with no arguments. */
export function pySplitWhitespace(s: string): string[] {
  return s.split(WHITESPACE_RUN).filter((part) => part.length > 0);
}

/** Python `len(x)` of a str (code points, not UTF-16 units), list, tuple, dict or set. */
export function pyLen(x: PyValue): number {
  if (typeof x === 'string') {
    let count = 0;
    for (const _ of x) count++;
    return count;
  }
  if (Array.isArray(x)) return x.length;
  if (x instanceof PyTuple) return x.items.length;
  if (x instanceof Map) return x.size;
  if (x instanceof PySet) return x.items.size;
  throw new PyException('TypeError', `object of type '${pyTypeName(x)}' has no len()`);
}

/** Python's comparison of two str: by code point (JS `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 order differs from code point order only between surrogates and U+E000..U+FFFF.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** Python `len(s.encode('utf-8'))`. */
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

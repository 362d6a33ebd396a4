/**
 * Exact integer and double arithmetic behind Python's numeric results: the binary value of a
 * float, `int.bit_length()`, floor division, and the correctly rounded int → float conversions
 * (`float(n)` and `int / int`) that JS `Number()` and `/` only approximate for large ints.
 */
import { PyException } from './value.js';

/** Beyond this binary exponent a double overflows. */
const FLOAT_MAX_EXPONENT = 1024;

/** The exact value of a finite double as `mantissa * 2^exponent` (integer mantissa, sign included). */
export function floatToRatio(x: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  const mantissa = biased === 0 ? fraction : fraction | 0x10000000000000n;
  const exponent = biased === 0 ? -1074 : biased - 1075;
  return { mantissa: negative ? -mantissa : mantissa, exponent };
}

/** Number of bits of |n| (Python `int.bit_length()`). */
export function bitLength(n: bigint): number {
  if (n < 0n) n = -n;
  return n === 0n ? 0 : n.toString(2).length;
}

/** Python `a // b` on ints (floor division; BigInt `/` truncates toward zero). */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

/**
 * The double nearest to `num / den` (ties to even), or ±Infinity when it overflows.
 * Both Python's int→float conversion and int/int true division are correctly rounded.
 */
export function roundRatioToFloat(num: bigint, den: bigint): number {
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  if (num === 0n) return 0;
  const negative = num < 0n;
  if (negative) num = -num;
  // Pick e so that q = num / (den * 2^e) has 53 bits; subnormals fix e at -1074 (fewer bits).
  let e = bitLength(num) - bitLength(den) - 52;
  const quotient = (exp: number): [bigint, bigint, bigint] => {
    const n = exp < 0 ? num << BigInt(-exp) : num;
    const d = exp > 0 ? den << BigInt(exp) : den;
    return [n / d, n % d, d];
  };
  let [q, r, d] = quotient(e);
  if (bitLength(q) < 53) [q, r, d] = quotient(--e);
  if (e < -1074) [q, r, d] = quotient((e = -1074));
  if (2n * r > d || (2n * r === d && (q & 1n) === 1n)) q += 1n;
  if (bitLength(q) > 53) {
    q >>= 1n; // q was 2^53 after rounding up: still exact
    e += 1;
  }
  if (bitLength(q) + e > FLOAT_MAX_EXPONENT) return negative ? -Infinity : Infinity;
  const value = Number(q) * 2 ** e; // q < 2^53 and e >= -1074: exact
  return negative ? -value : value;
}

/** Python `float(n)` for an int: correctly rounded; `OverflowError` when too large. */
export function intToFloat(n: bigint): number {
  const x = Number(n); // the spec rounds BigInt→Number to nearest, ties to even
  if (!Number.isFinite(x)) throw new PyException('OverflowError', 'int too large to convert to float');
  return x;
}

/** Python `a / b` for two ints: the correctly rounded quotient (`float(Fraction(a, b))`). */
export function intTrueDivide(a: bigint, b: bigint): number {
  if (b === 0n) throw new PyException('ZeroDivisionError', 'division by zero');
  if (a === 0n) return b < 0n ? -0 : 0; // 0 / -5 is -0.0 in Python
  const q = roundRatioToFloat(a, b);
  if (!Number.isFinite(q)) throw new PyException('OverflowError', 'integer division result too large for a float');
  return q;
}

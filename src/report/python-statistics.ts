/**
 * The numeric helpers of the leaderboard, reproduced bit for bit: CPython's `statistics.mean`,
 * `statistics.variance` and `statistics.stdev` (exact rational arithmetic, one final rounding),
 * and NumPy's `percentile` (linear method) and `round`.
 *
 * Every double is an exact binary fraction, so the statistics are computed on BigInt rationals
 * and only the result is rounded to a double, exactly as CPython does with `fractions.Fraction`.
 */

import { bitLength, intTrueDivide } from '../py/numbers.js';
import { PyException } from '../py/value.js';

/** A number as Python sees it: `bigint` for int, `number` for float. */
export type PyNumber = number | bigint;

/** An exact rational `num / den` with `den > 0` (not necessarily reduced). */
interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function reduce(r: Rational): Rational {
  const g = gcd(r.num, r.den);
  return g <= 1n ? r : { num: r.num / g, den: r.den / g };
}

/** `x = num / 2**shift` exactly, with `num` odd unless `shift` is 0 (so it is in lowest terms). */
interface BinaryRatio {
  readonly num: bigint;
  readonly shift: number;
}

const float64View = new DataView(new ArrayBuffer(8));
const TWO_POW_32 = 2 ** 32;
const IMPLICIT_BIT = 2 ** 52;

/** The exact binary value of a finite double or an int, read from its bits (no loop, one BigInt). */
function binaryRatio(x: PyNumber): BinaryRatio {
  if (typeof x === 'bigint') return { num: x, shift: 0 };
  if (!Number.isFinite(x)) throw new PyException('ValueError', `cannot convert ${x > 0 ? 'Infinity' : Number.isNaN(x) ? 'NaN' : '-Infinity'} to integer ratio`);
  if (x === 0) return { num: 0n, shift: 0 };
  float64View.setFloat64(0, x);
  const high = float64View.getUint32(0);
  const low = float64View.getUint32(4);
  const biasedExponent = (high >>> 20) & 0x7ff;
  // The significand as an integer (below 2**53, so exact in a double); subnormals lack the implicit bit.
  let significand = (high & 0xfffff) * TWO_POW_32 + low;
  let exponent = -1074;
  if (biasedExponent !== 0) {
    significand += IMPLICIT_BIT;
    exponent = biasedExponent - 1075;
  }
  // Strip the trailing zero bits: lowest terms. The low word of the significand is `low`.
  const upper = (significand - low) / TWO_POW_32;
  const zeros = low !== 0 ? 31 - Math.clz32(low & -low) : 32 + (31 - Math.clz32(upper & -upper));
  significand /= 2 ** zeros;
  exponent += zeros;
  const num = BigInt(x < 0 ? -significand : significand);
  return exponent >= 0 ? { num: num << BigInt(exponent), shift: 0 } : { num, shift: -exponent };
}

/** The exact value of a finite double or an int (`float.as_integer_ratio()`, lowest terms). */
export function exactRatio(x: PyNumber): { num: bigint; den: bigint } {
  const { num, shift } = binaryRatio(x);
  return { num, den: shift === 0 ? 1n : 1n << BigInt(shift) };
}

/**
 * The result type CPython's statistics module converts to: int only when every input is an int
 * and the exact result is an integer (`statistics._convert`), otherwise float.
 */
function convert(r: Rational, allInts: boolean): PyNumber {
  const reduced = reduce(r);
  if (allInts && reduced.den === 1n) return reduced.num;
  return intTrueDivide(reduced.num, reduced.den);
}

const isAllInts = (values: readonly PyNumber[]): boolean => values.every((v) => typeof v === 'bigint');

/**
 * `statistics.mean(values)`: the exact mean rounded once. An all-int input with an integral mean
 * gives an int, as in CPython.
 */
export function pyStatisticsMean(values: readonly PyNumber[]): PyNumber {
  return meanOfMoments(exactMomentsOf(values));
}

/**
 * Σx and Σx² of some values, exactly (Σx over 2**shift, Σx² over 2**(2·shift)), with their count.
 * Moments merge, so each evaluation thread can sum the latencies of its own result files and the
 * leaderboard only adds them up.
 */
export interface ExactMoments {
  readonly count: bigint;
  readonly sx: bigint;
  readonly sxx: bigint;
  readonly shift: number;
  /** Whether every value was an int (an integral mean is then an int, see `convert`). */
  readonly allInts: boolean;
}

/** The exact moments of `values`. */
export function exactMomentsOf(values: readonly PyNumber[]): ExactMoments {
  // Over the largest power-of-two denominator among the values: shifts, no divisions.
  const ratios = values.map(binaryRatio);
  let shift = 0;
  for (const r of ratios) if (r.shift > shift) shift = r.shift;
  let sx = 0n;
  let sxx = 0n;
  for (const r of ratios) {
    const scaled = r.shift === shift ? r.num : r.num << BigInt(shift - r.shift); // x = scaled / 2**shift
    sx += scaled;
    sxx += scaled * scaled;
  }
  return { count: BigInt(values.length), sx, sxx, shift, allInts: isAllInts(values) };
}

/** The moments of two sets of values together. */
export function mergeExactMoments(a: ExactMoments, b: ExactMoments): ExactMoments {
  const shift = Math.max(a.shift, b.shift);
  const up = (m: ExactMoments): { sx: bigint; sxx: bigint } => {
    const by = BigInt(shift - m.shift);
    return by === 0n ? m : { sx: m.sx << by, sxx: m.sxx << (2n * by) };
  };
  const [ua, ub] = [up(a), up(b)];
  return { count: a.count + b.count, sx: ua.sx + ub.sx, sxx: ua.sxx + ub.sxx, shift, allInts: a.allInts && b.allInts };
}

/** Exact sample sum of squared deviations divided by n-1 (`ss / (n - 1)` of `statistics._ss`). */
function sampleVarianceOf({ count, sx, sxx, shift }: ExactMoments, fn: string): Rational {
  if (count < 2n) throw new PyException('StatisticsError', `${fn} requires at least two data points`);
  // Σ(x - mean)² = (n·Σx² - (Σx)²) / n; variance = that / (n - 1).
  return reduce({ num: count * sxx - sx * sx, den: (count * (count - 1n)) << BigInt(2 * shift) });
}

/** `statistics.mean` of the values the moments were taken of. */
export function meanOfMoments(moments: ExactMoments): PyNumber {
  if (moments.count < 1n) throw new PyException('StatisticsError', 'mean requires at least one data point');
  return convert({ num: moments.sx, den: moments.count << BigInt(moments.shift) }, moments.allInts);
}

/** `statistics.stdev` of the values the moments were taken of (at least two). */
function stdevOfMoments(moments: ExactMoments): number {
  const variance = sampleVarianceOf(moments, 'stdev');
  return floatSqrtOfFraction(variance.num, variance.den);
}

/**
 * `statistics.mean` and `statistics.stdev` of the values the moments were taken of (at least two):
 * the leaderboard's latency columns, from the one exact pass the moments made.
 */
export function meanAndStdevOfMoments(moments: ExactMoments): { mean: PyNumber; stdev: number } {
  return { mean: meanOfMoments(moments), stdev: stdevOfMoments(moments) };
}

/** `statistics.variance(values)` (sample variance): exact, rounded once; int for all-int input with an integral result. */
export function pyStatisticsVariance(values: readonly PyNumber[]): PyNumber {
  const moments = exactMomentsOf(values);
  return convert(sampleVarianceOf(moments, 'variance'), moments.allInts);
}

/**
 * `statistics.stdev(values)` (sample standard deviation): the correctly rounded square root of
 * the exact sample variance, always a float (CPython 3.11+ `_float_sqrt_of_frac`).
 */
export function pyStatisticsStdev(values: readonly PyNumber[]): number {
  return stdevOfMoments(exactMomentsOf(values));
}

/** floor(sqrt(n)) for n ≥ 0 (`math.isqrt`). */
export function integerSqrt(n: bigint): bigint {
  if (n < 0n) throw new PyException('ValueError', 'isqrt() argument must be nonnegative');
  if (n < 2n) return n;
  // Newton's iteration from an over-estimate converges monotonically down to the floor.
  let x = 1n << BigInt(Math.ceil(bitLength(n) / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** sqrt(n/m) rounded to an integer with round-to-odd (the low bit records inexactness). */
function integerSqrtOfFractionRoundToOdd(n: bigint, m: bigint): bigint {
  const a = integerSqrt(n / m);
  return a * a * m !== n ? a | 1n : a;
}

// Twice the double precision plus 3 guard bits: enough for the round-to-odd trick to give a correctly rounded result.
const SQRT_BIT_WIDTH = 2 * 53 + 3;

/** The correctly rounded double nearest sqrt(n/m) (CPython's `statistics._float_sqrt_of_frac`). */
export function floatSqrtOfFraction(n: bigint, m: bigint): number {
  // Python's `//` floors; bit-length differences can be negative.
  const q = Math.floor((bitLength(n) - bitLength(m) - SQRT_BIT_WIDTH) / 2);
  if (q >= 0) {
    const numerator = integerSqrtOfFractionRoundToOdd(n, m << BigInt(2 * q)) << BigInt(q);
    return intTrueDivide(numerator, 1n);
  }
  const numerator = integerSqrtOfFractionRoundToOdd(n << BigInt(-2 * q), m);
  return intTrueDivide(numerator, 1n << BigInt(-q));
}

/**
 * `numpy.percentile(values, q)` with the default linear method, for a 1-D list and a Python scalar q.
 * Ints are converted to float64 as NumPy does when building the array.
 */
export function numpyPercentile(values: readonly PyNumber[], q: number): number {
  if (values.length === 0) throw new PyException('IndexError', 'index -1 is out of bounds for axis 0 with size 0');
  // A typed array sorts numerically without calling back into JavaScript (and puts NaN last, as NumPy does).
  const sorted = Float64Array.from(values, Number).sort();
  const n = sorted.length;
  const quantile = q / 100;
  const virtualIndex = (n - 1) * quantile;
  // Past the last index both neighbours are the last element; the weight no longer matters.
  let previousIndex = Math.floor(virtualIndex);
  let nextIndex = previousIndex + 1;
  if (virtualIndex >= n - 1) {
    previousIndex = -1;
    nextIndex = -1;
  }
  const at = (i: number): number => sorted[i < 0 ? n + i : i]!;
  const gamma = virtualIndex - previousIndex;
  return numpyLerp(at(previousIndex), at(nextIndex), gamma);
}

/** NumPy's `_lerp`: interpolates from the nearer end, so t = 1 returns b exactly. */
function numpyLerp(a: number, b: number, t: number): number {
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/** Round half to even to an integer-valued double (`numpy.rint`). */
function rint(x: number): number {
  if (!Number.isFinite(x)) return x;
  const floor = Math.floor(x);
  const diff = x - floor;
  const rounded = diff > 0.5 || (diff === 0.5 && floor % 2 !== 0) ? floor + 1 : floor;
  return rounded === 0 && x < 0 ? -0 : rounded; // rint keeps the sign of a negative input
}

/**
 * `round(numpy.float64(x), decimals)`: NumPy scales, rounds half to even and scales back in
 * floating point, so it can differ from Python's `round` (2.675 → 2.68 here, 2.67 in Python).
 */
export function numpyRound(x: number, decimals: number): number {
  if (decimals >= 0) {
    const factor = 10 ** decimals;
    return rint(x * factor) / factor;
  }
  const factor = 10 ** -decimals;
  return rint(x / factor) * factor;
}

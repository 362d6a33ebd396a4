/**
 * Arbitrary-precision numbers for MathAPI, and Python's `**` on numbers.
 *
 * - `Mpf` / `Mpc`: the values `mpmath.log(x) / mpmath.log(b)` returns (mpmath 1.3.0, pure-Python
 *   backend, as pinned by BFCL). The executor prints them with `repr`, so the binary value and the
 *   decimal rendering must both match mpmath bit for bit. The integer algorithms below follow
 *   mpmath's (fixed-point Taylor series with a cache, Machin formula for ln 2, Chudnovsky for pi)
 *   because the guard bits they leave decide the last rounding step.
 * - `PyDecimal`: the value `Decimal(x).sqrt()` returns under a context precision (Python `decimal`).
 * - Python `**` on numbers (`pyPower`): CPython's `float_pow`, correctly rounded. The other Python
 *   operators and numeric helpers are shared ones from `src/py/`.
 *
 * The precision of mpmath and of the decimal context are process-global in Python; they are
 * module-level state here for the same reason (see `MP_CONTEXT`, `DECIMAL_CONTEXT`).
 */
import { PyComplex } from '../py/complex.js';
import { bitLength, floatToRatio, floorDiv, intToFloat, roundRatioToFloat } from '../py/numbers.js';
import { pyIntConvert } from '../py/ops.js';
import { pyRepr } from '../py/repr.js';
import { PyException, PyObject, pyTypeName, type PyValue } from '../py/value.js';

// =============================================================================================
// Part 1 — Python's `**` on numbers
// =============================================================================================

/** Python's numeric tower value of int, float or bool (bool is an int). */
type PyNumber = bigint | number;

function asNumber(v: PyValue): PyNumber | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  return undefined;
}

const RANGE_ERROR = "(34, 'Numerical result out of range')";

/** An int operand of mixed int/float arithmetic becomes a float (OverflowError when too large). */
function toFloatOperand(v: PyNumber): number {
  return typeof v === 'bigint' ? intToFloat(v) : v;
}

// Ints beyond this many bits are not computed (Python would, slowly); an explicit error is kinder.
const MAX_INT_POWER_BITS = 1_000_000;

/** Python `base ** exponent` for numbers: int**int stays exact, otherwise CPython's `float_pow`. */
export function pyPower(base: PyValue, exponent: PyValue): PyValue {
  const x = asNumber(base);
  const y = asNumber(exponent);
  if (x === undefined || y === undefined) {
    throw new PyException(
      'TypeError',
      `unsupported operand type(s) for ** or pow(): '${pyTypeName(base)}' and '${pyTypeName(exponent)}'`,
    );
  }
  if (typeof x === 'bigint' && typeof y === 'bigint') {
    if (y >= 0n) {
      const bits = bitLength(x) * Number(y);
      if (bits > MAX_INT_POWER_BITS && x !== 0n && x !== 1n && x !== -1n) {
        throw new PyException('MemoryError', '');
      }
      return x ** y;
    }
    // A negative int exponent makes CPython fall back to float pow.
  }
  return floatPow(toFloatOperand(x), toFloatOperand(y));
}

const isOddInteger = (v: number): boolean => Number.isInteger(v) && Math.abs(v % 2) === 1;

/** CPython's `float_pow` special cases, then the platform pow (OverflowError on overflow). */
function floatPow(iv: number, iw: number): PyValue {
  if (iw === 0) return 1;
  if (Number.isNaN(iv)) return iv;
  if (Number.isNaN(iw)) return iv === 1 ? 1 : iw;
  if (!Number.isFinite(iw)) {
    const av = Math.abs(iv);
    if (av === 1) return 1;
    return iw > 0 === av > 1 ? Math.abs(iw) : 0;
  }
  if (!Number.isFinite(iv)) {
    const odd = isOddInteger(iw);
    if (iw > 0) return odd ? iv : Math.abs(iv);
    return odd ? (iv < 0 ? -0 : 0) : 0;
  }
  if (iv === 0) {
    if (iw < 0) throw new PyException('ZeroDivisionError', '0.0 cannot be raised to a negative power');
    return isOddInteger(iw) ? iv : 0;
  }
  let negate = false;
  if (iv < 0) {
    // Negative numbers raised to fractional powers become complex.
    if (iw !== Math.floor(iw)) return complexPowOfNegative(iv, iw);
    iv = -iv;
    negate = isOddInteger(iw);
  }
  if (iv === 1) return negate ? -1 : 1;
  const result = powPositive(iv, iw);
  if (!Number.isFinite(result)) throw new PyException('OverflowError', RANGE_ERROR);
  return negate ? -result : result;
}

/**
 * `pow(x, y)` for finite x > 0, y != 0, correctly rounded. CPython calls glibc's pow, which is
 * accurate to 0.52 ulp: it gives this value except in about 0.1% of cases (measured on x**2), which
 * cannot be predicted without glibc's tables. V8's `Math.pow` is further off, so it is not used.
 * Integral exponents are computed exactly; others through a 200-bit `exp(y * ln x)`.
 */
function powPositive(x: number, y: number): number {
  if (Number.isInteger(y) && Math.abs(y) <= 64) {
    const { mantissa, exponent } = floatToRatio(x);
    const n = BigInt(Math.abs(y));
    let num = mantissa ** n;
    let den = 1n;
    const e = exponent * Math.abs(y);
    if (e >= 0) num <<= BigInt(e);
    else den <<= BigInt(-e);
    if (y < 0) [num, den] = [den, num];
    return roundRatioToFloat(num, den);
  }
  const estimate = y * Math.log(x);
  if (estimate > 710) return Infinity;
  if (estimate < -746) return 0;
  const t = mpfMul(mpfLog(fromFloat(x), POW_PREC, 'n', powLn2Fixed), fromFloat(y), POW_PREC, 'n');
  return expToFloat(toFixed(t, POW_PREC));
}

const POW_PREC = 200;

/** The double nearest to exp(T / 2^POW_PREC), for a fixed-point T with |T| < ~746 * 2^POW_PREC. */
function expToFloat(t: bigint): number {
  const P = BigInt(POW_PREC);
  const one = 1n << P;
  // exp(t) = 2^k * exp(r) with |r| <= ln2/2, then exp(r) = exp(r / 2^8)^(2^8) by a Taylor series.
  const ln2 = powLn2Fixed(POW_PREC);
  const k = floorDiv(2n * t + ln2, 2n * ln2);
  const r = t - k * ln2;
  const squarings = 8;
  const small = r >> BigInt(squarings);
  let sum = one;
  let term = one;
  for (let i = 1n; term !== 0n; i++) {
    term = floorDiv(term * small, i << P);
    sum += term;
  }
  for (let i = 0; i < squarings; i++) sum = (sum * sum) >> P;
  // value = sum * 2^(k - P)
  const shift = k - P;
  return shift >= 0n ? roundRatioToFloat(sum << shift, 1n) : roundRatioToFloat(sum, 1n << -shift);
}

/** CPython `c_pow` for a negative real base and a real, non-integral exponent. */
function complexPowOfNegative(base: number, exponent: number): PyComplex {
  const vabs = Math.abs(base);
  const len = Math.pow(vabs, exponent);
  const phase = Math.atan2(0, base) * exponent;
  const real = len * Math.cos(phase);
  const imag = len * Math.sin(phase);
  if (!Number.isFinite(real) || !Number.isFinite(imag)) {
    throw new PyException('OverflowError', 'complex exponentiation');
  }
  return new PyComplex(real, imag);
}

// =============================================================================================
// Part 2 — mpmath's binary floating point (raw mpf values)
// =============================================================================================

/** Rounding modes: nearest (ties to even), floor, ceiling, up (away from 0), down (toward 0). */
export type Rounding = 'n' | 'f' | 'c' | 'u' | 'd';

/** mpmath's raw mpf `(sign, man, exp, bc)`: (-1)^sign * man * 2^exp, bc = bit length of man. */
export interface RawMpf {
  readonly sign: 0 | 1;
  readonly man: bigint;
  readonly exp: number;
  readonly bc: number;
}

const raw = (sign: 0 | 1, man: bigint, exp: number, bc: number): RawMpf => ({ sign, man, exp, bc });

// Special values use mpmath's encoding: a zero mantissa with a marker exponent.
export const FZERO = raw(0, 0n, 0, 0);
export const FONE = raw(0, 1n, 0, 1);
export const FNAN = raw(0, 0n, -123, -1);
export const FINF = raw(0, 0n, -456, -2);
export const FNINF = raw(1, 0n, -789, -3);

/** Tuple equality of raw mpfs, as Python compares them. */
export const sameRaw = (a: RawMpf, b: RawMpf): boolean =>
  a.sign === b.sign && a.man === b.man && a.exp === b.exp && a.bc === b.bc;

const isSpecial = (s: RawMpf): boolean => s.man === 0n && s.exp !== 0;

function trailingZeros(n: bigint): number {
  return bitLength(n & -n) - 1;
}

// Which rounding modes round toward -inf for a positive/negative mantissa when shifting right.
const SHIFTS_DOWN: Record<Exclude<Rounding, 'n'>, readonly [boolean, boolean]> = {
  f: [true, false],
  c: [false, true],
  d: [true, true],
  u: [false, false],
};

/** Drop `n` low bits of a positive mantissa with the given rounding. */
function roundMantissa(man: bigint, n: number, sign: 0 | 1, rnd: Rounding): bigint {
  const shift = BigInt(n);
  if (rnd === 'n') {
    const t = man >> (shift - 1n);
    const rest = man & ((1n << (shift - 1n)) - 1n);
    return (t & 1n) === 1n && ((t & 2n) === 2n || rest !== 0n) ? (t >> 1n) + 1n : t >> 1n;
  }
  return SHIFTS_DOWN[rnd][sign] ? man >> shift : -(-man >> shift);
}

/** mpmath `normalize`: round to `prec` bits, then strip trailing zero bits. */
export function normalize(sign: 0 | 1, man: bigint, exp: number, bc: number, prec: number, rnd: Rounding): RawMpf {
  if (man === 0n) return FZERO;
  const n = bc - prec;
  if (n > 0) {
    man = roundMantissa(man, n, sign, rnd);
    exp += n;
    bc = prec;
  }
  if ((man & 1n) === 0n) {
    const t = trailingZeros(man);
    man >>= BigInt(t);
    exp += t;
    bc -= t;
  }
  if (man === 1n) bc = 1;
  return raw(sign, man, exp, bc);
}

/**
 * mpmath `normalize1` (pure-Python backend): like `normalize` for an odd mantissa, and it returns
 * the input untouched when it already fits — even an even mantissa, which `mpf_add` can pass.
 */
export function normalize1(sign: 0 | 1, man: bigint, exp: number, bc: number, prec: number, rnd: Rounding): RawMpf {
  if (man === 0n) return FZERO;
  if (bc <= prec) return raw(sign, man, exp, bc);
  return normalize(sign, man, exp, bc, prec, rnd);
}

/** mpmath `from_man_exp`: exact when `prec` is 0, else rounded. */
export function fromManExp(man: bigint, exp: number, prec = 0, rnd: Rounding = 'd'): RawMpf {
  let sign: 0 | 1 = 0;
  if (man < 0n) {
    sign = 1;
    man = -man;
  }
  const bc = bitLength(man);
  if (!prec) {
    if (man === 0n) return FZERO;
    const t = trailingZeros(man);
    return raw(sign, man >> BigInt(t), exp + t, bc - t);
  }
  return normalize(sign, man, exp, bc, prec, rnd);
}

export const fromInt = (n: bigint, prec = 0, rnd: Rounding = 'd'): RawMpf => fromManExp(n, 0, prec, rnd);

/** mpmath `from_float`: exact for every double. */
export function fromFloat(x: number): RawMpf {
  if (Number.isNaN(x)) return FNAN;
  if (x === Infinity) return FINF;
  if (x === -Infinity) return FNINF;
  const { mantissa, exponent } = floatToRatio(x);
  return fromManExp(mantissa, exponent, 53, 'd');
}

export function mpfNeg(s: RawMpf): RawMpf {
  if (s.man === 0n) {
    if (sameRaw(s, FINF)) return FNINF;
    if (sameRaw(s, FNINF)) return FINF;
    return s;
  }
  return raw(s.sign === 1 ? 0 : 1, s.man, s.exp, s.bc);
}

export function mpfAbs(s: RawMpf): RawMpf {
  if (isSpecial(s)) return sameRaw(s, FNINF) ? FINF : s;
  return s.sign ? raw(0, s.man, s.exp, s.bc) : s;
}

/** Round s to `prec` bits (mpmath `mpf_pos`). */
export function mpfPos(s: RawMpf, prec: number, rnd: Rounding): RawMpf {
  if (!prec || isSpecial(s)) return s;
  return normalize1(s.sign, s.man, s.exp, s.bc, prec, rnd);
}

/** -1, 0 or 1 (nan gives 0). */
export function mpfSign(s: RawMpf): number {
  if (s.man === 0n) {
    if (sameRaw(s, FINF)) return 1;
    if (sameRaw(s, FNINF)) return -1;
    return 0;
  }
  return s.sign ? -1 : 1;
}

export const mpfShift = (s: RawMpf, n: number): RawMpf => (s.man === 0n ? s : raw(s.sign, s.man, s.exp + n, s.bc));

/** mpmath `mpf_add` (and `mpf_sub` with `negateSecond`); prec 0 means exact. */
export function mpfAdd(s: RawMpf, t: RawMpf, prec = 0, rnd: Rounding = 'd', negateSecond = false): RawMpf {
  let { sign: ssign, man: sman } = s;
  const { exp: sexp, bc: sbc } = s;
  let tsign: 0 | 1 = negateSecond ? (t.sign === 1 ? 0 : 1) : t.sign;
  let tman = t.man;
  const { exp: texp, bc: tbc } = t;
  if (sman !== 0n && tman !== 0n) {
    const offset = sexp - texp;
    if (offset > 0) {
      if (offset > 100 && prec) {
        const delta = sbc + sexp - tbc - texp;
        if (delta > prec + 4) {
          // t is far below s's precision: it only perturbs the last bit.
          const shifted = prec + 4;
          sman <<= BigInt(shifted);
          sman += tsign === ssign ? 1n : -1n;
          return normalize1(ssign, sman, sexp - shifted, bitLength(sman), prec, rnd);
        }
      }
      let man: bigint;
      if (ssign === tsign) man = tman + (sman << BigInt(offset));
      else {
        man = ssign ? tman - (sman << BigInt(offset)) : (sman << BigInt(offset)) - tman;
        if (man >= 0n) ssign = 0;
        else {
          man = -man;
          ssign = 1;
        }
      }
      const bc = bitLength(man);
      return normalize1(ssign, man, texp, bc, prec || bc, rnd);
    }
    if (offset < 0) {
      if (offset < -100 && prec) {
        const delta = tbc + texp - sbc - sexp;
        if (delta > prec + 4) {
          const shifted = prec + 4;
          tman <<= BigInt(shifted);
          tman += ssign === tsign ? 1n : -1n;
          return normalize1(tsign, tman, texp - shifted, bitLength(tman), prec, rnd);
        }
      }
      let man: bigint;
      if (ssign === tsign) man = sman + (tman << BigInt(-offset));
      else {
        man = tsign ? sman - (tman << BigInt(-offset)) : (tman << BigInt(-offset)) - sman;
        if (man >= 0n) ssign = 0;
        else {
          man = -man;
          ssign = 1;
        }
      }
      const bc = bitLength(man);
      return normalize1(ssign, man, sexp, bc, prec || bc, rnd);
    }
    let man: bigint;
    if (ssign === tsign) man = tman + sman;
    else {
      man = ssign ? tman - sman : sman - tman;
      if (man >= 0n) ssign = 0;
      else {
        man = -man;
        ssign = 1;
      }
    }
    const bc = bitLength(man);
    return normalize(ssign, man, texp, bc, prec || bc, rnd);
  }
  // Zeros and special values.
  const tt = negateSecond ? mpfNeg(t) : t;
  if (sman === 0n) {
    if (sexp) {
      if (sameRaw(s, tt) || tman !== 0n || !texp) return s;
      return FNAN;
    }
    if (tman !== 0n) return normalize1(tsign, tman, texp, tbc, prec || tbc, rnd);
    return tt;
  }
  if (texp) return tt;
  return normalize1(ssign, sman, sexp, sbc, prec || sbc, rnd);
}

export const mpfSub = (s: RawMpf, t: RawMpf, prec = 0, rnd: Rounding = 'd'): RawMpf => mpfAdd(s, t, prec, rnd, true);

/** mpmath `mpf_mul` (pure-Python variant). */
export function mpfMul(s: RawMpf, t: RawMpf, prec = 0, rnd: Rounding = 'd'): RawMpf {
  const sign: 0 | 1 = (s.sign ^ t.sign) as 0 | 1;
  const man = s.man * t.man;
  if (man !== 0n) {
    const bc = bitLength(man);
    return prec ? normalize1(sign, man, s.exp + t.exp, bc, prec, rnd) : raw(sign, man, s.exp + t.exp, bc);
  }
  const sSpecial = isSpecial(s);
  const tSpecial = isSpecial(t);
  if (!sSpecial && !tSpecial) return FZERO;
  if (sameRaw(s, FNAN) || sameRaw(t, FNAN)) return FNAN;
  let [a, b] = [s, t];
  if (tSpecial) [a, b] = [t, s];
  if (sameRaw(b, FZERO)) return FNAN;
  return mpfSign(a) * mpfSign(b) === 1 ? FINF : FNINF;
}

/** mpmath `mpf_div`. Division by zero raises a ZeroDivisionError with an empty message. */
export function mpfDiv(s: RawMpf, t: RawMpf, prec: number, rnd: Rounding = 'd'): RawMpf {
  if (s.man === 0n || t.man === 0n) {
    if (sameRaw(s, FZERO)) {
      if (sameRaw(t, FZERO)) throw new PyException('ZeroDivisionError', '');
      if (sameRaw(t, FNAN)) return FNAN;
      return FZERO;
    }
    if (sameRaw(t, FZERO)) throw new PyException('ZeroDivisionError', '');
    const sSpecial = isSpecial(s);
    const tSpecial = isSpecial(t);
    if (sSpecial && tSpecial) return FNAN;
    if (sameRaw(s, FNAN) || sameRaw(t, FNAN)) return FNAN;
    if (!tSpecial) return mpfSign(s) * mpfSign(t) === 1 ? FINF : FNINF;
    return FZERO;
  }
  const sign: 0 | 1 = (s.sign ^ t.sign) as 0 | 1;
  if (t.man === 1n) return normalize1(sign, s.man, s.exp - t.exp, s.bc, prec, rnd);
  // A nonzero remainder becomes a sticky bit just below the quotient, so rounding stays correct.
  let extra = Math.max(prec - s.bc + t.bc + 5, 5);
  let quot = (s.man << BigInt(extra)) / t.man;
  const rem = (s.man << BigInt(extra)) % t.man;
  if (rem !== 0n) {
    quot = (quot << 1n) + 1n;
    extra += 1;
    return normalize1(sign, quot, s.exp - t.exp - extra, bitLength(quot), prec, rnd);
  }
  return normalize(sign, quot, s.exp - t.exp - extra, bitLength(quot), prec, rnd);
}

// ---------------------------------------------------------------------------------------------
// Integer square root and constants (mpmath libintmath.py / libelefun.py, pure-Python backend)

const TWO_800 = 1n << 800n;
const TWO_400 = 1n << 400n;
const TWO_200 = 1n << 200n;
const TWO_100 = 1n << 100n;

/** mpmath `giant_steps(start, target)`: precisions for a Newton iteration. */
function giantSteps(start: number, target: number): number[] {
  const steps = [target];
  while (steps[steps.length - 1]! > start * 2) steps.push(Math.floor(steps[steps.length - 1]! / 2) + 2);
  return steps.reverse();
}

/** mpmath `isqrt_fast_python`: floor(sqrt(x)) up to an occasional 1-ulp error, as mpmath computes it. */
export function isqrtFast(x: bigint): bigint {
  if (x < TWO_800) {
    let y = BigInt(Math.trunc(Math.sqrt(Number(x))));
    if (x >= TWO_100) {
      y = (y + x / y) >> 1n;
      if (x >= TWO_200) {
        y = (y + x / y) >> 1n;
        if (x >= TWO_400) y = (y + x / y) >> 1n;
      }
    }
    return y;
  }
  const guardBits = 10;
  let bc = bitLength(x);
  x <<= BigInt(2 * guardBits);
  bc += 2 * guardBits;
  bc += bc & 1;
  const hbc = bc >> 1;
  const startprec = Math.min(50, hbc);
  // Newton iteration for 1/sqrt(x) from a floating-point start value.
  const top = Number(x >> BigInt(bc - 2 * startprec));
  let r = BigInt(Math.trunc(2 ** (2 * startprec) * Math.pow(top, -0.5)));
  let pp = startprec;
  let p = startprec;
  for (p of giantSteps(startprec, hbc)) {
    const r2 = (r * r) >> BigInt(2 * pp - p);
    const xr2 = ((x >> BigInt(bc - p)) * r2) >> BigInt(p);
    r = (r * ((3n << BigInt(p)) - xr2)) >> BigInt(pp + 1);
    pp = p;
  }
  return (r * (x >> BigInt(hbc))) >> BigInt(p + guardBits);
}

/**
 * mpmath `constant_memo`: a fixed-point constant computed at a bit more precision than asked and
 * cached; later requests at lower precision shift the cached value. The cache is process-global
 * in mpmath, so it is module-level here too.
 */
function constantMemo(compute: (prec: number) => bigint): (prec: number) => bigint {
  let memoPrec = -1;
  let memoValue = 0n;
  return (prec: number): bigint => {
    if (prec <= memoPrec) return memoValue >> BigInt(memoPrec - prec);
    const newPrec = Math.trunc(prec * 1.05 + 10);
    memoValue = compute(newPrec);
    memoPrec = newPrec;
    return memoValue >> BigInt(newPrec - prec);
  };
}

/** Binary splitting for the acot/acoth series (mpmath `bsp_acot`). */
function bspAcot(q: bigint, a: number, b: number, hyperbolic: boolean): [bigint, bigint, bigint] {
  if (b - a === 1) {
    const a1 = BigInt(2 * a + 3);
    return [hyperbolic || a & 1 ? 1n : -1n, a1 * q * q, a1];
  }
  const m = Math.floor((a + b) / 2);
  const [p1, q1, r1] = bspAcot(q, a, m, hyperbolic);
  const [p2, q2, r2] = bspAcot(q, m, b, hyperbolic);
  return [q2 * p1 + r1 * p2, q1 * q2, r1 * r2];
}

function acotFixed(a: bigint, prec: number, hyperbolic: boolean): bigint {
  const n = Math.trunc((0.35 * prec) / Math.log(Number(a)) + 20);
  const [p, q] = bspAcot(a, 0, n, hyperbolic);
  return floorDiv((p + q) << BigInt(prec), q * a);
}

function machin(coefficients: readonly [number, number][], prec: number, hyperbolic: boolean): bigint {
  const extraPrec = 10;
  let s = 0n;
  for (const [c, n] of coefficients) s += BigInt(c) * acotFixed(BigInt(n), prec + extraPrec, hyperbolic);
  return s >> BigInt(extraPrec);
}

/** ln 2 by a hyperbolic Machin formula, floor(ln 2 * 2^prec) up to the last bits. */
const ln2Machin = (prec: number): bigint =>
  machin(
    [
      [18, 26],
      [-2, 4801],
      [8, 8749],
    ],
    prec,
    true,
  );

/** mpmath's cached `ln2_fixed`, exactly as mpmath computes it. */
const ln2Fixed = constantMemo(ln2Machin);
/** The same constant for `pow`, cached apart so that `pow` never changes mpmath's cache state. */
const powLn2Fixed = constantMemo(ln2Machin);

// Chudnovsky series constants.
const CHUD_A = 13591409n;
const CHUD_B = 545140134n;
const CHUD_C = 640320n;
const CHUD_D = 12n;

function bsChudnovsky(a: number, b: number): [bigint, bigint, bigint] {
  if (b - a === 1) {
    const bb = BigInt(b);
    const g = (6n * bb - 5n) * (2n * bb - 1n) * (6n * bb - 1n);
    const p = (bb ** 3n * CHUD_C ** 3n) / 24n;
    const q = (b % 2 === 1 ? -1n : 1n) * g * (CHUD_A + CHUD_B * bb);
    return [g, p, q];
  }
  const mid = Math.floor((a + b) / 2);
  const [g1, p1, q1] = bsChudnovsky(a, mid);
  const [g2, p2, q2] = bsChudnovsky(mid, b);
  return [g1 * g2, p1 * p2, q1 * p2 + q2 * g1];
}

/** floor(pi * 2^prec) as mpmath computes it. */
const piFixed = constantMemo((prec) => {
  const n = Math.trunc(prec / 3.3219280948 / 14.181647462 + 2);
  const [, p, q] = bsChudnovsky(0, n);
  const sqrtC = isqrtFast(CHUD_C << BigInt(2 * prec));
  return floorDiv(p * CHUD_C * sqrtC, (q + CHUD_A * p) * CHUD_D);
});

/** pi rounded to `prec` bits (mpmath `mpf_pi`). */
function mpfPi(prec: number, rnd: Rounding): RawMpf {
  const wp = prec + 20;
  let v = piFixed(wp);
  if (rnd === 'u' || rnd === 'c') v += 1n;
  return normalize(0, v, -wp, bitLength(v), prec, rnd);
}

// ---------------------------------------------------------------------------------------------
// Natural logarithm (mpmath libelefun.py `mpf_log` and its helpers)

const LOG_TAYLOR_PREC = 2500;
const LOG_TAYLOR_SHIFT = 9;
const LOG_AGM_MAG_PREC_RATIO = 20;

/** Working precision used for cached log values at a given precision (~next power of two + 20). */
const CACHE_PREC_STEPS: readonly number[] = (() => {
  const steps = [22, 22];
  for (let k = 1; k <= bitLength(BigInt(LOG_TAYLOR_PREC)); k++) {
    const value = Math.min(2 ** k, LOG_TAYLOR_PREC) + 20;
    for (let i = 0; i < 2 ** (k - 1); i++) steps.push(value);
  }
  return steps;
})();

const logTaylorCache = new Map<string, [bigint, bigint]>();

/** Sum of the atanh series shared by the two Taylor routines: 2*(v + v^3/3 + v^5/5 + ...). */
function atanhSeries(v: bigint, prec: number): [bigint, bigint] {
  const P = BigInt(prec);
  const v2 = (v * v) >> P;
  const v4 = (v2 * v2) >> P;
  let s0 = v;
  let s1 = v / 3n;
  v = (v * v4) >> P;
  let k = 5n;
  while (v !== 0n) {
    s0 += v / k;
    k += 2n;
    s1 += v / k;
    v = (v * v4) >> P;
    k += 2n;
  }
  s1 = (s1 * v2) >> P;
  return [s0, s1];
}

/** Fixed-point log(x) for x near 1, after r square roots (mpmath `log_taylor`). */
function logTaylor(x: bigint, prec: number, r = 0): bigint {
  const P = BigInt(prec);
  for (let i = 0; i < r; i++) x = isqrtFast(x << P);
  const one = 1n << P;
  let v = floorDiv((x - one) << P, x + one);
  const negative = v < 0n;
  if (negative) v = -v;
  const [s0, s1] = atanhSeries(v, prec);
  const s = (s0 + s1) << BigInt(1 + r);
  return negative ? -s : s;
}

/** Fixed-point log(x) for x in (0.5, 2) using a cached log of a nearby point (mpmath `log_taylor_cached`). */
function logTaylorCached(x: bigint, prec: number): bigint {
  const n = x >> BigInt(prec - LOG_TAYLOR_SHIFT);
  const cachedPrec = CACHE_PREC_STEPS[prec]!;
  const dprec = BigInt(cachedPrec - prec);
  const key = `${n}:${cachedPrec}`;
  let entry = logTaylorCache.get(key);
  if (entry === undefined) {
    const a0 = n << BigInt(cachedPrec - LOG_TAYLOR_SHIFT);
    entry = [a0, logTaylor(a0, cachedPrec, 8)];
    logTaylorCache.set(key, entry);
  }
  const a = entry[0] >> dprec;
  const logA = entry[1] >> dprec;
  const P = BigInt(prec);
  const u = floorDiv((x - a) << P, a);
  const v = floorDiv(u << P, (2n << P) + u);
  const [s0, s1] = atanhSeries(v, prec);
  return logA + ((s0 + s1) << 1n);
}

/** mpmath `agm_fixed`. */
function agmFixed(a: bigint, b: bigint): bigint {
  for (let i = 0; ; i++) {
    const anew = (a + b) >> 1n;
    const diff = a - anew;
    if (i > 4 && (diff < 0n ? -diff : diff) < 8n) return a;
    b = isqrtFast(a * b);
    a = anew;
  }
}

/** Fixed-point -log(x) for 0 < x < 1 at high precision (mpmath `log_agm`, Sasaki–Kanada). */
function logAgm(x: bigint, prec: number): bigint {
  const P = BigInt(prec);
  const x2 = (x * x) >> P;
  let s = x2;
  let a = x2;
  let b = x2;
  while (a !== 0n) {
    b = (b * x2) >> P;
    a = (a * b) >> P;
    s += a;
  }
  s += 1n << P;
  s = (s * s) >> (P - 2n);
  s = (s * isqrtFast(x << P)) >> P;
  let t = x;
  a = x;
  b = x;
  while (a !== 0n) {
    b = (b * x2) >> P;
    a = (a * b) >> P;
    t += a;
  }
  t = (1n << P) + (t << 1n);
  t = (t * t) >> P;
  const p = agmFixed(s, t);
  return floorDiv(piFixed(prec) << P, p);
}

/** Signals a logarithm of a negative number (mpmath's ComplexResult). */
class ComplexResult extends Error {}

/**
 * mpmath `mpf_log`: natural logarithm of a raw mpf, rounded to `prec` bits. `ln2` is the cached
 * ln 2 constant to use (mpmath's own unless a caller needs to keep that cache untouched).
 */
export function mpfLog(x: RawMpf, prec: number, rnd: Rounding, ln2: (prec: number) => bigint = ln2Fixed): RawMpf {
  const { sign, man, exp, bc } = x;
  if (man === 0n) {
    if (sameRaw(x, FZERO)) return FNINF;
    if (sameRaw(x, FINF)) return FINF;
    if (sameRaw(x, FNAN)) return FNAN;
  }
  if (sign) throw new ComplexResult('logarithm of a negative number');
  let wp = prec + 20;
  // log(2^n) = n*log(2); log(1) = 0 is the only exact value.
  if (man === 1n) {
    if (!exp) return FZERO;
    return fromManExp(BigInt(exp) * ln2(wp), -wp, prec, rnd);
  }
  const mag = exp + bc;
  const absMag = Math.abs(mag);
  // Close to 1: log(x) ~ x - 1 cancels, so add the cancelled bits to the working precision.
  if (absMag <= 1) {
    const tsign: 0 | 1 = (1 - absMag) as 0 | 1;
    const tman = tsign ? (1n << BigInt(bc)) - man : man - (1n << BigInt(bc - 1));
    const tbc = bitLength(tman);
    const cancellation = bc - tbc;
    if (cancellation > wp) {
      const t = normalize(tsign, tman, absMag - bc, tbc, tbc, 'n');
      return mpfPerturb(t, prec, rnd);
    }
    wp += cancellation;
  }
  if (absMag > 10000 && bitLength(BigInt(absMag)) > wp) {
    return fromManExp(BigInt(exp) * ln2(wp), -wp, prec, rnd);
  }
  let m: bigint;
  if (wp <= LOG_TAYLOR_PREC) {
    const shift = wp - bc;
    m = logTaylorCached(shift >= 0 ? man << BigInt(shift) : man >> BigInt(-shift), wp);
    if (mag) m += BigInt(mag) * ln2(wp);
  } else {
    const optimalMag = Math.floor(-wp / LOG_AGM_MAG_PREC_RATIO);
    const n = optimalMag - mag;
    const shifted = mpfShift(x, n);
    wp += -optimalMag;
    m = -logAgm(toFixed(shifted, wp), wp);
    m -= BigInt(n) * ln2(wp);
  }
  return fromManExp(m, -wp, prec, rnd);
}

/** mpmath `mpf_perturb` for round-to-nearest, the only mode the MathAPI uses. */
function mpfPerturb(x: RawMpf, prec: number, rnd: Rounding): RawMpf {
  if (rnd !== 'n') throw new Error('mpfPerturb: only round-to-nearest is implemented');
  return mpfPos(x, prec, rnd);
}

/** mpmath `to_fixed`: floor(s * 2^prec) as an int. */
function toFixed(s: RawMpf, prec: number): bigint {
  const offset = s.exp + prec;
  const man = s.sign ? -s.man : s.man;
  return offset >= 0 ? man << BigInt(offset) : man >> BigInt(-offset);
}

// ---------------------------------------------------------------------------------------------
// Complex values (only a real argument of log can make them, so only those paths exist)

/** A raw mpc `(re, im)`. */
export type RawMpc = readonly [RawMpf, RawMpf];

/** log of a negative (or -inf) real: (log|x|, pi) via mpmath's `mpc_log` on `(x, 0)`. */
function mpcLogOfReal(x: RawMpf, prec: number, rnd: Rounding): RawMpc {
  // mpf_log_hypot(x, 0): swaps so the zero comes first, then log(|x|), or inf/nan for specials.
  let re: RawMpf;
  if (x.man === 0n) re = sameRaw(x, FNAN) ? FNAN : sameRaw(x, FZERO) ? FNINF : FINF;
  else re = mpfLog(mpfAbs(x), prec, rnd);
  // mpf_atan2(0, x): 0 for x >= 0, pi for x < 0, nan for nan.
  const im = sameRaw(x, FNAN) ? FNAN : mpfSign(x) >= 0 ? FZERO : mpfPi(prec, rnd);
  return [re, im];
}

function mpcDiv(z: RawMpc, w: RawMpc, prec: number, rnd: Rounding): RawMpc {
  const [a, b] = z;
  const [c, d] = w;
  const wp = prec + 10;
  const mag = mpfAdd(mpfMul(c, c), mpfMul(d, d), wp);
  const t = mpfAdd(mpfMul(a, c), mpfMul(b, d), wp);
  const u = mpfSub(mpfMul(b, c), mpfMul(a, d), wp);
  return [mpfDiv(t, mag, prec, rnd), mpfDiv(u, mag, prec, rnd)];
}

function mpcDivMpf(z: RawMpc, p: RawMpf, prec: number, rnd: Rounding): RawMpc {
  return [mpfDiv(z[0], p, prec, rnd), mpfDiv(z[1], p, prec, rnd)];
}

function mpfDivMpc(p: RawMpf, z: RawMpc, prec: number, rnd: Rounding): RawMpc {
  const [a, b] = z;
  const m = mpfAdd(mpfMul(a, a), mpfMul(b, b), prec + 10);
  return [mpfDiv(mpfMul(a, p), m, prec, rnd), mpfDiv(mpfNeg(mpfMul(b, p)), m, prec, rnd)];
}

// ---------------------------------------------------------------------------------------------
// Decimal rendering (mpmath libmpf.py `to_str`)

const LOG2_10 = Math.log(10) / Math.log(2); // Python's math.log(10, 2)

/** Python `round(x)` of a float to an int-valued number (ties to even). */
function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const diff = x - f;
  if (diff > 0.5) return f + 1;
  if (diff < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

export const precToDps = (n: number): number => Math.max(1, roundHalfEven(n / 3.3219280948873626) - 1);
export const dpsToPrec = (n: number): number => Math.max(1, roundHalfEven((n + 1) * 3.3219280948873626));

/** Digits `repr` shows for a precision: enough to read the same binary value back. */
export function reprDps(prec: number): number {
  const dps = precToDps(prec);
  return dps === 15 ? 17 : dps + 3;
}

/** `dps` digits of s, truncated, with the decimal exponent of the first digit (mpmath `to_digits_exp`). */
function toDigitsExp(s: RawMpf, dps: number): [string, string, number] {
  let sign = '';
  if (s.sign) {
    sign = '-';
    s = mpfNeg(s);
  }
  if (s.man === 0n) return ['', '0', 0];
  const bitprec = Math.trunc(dps * LOG2_10) + 10;
  // mpmath first divides by a power of ten when |exponent| > 3500; results of log never get there,
  // and the exact conversion below gives the same digits whenever mpmath's approximation is exact.
  const fixprec = Math.max(bitprec - s.exp - s.bc, 0);
  const fixdps = Math.trunc(fixprec / LOG2_10 + 0.5);
  const sf = toFixed(s, fixprec);
  const sd = (sf * 10n ** BigInt(fixdps)) >> BigInt(fixprec);
  const digits = sd.toString();
  return [sign, digits, digits.length - fixdps - 1];
}

/** mpmath `to_str(s, dps)` with its defaults (fixed notation near unit magnitude, zeros stripped). */
export function mpfToStr(s: RawMpf, dps: number): string {
  if (s.man === 0n) {
    if (sameRaw(s, FZERO)) return dps ? '0.0' : '.0';
    if (sameRaw(s, FINF)) return '+inf';
    if (sameRaw(s, FNINF)) return '-inf';
    if (sameRaw(s, FNAN)) return 'nan';
    throw new PyException('ValueError', '');
  }
  const minFixed = Math.min(-Math.floor(dps / 3), -5);
  const maxFixed = dps;
  const [sign, allDigits, exp0] = toDigitsExp(s, dps + 3);
  let digits = allDigits;
  let exponent = exp0;
  if (!dps) {
    if ('56789'.includes(digits[0]!)) exponent += 1;
    digits = '.0';
  } else {
    // Round the truncated digits half-up at position dps.
    if (digits.length > dps && '56789'.includes(digits[dps]!)) {
      digits = digits.slice(0, dps);
      let i = dps - 1;
      while (i >= 0 && digits[i] === '9') i--;
      if (i >= 0) digits = digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(dps - i - 1);
      else {
        digits = '1' + '0'.repeat(dps - 1);
        exponent += 1;
      }
    } else {
      digits = digits.slice(0, dps);
    }
    let split: number;
    if (minFixed < exponent && exponent < maxFixed) {
      if (exponent < 0) {
        digits = '0'.repeat(-exponent) + digits;
        split = 1;
      } else {
        split = exponent + 1;
        if (split > dps) digits += '0'.repeat(split - dps);
      }
      exponent = 0;
    } else {
      split = 1;
    }
    digits = digits.slice(0, split) + '.' + digits.slice(split);
    digits = digits.replace(/0+$/, '');
    if (digits.endsWith('.')) digits += '0';
  }
  if (exponent === 0 && dps) return sign + digits;
  if (exponent >= 0) return `${sign}${digits}e+${exponent}`;
  return `${sign}${digits}e${exponent}`;
}

// ---------------------------------------------------------------------------------------------
// The mpmath context and the Python-visible objects

/**
 * `mpmath.mp`: its precision is process-global. `repr` reads it when it runs, as mpmath's does
 * (`_repr_digits` is computed from the current precision, not the one the value was made at).
 */
export const MP_CONTEXT = { prec: 53, dps: 15 };

// Precisions above this would take Python minutes to hours; refuse them instead of hanging.
const MAX_MP_PREC = 200_000;

/** `mpmath.mp.dps = n`. */
export function setMpDps(n: PyValue): void {
  const digits = Number(pyIntConvert(n));
  const prec = dpsToPrec(digits);
  if (prec > MAX_MP_PREC) throw new PyException('MemoryError', '');
  MP_CONTEXT.prec = prec;
  MP_CONTEXT.dps = Math.max(1, digits);
}

/** An `mpmath.mpf`. */
export class Mpf extends PyObject {
  readonly pyTypeName = 'mpf';
  constructor(readonly value: RawMpf) {
    super();
  }

  override pyRepr(): string {
    return `mpf('${mpfToStr(this.value, reprDps(MP_CONTEXT.prec))}')`;
  }

  /** `mpf == x` for mpf, int, float and bool (nan equals nothing). */
  override pyEquals(other: PyValue): boolean {
    if (sameRaw(this.value, FNAN)) return false;
    if (other instanceof Mpf) return !sameRaw(other.value, FNAN) && rawValuesEqual(this.value, other.value);
    if (typeof other === 'number') return !Number.isNaN(other) && rawValuesEqual(this.value, fromFloat(other));
    if (typeof other === 'bigint') return rawValuesEqual(this.value, fromInt(other));
    if (typeof other === 'boolean') return rawValuesEqual(this.value, other ? FONE : FZERO);
    return false;
  }
}

/** Value equality of raw mpfs whatever their normalisation (normalize1 can leave even mantissas). */
function rawValuesEqual(a: RawMpf, b: RawMpf): boolean {
  if (a.man === 0n || b.man === 0n) return sameRaw(a, b);
  return sameRaw(fromManExp(a.sign ? -a.man : a.man, a.exp), fromManExp(b.sign ? -b.man : b.man, b.exp));
}

/** An `mpmath.mpc`. */
export class Mpc extends PyObject {
  readonly pyTypeName = 'mpc';
  constructor(readonly value: RawMpc) {
    super();
  }

  /** `mpc(real='...', imag='...')`, each part as its mpf repr would print it. */
  override pyRepr(): string {
    const part = (r: RawMpf): string => new Mpf(r).pyRepr().slice(4, -1);
    return `mpc(real=${part(this.value[0])}, imag=${part(this.value[1])})`;
  }

  override pyEquals(other: PyValue): boolean {
    if (other instanceof Mpc) {
      return new Mpf(this.value[0]).pyEquals(new Mpf(other.value[0])) && new Mpf(this.value[1]).pyEquals(new Mpf(other.value[1]));
    }
    return sameRaw(this.value[1], FZERO) && new Mpf(this.value[0]).pyEquals(other);
  }
}

// Python float literal syntax, as `float()` accepts it (mpmath validates strings with float()).
const FLOAT_LITERAL = /^[+-]?((\d(_?\d)*)?\.?\d(_?\d)*|\d(_?\d)*\.)([eE][+-]?\d(_?\d)*)?$/;
const SPECIAL_STRINGS: Readonly<Record<string, RawMpf>> = { inf: FINF, '+inf': FINF, '-inf': FNINF, nan: FNAN };

/** mpmath `from_str` for decimal literals and `p/q` fractions, rounded to `prec` bits. */
function fromStr(text: string, prec: number, rnd: Rounding): RawMpf | undefined {
  const x = text.toLowerCase().trim();
  const special = SPECIAL_STRINGS[x];
  if (special) return special;
  if (x.includes('/')) {
    const parts = x.split('/');
    if (parts.length !== 2) return undefined;
    const [p, q] = parts.map((part) => part.replace(/l+$/, '').trim()) as [string, string];
    if (!/^[+-]?\d+$/.test(p) || !/^[+-]?\d+$/.test(q)) return undefined;
    return mpfDiv(fromInt(BigInt(p)), fromInt(BigInt(q)), prec, rnd);
  }
  const literal = x.replace(/l+$/, '');
  if (!FLOAT_LITERAL.test(literal)) return undefined;
  const clean = literal.replace(/_/g, '');
  const [mantissaText, expText] = clean.split('e') as [string, string | undefined];
  let exp = expText === undefined ? 0 : Number(expText);
  let digits = mantissaText;
  if (digits.includes('.')) {
    const [a, b] = digits.split('.') as [string, string];
    const frac = b.replace(/0+$/, '');
    exp -= frac.length;
    digits = a + frac;
  }
  if (digits === '' || digits === '+' || digits === '-') digits += '0';
  const man = BigInt(digits);
  // mpmath takes a different (double-rounding) path for |exp| > 400; exact rounding is used here.
  if (exp >= 0) return fromInt(man * 10n ** BigInt(exp), prec, rnd);
  return mpfDiv(fromInt(man), fromInt(10n ** BigInt(-exp)), prec, rnd);
}

/** mpmath `convert`: int/bool/float exactly, str rounded to the working precision. */
function toRawMpf(v: PyValue): RawMpf {
  if (v instanceof Mpf) return v.value;
  if (typeof v === 'bigint') return fromInt(v);
  if (typeof v === 'boolean') return fromInt(v ? 1n : 0n);
  if (typeof v === 'number') return fromFloat(v);
  if (typeof v === 'string') {
    const parsed = fromStr(v, MP_CONTEXT.prec, 'n');
    if (parsed) return parsed;
    // Complex literals ("2+3j") are not supported; mpmath would build an mpc here.
  }
  throw new PyException('TypeError', `cannot create mpf from ${pyRepr(v)}`);
}

/** `mpmath.log(x)` at the current precision: an mpf, or an mpc for negative x. */
export function mpLog(v: PyValue): Mpf | Mpc {
  const x = toRawMpf(v);
  try {
    return new Mpf(mpfLog(x, MP_CONTEXT.prec, 'n'));
  } catch (error) {
    if (!(error instanceof ComplexResult)) throw error;
    return new Mpc(mpcLogOfReal(x, MP_CONTEXT.prec, 'n'));
  }
}

/** `a / b` for mpf/mpc operands at the current precision. */
export function mpDivide(a: Mpf | Mpc, b: Mpf | Mpc): Mpf | Mpc {
  const prec = MP_CONTEXT.prec;
  if (a instanceof Mpf && b instanceof Mpf) return new Mpf(mpfDiv(a.value, b.value, prec, 'n'));
  if (a instanceof Mpc && b instanceof Mpf) return new Mpc(mpcDivMpf(a.value, b.value, prec, 'n'));
  if (a instanceof Mpf && b instanceof Mpc) return new Mpc(mpfDivMpc(a.value, b.value, prec, 'n'));
  return new Mpc(mpcDiv((a as Mpc).value, (b as Mpc).value, prec, 'n'));
}

// =============================================================================================
// Part 3 — Python's decimal module (only what `Decimal(x).sqrt()` needs)
// =============================================================================================

/** Limits of CPython's `decimal` context precision (64-bit build). */
const DECIMAL_MAX_PREC = 999999999999999999n;
const SSIZE_MAX = (1n << 63n) - 1n;

/**
 * The thread's decimal context (`decimal.getcontext()`); only the precision is modelled.
 * It is process-global in the reference too: `square_root` changes it for everything after it.
 */
export const DECIMAL_CONTEXT = { prec: 28 };

/** `getcontext().prec = v`, with CPython's checks and messages. */
export function setDecimalPrecision(v: PyValue): void {
  if (typeof v !== 'bigint' && typeof v !== 'boolean') throw new PyException('TypeError', 'an integer is required');
  const n = typeof v === 'boolean' ? (v ? 1n : 0n) : v;
  if (n > SSIZE_MAX || n < -SSIZE_MAX - 1n) {
    throw new PyException('OverflowError', 'Python int too large to convert to C ssize_t');
  }
  if (n < 1n || n > DECIMAL_MAX_PREC) throw new PyException('ValueError', 'valid range for prec is [1, MAX_PREC]');
  DECIMAL_CONTEXT.prec = Number(n);
}

/** A `decimal.Decimal`: finite `(-1)^sign * coefficient * 10^exponent`, or infinity / NaN. */
export class PyDecimal extends PyObject {
  readonly pyTypeName = 'Decimal';
  constructor(
    readonly sign: 0 | 1,
    readonly coefficient: bigint,
    readonly exponent: number,
    readonly kind: 'finite' | 'infinity' | 'nan' = 'finite',
  ) {
    super();
  }

  /** Python `Decimal(x)` for an int, bool or float: always exact. */
  static fromNumber(v: bigint | number | boolean): PyDecimal {
    if (typeof v === 'boolean') return new PyDecimal(0, v ? 1n : 0n, 0);
    if (typeof v === 'bigint') return new PyDecimal(v < 0n ? 1 : 0, v < 0n ? -v : v, 0);
    if (Number.isNaN(v)) return new PyDecimal(0, 0n, 0, 'nan');
    const sign: 0 | 1 = v < 0 || Object.is(v, -0) ? 1 : 0;
    if (!Number.isFinite(v)) return new PyDecimal(sign, 0n, 0, 'infinity');
    // x = n / 2^k exactly, so x = n * 5^k / 10^k.
    let { mantissa, exponent } = floatToRatio(Math.abs(v));
    if (mantissa === 0n) return new PyDecimal(sign, 0n, 0);
    while (exponent < 0 && (mantissa & 1n) === 0n) {
      mantissa >>= 1n;
      exponent += 1;
    }
    if (exponent >= 0) return new PyDecimal(sign, mantissa << BigInt(exponent), 0);
    return new PyDecimal(sign, mantissa * 5n ** BigInt(-exponent), exponent);
  }

  /** Python `str(Decimal)` (scientific notation rules of the General Decimal Arithmetic spec). */
  override toString(): string {
    const sign = this.sign ? '-' : '';
    if (this.kind === 'infinity') return sign + 'Infinity';
    if (this.kind === 'nan') return sign + 'NaN';
    const digits = this.coefficient.toString();
    const leftDigits = this.exponent + digits.length;
    const dotPlace = this.exponent <= 0 && leftDigits > -6 ? leftDigits : 1;
    let intPart: string;
    let fracPart: string;
    if (dotPlace <= 0) {
      intPart = '0';
      fracPart = '.' + '0'.repeat(-dotPlace) + digits;
    } else if (dotPlace >= digits.length) {
      intPart = digits + '0'.repeat(dotPlace - digits.length);
      fracPart = '';
    } else {
      intPart = digits.slice(0, dotPlace);
      fracPart = '.' + digits.slice(dotPlace);
    }
    const expPart = leftDigits === dotPlace ? '' : `E${leftDigits - dotPlace >= 0 ? '+' : ''}${leftDigits - dotPlace}`;
    return sign + intPart + fracPart + expPart;
  }

  override pyRepr(): string {
    return `Decimal('${this.toString()}')`;
  }

  override pyEquals(other: PyValue): boolean {
    if (other instanceof PyDecimal) {
      if (this.kind === 'nan' || other.kind === 'nan') return false;
      if (this.kind !== other.kind) return false;
      if (this.kind === 'infinity') return this.sign === other.sign;
      return compareDecimals(this, other) === 0;
    }
    return false;
  }
}

function compareDecimals(a: PyDecimal, b: PyDecimal): number {
  const value = (d: PyDecimal, exp: number): bigint =>
    (d.sign ? -1n : 1n) * d.coefficient * 10n ** BigInt(d.exponent - exp);
  const e = Math.min(a.exponent, b.exponent);
  const x = value(a, e);
  const y = value(b, e);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Round a positive coefficient to at most `prec` digits, half to even (`Decimal._fix` in the normal range). */
function fixDecimal(sign: 0 | 1, coefficient: bigint, exponent: number, prec: number): PyDecimal {
  const length = coefficient.toString().length;
  const drop = length - prec;
  if (drop <= 0) return new PyDecimal(sign, coefficient, exponent);
  const unit = 10n ** BigInt(drop);
  let q = coefficient / unit;
  const rest = coefficient % unit;
  const half = unit / 2n;
  if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
  let exp = exponent + drop;
  if (q.toString().length > prec) {
    q /= 10n;
    exp += 1;
  }
  return new PyDecimal(sign, q, exp);
}

/** `Decimal.sqrt()` under the current context precision: correctly rounded, with the ideal exponent when exact. */
export function decimalSqrt(d: PyDecimal): PyDecimal {
  if (d.kind === 'nan') return new PyDecimal(d.sign, 0n, 0, 'nan');
  if (d.kind === 'infinity') {
    if (d.sign === 0) return d;
    throw new PyException('InvalidOperation', "[<class 'decimal.InvalidOperation'>]");
  }
  const prec = DECIMAL_CONTEXT.prec;
  if (d.coefficient === 0n) return new PyDecimal(d.sign, 0n, Math.floor(d.exponent / 2));
  if (d.sign) throw new PyException('InvalidOperation', "[<class 'decimal.InvalidOperation'>]");
  const workPrec = prec + 1;
  const digits = d.coefficient.toString().length;
  // Write the operand as c * 100^e with e the ideal exponent (half the operand's exponent).
  let e = Math.floor(d.exponent / 2);
  let c: bigint;
  let l: number;
  if (d.exponent & 1) {
    c = d.coefficient * 10n;
    l = (digits >> 1) + 1;
  } else {
    c = d.coefficient;
    l = (digits + 1) >> 1;
  }
  const shift = workPrec - l;
  let exact: boolean;
  if (shift >= 0) {
    c *= 100n ** BigInt(shift);
    exact = true;
  } else {
    const unit = 100n ** BigInt(-shift);
    exact = c % unit === 0n;
    c /= unit;
  }
  e -= shift;
  // n = floor(sqrt(c)) by Newton's method from above.
  let n = 10n ** BigInt(workPrec);
  for (;;) {
    const q = c / n;
    if (n <= q) break;
    n = (n + q) >> 1n;
  }
  exact = exact && n * n === c;
  if (exact) {
    if (shift >= 0) n /= 10n ** BigInt(shift);
    else n *= 10n ** BigInt(-shift);
    e += shift;
  } else if (n % 5n === 0n) {
    n += 1n; // makes the final half-even rounding see that the root is not exactly representable
  }
  return fixDecimal(0, n, e, prec);
}

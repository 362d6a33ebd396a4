/**
 * The natural logarithm rounded correctly to the nearest double, for the BM25+ IDF of the key-value
 * memory. CPython's `math.log` is the platform libm's: on the IDF arguments `(N + 1) / n` (N ≤ 120)
 * V8's `Math.log` differs from glibc's by one ulp on 595 of 7260, which changes printed key-search
 * scores; correct rounding differs on 5 (glibc is not correctly rounded near halfway cases, e.g.
 * 41/35). Computed in double-double arithmetic (about 100 bits), rounded once.
 */

/** A double-double number: the unevaluated sum `hi + lo` with |lo| ≤ ulp(hi) / 2. */
type DD = readonly [number, number];

/** ln 2 as a double-double. */
const LN2: DD = [0.6931471805599453, 2.3190468138462996e-17];
const SPLITTER = 134217729; // 2^27 + 1, Dekker's split
const TWO_POW_54 = 18014398509481984;

function twoSum(a: number, b: number): DD {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
}

function quickTwoSum(a: number, b: number): DD {
  const s = a + b;
  return [s, b - (s - a)];
}

function split(a: number): DD {
  const t = SPLITTER * a;
  const hi = t - (t - a);
  return [hi, a - hi];
}

function twoProd(a: number, b: number): DD {
  const p = a * b;
  const [ah, al] = split(a);
  const [bh, bl] = split(b);
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}

function add(a: DD, b: DD): DD {
  const [s, e] = twoSum(a[0], b[0]);
  return quickTwoSum(s, e + a[1] + b[1]);
}

function mul(a: DD, b: DD): DD {
  const [p, e] = twoProd(a[0], b[0]);
  return quickTwoSum(p, e + a[0] * b[1] + a[1] * b[0]);
}

function mulNumber(a: DD, b: number): DD {
  const [p, e] = twoProd(a[0], b);
  return quickTwoSum(p, e + a[1] * b);
}

function div(a: DD, b: DD): DD {
  const q1 = a[0] / b[0];
  let r = add(a, mulNumber(b, -q1));
  const q2 = r[0] / b[0];
  r = add(r, mulNumber(b, -q2));
  const q3 = r[0] / b[0];
  return add(quickTwoSum(q1, q2), [q3, 0]);
}

const view = new DataView(new ArrayBuffer(8));

/** `x = m · 2^e` with m in [1, 2), for a positive finite x. */
function frexp(x: number): [number, number] {
  let scale = 0;
  if (x < 2.2250738585072014e-308) {
    x *= TWO_POW_54; // subnormal: make it normal first
    scale = -54;
  }
  view.setFloat64(0, x);
  const high = view.getUint32(0);
  const exponent = ((high >>> 20) & 0x7ff) - 1023;
  view.setUint32(0, (high & 0x800fffff) | 0x3ff00000);
  return [view.getFloat64(0), exponent + scale];
}

/** Natural logarithm of `x`, correctly rounded; non-positive, infinite and NaN inputs as `Math.log`. */
export function correctlyRoundedLog(x: number): number {
  if (!(x > 0) || x === Infinity) return Math.log(x);
  let [m, e] = frexp(x);
  if (m > Math.SQRT2) {
    m /= 2; // exact
    e += 1;
  }
  // log(m) = 2·atanh(s) = 2·(s + s³/3 + s⁵/5 + ...), s = (m - 1) / (m + 1), |s| ≤ 0.1716.
  const s = div([m - 1, 0], twoSum(m, 1)); // m - 1 is exact for m in [1/√2, √2]
  const s2 = mul(s, s);
  let term: DD = s;
  let sum: DD = s;
  for (let k = 3; Math.abs(term[0]) > 1e-36 * Math.abs(sum[0]); k += 2) {
    term = mul(term, s2);
    sum = add(sum, div(term, [k, 0]));
  }
  const result = add(mulNumber(LN2, e), mulNumber(sum, 2));
  return result[0] + result[1];
}

/**
 * McNemar's exact test for paired pass/fail outcomes: under the null hypothesis the discordant
 * pairs (pass→fail `b`, fail→pass `c`) split as Binomial(b + c, 1/2). The two-sided p-value is
 * min(1, 2 · P(X ≤ min(b, c))), computed exactly with BigInt binomial coefficients.
 */

/** Binomial coefficients C(n, 0..k), exact. */
function binomialPrefix(n: number, k: number): bigint[] {
  const out: bigint[] = [1n];
  let c = 1n;
  for (let i = 1; i <= k; i++) {
    c = (c * BigInt(n - i + 1)) / BigInt(i);
    out.push(c);
  }
  return out;
}

/** `num / den` as the nearest double, also when both exceed the double range. */
export function ratioToNumber(num: bigint, den: bigint): number {
  if (den <= 0n) throw new RangeError('denominator must be positive');
  if (num === 0n) return 0;
  // Scale so that the integer quotient carries 64 significant bits, then divide as doubles.
  const shift = BigInt(Math.max(0, den.toString(2).length - num.toString(2).length + 64));
  const quotient = (num << shift) / den;
  // Divide in chunks: 2 ** shift alone would overflow for tiny results.
  let x = Number(quotient);
  let remaining = Number(shift);
  while (remaining > 1000) {
    x /= 2 ** 1000;
    remaining -= 1000;
  }
  return x / 2 ** remaining;
}

/**
 * Two-sided exact McNemar p-value for `b` pairs that went pass→fail and `c` that went fail→pass.
 * No discordant pairs gives 1.
 */
export function mcnemarExactPValue(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) throw new RangeError('counts must be non-negative integers');
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  const tail = binomialPrefix(n, k).reduce((sum, x) => sum + x, 0n);
  // p = 2 · tail / 2^n = tail / 2^(n-1), capped at 1.
  const den = 1n << BigInt(n - 1);
  if (tail >= den) return 1;
  return ratioToNumber(tail, den);
}

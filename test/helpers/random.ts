/**
 * A small deterministic random source (mulberry32) for randomized tests: the same seed gives the
 * same cases, so that a failure names a reproducible input. Returns integers in `[0, n)`, n ≤ 2**32.
 */
export function seededRandom(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

/**
 * A random JSON number token, in the spellings that matter to number checks: a sign, 1 to 19
 * integral digits, a fraction (always, or two times in three) that may open with a run of zeros
 * or nines, and one time in six an exponent.
 */
export function randomNumberToken(next: (n: number) => number, options: { alwaysFraction?: boolean } = {}): string {
  const digits = (n: number): string => Array.from({ length: n }, () => String(next(10))).join('');
  const int = next(3) === 0 ? '0' : String(1 + next(9)) + digits(next(19));
  const run = ['', '', '0'.repeat(next(8)), '9'.repeat(next(8))][next(4)]!;
  const fraction = options.alwaysFraction === true || next(3) !== 0 ? `.${run}${digits(1 + next(18))}` : '';
  const exponent = next(6) === 0 ? `${['e', 'E'][next(2)]}${['', '+', '-'][next(3)]}${next(30)}` : '';
  return `${next(3) === 0 ? '-' : ''}${int}${fraction}${exponent}`;
}

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

import { describe, expect, it } from 'vitest';

import { mcnemarExactPValue, ratioToNumber } from '../../src/inspect/mcnemar.js';

describe('mcnemarExactPValue', () => {
  // Expected values: min(1, 2·Σ_{i≤min(b,c)} C(b+c, i) / 2^(b+c)), computed exactly with Python's
  // fractions.Fraction and math.comb, then float().
  it.each([
    [0, 0, 1],
    [1, 0, 1],
    [0, 5, 0.0625],
    [1, 6, 0.125],
    [3, 11, 0.057373046875],
    [2, 12, 0.012939453125],
    [10, 10, 1],
    [5, 6, 1],
    [20, 40, 0.01348929373119186],
    [0, 30, 1.862645149230957e-9],
    [100, 150, 0.001883300935076157],
    [121, 59, 4.434449263755176e-6],
    [400, 480, 0.007707305043339141],
    [0, 1000, 1.8665272370064378e-301],
  ])('b=%i c=%i → %d', (b, c, expected) => {
    expect(mcnemarExactPValue(b, c)).toBe(expected);
  });

  it('is symmetric in b and c', () => {
    expect(mcnemarExactPValue(7, 19)).toBe(mcnemarExactPValue(19, 7));
  });

  it('rejects negative or fractional counts', () => {
    expect(() => mcnemarExactPValue(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExactPValue(1.5, 2)).toThrow(RangeError);
  });
});

describe('ratioToNumber', () => {
  it('rounds huge ratios to the nearest double', () => {
    expect(ratioToNumber(1n, 3n)).toBe(1 / 3);
    expect(ratioToNumber(10n ** 400n, 3n * 10n ** 400n)).toBe(1 / 3);
    expect(ratioToNumber(0n, 5n)).toBe(0);
  });
});

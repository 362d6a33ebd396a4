import { describe, expect, test } from 'vitest';

import { pyRound } from '../../src/py/builtins.js';
import { floatToRatio, intTrueDivide } from '../../src/py/numbers.js';
import { floatRepr } from '../../src/py/repr.js';
import { PyException } from '../../src/py/value.js';
import { seededRandom } from '../helpers/random.js';
import {
  exactMomentsOf,
  exactRatio,
  floatSqrtOfFraction,
  meanAndStdevOfMoments,
  mergeExactMoments,
  integerSqrt,
  numpyPercentile,
  numpyRound,
  pyStatisticsMean,
  pyStatisticsStdev,
  pyStatisticsVariance,
  type PyNumber,
} from '../../src/report/python-statistics.js';

/** Python repr of an int or float result. */
const repr = (v: PyNumber): string => (typeof v === 'bigint' ? v.toString() : floatRepr(v));

// Expected values printed by CPython 3.11 (statistics is exact, so 3.12 agrees) and NumPy 2.4.
const CASES: readonly {
  values: PyNumber[];
  mean: string;
  stdev?: string;
  variance?: string;
  p95: string;
  p95Rounded: string;
}[] = [
  {
    values: [0.5220794677734375, 0.3969593048095703, 0.8430464267730713],
    mean: '0.587361733118693',
    stdev: '0.23009728534225715',
    variance: '0.052944760721876115',
    p95: '0.8109497308731078',
    p95Rounded: '0.81',
  },
  { values: [1n, 2n, 3n, 4n], mean: '2.5', stdev: '1.2909944487358056', variance: '1.6666666666666667', p95: '3.8499999999999996', p95Rounded: '3.85' },
  { values: [1n, 2n, 3n, 4n, 4n], mean: '2.8', stdev: '1.3038404810405297', variance: '1.7', p95: '4.0', p95Rounded: '4.0' },
  { values: [1.5, 2.5, 2.5, 2.75, 3.25, 4.75], mean: '2.875', stdev: '1.0810874155219827', variance: '1.16875', p95: '4.375', p95Rounded: '4.38' },
  { values: [2n, 3.5, 7n], mean: '4.166666666666667', stdev: '2.565800719723442', variance: '6.583333333333333', p95: '6.6499999999999995', p95Rounded: '6.65' },
  { values: [0.1, 0.2, 0.3], mean: '0.2', stdev: '0.09999999999999999', variance: '0.009999999999999998', p95: '0.29', p95Rounded: '0.29' },
  { values: [5.0], mean: '5.0', p95: '5.0', p95Rounded: '5.0' },
  { values: [1e-300, 3e-300], mean: '2e-300', stdev: '1.4142135623730952e-300', variance: '0.0', p95: '2.9000000000000003e-300', p95Rounded: '0.0' },
  // All ints with an integral result: mean and variance stay ints, stdev is a float.
  { values: [3n, 3n], mean: '3', stdev: '0.0', variance: '0', p95: '3.0', p95Rounded: '3.0' },
];

describe('statistics.mean / variance / stdev and numpy.percentile', () => {
  for (const c of CASES) {
    test(`[${c.values.map(repr).join(', ')}]`, () => {
      expect(repr(pyStatisticsMean(c.values))).toBe(c.mean);
      if (c.stdev !== undefined) expect(floatRepr(pyStatisticsStdev(c.values))).toBe(c.stdev);
      if (c.stdev !== undefined) expect(meanAndStdevOfMoments(exactMomentsOf(c.values))).toEqual({ mean: pyStatisticsMean(c.values), stdev: pyStatisticsStdev(c.values) });
      if (c.variance !== undefined) expect(repr(pyStatisticsVariance(c.values))).toBe(c.variance);
      expect(floatRepr(numpyPercentile(c.values, 95))).toBe(c.p95);
      expect(floatRepr(numpyRound(numpyPercentile(c.values, 95), 2))).toBe(c.p95Rounded);
    });
  }

  test('the 95th percentile of 1..21 is exactly the 20th value', () => {
    expect(numpyPercentile(Array.from({ length: 21 }, (_, i) => BigInt(i + 1)), 95)).toBe(20);
  });

  test('the percentile sorts numerically, whatever the input order', () => {
    expect(numpyPercentile([10, 9, 100, 2, 1e-3, 11n], 50)).toBe(9.5);
    expect(numpyPercentile([3, -1, 2], 0)).toBe(-1);
  });

  test('empty or too short inputs raise StatisticsError as CPython does', () => {
    expect(() => pyStatisticsMean([])).toThrow(new PyException('StatisticsError', 'mean requires at least one data point'));
    expect(() => pyStatisticsStdev([1.0])).toThrow('stdev requires at least two data points');
    expect(() => pyStatisticsVariance([1.0])).toThrow('variance requires at least two data points');
  });
});

describe('exact moments', () => {
  test('moments of parts merge into the moments of the whole, whatever the split', () => {
    const next = seededRandom(777);
    for (let round = 0; round < 50; round++) {
      const values: PyNumber[] = Array.from({ length: 2 + next(40) }, () =>
        next(3) === 0 ? BigInt(next(100)) : (next(1_000_000) / 2 ** next(60)) * (next(2) === 0 ? 1 : -1),
      );
      const cut = next(values.length + 1);
      const merged = mergeExactMoments(exactMomentsOf(values.slice(0, cut)), exactMomentsOf(values.slice(cut)));
      expect(meanAndStdevOfMoments(merged)).toEqual(meanAndStdevOfMoments(exactMomentsOf(values)));
      // Σx and Σx² are the same rationals, over the same denominators.
      expect(merged).toEqual(exactMomentsOf(values));
    }
  });

  test('an all-int mean stays an int only when every part was all ints', () => {
    const ints = exactMomentsOf([2n, 4n]);
    expect(meanAndStdevOfMoments(mergeExactMoments(ints, exactMomentsOf([3n]))).mean).toBe(3n);
    expect(meanAndStdevOfMoments(mergeExactMoments(ints, exactMomentsOf([3.0]))).mean).toBe(3);
  });
});

describe('numpyRound', () => {
  test('rounds the scaled double half to even, unlike Python round', () => {
    expect(numpyRound(2.675, 2)).toBe(2.68);
    expect(pyRound(2.675, 2)).toBe(2.67);
    expect(numpyRound(1.005, 2)).toBe(1.0);
    expect(numpyRound(0.125, 2)).toBe(0.12);
    expect(Object.is(numpyRound(-0.001, 2), -0)).toBe(true);
    expect(numpyRound(-2.5, 0)).toBe(-2);
    expect(numpyRound(1250, -2)).toBe(1200);
  });
});

describe('exact arithmetic helpers', () => {
  test('exactRatio agrees with the bit-level mantissa and exponent, in lowest terms, over many doubles', () => {
    const view = new DataView(new ArrayBuffer(8));
    const next = seededRandom(12345);
    const random = (): number => next(2 ** 31) / 2 ** 31;
    const samples = [0, -0, 5e-324, -5e-324, 2.2250738585072014e-308, Number.MAX_VALUE, 1 / 3, 0.1, 1e-7, 123.456, 2 ** 53 + 2];
    for (let i = 0; i < 2000; i++) {
      view.setUint32(0, Math.floor(random() * 2 ** 32));
      view.setUint32(4, Math.floor(random() * 2 ** 32));
      const x = view.getFloat64(0);
      if (Number.isFinite(x)) samples.push(x);
      samples.push(random() * 10, Math.round(random() * 1e6) / 1e3);
    }
    for (const x of samples) {
      const { mantissa, exponent } = floatToRatio(x);
      let num = exponent >= 0 ? mantissa << BigInt(exponent) : mantissa;
      let den = exponent >= 0 ? 1n : 1n << BigInt(-exponent);
      while (den > 1n && num % 2n === 0n) {
        num /= 2n;
        den /= 2n;
      }
      expect(exactRatio(x), String(x)).toEqual({ num, den });
    }
  });

  test('exactRatio gives the binary value of a double', () => {
    expect(exactRatio(0.1)).toEqual({ num: 3602879701896397n, den: 36028797018963968n });
    expect(exactRatio(-2.5)).toEqual({ num: -5n, den: 2n });
    expect(exactRatio(2 ** 60)).toEqual({ num: 2n ** 60n, den: 1n });
    expect(exactRatio(7n)).toEqual({ num: 7n, den: 1n });
  });

  test('mean, variance and stdev equal an independent exact computation over random mixed lists', () => {
    const next = seededRandom(4242);
    const randomValue = (): PyNumber => {
      switch (next(5)) {
        case 0:
          return BigInt(next(2001) - 1000);
        case 1:
          return (next(100000) / 7) * (next(2) === 0 ? 1 : -1);
        case 2:
          return next(1000) * 5e-324;
        default:
          // Any 53-bit significand, from the subnormals up to about 2**452: the squares stay below the
          // largest double (a larger variance overflows a float in CPython too).
          return (next(2 ** 31) * 2 ** 22 + next(2 ** 22)) * 2 ** (next(1500) - 1100) * (next(2) === 0 ? 1 : -1);
      }
    };
    // Every double times 2**1074 is an integer: exact sums without fractions.
    const scaled = (v: PyNumber): bigint => {
      const { num, den } = exactRatio(v);
      return (num << 1074n) / den;
    };
    for (let list = 0; list < 300; list++) {
      const values = Array.from({ length: 2 + next(40) }, randomValue);
      const n = BigInt(values.length);
      const sx = values.reduce((acc: bigint, v) => acc + scaled(v), 0n);
      const sxx = values.reduce((acc: bigint, v) => acc + scaled(v) ** 2n, 0n);
      const allInts = values.every((v) => typeof v === 'bigint');
      const mean = pyStatisticsMean(values);
      if (!allInts) expect(mean, values.join(',')).toBe(intTrueDivide(sx, n << 1074n));
      const varianceNum = n * sxx - sx * sx;
      const varianceDen = (n * (n - 1n)) << 2148n;
      const variance = pyStatisticsVariance(values);
      if (!allInts) expect(variance, values.join(',')).toBe(intTrueDivide(varianceNum, varianceDen));
      expect(pyStatisticsStdev(values), values.join(',')).toBe(floatSqrtOfFraction(varianceNum, varianceDen));
      // The one-pass pair is the two apart.
      expect(meanAndStdevOfMoments(exactMomentsOf(values)), values.join(',')).toEqual({ mean, stdev: pyStatisticsStdev(values) });
    }
  });

  test('integerSqrt is math.isqrt', () => {
    expect(integerSqrt(0n)).toBe(0n);
    expect(integerSqrt(15n)).toBe(3n);
    expect(integerSqrt(16n)).toBe(4n);
    expect(integerSqrt(10n ** 40n + 1n)).toBe(10n ** 20n);
  });

  test('floatSqrtOfFraction is correctly rounded', () => {
    expect(floatSqrtOfFraction(2n, 1n)).toBe(Math.SQRT2);
    expect(floatSqrtOfFraction(1n, 4n)).toBe(0.5);
    expect(floatSqrtOfFraction(10n ** 200n, 1n)).toBe(1e100);
  });
});

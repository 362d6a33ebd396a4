import { describe, expect, it } from 'vitest';

import { correctlyRoundedLog } from '../../../src/agentic/memory/correctly-rounded-log.js';

describe('correctlyRoundedLog', () => {
  // IDF arguments (N + 1) / n where V8's Math.log is one ulp off and CPython's math.log (glibc) is
  // correctly rounded; expected values printed by CPython 3.11 and checked against 60-digit decimal.
  const V8_OFF: [number, number, number][] = [
    [3, 1, 1.0986122886681098], [21, 15, 0.3364722366212129], [31, 5, 1.824549292051046], [38, 26, 0.3794896217049037],
    [43, 26, 0.5031035776720804], [49, 15, 1.1837700970084166], [54, 33, 0.49247648509779424], [59, 33, 0.5810298824392391],
    [62, 24, 0.949080554697146], [65, 62, 0.04725288485054551], [69, 50, 0.3220834991691132], [72, 66, 0.0870113769896297],
    [76, 58, 0.2702903297399117], [79, 56, 0.34409616173187235], [83, 2, 3.7256934272366524], [86, 52, 0.5031035776720804],
    [89, 38, 0.8510502100057541], [92, 37, 0.9108706644048158], [94, 14, 1.9042374526547452], [97, 17, 1.7414976344471669],
    [99, 61, 0.4842459859612787], [102, 40, 0.9360933591703348], [104, 82, 0.23767165187711956], [107, 76, 0.3420954941755751],
    [110, 21, 1.6559579280689933], [112, 91, 0.20763936477824455], [114, 45, 0.9295359586241757], [116, 45, 0.946927701336045],
    [118, 72, 0.4940185054496094], [120, 49, 0.8956714446714195],
  ];

  it.each(V8_OFF)('log(%i / %i) = %s as CPython prints it', (num, den, expected) => {
    expect(correctlyRoundedLog(num / den)).toBe(expected);
  });

  // The 5 arguments (N ≤ 120) where glibc itself is one ulp off: correct rounding is kept there.
  it.each([
    [41, 35, 0.1582240052148942, 0.15822400521489416],
    [69, 13, 1.6691571471357227, 1.6691571471357225],
    [111, 98, 0.12456272264176224, 0.12456272264176226],
    [116, 97, 0.17887921260298179, 0.1788792126029818],
  ])('log(%i / %i) = %s, correctly rounded (glibc prints %s)', (num, den, correct) => {
    expect(correctlyRoundedLog(num / den)).toBe(correct);
  });

  it('is exact where the result is representable and agrees with Math.log within one ulp elsewhere', () => {
    expect(correctlyRoundedLog(1)).toBe(0);
    expect(correctlyRoundedLog(2)).toBe(0.6931471805599453);
    for (const x of [1e-310, 5e-324, 1e-300, 0.5, 0.7071067811865476, 1.4142135623730951, 1 + 2 ** -52, 10, 1e300, 1.7976931348623157e308]) {
      const y = correctlyRoundedLog(x);
      const reference = Math.log(x);
      expect(Math.abs(y - reference)).toBeLessThanOrEqual(Math.abs(reference) * 2 ** -52 + 5e-324);
    }
  });

  it.each([0, -1, Number.NaN, Infinity])('leaves %s to Math.log', (x) => {
    expect(Object.is(correctlyRoundedLog(x), Math.log(x))).toBe(true);
  });
});

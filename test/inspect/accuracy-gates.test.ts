import { describe, expect, it } from 'vitest';

import { checkAccuracyGates, describeFailedGate, parseAccuracyGates } from '../../src/inspect/accuracy-gates.js';
import type { CategoryScore } from '../../src/report/leaderboard.js';
import { UsageError } from '../../src/util/errors.js';

const size = { datasetSize: () => 10 };
const score = (accuracy: number): CategoryScore => ({ accuracy, correctCount: BigInt(Math.round(accuracy * 10)), totalCount: 10n });

describe('parseAccuracyGates', () => {
  it('reads overall values, percentages, and category or group pairs', () => {
    expect(parseAccuracyGates(['0.8', '75%', 'multi_turn=0.5', 'simple_python = 90 %', 'overall=.7'])).toEqual([
      { target: 'overall', threshold: 0.8 },
      { target: 'overall', threshold: 0.75 },
      { target: 'multi_turn', threshold: 0.5 },
      { target: 'simple_python', threshold: 0.9 },
      { target: 'overall', threshold: 0.7 },
    ]);
  });

  it.each(['unknown=0.5', '1.2', 'live=-0.1', 'live=', '80 percent'])('rejects %s', (item) => {
    expect(() => parseAccuracyGates([item])).toThrow(UsageError);
  });
});

describe('checkAccuracyGates', () => {
  const scores = new Map<string, CategoryScore>([
    ['multi_turn_base', score(0.6)],
    ['multi_turn_miss_func', score(0.4)],
    ['simple_python', score(0.9)],
    ['simple_java', score(0.5)],
  ]);

  it('uses the leaderboard summaries for groups that have one', () => {
    const [multiTurn, nonPython, overall] = checkAccuracyGates('m', scores, parseAccuracyGates(['multi_turn=0.25', 'non_python=0.3', '0.1']), size);
    // Multi Turn Overall Acc = mean of the four multi-turn categories, missing ones as 0.
    expect(multiTurn).toMatchObject({ accuracy: 0.25, measure: 'Multi Turn Overall Acc', passed: true });
    // non_python has no leaderboard column: the mean of simple_java and simple_javascript.
    expect(nonPython).toMatchObject({ accuracy: 0.25, measure: 'mean accuracy of the non_python categories', passed: false });
    // Overall: 10% × Non-Live ((0.9+0.5+0)/3 / 4) + 30% × 0.25.
    expect(overall!.accuracy).toBeCloseTo(0.1 * (1.4 / 3 / 4) + 0.3 * 0.25, 12);
    expect(overall!.passed).toBe(false);
  });

  it('fails a category that was not evaluated, and says so', () => {
    const [check] = checkAccuracyGates('m', scores, parseAccuracyGates(['live_simple=0']), size);
    expect(check).toMatchObject({ accuracy: undefined, passed: false });
    expect(describeFailedGate(check!)).toBe('m: live_simple was not evaluated (minimum 0.00%)');
  });

  it('meets a threshold equal to the accuracy', () => {
    const [check] = checkAccuracyGates('m', new Map([['simple_python', { accuracy: 0.7999999999999999, totalCount: 5n }]]), parseAccuracyGates(['simple_python=0.8']), size);
    expect(check!.passed).toBe(true);
  });
});

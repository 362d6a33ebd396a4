import { describe, expect, test } from 'vitest';

import { jsonDumps } from '../../src/py/json.js';
import { formatSensitivityHeaderFields } from '../../src/report/format-sensitivity-stats.js';

describe('formatSensitivityHeaderFields', () => {
  test('spread in percentage points, then per-configuration scores in the given order', () => {
    const fields = formatSensitivityHeaderFields(
      new Map([
        ['a', { correct: 150, total: 200 }],
        ['b', { correct: 125, total: 200 }],
        ['c', { correct: 145, total: 200 }],
        ['d', { correct: 133, total: 200 }],
      ]),
    );
    // Values printed by CPython for the same counts.
    expect(jsonDumps(fields)).toBe(
      '{"accuracy_max_delta": 12.5, "accuracy_variance": 32.23, "accuracy_std": 5.68, ' +
        '"a": {"accuracy": 0.75, "correct_count": 150, "total_count": 200}, ' +
        '"b": {"accuracy": 0.625, "correct_count": 125, "total_count": 200}, ' +
        '"c": {"accuracy": 0.725, "correct_count": 145, "total_count": 200}, ' +
        '"d": {"accuracy": 0.665, "correct_count": 133, "total_count": 200}}',
    );
  });

  test('thirds', () => {
    const fields = formatSensitivityHeaderFields(
      new Map([
        ['x', { correct: 1, total: 3 }],
        ['y', { correct: 2, total: 3 }],
      ]),
    );
    expect([fields.get('accuracy_max_delta'), fields.get('accuracy_variance'), fields.get('accuracy_std')]).toEqual([33.33, 555.56, 23.57]);
  });

  test('one configuration: all spreads 0.0', () => {
    const fields = formatSensitivityHeaderFields(new Map([['x', { correct: 1, total: 2 }]]));
    expect(jsonDumps(fields)).toBe(
      '{"accuracy_max_delta": 0.0, "accuracy_variance": 0.0, "accuracy_std": 0.0, "x": {"accuracy": 0.5, "correct_count": 1, "total_count": 2}}',
    );
  });
});

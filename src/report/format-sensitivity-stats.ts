/**
 * The extra score-header fields of the format-sensitivity category (`format_sensitivity_runner`):
 * the spread of accuracy across prompt configurations, then each configuration's own score.
 */

import { pyRound } from '../py/builtins.js';
import type { PyDict } from '../py/value.js';
import { pyStatisticsStdev, pyStatisticsVariance } from './python-statistics.js';

/** Correct and total entry counts of one prompt configuration. */
export interface ConfigCounts {
  readonly correct: number;
  readonly total: number;
}

/**
 * `{"accuracy_max_delta", "accuracy_variance", "accuracy_std", "<config>": {accuracy, correct_count,
 * total_count}, ...}` in that order, configurations in the order given (first appearance in the
 * sorted results). Spread values are in percentage points (variance in points²), rounded to 2 places,
 * from sample statistics; with fewer than two configurations they are all 0.0.
 */
export function formatSensitivityHeaderFields(configs: ReadonlyMap<string, ConfigCounts>): PyDict {
  const byConfig = new Map<string, PyDict>();
  const accuracies: number[] = [];
  for (const [config, { correct, total }] of configs) {
    const accuracy = correct / total;
    accuracies.push(accuracy);
    byConfig.set(
      config,
      new Map<string, number | bigint>([
        ['accuracy', accuracy],
        ['correct_count', BigInt(correct)],
        ['total_count', BigInt(total)],
      ]),
    );
  }
  let maxDelta: number | bigint = 0.0;
  let variance: number | bigint = 0.0;
  let std: number | bigint = 0.0;
  if (accuracies.length > 1) {
    variance = pyRound(Number(pyStatisticsVariance(accuracies)) * 100 ** 2, 2);
    std = pyRound(pyStatisticsStdev(accuracies) * 100, 2);
    maxDelta = pyRound((Math.max(...accuracies) - Math.min(...accuracies)) * 100, 2);
  }
  const fields: PyDict = new Map();
  fields.set('accuracy_max_delta', maxDelta);
  fields.set('accuracy_variance', variance);
  fields.set('accuracy_std', std);
  for (const [config, score] of byConfig) fields.set(config, score);
  return fields;
}

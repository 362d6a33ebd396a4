import type { ReturnFormat } from '../../exec/decode/index.js';
import { pyRound } from '../../py/builtins.js';
import { pyDict, type PyDict } from '../../py/value.js';
import { pyStatisticsStdev, pyStatisticsVariance } from '../../report/python-statistics.js';
import { evaluateRunEntry } from './ast-runner.js';
import { tallyEntries, type CategoryRunInput, type CategoryRunOutput } from './category-input.js';

const CONFIG_PATTERN =
  /^ret_fmt=(python|json|verbose_xml|concise_xml)&tool_call_tag=(True|False)&func_doc_fmt=(python|xml|json)&prompt_fmt=(plaintext|markdown)&style=(classic|experimental)$/;

/** The prompt variation of a format-sensitivity id (`format_sensitivity_<k>:<config>:<original id>`). */
export function parseFormatConfig(config: string): { format: ReturnFormat; hasToolCallTag: boolean } | undefined {
  const m = CONFIG_PATTERN.exec(config);
  if (m === null) return undefined;
  return { format: m[1] as ReturnFormat, hasToolCallTag: m[2] === 'True' };
}

/** The reference's `format_sensitivity_runner`: AST checks per entry, accuracy per prompt configuration. */
export function runFormatSensitivityCategory(input: CategoryRunInput): CategoryRunOutput {
  const stats = new Map<string, { correct: number; total: number }>();
  const { correct, total, failures } = tallyEntries(input.results, (entry, i) => {
    const [, config = '', originalId = ''] = entry.id.split(':');
    const parsed = parseFormatConfig(config) ?? { format: 'python' as const, hasToolCallTag: false };
    const failure = evaluateRunEntry(input, entry, i, {
      checkerCategory: originalId,
      language: 'python',
      format: parsed.format,
      hasToolCallTag: parsed.hasToolCallTag,
    });
    const configStats = stats.get(config) ?? { correct: 0, total: 0 };
    configStats.total++;
    if (failure === undefined) configStats.correct++;
    stats.set(config, configStats);
    return failure;
  });

  const byConfig: PyDict = new Map();
  const accuracies: number[] = [];
  for (const [config, s] of stats) {
    const accuracy = s.correct / s.total;
    accuracies.push(accuracy);
    byConfig.set(config, pyDict({ accuracy, correct_count: BigInt(s.correct), total_count: BigInt(s.total) }));
  }
  let variance = 0.0;
  let std = 0.0;
  let maxDelta = 0.0;
  if (accuracies.length > 1) {
    variance = Number(pyRound(Number(pyStatisticsVariance(accuracies)) * 100 ** 2, 2));
    std = Number(pyRound(pyStatisticsStdev(accuracies) * 100, 2));
    maxDelta = Number(pyRound((Math.max(...accuracies) - Math.min(...accuracies)) * 100, 2));
  }
  const extraHeader: PyDict = pyDict({
    accuracy_max_delta: maxDelta,
    accuracy_variance: variance,
    accuracy_std: std,
  });
  for (const [config, value] of byConfig) extraHeader.set(config, value);
  return { correct, total, failures, extraHeader };
}

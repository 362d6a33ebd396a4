/**
 * CI gates for `bfcl evaluate --min-accuracy`: thresholds on the overall accuracy, a category, or a
 * group of categories, checked against the same scores the leaderboard shows.
 */

import { summarizeModel, unweightedAccuracy, type CategoryScore, type LeaderboardOptions, type ModelSummary } from '../report/leaderboard.js';
import { TEST_COLLECTION_MAPPING, isCategory, type Category } from '../spec/categories.js';
import { UsageError } from '../util/errors.js';

/** One threshold: `target` is `overall`, a category id or a group name. */
export interface AccuracyGate {
  readonly target: string;
  /** Minimum accuracy as a fraction in [0, 1]. */
  readonly threshold: number;
}

/** The outcome of one gate for one model. */
export interface GateCheck {
  readonly model: string;
  readonly gate: AccuracyGate;
  /** The accuracy compared (fraction); undefined when the category was not evaluated. */
  readonly accuracy: number | undefined;
  /** What the accuracy is (e.g. the leaderboard column). */
  readonly measure: string;
  readonly passed: boolean;
}

const OVERALL = 'overall';
const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

function parseThreshold(text: string, item: string): number {
  const trimmed = text.trim();
  const isPercent = trimmed.endsWith('%');
  const digits = isPercent ? trimmed.slice(0, -1).trim() : trimmed;
  if (!NUMBER.test(digits)) throw new UsageError(`Invalid --min-accuracy "${item}": "${text}" is not a number (use 0.8 or 80%).`);
  const value = Number(digits) / (isPercent ? 100 : 1);
  if (value > 1) throw new UsageError(`Invalid --min-accuracy "${item}": ${text} is above 1 (accuracies are fractions; write 0.8 or 80%).`);
  return value;
}

/**
 * Parse `--min-accuracy` items: `0.8` or `80%` (overall accuracy), or `<category or group>=<value>`
 * (`multi_turn=0.5`, `simple_python=90%`, `overall=0.7`). Unknown names are usage errors.
 */
export function parseAccuracyGates(items: readonly string[]): AccuracyGate[] {
  return items.map((item) => {
    const eq = item.indexOf('=');
    if (eq === -1) return { target: OVERALL, threshold: parseThreshold(item, item) };
    const target = item.slice(0, eq).trim();
    if (target !== OVERALL && !isCategory(target) && !TEST_COLLECTION_MAPPING.has(target)) {
      throw new UsageError(
        `Invalid --min-accuracy "${item}": "${target}" is neither "overall", a test category nor a group (see bfcl test-categories).`,
      );
    }
    return { target, threshold: parseThreshold(item.slice(eq + 1), item) };
  });
}

/** Groups shown as a leaderboard column, and which summary they read. */
const GROUP_MEASURES: ReadonlyMap<string, [measure: string, pick: (s: ModelSummary) => number]> = new Map<
  string,
  [string, (s: ModelSummary) => number]
>([
  [OVERALL, ['Overall Acc', (s) => s.overall.accuracy]],
  ['all', ['Overall Acc', (s) => s.overall.accuracy]],
  ['all_scoring', ['Overall Acc', (s) => s.overall.accuracy]],
  ['non_live', ['Non-Live Overall Acc', (s) => s.overallNonLive.accuracy]],
  ['live', ['Live Overall Acc', (s) => s.overallLive.accuracy]],
  ['multi_turn', ['Multi Turn Overall Acc', (s) => s.overallMultiTurn.accuracy]],
  ['agentic', ['Agentic Overall Acc', (s) => s.overallAgentic.accuracy]],
  ['web_search', ['Web Search Summary', (s) => s.summaryWebSearch.accuracy]],
  ['memory', ['Memory Summary', (s) => s.summaryMemory.accuracy]],
]);

function measureGate(
  gate: AccuracyGate,
  scores: ReadonlyMap<string, CategoryScore>,
  summary: ModelSummary,
): { accuracy: number | undefined; measure: string } {
  const known = GROUP_MEASURES.get(gate.target);
  if (known !== undefined) return { accuracy: known[1](summary), measure: known[0] };
  if (isCategory(gate.target)) {
    const score = scores.get(gate.target);
    return { accuracy: score === undefined ? undefined : Number(score.accuracy), measure: `${gate.target} accuracy` };
  }
  // Groups without a leaderboard column: the plain mean of their categories, a missing one counting as 0.
  const categories = TEST_COLLECTION_MAPPING.get(gate.target) ?? [];
  const perCategory = categories.map((c: Category) => {
    const score = scores.get(c);
    return { accuracy: score === undefined ? 0 : Number(score.accuracy), totalCount: 0, display: 0 };
  });
  return { accuracy: unweightedAccuracy(perCategory).accuracy, measure: `mean accuracy of the ${gate.target} categories` };
}

/** Check every gate for one model's scores (the leaderboard's scores of that model). */
export function checkAccuracyGates(
  model: string,
  scores: ReadonlyMap<string, CategoryScore>,
  gates: readonly AccuracyGate[],
  options: LeaderboardOptions,
): GateCheck[] {
  const summary = summarizeModel(scores, options);
  return gates.map((gate) => {
    const { accuracy, measure } = measureGate(gate, scores, summary);
    // A little slack, so that 0.8 computed as 0.7999999999999999 meets a 0.8 threshold.
    return { model, gate, accuracy, measure, passed: accuracy !== undefined && accuracy >= gate.threshold - 1e-12 };
  });
}

function percent(x: number): string {
  return `${(100 * x).toFixed(2)}%`;
}

/** The message of a missed threshold. */
export function describeFailedGate(check: GateCheck): string {
  const target = check.gate.target;
  if (check.accuracy === undefined) {
    return `${check.model}: ${target} was not evaluated (minimum ${percent(check.gate.threshold)})`;
  }
  return `${check.model}: ${target} accuracy ${percent(check.accuracy)} is below the minimum ${percent(check.gate.threshold)} (${check.measure})`;
}

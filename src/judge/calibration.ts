/**
 * How far the judge agrees with BFCL's deterministic verdicts (spec §5.2, §5.4): confusion matrices
 * (rows BFCL valid / invalid / no verdict; columns the judge's label, failed, skipped), agreement,
 * Cohen's kappa, precision and recall of `correct`, the judge's implied score against BFCL's
 * accuracy, NOT_PARSABLE rate, tokens, cost and latency; per category, per group and overall.
 * Pure: records in, figures out.
 */

import { isLive, isMultiTurn, isRelevanceOrIrrelevance } from '../spec/categories.js';
import type { JudgeRecord } from './judge-record.js';
import { NOT_PARSABLE } from './snap-to-rail.js';

/** A column of the confusion matrix. */
export type JudgeColumn = 'correct' | 'incorrect' | 'NOT_PARSABLE' | 'failed' | 'skipped';
/** The columns in display order. */
export const JUDGE_COLUMNS: readonly JudgeColumn[] = ['correct', 'incorrect', 'NOT_PARSABLE', 'failed', 'skipped'];

/** A row: BFCL's verdict (none: BFCL has no verdict on the unit). */
export type VerdictRow = 'valid' | 'invalid' | 'none';
/** The rows in display order. */
export const VERDICT_ROWS: readonly VerdictRow[] = ['valid', 'invalid', 'none'];

/** Counts by BFCL verdict (row) and judge outcome (column). */
export type ConfusionMatrix = Record<VerdictRow, Record<JudgeColumn, number>>;

/** One unit (or entry) as calibration sees it. */
export interface Observation {
  readonly verdict: boolean | null;
  readonly column: JudgeColumn;
}

/** The agreement figures of a matrix; null where a figure is undefined (`N/A`). */
export interface AgreementMetrics {
  /** TP + FP + FN + TN: units with a BFCL verdict and a correct/incorrect label. */
  readonly n: number;
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly tn: number;
  /** (TP + TN) / n. */
  readonly agreement: number | null;
  readonly kappa: number | null;
  /** TP / (TP + FP). */
  readonly precision: number | null;
  /** TP / (TP + FN). */
  readonly recall: number | null;
  /** The judge's implied score: `correct` labels over every label (NOT_PARSABLE counts as not correct), units with a verdict. */
  readonly judgeCorrectRate: number | null;
  /** BFCL valid over every unit with a verdict. */
  readonly bfclAccuracy: number | null;
  /** judgeCorrectRate − bfclAccuracy: positive when the judge is more lenient than BFCL. */
  readonly bias: number | null;
  /** NOT_PARSABLE over every label (verdict or not). */
  readonly notParsableRate: number | null;
}

/** The matrix column of a record. */
export function columnOf(record: Pick<JudgeRecord, 'label' | 'execution_status'>): JudgeColumn {
  if (record.execution_status === 'SKIPPED' || record.execution_status === 'MISSING INPUT') return 'skipped';
  if (record.label === null || record.execution_status === 'FAILED') return 'failed';
  if (record.label === 'correct' || record.label === 'incorrect') return record.label;
  return NOT_PARSABLE;
}

/** An empty matrix. */
export function emptyMatrix(): ConfusionMatrix {
  const row = (): Record<JudgeColumn, number> => ({ correct: 0, incorrect: 0, NOT_PARSABLE: 0, failed: 0, skipped: 0 });
  return { valid: row(), invalid: row(), none: row() };
}

/** Count observations into a matrix. */
export function confusionMatrix(observations: Iterable<Observation>): ConfusionMatrix {
  const matrix = emptyMatrix();
  for (const o of observations) matrix[o.verdict === null ? 'none' : o.verdict ? 'valid' : 'invalid'][o.column]++;
  return matrix;
}

/** Cohen's kappa of a 2×2 table; null when n = 0 or the chance agreement is 1. */
export function cohensKappa(tp: number, fp: number, fn: number, tn: number): number | null {
  const n = tp + fp + fn + tn;
  if (n === 0) return null;
  const observed = (tp + tn) / n;
  const chance = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / (n * n);
  if (1 - chance === 0) return null;
  return (observed - chance) / (1 - chance);
}

const ratio = (num: number, den: number): number | null => (den === 0 ? null : num / den);

/** Agreement figures of a matrix (positive class `correct`, truth BFCL valid). */
export function agreementMetrics(m: ConfusionMatrix): AgreementMetrics {
  const tp = m.valid.correct;
  const fp = m.invalid.correct;
  const fn = m.valid.incorrect;
  const tn = m.invalid.incorrect;
  const n = tp + fp + fn + tn;
  const labelled = (row: VerdictRow): number => m[row].correct + m[row].incorrect + m[row].NOT_PARSABLE;
  const withVerdict = (row: VerdictRow): number => JUDGE_COLUMNS.reduce((sum, c) => sum + m[row][c], 0);
  const judgeCorrectRate = ratio(tp + fp, labelled('valid') + labelled('invalid'));
  const bfclAccuracy = ratio(withVerdict('valid'), withVerdict('valid') + withVerdict('invalid'));
  return {
    n,
    tp,
    fp,
    fn,
    tn,
    agreement: ratio(tp + tn, n),
    kappa: cohensKappa(tp, fp, fn, tn),
    precision: ratio(tp, tp + fp),
    recall: ratio(tp, tp + fn),
    judgeCorrectRate,
    bfclAccuracy,
    bias: judgeCorrectRate === null || bfclAccuracy === null ? null : judgeCorrectRate - bfclAccuracy,
    notParsableRate: ratio(m.valid.NOT_PARSABLE + m.invalid.NOT_PARSABLE + m.none.NOT_PARSABLE, labelled('valid') + labelled('invalid') + labelled('none')),
  };
}

/** Calls, tokens, cost and latency of a set of records (cache hits counted apart, at no cost). */
export interface UsageFigures {
  /** Answers asked for in this or an earlier run (cache hits excluded). */
  readonly calls: number;
  readonly cacheHits: number;
  /** Attempts beyond the first, over the calls. */
  readonly retries: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Tokens of the answers taken from earlier records (not spent again). */
  readonly cachedPromptTokens: number;
  readonly cachedCompletionTokens: number;
  /** USD; null without prices. */
  readonly cost: number | null;
  readonly latencyMean: number | null;
  readonly latencyP50: number | null;
  readonly latencyP95: number | null;
}

/** USD per million input and output tokens. */
export interface JudgePrices {
  readonly input: number;
  readonly output: number;
}

/** Usage figures of records; latency over answered calls that were not cache hits. */
export function usageFigures(records: readonly JudgeRecord[], prices: JudgePrices | null): UsageFigures {
  let calls = 0;
  let cacheHits = 0;
  let retries = 0;
  let promptTokens = 0;
  let completionTokens = 0;
  let cachedPromptTokens = 0;
  let cachedCompletionTokens = 0;
  const latencies: number[] = [];
  for (const r of records) {
    if (r.execution_status === 'SKIPPED' || r.execution_status === 'MISSING INPUT') continue;
    if (r.cache_hit) {
      cacheHits++;
      cachedPromptTokens += r.prompt_tokens ?? 0;
      cachedCompletionTokens += r.completion_tokens ?? 0;
      continue;
    }
    calls++;
    retries += Math.max(0, r.attempts - 1);
    promptTokens += r.prompt_tokens ?? 0;
    completionTokens += r.completion_tokens ?? 0;
    if (r.latency_s !== null) latencies.push(r.latency_s);
  }
  latencies.sort((a, b) => a - b);
  return {
    calls,
    cacheHits,
    retries,
    promptTokens,
    completionTokens,
    cachedPromptTokens,
    cachedCompletionTokens,
    cost: prices === null ? null : (promptTokens * prices.input) / 1e6 + (completionTokens * prices.output) / 1e6,
    latencyMean: latencies.length === 0 ? null : latencies.reduce((a, b) => a + b, 0) / latencies.length,
    latencyP50: percentile(latencies, 0.5),
    latencyP95: percentile(latencies, 0.95),
  };
}

/** The q-quantile of sorted values, interpolating linearly between closest ranks (numpy's default). */
export function percentile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}

/** What a row of the calibration is about. */
export type ScopeLevel = 'unit' | 'turn' | 'entry';

/** One row of the calibration. */
export interface CalibrationScope {
  /** A category, a group (`non_live`, `live`, `multi_turn`, `relevance`) or `overall`. */
  readonly name: string;
  readonly kind: 'category' | 'group' | 'overall';
  /** unit: single-turn entries; turn / entry: multi-turn at turn or entry level. */
  readonly level: ScopeLevel;
  readonly matrix: ConfusionMatrix;
  readonly metrics: AgreementMetrics;
  readonly usage: UsageFigures;
}

/** The whole calibration of a run. */
export interface Calibration {
  readonly scopes: CalibrationScope[];
}

/** The multi-turn entry's judge label (spec §4.3): any incorrect, else any failed, else any NOT_PARSABLE, else correct. */
export function entryColumn(turns: readonly JudgeRecord[]): JudgeColumn {
  const graded = turns.filter((t) => t.ground_truth_calls !== false);
  const columns = (graded.length > 0 ? graded : turns).map(columnOf);
  if (columns.length === 0) return 'skipped';
  for (const column of ['incorrect', 'failed', 'NOT_PARSABLE', 'skipped'] as const) if (columns.includes(column)) return column;
  return 'correct';
}

/** Observations of single-turn records, or multi-turn records at turn level (whole skipped entries left out). */
function unitObservations(records: readonly JudgeRecord[], level: ScopeLevel): Observation[] {
  const used = level === 'turn' ? records.filter((r) => r.turn !== null) : records;
  return used.map((r) => ({ verdict: r.bfcl_valid, column: columnOf(r) }));
}

/** Multi-turn entries: one observation per id. */
function entryObservations(records: readonly JudgeRecord[]): Observation[] {
  const byId = new Map<string, JudgeRecord[]>();
  for (const r of records) {
    const list = byId.get(r.id);
    if (list === undefined) byId.set(r.id, [r]);
    else list.push(r);
  }
  return [...byId.values()].map((list) => {
    const whole = list.find((r) => r.turn === null);
    if (whole !== undefined) return { verdict: whole.bfcl_entry_valid ?? whole.bfcl_valid, column: columnOf(whole) };
    return { verdict: list[0]!.bfcl_entry_valid ?? null, column: entryColumn(list.filter((r) => r.turn !== null)) };
  });
}

function scope(name: string, kind: CalibrationScope['kind'], level: ScopeLevel, records: readonly JudgeRecord[], prices: JudgePrices | null): CalibrationScope {
  const observations = level === 'entry' ? entryObservations(records) : unitObservations(records, level);
  const matrix = confusionMatrix(observations);
  return { name, kind, level, matrix, metrics: agreementMetrics(matrix), usage: usageFigures(records, prices) };
}

/** The group a single-turn category is reported in. */
function groupOf(category: string): 'non_live' | 'live' | 'multi_turn' | 'relevance' {
  if (isRelevanceOrIrrelevance(category)) return 'relevance';
  if (isMultiTurn(category)) return 'multi_turn';
  return isLive(category) ? 'live' : 'non_live';
}

/**
 * The calibration of a run's records: a row per category (multi-turn categories at turn and at
 * entry level), per group (relevance categories in their own group), and overall: the single-turn
 * units and multi-turn turns outside the relevance group (the legacy template has no notion of a
 * correct abstention, spec §4.4).
 */
export function calibrate(records: readonly JudgeRecord[], prices: JudgePrices | null): Calibration {
  const byCategory = new Map<string, JudgeRecord[]>();
  for (const r of records) {
    const list = byCategory.get(r.category);
    if (list === undefined) byCategory.set(r.category, [r]);
    else list.push(r);
  }
  const scopes: CalibrationScope[] = [];
  for (const [category, list] of byCategory) {
    if (isMultiTurn(category)) {
      scopes.push(scope(category, 'category', 'turn', list, prices));
      scopes.push(scope(category, 'category', 'entry', list, prices));
    } else {
      scopes.push(scope(category, 'category', 'unit', list, prices));
    }
  }
  const inGroup = (group: string): JudgeRecord[] => records.filter((r) => groupOf(r.category) === group);
  for (const group of ['non_live', 'live'] as const) {
    const list = inGroup(group);
    if (list.length > 0) scopes.push(scope(group, 'group', 'unit', list, prices));
  }
  const multiTurn = inGroup('multi_turn');
  if (multiTurn.length > 0) {
    scopes.push(scope('multi_turn', 'group', 'turn', multiTurn, prices));
    scopes.push(scope('multi_turn', 'group', 'entry', multiTurn, prices));
  }
  const relevance = inGroup('relevance');
  if (relevance.length > 0) scopes.push(scope('relevance', 'group', 'unit', relevance, prices));
  const headline = records.filter((r) => groupOf(r.category) !== 'relevance');
  // Overall: single-turn units and multi-turn turns (a skipped whole multi-turn entry has no turn).
  const overallRecords = headline.filter((r) => !isMultiTurn(r.category) || r.turn !== null);
  scopes.push({ ...scope('overall', 'overall', 'unit', overallRecords, prices), usage: usageFigures(records, prices) });
  return { scopes };
}

/** A scope by the name `--min-agreement` uses: `overall`, a group, a category; `<name>:entry` for multi-turn entries. */
export function findScope(calibration: Calibration, target: string): CalibrationScope | undefined {
  const [name, level] = target.split(':');
  return calibration.scopes.find((s) => s.name === name && (level === undefined ? s.level !== 'entry' : s.level === level));
}

/**
 * Leaderboard aggregation (`generate_leaderboard_csv` and its helpers): per-category scores →
 * summary scores → the six CSV tables. Pure: the caller supplies scores, metadata and dataset sizes.
 */

import { ALL_SCORING_CATEGORIES, FORMAT_SENSITIVITY_CONFIGS, type Category } from '../spec/categories.js';
import {
  COLUMNS_AGENTIC,
  COLUMNS_FORMAT_SENSITIVITY,
  COLUMNS_LIVE,
  COLUMNS_MULTI_TURN,
  COLUMNS_NON_LIVE,
  COLUMNS_OVERALL,
} from './column-headers.js';
import { summarizeCostLatency, type CostLatencyData } from './cost-latency.js';
import { NOT_AVAILABLE, renderScoreCsv, type CsvCell, type ScoreTable } from './csv-writer.js';
import type { PyNumber } from './python-statistics.js';

/** What the leaderboard shows about a model besides its scores (the registry's model config). */
export interface ModelMetadata {
  readonly displayName: string;
  readonly url: string;
  readonly org: string;
  readonly license: string;
  /** USD per million input tokens; `null` for unpriced (locally served) models. */
  readonly inputPrice: number | null;
  /** USD per million output tokens; `null` for unpriced models. */
  readonly outputPrice: number | null;
}

/** Per-configuration statistics of the format-sensitivity category (extra score-header fields). */
export interface FormatSensitivityStats {
  /** `accuracy_max_delta` (percentage points, rounded); undefined when the header lacks it. */
  readonly maxDelta?: PyNumber | undefined;
  /** `accuracy_variance`. */
  readonly variance?: PyNumber | undefined;
  /** `accuracy_std` (percentage points, rounded). */
  readonly std?: PyNumber | undefined;
  /** Score of each prompt configuration, keyed by the configuration string. */
  readonly configs: ReadonlyMap<string, CategoryScore>;
}

/** One category's score header (`{"accuracy", "correct_count", "total_count"}`, plus format-sensitivity extras). */
export interface CategoryScore {
  readonly accuracy: PyNumber;
  readonly correctCount?: PyNumber | undefined;
  readonly totalCount: PyNumber;
  readonly formatSensitivity?: FormatSensitivityStats | undefined;
}

/** One row of the leaderboard: a model directory with its metadata, scores and cost/latency data. */
export interface LeaderboardModel {
  /** Model directory name (registry name with `/` replaced by `_`). */
  readonly modelDir: string;
  readonly metadata: ModelMetadata;
  /** Score headers by category id; a missing category shows "N/A". */
  readonly scores: ReadonlyMap<string, CategoryScore>;
  /** Token counts and latencies from this run's result files; null/undefined for models known only from score files. */
  readonly costLatency?: CostLatencyData | null | undefined;
}

export interface LeaderboardOptions {
  /**
   * Number of entries of a category in the dataset (prompts without memory prereqs). A missing
   * category counts as accuracy 0 over this many entries in the weighted live summary.
   */
  readonly datasetSize: (category: Category) => number;
}

/** The official dataset's entry counts, for callers that evaluate against it (reference §1). */
export const OFFICIAL_DATASET_SIZES: ReadonlyMap<Category, number> = new Map<Category, number>([
  ['simple_python', 400],
  ['simple_java', 100],
  ['simple_javascript', 50],
  ['multiple', 200],
  ['parallel', 200],
  ['parallel_multiple', 200],
  ['irrelevance', 240],
  ['live_simple', 258],
  ['live_multiple', 1053],
  ['live_parallel', 16],
  ['live_parallel_multiple', 24],
  ['live_irrelevance', 884],
  ['live_relevance', 16],
  ['multi_turn_base', 200],
  ['multi_turn_miss_func', 200],
  ['multi_turn_miss_param', 200],
  ['multi_turn_long_context', 200],
  ['web_search_base', 100],
  ['web_search_no_snippet', 100],
  ['memory_kv', 155],
  ['memory_vector', 155],
  ['memory_rec_sum', 155],
  ['format_sensitivity', 5200],
]);

/** The six CSV files, in the order the reference writes them. */
export const LEADERBOARD_CSV_FILES = [
  'data_non_live.csv',
  'data_live.csv',
  'data_multi_turn.csv',
  'data_agentic.csv',
  'data_format_sensitivity.csv',
  'data_overall.csv',
] as const;

// ---------------------------------------------------------------------------------------------
// Score arithmetic

/**
 * A score as the aggregation sees it. `display` is what the CSV shows: the accuracy, or "N/A"
 * when the category (or, for summaries, one of its inputs) was not evaluated.
 */
export interface AggregateScore {
  readonly accuracy: number;
  readonly totalCount: number;
  readonly display: number | typeof NOT_AVAILABLE;
}

/**
 * The score of one category (`get_category_score`): the recorded accuracy, or — when the category
 * was not evaluated — accuracy 0 over the dataset size, displayed as "N/A".
 */
export function getCategoryScore(
  scores: ReadonlyMap<string, CategoryScore>,
  category: Category,
  datasetSize: (category: Category) => number,
): AggregateScore {
  const score = scores.get(category);
  if (score === undefined) return { accuracy: 0, totalCount: datasetSize(category), display: NOT_AVAILABLE };
  const accuracy = Number(score.accuracy);
  return { accuracy, totalCount: Number(score.totalCount), display: accuracy };
}

/**
 * With `naIfMissing` (the default) a summary displays "N/A" when any input does; the "overall"
 * variants pass false and always display the number, a missing category counting as 0.
 */
function withDisplay(accuracy: number, totalCount: number, inputs: readonly AggregateScore[], naIfMissing: boolean): AggregateScore {
  const hasNa = inputs.some((s) => s.display === NOT_AVAILABLE);
  return { accuracy, totalCount, display: hasNa && naIfMissing ? NOT_AVAILABLE : accuracy };
}

const sumCounts = (scores: readonly AggregateScore[]): number => scores.reduce((n, s) => n + s.totalCount, 0);

/** Accuracy weighted by entry count: Σ accuracy·count / Σ count (`calculate_weighted_accuracy`). */
export function weightedAccuracy(scores: readonly AggregateScore[], naIfMissing = true): AggregateScore {
  let total = 0;
  for (const s of scores) total += s.accuracy * s.totalCount;
  const count = sumCounts(scores);
  // Deviation: the reference divides by zero (ZeroDivisionError) when every count is 0; here that is accuracy 0.
  return withDisplay(count === 0 ? 0 : total / count, count, scores, naIfMissing);
}

/** Plain mean of the accuracies (`calculate_unweighted_accuracy`). */
export function unweightedAccuracy(scores: readonly AggregateScore[], naIfMissing = true): AggregateScore {
  let total = 0;
  for (const s of scores) total += s.accuracy;
  return withDisplay(total / scores.length, sumCounts(scores), scores, naIfMissing);
}

/** Σ accuracy·weight with weights normalised to sum to 1 (`calculate_percentage_weighted_accuracy`). */
export function percentageWeightedAccuracy(
  scores: readonly AggregateScore[],
  weights: readonly number[],
  naIfMissing = true,
): AggregateScore {
  if (scores.length !== weights.length) throw new RangeError('Weights length must match accuracy list');
  const weightSum = weights.reduce((a, b) => a + b, 0);
  if (weightSum === 0) throw new RangeError('Sum of weights must be greater than 0');
  let total = 0;
  scores.forEach((s, i) => {
    total += s.accuracy * (weights[i]! / weightSum);
  });
  return withDisplay(total, sumCounts(scores), scores, naIfMissing);
}

/** Weights of [Non-Live, Live, Irrelevance, Multi-Turn, Agentic] in the overall accuracy. */
export const OVERALL_WEIGHTS: readonly number[] = [10, 10, 10, 30, 40];

// ---------------------------------------------------------------------------------------------
// Per-model summaries

/** Every score one model's rows are built from. */
export interface ModelSummary {
  readonly category: ReadonlyMap<Category, AggregateScore>;
  readonly simpleAstNonLive: AggregateScore;
  readonly summaryAstNonLive: AggregateScore;
  readonly overallNonLive: AggregateScore;
  readonly summaryAstLive: AggregateScore;
  readonly overallLive: AggregateScore;
  readonly overallMultiTurn: AggregateScore;
  readonly summaryWebSearch: AggregateScore;
  readonly summaryMemory: AggregateScore;
  readonly overallAgentic: AggregateScore;
  readonly totalIrrelevance: AggregateScore;
  readonly overall: AggregateScore;
}

/** Compute every summary score of one model. */
export function summarizeModel(scores: ReadonlyMap<string, CategoryScore>, options: LeaderboardOptions): ModelSummary {
  const category = new Map<Category, AggregateScore>(ALL_SCORING_CATEGORIES.map((c) => [c, getCategoryScore(scores, c, options.datasetSize)] as const));
  const c = (name: Category): AggregateScore => category.get(name)!;

  const simpleAstNonLive = unweightedAccuracy([c('simple_python'), c('simple_java'), c('simple_javascript')]);
  const astNonLive = [simpleAstNonLive, c('multiple'), c('parallel'), c('parallel_multiple')];
  const astLive = [c('live_simple'), c('live_multiple'), c('live_parallel'), c('live_parallel_multiple')];
  const multiTurn = [c('multi_turn_base'), c('multi_turn_miss_func'), c('multi_turn_miss_param'), c('multi_turn_long_context')];
  const summaryWebSearch = unweightedAccuracy([c('web_search_base'), c('web_search_no_snippet')]);
  const summaryMemory = unweightedAccuracy([c('memory_kv'), c('memory_vector'), c('memory_rec_sum')]);

  const overallNonLive = unweightedAccuracy(astNonLive, false);
  const overallLive = weightedAccuracy(astLive, false);
  const overallMultiTurn = unweightedAccuracy(multiTurn, false);
  const overallAgentic = unweightedAccuracy([summaryWebSearch, summaryMemory], false);
  const totalIrrelevance = unweightedAccuracy([c('irrelevance'), c('live_irrelevance')]);
  return {
    category,
    simpleAstNonLive,
    summaryAstNonLive: unweightedAccuracy(astNonLive),
    overallNonLive,
    // Live summarises by entry count; non-live, multi-turn and agentic average the categories.
    summaryAstLive: weightedAccuracy(astLive),
    overallLive,
    overallMultiTurn,
    summaryWebSearch,
    summaryMemory,
    overallAgentic,
    totalIrrelevance,
    overall: percentageWeightedAccuracy(
      [overallNonLive, overallLive, totalIrrelevance, overallMultiTurn, overallAgentic],
      OVERALL_WEIGHTS,
      false,
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Rows

/** The format-sensitivity cells: max delta, standard deviation and each configuration's accuracy, or "N/A". */
function formatSensitivityCells(scores: ReadonlyMap<string, CategoryScore>): { maxDelta: CsvCell; std: CsvCell; configs: CsvCell[] } {
  const stats = scores.get('format_sensitivity')?.formatSensitivity;
  return {
    maxDelta: stats?.maxDelta ?? NOT_AVAILABLE,
    std: stats?.std ?? NOT_AVAILABLE,
    configs: FORMAT_SENSITIVITY_CONFIGS.map((config) => stats?.configs.get(config)?.accuracy ?? NOT_AVAILABLE),
  };
}

const RANK_PLACEHOLDER = NOT_AVAILABLE; // replaced by the rank when the CSV is written

interface ModelRows {
  readonly nonLive: CsvCell[];
  readonly live: CsvCell[];
  readonly multiTurn: CsvCell[];
  readonly agentic: CsvCell[];
  readonly formatSensitivity: CsvCell[];
  readonly overall: CsvCell[];
}

function buildModelRows(model: LeaderboardModel, options: LeaderboardOptions): ModelRows {
  const s = summarizeModel(model.scores, options);
  const d = (name: Category): CsvCell => s.category.get(name)!.display;
  const name = model.metadata.displayName;
  const fs = formatSensitivityCells(model.scores);
  const costLatency = summarizeCostLatency(model.costLatency, model.metadata);
  return {
    nonLive: [
      RANK_PLACEHOLDER,
      name,
      s.overallNonLive.display,
      s.summaryAstNonLive.display,
      s.simpleAstNonLive.display,
      d('simple_python'),
      d('simple_java'),
      d('simple_javascript'),
      d('multiple'),
      d('parallel'),
      d('parallel_multiple'),
      d('irrelevance'),
    ],
    live: [
      RANK_PLACEHOLDER,
      name,
      s.overallLive.display,
      s.summaryAstLive.display,
      d('live_simple'),
      d('live_multiple'),
      d('live_parallel'),
      d('live_parallel_multiple'),
      d('live_irrelevance'),
      d('live_relevance'),
    ],
    multiTurn: [
      RANK_PLACEHOLDER,
      name,
      s.overallMultiTurn.display,
      d('multi_turn_base'),
      d('multi_turn_miss_func'),
      d('multi_turn_miss_param'),
      d('multi_turn_long_context'),
    ],
    agentic: [
      RANK_PLACEHOLDER,
      name,
      s.overallAgentic.display,
      s.summaryWebSearch.display,
      d('web_search_base'),
      d('web_search_no_snippet'),
      s.summaryMemory.display,
      d('memory_kv'),
      d('memory_vector'),
      d('memory_rec_sum'),
    ],
    formatSensitivity: [RANK_PLACEHOLDER, name, fs.maxDelta, fs.std, ...fs.configs],
    overall: [
      RANK_PLACEHOLDER,
      s.overall.display,
      name,
      model.metadata.url,
      costLatency.cost,
      costLatency.latencyMean,
      costLatency.latencyStd,
      costLatency.latency95,
      s.summaryAstNonLive.display,
      s.simpleAstNonLive.display,
      d('multiple'),
      d('parallel'),
      d('parallel_multiple'),
      s.overallLive.display,
      d('live_simple'),
      d('live_multiple'),
      d('live_parallel'),
      d('live_parallel_multiple'),
      s.overallMultiTurn.display,
      d('multi_turn_base'),
      d('multi_turn_miss_func'),
      d('multi_turn_miss_param'),
      d('multi_turn_long_context'),
      s.summaryWebSearch.display,
      d('web_search_base'),
      d('web_search_no_snippet'),
      s.summaryMemory.display,
      d('memory_kv'),
      d('memory_vector'),
      d('memory_rec_sum'),
      // BFCL parity: eval_runner_helper.py::generate_leaderboard_csv — the overall file's
      // "Irrelevance Detection" averages both irrelevance categories; the per-group files show one each.
      d('live_relevance'),
      s.totalIrrelevance.display,
      fs.maxDelta,
      fs.std,
      model.metadata.org,
      model.metadata.license,
    ],
  };
}

/**
 * The six leaderboard tables. Rows are in `models` order before sorting, and the sort is stable,
 * so pass models evaluated in this run first, then models known only from score files.
 */
export function buildLeaderboardTables(models: readonly LeaderboardModel[], options: LeaderboardOptions): Map<string, ScoreTable> {
  const rows = models.map((m) => buildModelRows(m, options));
  return new Map<string, ScoreTable>([
    ['data_non_live.csv', { header: COLUMNS_NON_LIVE, rows: rows.map((r) => r.nonLive), sortColumn: 2 }],
    ['data_live.csv', { header: COLUMNS_LIVE, rows: rows.map((r) => r.live), sortColumn: 2 }],
    ['data_multi_turn.csv', { header: COLUMNS_MULTI_TURN, rows: rows.map((r) => r.multiTurn), sortColumn: 2 }],
    ['data_agentic.csv', { header: COLUMNS_AGENTIC, rows: rows.map((r) => r.agentic), sortColumn: 2 }],
    [
      'data_format_sensitivity.csv',
      { header: COLUMNS_FORMAT_SENSITIVITY, rows: rows.map((r) => r.formatSensitivity), sortColumn: 2, rawColumns: [2, 3] },
    ],
    [
      'data_overall.csv',
      { header: COLUMNS_OVERALL, rows: rows.map((r) => r.overall), sortColumn: 1, rawColumns: [4, 5, 6, 7, 32, 33] },
    ],
  ]);
}

/** File name → exact CSV text of every leaderboard file (`generate_leaderboard_csv`, without writing). */
export function buildLeaderboardCsvs(models: readonly LeaderboardModel[], options: LeaderboardOptions): Map<string, string> {
  const files = new Map<string, string>();
  for (const [name, table] of buildLeaderboardTables(models, options)) files.set(name, renderScoreCsv(table));
  return files;
}

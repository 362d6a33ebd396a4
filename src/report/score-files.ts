/**
 * Reading score headers back (`update_leaderboard_table_with_local_score_file`) and assembling the
 * leaderboard table of a run: this run's models first, then models found only in the score folder.
 */

import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

import { parseJsonLossless } from '../py/json.js';
import { isDict, type PyDict, type PyValue } from '../py/value.js';
import { VERSION_PREFIX, extractTestCategoryFromFileName } from '../spec/categories.js';
import { DatasetError } from '../util/errors.js';
import { readFirstLine } from '../util/first-line.js';
import { emptyCostLatency, mergeCostLatency, type CostLatencyData } from './cost-latency.js';
import type { CategoryScore, FormatSensitivityStats } from './leaderboard.js';
import type { PyNumber } from './python-statistics.js';

/** Score headers of one model directory, by category id. */
export type ModelScores = Map<string, CategoryScore>;

const HEADER_FIELDS = new Set(['accuracy', 'correct_count', 'total_count']);
const FORMAT_SENSITIVITY_FIELDS = new Set(['accuracy_max_delta', 'accuracy_variance', 'accuracy_std']);

function numberField(header: PyDict, key: string): PyNumber | undefined {
  const v = header.get(key);
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  return undefined;
}

function requiredNumber(header: PyDict, key: string): PyNumber {
  const v = numberField(header, key);
  if (v === undefined) throw new TypeError(`score header has no numeric "${key}"`);
  return v;
}

/**
 * A score header line (`{"accuracy", "correct_count", "total_count", ...}`) as a `CategoryScore`.
 * Format-sensitivity headers also carry `accuracy_max_delta`, `accuracy_variance`, `accuracy_std`
 * and one `{accuracy, correct_count, total_count}` object per prompt configuration.
 */
export function categoryScoreFromHeader(header: PyValue): CategoryScore {
  if (!isDict(header)) throw new TypeError('a score header must be a JSON object');
  const configs = new Map<string, CategoryScore>();
  for (const [key, value] of header) {
    if (typeof key !== 'string' || HEADER_FIELDS.has(key) || FORMAT_SENSITIVITY_FIELDS.has(key)) continue;
    if (isDict(value) && numberField(value, 'accuracy') !== undefined) configs.set(key, categoryScoreFromHeader(value));
  }
  const hasFormatSensitivity = configs.size > 0 || [...FORMAT_SENSITIVITY_FIELDS].some((k) => header.has(k));
  const formatSensitivity: FormatSensitivityStats | undefined = hasFormatSensitivity
    ? {
        maxDelta: numberField(header, 'accuracy_max_delta'),
        variance: numberField(header, 'accuracy_variance'),
        std: numberField(header, 'accuracy_std'),
        configs,
      }
    : undefined;
  return {
    accuracy: requiredNumber(header, 'accuracy'),
    correctCount: numberField(header, 'correct_count'),
    totalCount: requiredNumber(header, 'total_count'),
    formatSensitivity,
  };
}

/** Parse the first line of a score file's text as its header. */
export function parseScoreHeader(text: string, file = '<score file>'): CategoryScore {
  const firstLine = text.split(/\r\n|\r|\n/, 1)[0] ?? '';
  try {
    return categoryScoreFromHeader(parseJsonLossless(firstLine));
  } catch (e) {
    throw new DatasetError({ file, line: 1 }, `invalid score header: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

// The reference's glob `BFCL_v4_*_score.json`.
const SCORE_FILE_GLOB = new RegExp(`^${VERSION_PREFIX}_.*_score\\.json$`, 's');

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The score files under `dir` (the reference's `rglob("BFCL_v4_*_score.json")`), in name order. */
export function* walkScoreFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort(byName)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) yield* walkScoreFiles(path);
    else if (stat.isFile() && SCORE_FILE_GLOB.test(name)) yield path;
  }
}

/**
 * Every score header under `<scoreDir>/<model>/**` by model directory and category
 * (`update_leaderboard_table_with_local_score_file`). Model directories and files are visited in
 * name order (the reference's `iterdir`/`rglob` order is filesystem-dependent); a missing folder gives an empty map.
 */
export function loadScoreHeaders(scoreDir: string): Map<string, ModelScores> {
  const table = new Map<string, ModelScores>();
  let names: string[];
  try {
    names = readdirSync(scoreDir).sort(byName);
  } catch {
    return table;
  }
  for (const model of names) {
    const modelDir = join(scoreDir, model);
    if (!statSync(modelDir).isDirectory()) continue;
    for (const file of walkScoreFiles(modelDir)) {
      const category = extractTestCategoryFromFileName(basename(file));
      if (category === undefined) continue;
      const header = parseScoreHeader(readFirstLine(file), file);
      let scores = table.get(model);
      if (scores === undefined) table.set(model, (scores = new Map()));
      scores.set(category, header);
    }
  }
  return table;
}

/** A model's part of the leaderboard before its metadata is looked up. */
export interface LeaderboardTableEntry {
  readonly modelDir: string;
  readonly scores: ModelScores;
  /** Present for models evaluated in this run; null for models known only from score files. */
  readonly costLatency: CostLatencyData | null;
}

/** What one model's evaluation in this run produced. */
export interface EvaluatedModel {
  readonly modelDir: string;
  /** Category → header of each category evaluated in this run. */
  readonly scores: ReadonlyMap<string, CategoryScore>;
  /** Cost/latency data of each evaluated result file, in evaluation order. */
  readonly costLatency: readonly CostLatencyData[];
}

/**
 * The leaderboard table of a run: models evaluated now (in evaluation order), then models found
 * only in the score folder (in its order). Every header found in the score folder replaces this
 * run's value for the same model and category, as the reference re-reads all score files last.
 */
export function assembleLeaderboardTable(
  evaluated: readonly EvaluatedModel[],
  scoreFiles: ReadonlyMap<string, ReadonlyMap<string, CategoryScore>>,
): LeaderboardTableEntry[] {
  const table = new Map<string, { scores: ModelScores; costLatency: CostLatencyData | null }>();
  for (const model of evaluated) {
    const existing = table.get(model.modelDir);
    const scores = existing?.scores ?? new Map<string, CategoryScore>();
    for (const [category, score] of model.scores) scores.set(category, score);
    const costLatency = mergeCostLatency([existing?.costLatency ?? emptyCostLatency(), ...model.costLatency]);
    table.set(model.modelDir, { scores, costLatency });
  }
  for (const [modelDir, headers] of scoreFiles) {
    let entry = table.get(modelDir);
    if (entry === undefined) table.set(modelDir, (entry = { scores: new Map(), costLatency: null }));
    for (const [category, score] of headers) entry.scores.set(category, score);
  }
  return [...table].map(([modelDir, entry]) => ({ modelDir, ...entry }));
}

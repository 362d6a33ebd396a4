/**
 * The ground truth as model output must pass (issue #4, #5): results written by
 * `bfcl generate --model oracle` for every single- and multi-turn category, evaluated as the
 * oracle is (FC decoding, `_` for `.`). Every entry passes except the official entries no answer
 * can pass (`UNPASSABLE_OFFICIAL_ENTRIES`), which must fail exactly as listed.
 */

import type { BfclDataset } from '../data/dataset.js';
import { runEvaluation, type ModelEvaluationSettings } from '../evaluate/run-evaluate.js';
import type { Category } from '../spec/categories.js';
import { UNPASSABLE_OFFICIAL_ENTRIES } from './unpassable-entries.js';

/** How the oracle's results are evaluated (its registry settings): FC decoding, `_` for `.` in names. */
export const ORACLE_EVALUATION_SETTINGS: ModelEvaluationSettings = { decoderMode: 'fc', underscoreToDot: true };

export interface OracleComparison {
  readonly correct: number;
  readonly total: number;
  readonly categories: number;
  /** Categories where every entry passed. */
  readonly perfectCategories: number;
  /** Failures that are not the known unpassable entries, or have another error type: id → error type. */
  readonly unexpected: Record<string, string>;
  /** Known unpassable entries that did not fail as listed (passed, or were missing). */
  readonly missingKnown: string[];
}

/** Evaluate the oracle's results in `resultDir` (model folder `oracle`) into `scoreDir` and compare. */
export function checkOracleResults(resultDir: string, scoreDir: string, dataset: BfclDataset, categories: readonly Category[]): OracleComparison {
  const summary = runEvaluation({
    resultDir,
    scoreDir,
    dataset,
    categories,
    partial: false,
    resolveSettings: () => ORACLE_EVALUATION_SETTINGS,
  });
  let correct = 0;
  let total = 0;
  let perfectCategories = 0;
  const failures: Record<string, string> = {};
  for (const { evaluation, taxonomy } of summary.evaluated) {
    correct += evaluation.correct;
    total += evaluation.total;
    if (evaluation.correct === evaluation.total) perfectCategories++;
    for (const failure of taxonomy.entries) failures[failure.id] = failure.errorType;
  }
  const unexpected = Object.fromEntries(Object.entries(failures).filter(([id, type]) => UNPASSABLE_OFFICIAL_ENTRIES[id] !== type));
  const missingKnown = Object.keys(UNPASSABLE_OFFICIAL_ENTRIES).filter((id) => failures[id] === undefined);
  return { correct, total, categories: summary.evaluated.length, perfectCategories, unexpected, missingKnown };
}

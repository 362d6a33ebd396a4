/**
 * The machine-readable summary of `bfcl evaluate --json`: per model the leaderboard's overall and
 * group accuracies, per category the counts of this run with the error taxonomy, and the gates.
 */

import type { CategoryTaxonomy } from '../evaluate/error-taxonomy.js';
import type { EvaluatedCategory } from '../evaluate/run-evaluate.js';
import { summarizeModel, type CategoryScore, type LeaderboardOptions } from '../report/leaderboard.js';
import type { GateCheck } from './accuracy-gates.js';

/** One evaluated category with its taxonomy. */
export interface EvaluatedCategorySummary {
  readonly evaluated: EvaluatedCategory;
  readonly taxonomy: CategoryTaxonomy;
  /** Path of the taxonomy sidecar written beside the score file. */
  readonly taxonomyFile: string;
}

/** Everything `--json` reports about one model. */
export interface ModelSummaryInput {
  readonly model: string;
  /** The model's scores as the leaderboard sees them (this run plus earlier score files). */
  readonly scores: ReadonlyMap<string, CategoryScore>;
  readonly categories: readonly EvaluatedCategorySummary[];
}

function nonZero(counts: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...counts].filter(([, n]) => n > 0));
}

/** The `--json` document (plain JSON values). */
export function buildEvaluateJsonSummary(
  models: readonly ModelSummaryInput[],
  gates: readonly GateCheck[],
  options: LeaderboardOptions & { readonly scoreDir: string },
): unknown {
  return {
    score_dir: options.scoreDir,
    models: models.map((m) => {
      const summary = summarizeModel(m.scores, options);
      return {
        model: m.model,
        overall_accuracy: summary.overall.accuracy,
        summary: {
          non_live: summary.overallNonLive.accuracy,
          live: summary.overallLive.accuracy,
          irrelevance: summary.totalIrrelevance.accuracy,
          multi_turn: summary.overallMultiTurn.accuracy,
          agentic: summary.overallAgentic.accuracy,
        },
        categories: Object.fromEntries(
          m.categories.map(({ evaluated, taxonomy, taxonomyFile }) => {
            const e = evaluated.evaluation;
            return [
              evaluated.category,
              {
                accuracy: e.total === 0 ? 0 : e.correct / e.total,
                correct: e.correct,
                total: e.total,
                inference_errors: e.inferenceErrorIds.length,
                // Entries failed as bfcl_ts:missing_result / bfcl_ts:malformed_result_line (as in error_types).
                missing: e.missingIds.length,
                malformed: e.malformedIds.length,
                // Lines of the result file: unreadable ones, and ids written on more than one line.
                malformed_lines: evaluated.malformedLines,
                duplicate_ids: evaluated.resultIssues.duplicates.length,
                unknown_ids: e.unknownIds.length,
                error_classes: nonZero(taxonomy.classes),
                error_types: Object.fromEntries(taxonomy.errorTypes),
                score_file: evaluated.scoreFile,
                taxonomy_file: taxonomyFile,
              },
            ];
          }),
        ),
      };
    }),
    gates: {
      passed: gates.every((g) => g.passed),
      checks: gates.map((g) => ({
        model: g.model,
        target: g.gate.target,
        min_accuracy: g.gate.threshold,
        accuracy: g.accuracy ?? null,
        measure: g.measure,
        passed: g.passed,
      })),
    },
  };
}

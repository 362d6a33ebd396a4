import type { BfclDataset } from '../data/dataset.js';
import { listResultFiles } from '../data/result-files.js';
import type { SimContext } from '../sim/simulated-api.js';
import {
  isCategory,
  isChatable,
  isExecutable,
  isMemoryPrereq,
  isSql,
  type Category,
} from '../spec/categories.js';
import { evaluateCategory, type CategoryEvaluation } from './evaluate-category.js';
import { modelDecoder, type DecoderMode } from './model-decoder.js';
import { readResultFile } from './read-results.js';
import type { ResultEntry } from './runners/category-input.js';
import { scoreFilePath, writeScoreFile } from './score-file.js';

/** How to evaluate one model's results (from the registry, flags, or a guess from the results). */
export interface ModelEvaluationSettings {
  readonly decoderMode: DecoderMode;
  readonly underscoreToDot: boolean;
}

/** Decide the settings of a model directory; `sample` are some of its result entries. */
export type ModelSettingsResolver = (modelDir: string, sample: readonly ResultEntry[]) => ModelEvaluationSettings;

export interface EvaluateRunOptions {
  readonly resultDir: string;
  readonly scoreDir: string;
  readonly dataset: BfclDataset;
  readonly categories: readonly Category[];
  /** Model directory names to evaluate; all when undefined. */
  readonly models?: readonly string[];
  readonly partial: boolean;
  readonly resolveSettings: ModelSettingsResolver;
  /** Called after each category, for progress output. */
  readonly onCategory?: (model: string, category: string, evaluation: CategoryEvaluation) => void;
}

/** What one model's run of one category produced. */
export interface EvaluatedCategory {
  readonly model: string;
  readonly category: Category;
  readonly resultFile: string;
  readonly scoreFile: string;
  readonly evaluation: CategoryEvaluation;
  /** Result lines that could not be read. */
  readonly malformedLines: number;
  /** The raw entries, for cost and latency. */
  readonly entries: readonly ResultEntry[];
}

export interface EvaluateRunSummary {
  readonly evaluated: EvaluatedCategory[];
  /** Requested model/category pairs without a result file. */
  readonly missingResultFiles: { model: string; category: Category }[];
  /** Models evaluated in this run, in evaluation order. */
  readonly models: string[];
}

/**
 * Evaluate every requested result file under `resultDir` and write the score files
 * (the reference's `runner`). Leaderboard CSVs are written by the caller from the score directory.
 */
export function runEvaluation(options: EvaluateRunOptions): EvaluateRunSummary {
  const context: SimContext = { longContext: options.dataset.longContext() };
  const requested = new Set<string>(options.categories);
  const files = listResultFiles(options.resultDir).filter(
    (f) =>
      (options.models === undefined || options.models.includes(f.model)) &&
      requested.has(f.category) &&
      // BFCL parity: eval_runner.runner — these categories are not evaluated in this version.
      !isChatable(f.category) &&
      !isSql(f.category) &&
      !isExecutable(f.category) &&
      !isMemoryPrereq(f.category),
  );
  const models = [...new Set(files.map((f) => f.model))];
  const evaluated: EvaluatedCategory[] = [];
  const missingResultFiles: { model: string; category: Category }[] = [];

  for (const model of models) {
    const modelFiles = files.filter((f) => f.model === model);
    const seen = new Set<string>();
    let settings: ModelEvaluationSettings | undefined;
    for (const file of modelFiles) {
      if (!isCategory(file.category) || seen.has(file.category)) continue;
      seen.add(file.category);
      const content = readResultFile(file.file);
      settings ??= options.resolveSettings(model, content.entries.slice(0, 50));
      const evaluation = evaluateCategory({
        category: file.category,
        modelName: model,
        entries: content.entries,
        malformed: content.malformed,
        dataset: options.dataset,
        decoder: modelDecoder(settings.decoderMode),
        underscoreToDot: settings.underscoreToDot,
        context,
        partial: options.partial,
      });
      const scoreFile = scoreFilePath(options.scoreDir, model, file.category);
      writeScoreFile(scoreFile, evaluation.header, evaluation.failures);
      options.onCategory?.(model, file.category, evaluation);
      evaluated.push({
        model,
        category: file.category,
        resultFile: file.file,
        scoreFile,
        evaluation,
        malformedLines: content.malformed.length,
        entries: content.entries,
      });
    }
    for (const category of options.categories) {
      if (!seen.has(category)) missingResultFiles.push({ model, category });
    }
  }
  return { evaluated, missingResultFiles, models };
}

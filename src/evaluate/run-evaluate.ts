import type { BfclDataset } from '../data/dataset.js';
import { listResultFiles } from '../data/result-files.js';
import { lazySimContext, type SimContext } from '../sim/simulated-api.js';
import {
  isCategory,
  isChatable,
  isExecutable,
  isMemoryPrereq,
  isSql,
  type Category,
} from '../spec/categories.js';
import { evaluateCategory, type CategoryEvaluation } from './evaluate-category.js';
import { summarizeTaxonomy, writeTaxonomySidecar, type CategoryTaxonomy } from './error-taxonomy.js';
import { modelDecoder, type DecoderMode } from './model-decoder.js';
import { readResultFile, type ResultFileIssues } from './read-results.js';
import type { ResultEntry } from './runners/category-input.js';
import { scoreFilePath, writeScoreFile } from './score-file.js';
import { collectCostLatency, type CostLatencyData } from '../report/cost-latency.js';
import { processMs, reportTiming, timingReportsOn } from '../util/debug-timing.js';
import type { EvaluatedModel } from '../report/score-files.js';

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
  /** Called after each category, for progress output (`evaluated` has the result file's issues). */
  readonly onCategory?: (model: string, category: string, evaluation: CategoryVerdicts, evaluated: EvaluatedCategory) => void;
}

/**
 * The verdicts of one category without the failure records themselves: those are in the score
 * file, and summarised by the taxonomy.
 */
export type CategoryVerdicts = Omit<CategoryEvaluation, 'failures'>;

/** What one model's run of one category produced. */
export interface EvaluatedCategory {
  readonly model: string;
  readonly category: Category;
  readonly resultFile: string;
  readonly scoreFile: string;
  readonly evaluation: CategoryVerdicts;
  /** The failed entries by error class, also written beside the score file (`taxonomyFile`). */
  readonly taxonomy: CategoryTaxonomy;
  readonly taxonomyFile: string;
  /** Result lines that could not be read. */
  readonly malformedLines: number;
  /** The result file's unreadable lines and duplicated ids (see `formatResultFileWarning`). */
  readonly resultIssues: ResultFileIssues;
  /** Token counts and latencies of the result file, for the cost and latency columns. */
  readonly costLatency: CostLatencyData;
}

export interface EvaluateRunSummary {
  readonly evaluated: EvaluatedCategory[];
  /** Requested model/category pairs without a result file. */
  readonly missingResultFiles: { model: string; category: Category }[];
  /** Models evaluated in this run, in evaluation order. */
  readonly models: string[];
}

/** The run's models in evaluation order, each with the cost and latency data of its result files (for the leaderboard). */
export function evaluatedModelsOf(summary: EvaluateRunSummary): EvaluatedModel[] {
  return summary.models.map((modelDir) => ({
    modelDir,
    scores: new Map(),
    costLatency: summary.evaluated.filter((e) => e.model === modelDir).map((e) => e.costLatency),
  }));
}

/** How many result entries a model's settings are decided from (the registry may not know it). */
const SETTINGS_SAMPLE = 50;

/** One result file to evaluate, with its model's settings already decided. */
export interface EvaluationJob {
  readonly model: string;
  readonly category: Category;
  readonly resultFile: string;
  readonly settings: ModelEvaluationSettings;
}

/** The work of a run: jobs in evaluation order, and what was asked for but has no result file. */
export interface EvaluationPlan {
  readonly jobs: EvaluationJob[];
  readonly models: string[];
  readonly missingResultFiles: { model: string; category: Category }[];
}

/** Find the result files to evaluate (the reference's `runner` walk) and decide each model's settings. */
export function planEvaluation(options: EvaluateRunOptions): EvaluationPlan {
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
  const jobs: EvaluationJob[] = [];
  const missingResultFiles: { model: string; category: Category }[] = [];
  for (const model of models) {
    const seen = new Set<string>();
    let settings: ModelEvaluationSettings | undefined;
    for (const file of files.filter((f) => f.model === model)) {
      if (!isCategory(file.category) || seen.has(file.category)) continue;
      seen.add(file.category);
      // Only the first entries: the whole file is read when its job runs.
      settings ??= options.resolveSettings(model, readResultFile(file.file, { inferenceLogAsText: true, maxEntries: SETTINGS_SAMPLE }).entries);
      jobs.push({ model, category: file.category, resultFile: file.file, settings });
    }
    for (const category of options.categories) {
      if (!seen.has(category)) missingResultFiles.push({ model, category });
    }
  }
  return { jobs, models, missingResultFiles };
}

/** Evaluate one result file and write its score file and error-taxonomy sidecar. */
export function runEvaluationJob(
  job: EvaluationJob,
  dataset: BfclDataset,
  context: SimContext,
  scoreDir: string,
  partial: boolean,
): EvaluatedCategory {
  const started = processMs();
  const content = readResultFile(job.resultFile, { inferenceLogAsText: true });
  const read = processMs();
  const evaluation = evaluateCategory({
    category: job.category,
    modelName: job.model,
    entries: content.entries,
    malformed: content.malformed,
    dataset,
    decoder: modelDecoder(job.settings.decoderMode),
    underscoreToDot: job.settings.underscoreToDot,
    context,
    partial,
  });
  const evaluated = processMs();
  const scoreFile = scoreFilePath(scoreDir, job.model, job.category);
  writeScoreFile(scoreFile, evaluation.header, evaluation.failures);
  const written = processMs();
  const taxonomy = summarizeTaxonomy(evaluation.failures, evaluation.total);
  const taxonomyFile = writeTaxonomySidecar(scoreFile, job.model, job.category, taxonomy);
  const { failures: _written, ...verdicts } = evaluation;
  const costLatency = collectCostLatency(content.entries.map((entry) => entry.line));
  if (timingReportsOn()) {
    const ms = (from: number, to: number): string => (to - from).toFixed(1);
    const steps = `read ${ms(started, read)}, evaluated ${ms(read, evaluated)}, wrote ${ms(evaluated, written)}, taxonomy and latency ${ms(written, processMs())}`;
    reportTiming(`${job.model} ${job.category}, started at ${started.toFixed(0)} ms: ${steps} (ms)`);
  }
  return {
    model: job.model,
    category: job.category,
    resultFile: job.resultFile,
    scoreFile,
    evaluation: verdicts,
    taxonomy,
    taxonomyFile,
    malformedLines: content.malformed.length,
    resultIssues: { file: content.file, malformed: content.malformed, duplicates: content.duplicates },
    costLatency,
  };
}

/**
 * Evaluate every requested result file under `resultDir` and write the score files
 * (the reference's `runner`), in this thread. Leaderboard CSVs are written by the caller.
 */
export function runEvaluation(options: EvaluateRunOptions): EvaluateRunSummary {
  const context = lazySimContext(() => options.dataset.longContext());
  const plan = planEvaluation(options);
  const evaluated = plan.jobs.map((job) => {
    const result = runEvaluationJob(job, options.dataset, context, options.scoreDir, options.partial);
    options.onCategory?.(job.model, job.category, result.evaluation, result);
    return result;
  });
  return { evaluated, missingResultFiles: plan.missingResultFiles, models: plan.models };
}

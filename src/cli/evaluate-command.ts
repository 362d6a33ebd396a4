
import { datasetEntryCounter } from '../data/dataset-size.js';
import { openCommandDataset } from './command-dataset.js';
import type { DecoderMode } from '../evaluate/model-decoder.js';
import { checkDatasetDrift } from '../evaluate/manifest-check.js';
import { formatResultFileWarning } from '../evaluate/read-results.js';
import {
  evaluatedModelsOf,
  runEvaluation,
  type CategoryVerdicts,
  type EvaluateRunSummary,
  type ModelEvaluationSettings,
} from '../evaluate/run-evaluate.js';
import type { ResultEntry } from '../evaluate/runners/category-input.js';
import type { ModelConfig } from '../models/model-registry.js';
import { writeCsvFiles } from '../report/csv-writer.js';
import type { LeaderboardModel, ModelMetadata } from '../report/leaderboard.js';
import { buildRunLeaderboard } from '../report/run-leaderboard.js';
import { renderScoreTable } from '../report/score-table.js';
import type { Category } from '../spec/categories.js';
import type { EvaluateOptions } from '../spec/options.js';
import { checkAccuracyGates, describeFailedGate, type AccuracyGate, type GateCheck } from '../inspect/accuracy-gates.js';
import { buildEvaluateJsonSummary, type EvaluatedCategorySummary } from '../inspect/evaluate-summary.js';
import { reportTiming } from '../util/debug-timing.js';
import type { CliIo } from './io.js';
import { findModelOrOracle, modelMetadataResolver } from './model-metadata.js';

/** Exit code of `bfcl evaluate` when an accuracy threshold (`--min-accuracy`) is missed. */
export const GATE_FAILED_EXIT_CODE = 3;

/** `evaluate` options beyond the reference's: CI gates and the machine-readable summary. */
export interface EvaluateReportOptions {
  /** `--min-accuracy` thresholds, checked for every model evaluated in this run. */
  readonly minAccuracy?: readonly AccuracyGate[];
  /** `--json`: print a JSON summary on stdout instead of the table. */
  readonly json?: boolean;
  /**
   * `--allow-data-mismatch`: evaluate results whose run manifest names other dataset files than the
   * ones evaluated against (with a warning) instead of stopping with a usage error.
   */
  readonly allowDataMismatch?: boolean;
}

/** Decoding at evaluation follows the reference's handler: OSS handlers always decode prompting output. */
function decoderModeOf(config: ModelConfig): DecoderMode {
  if (config.family === 'oss') return 'prompting';
  return config.isFcModel ? 'fc' : 'prompting';
}

/** Whether a raw result holds a `{name: args}` dict at any depth (multi-turn results nest per turn and step). */
function holdsCallDict(value: unknown): boolean {
  if (value instanceof Map) return true;
  return Array.isArray(value) && value.some(holdsCallDict);
}

/**
 * For a model the registry does not know: FC if any sampled result holds `{name: args}` dicts, at
 * any depth. Prompting results are only text (FC models may answer text too, so a string proves nothing).
 */
function guessDecoderMode(sample: readonly ResultEntry[]): DecoderMode {
  return sample.some((entry) => holdsCallDict(entry.result)) ? 'fc' : 'prompting';
}

/** Settings of a model directory: the registry's, else `--decoder`, else guessed from the results. */
export function modelSettingsResolver(forced: DecoderMode | undefined, forcedUnderscoreToDot?: boolean) {
  return (modelDir: string, sample: readonly ResultEntry[]): ModelEvaluationSettings => {
    const config = findModelOrOracle(modelDir);
    const decoderMode = forced ?? (config !== undefined ? decoderModeOf(config) : guessDecoderMode(sample));
    // Unknown FC models saw `_` for `.` in tool names (tool compilation), so the checker expects `_`.
    const underscoreToDot = forcedUnderscoreToDot ?? config?.underscoreToDot ?? decoderMode === 'fc';
    return { decoderMode, underscoreToDot };
  };
}

/**
 * The leaderboard of this run plus every score file already in the score folder, written as the
 * six CSVs. Returns the overall CSV and the leaderboard's models (with their scores).
 */
function writeLeaderboard(
  summary: EvaluateRunSummary,
  scoreDir: string,
  metadataOf: (modelDir: string) => ModelMetadata,
  datasetSize: (category: Category) => number,
): { overall: string; models: LeaderboardModel[] } {
  const { csvs, models } = buildRunLeaderboard(evaluatedModelsOf(summary), scoreDir, metadataOf, { datasetSize });
  writeCsvFiles(scoreDir, csvs);
  return { overall: csvs.get('data_overall.csv') ?? '', models };
}

function percent(correct: number, total: number): string {
  return total === 0 ? 'n/a' : `${((100 * correct) / total).toFixed(2)}%`;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The progress line of one category. Its counts are the ones `--json` reports and the taxonomy
 * counts by error type: `missingIds` are the `bfcl_ts:missing_result` failures, `malformedIds` the
 * `bfcl_ts:malformed_result_line` ones.
 */
export function formatCategoryLine(model: string, category: string, evaluation: CategoryVerdicts): string {
  const notes: string[] = [];
  if (evaluation.inferenceErrorIds.length > 0) notes.push(count(evaluation.inferenceErrorIds.length, 'inference error', 'inference errors'));
  if (evaluation.malformedIds.length > 0) notes.push(count(evaluation.malformedIds.length, 'unreadable result line', 'unreadable result lines'));
  if (evaluation.missingIds.length > 0) notes.push(count(evaluation.missingIds.length, 'missing result', 'missing results'));
  if (evaluation.unknownIds.length > 0) {
    notes.push(`${count(evaluation.unknownIds.length, 'id', 'ids')} not in the dataset (different dataset version?)`);
  }
  const suffix = notes.length > 0 ? `  [${notes.join('; ')}]` : '';
  return `${model} ${category}: ${percent(evaluation.correct, evaluation.total)} (${evaluation.correct}/${evaluation.total})${suffix}\n`;
}

/** `bfcl evaluate`: score files per category, the leaderboard CSVs, and a terminal summary. */
export async function runEvaluateCommand(options: EvaluateOptions & EvaluateReportOptions, io: CliIo): Promise<number> {
  // hrtime, not `performance`: the global `performance` loads perf_hooks on first use (about 1 ms).
  const started = process.hrtime.bigint();
  const dataset = openCommandDataset(options.dataDir, io);
  // Both checks come before any score file is written: a wrong dataset or a bad metadata file stops the run.
  checkDatasetDrift({
    resultDir: options.resultDir,
    models: options.models,
    categories: options.testCategories,
    dataset,
    allowMismatch: options.allowDataMismatch === true,
    warn: io.stderr,
  });
  const metadataOf = modelMetadataResolver(options.resultDir);
  if (options.numThreads !== undefined) io.stderr('bfcl evaluate: note: --num-threads is ignored; evaluate runs on one thread\n');
  const summary = runEvaluation({
    resultDir: options.resultDir,
    scoreDir: options.scoreDir,
    dataset,
    categories: options.testCategories,
    models: options.models?.map((m) => m.replaceAll('/', '_')),
    partial: options.partialEval,
    resolveSettings: modelSettingsResolver(options.decoder, options.underscoreToDot),
    onCategory: (model, category, evaluation, evaluated) => {
      const warning = formatResultFileWarning(evaluated.resultIssues);
      if (warning !== undefined) io.stderr(warning);
      io.stderr(formatCategoryLine(model, category, evaluation));
    },
  });
  reportTiming('every category evaluated');
  if (summary.evaluated.length === 0) {
    io.stderr(`bfcl evaluate: no result files for the requested models and categories under ${options.resultDir}\n`);
    return 1;
  }
  for (const { model, category } of summary.missingResultFiles) {
    io.stderr(`${model} ${category}: no result file, skipped\n`);
  }
  const taxonomies: EvaluatedCategorySummary[] = summary.evaluated.map((evaluated) => ({
    evaluated,
    taxonomy: evaluated.taxonomy,
    taxonomyFile: evaluated.taxonomyFile,
  }));
  const datasetSize = datasetEntryCounter(dataset);
  const leaderboard = writeLeaderboard(summary, options.scoreDir, metadataOf, datasetSize);
  reportTiming('leaderboard CSVs written');

  // Gates and the JSON summary look at the models of this run, with the leaderboard's scores.
  const gates: GateCheck[] = [];
  for (const model of summary.models) {
    const scores = leaderboard.models.find((m) => m.modelDir === model)?.scores ?? new Map();
    gates.push(...checkAccuracyGates(model, scores, options.minAccuracy ?? [], { datasetSize }));
  }
  if (options.json === true) {
    const models = summary.models.map((model) => ({
      model,
      scores: leaderboard.models.find((m) => m.modelDir === model)?.scores ?? new Map(),
      categories: taxonomies.filter((t) => t.evaluated.model === model),
    }));
    const document = buildEvaluateJsonSummary(models, gates, { datasetSize, scoreDir: options.scoreDir });
    io.stdout(JSON.stringify(document, null, 2) + '\n');
  } else {
    io.stdout(renderScoreTable(leaderboard.overall) + '\n');
  }
  reportTiming('summary printed');
  const seconds = (Number(process.hrtime.bigint() - started) / 1e9).toFixed(2);
  io.stderr(`Evaluated ${summary.evaluated.length} result files in ${seconds} s. Score files and CSVs are in ${options.scoreDir}\n`);

  const failed = gates.filter((g) => !g.passed);
  if (failed.length > 0) {
    io.stderr(`bfcl evaluate: ${failed.length} accuracy threshold${failed.length === 1 ? '' : 's'} missed (exit code ${GATE_FAILED_EXIT_CODE}):\n`);
    for (const check of failed) io.stderr(`  ${describeFailedGate(check)}\n`);
    return GATE_FAILED_EXIT_CODE;
  }
  if (gates.length > 0) io.stderr(`All ${gates.length} accuracy threshold${gates.length === 1 ? '' : 's'} met.\n`);
  return 0;
}

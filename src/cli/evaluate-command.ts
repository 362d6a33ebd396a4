import { datasetEntryCounter } from '../data/dataset-size.js';
import { openDataset } from '../data/dataset.js';
import type { DecoderMode } from '../evaluate/model-decoder.js';
import { runEvaluation, type EvaluateRunSummary, type ModelEvaluationSettings } from '../evaluate/run-evaluate.js';
import type { ResultEntry } from '../evaluate/runners/category-input.js';
import { findModel, type ModelConfig } from '../models/model-registry.js';
import { collectCostLatency } from '../report/cost-latency.js';
import { writeCsvFiles } from '../report/csv-writer.js';
import { buildLeaderboardCsvs, type LeaderboardModel, type ModelMetadata } from '../report/leaderboard.js';
import { renderScoreTable } from '../report/score-table.js';
import { assembleLeaderboardTable, loadScoreHeaders, type EvaluatedModel } from '../report/score-files.js';
import type { Category } from '../spec/categories.js';
import type { EvaluateOptions } from '../spec/options.js';
import type { CliIo } from './io.js';

/** Decoding at evaluation follows the reference's handler: OSS handlers always decode prompting output. */
function decoderModeOf(config: ModelConfig): DecoderMode {
  if (config.family === 'oss') return 'prompting';
  return config.isFcModel ? 'fc' : 'prompting';
}

/** For a model the registry does not know: FC if its single-turn results are lists of `{name: args}` dicts. */
function guessDecoderMode(sample: readonly ResultEntry[]): DecoderMode {
  for (const entry of sample) {
    const result = entry.result;
    if (typeof result === 'string') {
      if (!result.startsWith('Error during inference')) return 'prompting';
    } else if (Array.isArray(result) && result.some((item) => item instanceof Map)) {
      return 'fc';
    }
  }
  return 'prompting';
}

/** Settings of a model directory: the registry's, else `--decoder`, else guessed from the results. */
export function modelSettingsResolver(forced: DecoderMode | undefined) {
  return (modelDir: string, sample: readonly ResultEntry[]): ModelEvaluationSettings => {
    const config = findModel(modelDir);
    const decoderMode = forced ?? (config !== undefined ? decoderModeOf(config) : guessDecoderMode(sample));
    // Unknown FC models saw `_` for `.` in tool names (tool compilation), so the checker expects `_`.
    const underscoreToDot = config?.underscoreToDot ?? decoderMode === 'fc';
    return { decoderMode, underscoreToDot };
  };
}

function metadataOf(modelDir: string): ModelMetadata {
  const config = findModel(modelDir);
  if (config === undefined) return { displayName: modelDir, url: '', org: '', license: '', inputPrice: null, outputPrice: null };
  return {
    displayName: config.displayName,
    url: config.url,
    org: config.org,
    license: config.license,
    inputPrice: config.inputPrice,
    outputPrice: config.outputPrice,
  };
}

/** The leaderboard of this run plus every score file already in the score folder, written as the six CSVs. */
function writeLeaderboard(summary: EvaluateRunSummary, scoreDir: string, datasetSize: (category: Category) => number): string {
  const evaluated: EvaluatedModel[] = summary.models.map((modelDir) => {
    const mine = summary.evaluated.filter((e) => e.model === modelDir);
    return {
      modelDir,
      scores: new Map(),
      costLatency: mine.map((e) => collectCostLatency(e.entries.map((entry) => entry.line))),
    };
  });
  const table = assembleLeaderboardTable(evaluated, loadScoreHeaders(scoreDir));
  const models: LeaderboardModel[] = table.map((entry) => ({ ...entry, metadata: metadataOf(entry.modelDir) }));
  const csvs = buildLeaderboardCsvs(models, { datasetSize });
  writeCsvFiles(scoreDir, csvs);
  return csvs.get('data_overall.csv') ?? '';
}

function percent(correct: number, total: number): string {
  return total === 0 ? 'n/a' : `${((100 * correct) / total).toFixed(2)}%`;
}

/** `bfcl evaluate`: score files per category, the leaderboard CSVs, and a terminal summary. */
export async function runEvaluateCommand(options: EvaluateOptions, io: CliIo): Promise<number> {
  const started = performance.now();
  const dataset = openDataset(options.dataDir);
  const summary = runEvaluation({
    resultDir: options.resultDir,
    scoreDir: options.scoreDir,
    dataset,
    categories: options.testCategories,
    models: options.models?.map((m) => m.replaceAll('/', '_')),
    partial: options.partialEval,
    resolveSettings: modelSettingsResolver(options.decoder),
    onCategory: (model, category, evaluation) => {
      const notes: string[] = [];
      if (evaluation.inferenceErrorIds.length > 0) notes.push(`${evaluation.inferenceErrorIds.length} inference errors`);
      if (evaluation.missingIds.length > 0) notes.push(`${evaluation.missingIds.length} missing results`);
      if (evaluation.unknownIds.length > 0) {
        notes.push(`${evaluation.unknownIds.length} ids not in the dataset (different dataset version?)`);
      }
      const suffix = notes.length > 0 ? `  [${notes.join('; ')}]` : '';
      io.stderr(`${model} ${category}: ${percent(evaluation.correct, evaluation.total)} (${evaluation.correct}/${evaluation.total})${suffix}\n`);
    },
  });
  if (summary.evaluated.length === 0) {
    io.stderr(`bfcl evaluate: no result files for the requested models and categories under ${options.resultDir}\n`);
    return 1;
  }
  for (const { model, category } of summary.missingResultFiles) {
    io.stderr(`${model} ${category}: no result file, skipped\n`);
  }
  const overall = writeLeaderboard(summary, options.scoreDir, datasetEntryCounter(dataset));
  io.stdout(renderScoreTable(overall) + "\n");
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  io.stderr(`Evaluated ${summary.evaluated.length} result files in ${seconds} s. Score files and CSVs are in ${options.scoreDir}\n`);
  return 0;
}

/**
 * `bfcl generate`: builds every requested model first (a missing API key fails before any entry
 * runs), then generates each model's results in turn. Ctrl-C stops cleanly: no new entry starts,
 * running ones are abandoned, everything finished is already on disk, and the exit code is 130.
 */

import type { BfclDataset } from '../data/dataset.js';
import { openCommandDataset } from './command-dataset.js';
import type { ModelGenerationSummary } from '../generate/run-generation.js';
import { generateWithManifest } from '../generate/run-manifest.js';
import { apiModelIdOf } from './model-metadata.js';
import { selectTestEntries } from '../generate/select-entries.js';
import { formatDuration, type ProgressSink } from '../generate/progress.js';
import { createModel } from '../models/create-model.js';
import { OPENAI_COMPATIBLE_PREFIX, fallbackModelConfig, findModel, unknownModelMessage } from '../models/model-registry.js';
import { ORACLE_MODEL_NAME, createOracleModel } from '../models/oracle.js';
import type { PyValue } from '../py/value.js';
import { type Category, getCategoryInfo } from '../spec/categories.js';
import type { Model } from '../spec/model.js';
import type { GenerateOptions } from '../spec/options.js';
import { UsageError } from '../util/errors.js';
import type { CliIo } from './io.js';

/** Exit code after Ctrl-C (128 + SIGINT), as shells report it. */
export const INTERRUPTED_EXIT_CODE = 130;
/** `generate` stopped by itself because the model's server could not be reached. */
export const STOPPED_EXIT_CODE = 1;

/** What a model builder gets to know about the run. */
export interface ModelBuildContext {
  readonly dataset: BfclDataset;
  /** Categories of the run (for the oracle's ground truth). */
  readonly categories: readonly Category[];
  readonly options: GenerateOptions;
  readonly io: CliIo;
  /** Fired on Ctrl-C; providers stop their requests and retry waits. */
  readonly signal: AbortSignal;
}

/** Builds the `Model` of a `--model` name; throws a `UsageError` for unknown names or missing keys. */
export type ModelBuilder = (name: string, context: ModelBuildContext) => Model;

/** Seams for tests: how models are built, where Ctrl-C comes from, whether stderr is a terminal. */
export interface GenerateDependencies {
  readonly buildModel?: ModelBuilder;
  /** An abort signal to use instead of installing a SIGINT handler. */
  readonly signal?: AbortSignal;
  readonly isTTY?: boolean;
}

/** Environment variable: simulated latency of the oracle's answers, in milliseconds (benchmarks, tests). */
export const ORACLE_DELAY_ENV = 'BFCL_ORACLE_DELAY_MS';

/**
 * The default builder: `oracle`, a registry name (or its result-directory form), or
 * `openai-compatible/<model id>`; everything else is the reference's "Unknown model_name" error.
 */
export const buildModel: ModelBuilder = (name, context) => {
  if (name === ORACLE_MODEL_NAME) {
    const delay = Number(context.io.env[ORACLE_DELAY_ENV] ?? '0');
    return createOracleModel({
      groundTruth: groundTruthLookup(context.dataset, context.categories),
      delayMs: Number.isFinite(delay) && delay > 0 ? delay : 0,
    });
  }
  const config = findModel(name) ?? (name.startsWith(OPENAI_COMPATIBLE_PREFIX) ? fallbackModelConfig(name) : undefined);
  if (config === undefined) throw new UsageError(unknownModelMessage(name));
  return createModel(config, {
    temperature: context.options.temperature,
    env: context.io.env,
    ...(context.options.baseUrl === undefined ? {} : { baseUrl: context.options.baseUrl }),
    signal: context.signal,
  });
};

/** Entry id → ground truth, over the categories of the run that have one. */
function groundTruthLookup(dataset: BfclDataset, categories: readonly Category[]): (id: string) => PyValue | undefined {
  let byId: Map<string, PyValue> | undefined;
  return (id) => {
    if (byId === undefined) {
      byId = new Map();
      for (const category of categories) {
        const info = getCategoryInfo(category);
        if (!info.hasPossibleAnswer || info.isFormatSensitivity) continue;
        for (const answer of dataset.loadPossibleAnswers(category)) byId.set(answer.id, answer.groundTruth);
      }
    }
    return byId.get(id);
  };
}

/** `bfcl generate`. */
export async function runGenerateCommand(options: GenerateOptions, io: CliIo, deps: GenerateDependencies = {}): Promise<number> {
  const dataset = openCommandDataset(options.dataDir, io);
  const selection = selectTestEntries(dataset, {
    categories: options.testCategories,
    runIds: options.runIds,
    projectRoot: options.projectRoot,
  });
  const interrupt = deps.signal === undefined ? installSigintHandler(io) : undefined;
  const signal = deps.signal ?? interrupt!.signal;
  const isTTY = deps.isTTY ?? false;
  try {
    const context: ModelBuildContext = {
      dataset,
      categories: selection.categories,
      options,
      io,
      signal,
    };
    // Every model is built before any entry runs, so a missing API key stops the run at once.
    const builder = deps.buildModel ?? buildModel;
    const models = options.models.map((name) => builder(name, context));

    io.stderr(`Generating results for ${options.models.join(', ')}\n`);
    io.stderr(
      options.runIds
        ? `Running the test cases listed in test_case_ids_to_generate.json (--test-category is ignored): ${selection.entries.length} entries in ${selection.categories.join(', ')}.\n`
        : `Running full test cases for categories: ${selection.categories.join(', ')}.\n`,
    );

    const progress: ProgressSink = { write: io.stderr, isTTY };
    for (const model of models) {
      const summary = await generateWithManifest(model, {
        categories: selection.categories,
        entries: selection.entries,
        resultDir: options.resultDir,
        allowOverwrite: options.allowOverwrite,
        runIds: options.runIds,
        includeInputLog: options.includeInputLog,
        excludeStateLog: options.excludeStateLog,
        numThreads: options.numThreads,
        simContext: { longContext: dataset.longContext() },
        signal,
        progress,
      }, { dataset, options, apiModelId: apiModelIdOf(model.registryName) });
      io.stderr(summaryText(summary));
      if (summary.stoppedBecause !== undefined) {
        io.stderr(`Stopped: ${summary.stoppedBecause} Everything finished so far is saved.\n`);
        return STOPPED_EXIT_CODE;
      }
      if (summary.interrupted) {
        io.stderr('Interrupted. Everything finished so far is saved; run the same command again to generate the rest.\n');
        return INTERRUPTED_EXIT_CODE;
      }
    }
    return 0;
  } finally {
    interrupt?.dispose();
  }
}

/** One paragraph about a model's run. */
export function summaryText(s: ModelGenerationSummary): string {
  if (s.toGenerate === 0) {
    return `✅ All ${s.selected} selected test cases have been previously generated for ${s.model}. No new test cases to generate.\n`;
  }
  const lines = [`${s.model}: ${s.written} of ${s.toGenerate} entries written in ${formatDuration(s.seconds)}`];
  const rate = s.seconds > 0 ? ` (${(s.written / s.seconds).toFixed(1)} entries/s)` : '';
  lines[0] += `${rate}; results in ${s.modelDir}`;
  if (s.alreadyDone > 0) lines.push(`  ${s.alreadyDone} entries already had results and were skipped.`);
  if (s.retried > 0) lines.push(`  ${s.retried} entries had failed before and were generated again.`);
  if (s.errors > 0) {
    lines.push(`  ${s.errors} entries failed and were written as "Error during inference: ..."; the next run retries them.`);
  }
  if (s.unfinished > 0) lines.push(`  ${s.unfinished} entries were not finished (${s.stoppedBecause === undefined ? 'interrupted' : 'stopped'}).`);
  if (s.sortedFiles.length > 0) lines.push(`  ${s.sortedFiles.length} result files re-sorted by id.`);
  return `${lines.join('\n')}\n`;
}

/**
 * First Ctrl-C: abort (no new entries, running ones abandoned). A second one exits at once; the
 * finished entries are on disk already.
 */
function installSigintHandler(io: CliIo): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) {
      io.stderr('\nInterrupted again: exiting now.\n');
      process.exit(INTERRUPTED_EXIT_CODE);
    }
    io.stderr('\nInterrupted: no new entries will start; finishing up (Ctrl-C again to exit at once).\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
}

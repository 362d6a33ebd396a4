/**
 * One model's generation run (_llm_response_generation.py::collect_test_cases + generate_results):
 * skip what is already done, run the rest concurrently, write every finished entry at once, and
 * sort the result files at the end.
 */

import { setMaxListeners } from 'node:events';
import { join } from 'node:path';

import type { SimContext } from '../sim/simulated-api.js';
import { isAgentic, isFormatSensitivity, sortById, type Category } from '../spec/categories.js';
import type { Model, RetryNotice } from '../spec/model.js';
import type { TestEntry } from '../spec/schemas.js';
import { linkSignals } from '../util/abort-signals.js';
import { inferEntry } from './infer-entry.js';
import type { LoopOptions } from './loop-options.js';
import { ProgressReporter, type ProgressSink } from './progress.js';
import { ResultWriter, findResultFiles, removeStaleLines, resultFilesOfCategory, scanExistingResults, sortResultFile } from './result-store.js';
import { orderLongestFirst, runScheduled } from './schedule.js';

export interface GenerationOptions {
  /** Categories of the run (their result files are scanned for finished entries). */
  readonly categories: readonly Category[];
  /** Entries of the run, as `selectTestEntries` loaded them. */
  readonly entries: readonly TestEntry[];
  /** `--result-dir` (absolute). */
  readonly resultDir: string;
  readonly allowOverwrite: boolean;
  /** `--run-ids`: entries are merged into the result files by id (update mode). */
  readonly runIds: boolean;
  readonly includeInputLog: boolean;
  readonly excludeStateLog: boolean;
  /** `--num-threads`; undefined: the model's default (1 for API models). */
  readonly numThreads: number | undefined;
  readonly simContext: SimContext;
  /** Fired on Ctrl-C: no new entry starts, running ones are abandoned (not written). */
  readonly signal?: AbortSignal;
  /** Where progress goes (stderr). */
  readonly progress: ProgressSink;
  /** Plain progress output: a line every this many entries (default: a tenth of the total). */
  readonly progressEveryEntries?: number;
}

/** What one model's run did. */
export interface ModelGenerationSummary {
  readonly model: string;
  /** `<result dir>/<model dir>`. */
  readonly modelDir: string;
  /** Entries of the run this model can be asked (unsupported ones left out). */
  readonly selected: number;
  /** Entries with a result already, skipped. */
  readonly alreadyDone: number;
  /** Entries whose earlier attempt had failed, generated again. */
  readonly retried: number;
  readonly toGenerate: number;
  /** Entries written by this run, inference errors included. */
  readonly written: number;
  readonly errors: number;
  /** Entries not written because the run was interrupted. */
  readonly unfinished: number;
  readonly interrupted: boolean;
  /** Why the run stopped by itself before its end (the server could not be reached); undefined otherwise. */
  readonly stoppedBecause?: string;
  readonly seconds: number;
  /** Result files re-sorted at the end. */
  readonly sortedFiles: readonly string[];
  /** Warnings printed before the run (skipped categories and the like). */
  readonly warnings: readonly string[];
}

/**
 * Entries in a row whose calls never reached the server (every retry refused or unresolvable) after
 * which the run stops: with a wrong endpoint or a server that is down, each further entry would
 * only spend its retries (minutes each) to fail the same way.
 */
const UNREACHABLE_STOP = 3;

/** Entries this port cannot run for `model`, with the reason. */
function unsupportedReason(model: Model, id: string): string | undefined {
  // BFCL parity: _llm_response_generation.py::collect_test_cases — format sensitivity is prompting only.
  if (model.mode === 'fc' && isFormatSensitivity(id)) {
    return `Format sensitivity test cases are only supported for prompting (non-FC) models; ${model.registryName} is a FC model, so they are skipped.`;
  }
  if (isAgentic(id)) return 'Agentic categories (web_search, memory) need backends this port does not have yet; they are skipped.';
  return undefined;
}

/** Generate `model`'s results for the run's entries. */
export async function generateForModel(model: Model, options: GenerationOptions): Promise<ModelGenerationSummary> {
  const modelDir = join(options.resultDir, model.resultDirName);
  const warnings = new Set<string>();
  const supported = options.entries.filter((entry) => {
    const reason = unsupportedReason(model, entry.id);
    if (reason !== undefined) warnings.add(reason);
    return reason === undefined;
  });
  for (const warning of warnings) options.progress.write(`Warning: ${warning}\n`);

  const files = options.categories.flatMap((category) => resultFilesOfCategory(modelDir, category));
  const existing = scanExistingResults(files, options);
  const pending = sortById(supported.filter((entry) => !existing.doneIds.has(entry.id)));
  if (!options.allowOverwrite) removeStaleLines(files, new Set(pending.map((entry) => entry.id)));

  const base = {
    model: model.registryName,
    modelDir,
    selected: supported.length,
    alreadyDone: supported.length - pending.length,
    retried: pending.filter((entry) => existing.failedIds.has(entry.id)).length,
    toGenerate: pending.length,
    warnings: [...warnings],
  };
  if (pending.length === 0) {
    return { ...base, written: 0, errors: 0, unfinished: 0, interrupted: false, seconds: 0, sortedFiles: [] };
  }

  const progress = new ProgressReporter(`Generating ${model.registryName}`, pending.length, options.progress, {
    ...(options.progressEveryEntries !== undefined && { everyEntries: options.progressEveryEntries }),
  });
  // Fires on Ctrl-C (options.signal) and when the run stops by itself (see UNREACHABLE_STOP).
  const stop = new AbortController();
  const combined = linkSignals(options.signal, stop.signal);
  const signal = combined.signal ?? stop.signal;
  // Every running entry listens to it (each request links a signal of its own to it): up to --num-threads listeners.
  setMaxListeners(0, signal);
  let stoppedBecause: string | undefined;
  let unreachableInARow = 0;
  const loopOptions: LoopOptions = {
    includeInputLog: options.includeInputLog,
    excludeStateLog: options.excludeStateLog,
    simContext: options.simContext,
    signal,
    onRetry: (entryId: string, notice: RetryNotice) =>
      progress.message(`${entryId}: attempt ${notice.attempt} failed (${notice.reason}); retrying in ${(notice.delayMs / 1000).toFixed(1)}s`),
  };
  const writer = new ResultWriter(modelDir, options.runIds);
  let written = 0;
  let errors = 0;

  try {
    await runScheduled(
      // A turn costs at least one request: turns are what tells a long conversation from a short one.
      orderLongestFirst(pending, (entry) => entry.question.length),
      options.numThreads ?? model.defaultNumThreads ?? 1,
      async (entry) => {
        const outcome = await inferEntry(model, entry, loopOptions);
        if (outcome.kind === 'interrupted') return;
        writer.write(outcome.line);
        written++;
        if (outcome.kind === 'error') {
          errors++;
          progress.message(`Error during inference of ${entry.id} (written as an error; the next run retries it): ${outcome.message}`);
        }
        unreachableInARow = outcome.kind === 'error' && outcome.unreachable ? unreachableInARow + 1 : 0;
        if (unreachableInARow >= UNREACHABLE_STOP && stoppedBecause === undefined) {
          stoppedBecause =
            `the last ${unreachableInARow} entries failed without ever reaching the server (${outcome.kind === 'error' ? outcome.message : ''}). ` +
            'Check the endpoint (--base-url) and that the server is up, then run the same command again.';
          stop.abort();
        }
        progress.tick(outcome.kind === 'error');
      },
      signal,
    );
  } finally {
    writer.close();
    combined.dispose();
  }
  progress.finish();

  // BFCL parity: _llm_response_generation.py::main — files are re-sorted after a model's run.
  const sortedFiles: string[] = [];
  for (const file of findResultFiles(modelDir)) {
    try {
      if (sortResultFile(file, writer.idsWrittenTo(file))) sortedFiles.push(file);
    } catch (error) {
      options.progress.write(`Warning: could not sort ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  return {
    ...base,
    written,
    errors,
    unfinished: pending.length - written,
    interrupted: options.signal?.aborted === true,
    ...(stoppedBecause !== undefined && { stoppedBecause }),
    seconds: progress.elapsedSeconds(),
    sortedFiles,
  };
}

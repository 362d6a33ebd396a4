/**
 * `bfcl generate`: builds every requested model first (a missing API key fails before any entry
 * runs), locks each model's result folder, then generates each model's results in turn. Ctrl-C,
 * SIGTERM and SIGHUP stop cleanly: no new entry starts, running ones are abandoned, everything
 * finished is on disk, the manifest records the interruption, files are sorted, and the exit code is
 * 128 + the signal's number. The end summary says what was written, what failed and why, and what
 * the next run will redo (`--json`: the same on stdout).
 *
 * Exit codes: 0 every selected entry has a result; 4 some ended as errors; 5 the run stopped by
 * itself (first requests refused, circuit breaker); 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP;
 * 2 usage errors and 1 other errors come from run-cli.ts.
 */

import { join } from 'node:path';

import type { BfclDataset } from '../data/dataset.js';
import { openCommandDataset } from './command-dataset.js';
import { embedderOptionsFromEnv } from '../agentic/memory/create-embedder.js';
import { writeWebCacheManifest } from '../agentic/web/search-cache.js';
import { packageVersion } from '../data/data-dir.js';
import { type AgenticOptions, type AgenticRunBackends, createAgenticRunBackends } from '../generate/agentic-backends.js';
import { errorsAtEnd, generationReport } from '../generate/generation-report.js';
import { type ModelGenerationSummary, unsupportedReason } from '../generate/run-generation.js';
import { generateWithManifest } from '../generate/run-manifest.js';
import { type ResultFolderLock, lockResultFolder } from '../generate/result-folder-lock.js';
import { apiModelIdOf } from './model-metadata.js';
import { selectTestEntries } from '../generate/select-entries.js';
import { formatDuration, type ProgressSink } from '../generate/progress.js';
import { type CreateModelOptions, createModel } from '../models/create-model.js';
import { OPENAI_COMPATIBLE_PREFIX, fallbackModelConfig, findModel, unknownModelMessage, usesFcInference } from '../models/model-registry.js';
import { ORACLE_MODEL_NAME, createOracleModel } from '../models/oracle.js';
import { parseJsonLossless } from '../py/json.js';
import type { PyDict, PyValue } from '../py/value.js';
import { lazySimContext } from '../sim/simulated-api.js';
import { type Category, extractTestCategoryFromId, getCategoryInfo, isMemory, isWebSearch } from '../spec/categories.js';
import type { Model } from '../spec/model.js';
import type { GenerateOptions } from '../spec/options.js';
import { UsageError } from '../util/errors.js';
import type { CliIo } from './io.js';

/** Exit code after Ctrl-C (128 + SIGINT), as shells report it. */
export const INTERRUPTED_EXIT_CODE = 130;
/** Exit codes after the signals `generate` handles like Ctrl-C (128 + the signal's number). */
export const SIGNAL_EXIT_CODES: Readonly<Record<HandledSignal, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
/** `generate` finished, but some selected entries ended as errors. */
export const ENTRY_ERRORS_EXIT_CODE = 4;
/** `generate` stopped by itself: its first requests were refused (401/403/404) or the circuit breaker tripped. */
export const STOPPED_EXIT_CODE = 5;

/** The signals that stop a run cleanly. */
export type HandledSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';
const HANDLED_SIGNALS: readonly HandledSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

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

/** Seams for tests: how models are built, where Ctrl-C comes from, whether stderr is a terminal, run-control timings. */
export interface GenerateDependencies {
  readonly buildModel?: ModelBuilder;
  /** An abort signal to use instead of installing signal handlers. */
  readonly signal?: AbortSignal;
  readonly isTTY?: boolean;
  /** How long no request may have succeeded before the circuit breaker trips (default 60 s). */
  readonly breakerMinOutageMs?: number;
  /** Heartbeat after this long without a finished entry (default 30 s). */
  readonly heartbeatMs?: number;
  /** Retry and failure lines: one per kind per interval (default 10 s). */
  readonly logIntervalMs?: number;
  /** Agentic backend settings merged over those of the flags and environment (a test's SerpAPI endpoint, embedder...). */
  readonly agentic?: AgenticOptions;
}

/** Environment variable: simulated latency of the oracle's answers, in milliseconds (benchmarks, tests). */
export const ORACLE_DELAY_ENV = 'BFCL_ORACLE_DELAY_MS';

/**
 * The default builder: `oracle`, a registry name (or its result-directory form), or
 * `openai-compatible/<model id>`; everything else is the reference's "Unknown model_name" error.
 */
export const buildModel: ModelBuilder = (name, context) => {
  const { options } = context;
  if (name === ORACLE_MODEL_NAME) {
    const delay = Number(context.io.env[ORACLE_DELAY_ENV] ?? '0');
    return createOracleModel({
      groundTruth: groundTruthLookup(context.dataset, context.categories),
      delayMs: Number.isFinite(delay) && delay > 0 ? delay : 0,
    });
  }
  const known = findModel(name);
  if (known !== undefined && options.mode !== undefined) {
    throw new UsageError(
      `--mode applies to openai-compatible/<id> models only; ${name} is a registry model whose mode is fixed ` +
        `(${usesFcInference(known) ? 'FC' : 'prompting'}). Pick the registry name of the other mode instead (e.g. with or without -FC).`,
    );
  }
  const config =
    known ?? (name.startsWith(OPENAI_COMPATIBLE_PREFIX) ? fallbackModelConfig(name, { isFcModel: options.mode !== 'prompting' }) : undefined);
  if (config === undefined) throw new UsageError(unknownModelMessage(name));
  if (options.mode === 'prompting' && usesFcInference(config)) {
    throw new UsageError(`${name} cannot run in prompting mode: its name contains "FC", which makes it an FC model (the reference's rule).`);
  }
  return createModel(config, { ...runControl(options), env: context.io.env, signal: context.signal });
};

/** What the run-control and request flags ask of `createModel` (nothing when none is given). */
export function runControl(options: GenerateOptions): CreateModelOptions {
  const retries = options.maxRetries;
  const backoffMs = options.maxBackoffSeconds === undefined ? undefined : options.maxBackoffSeconds * 1000;
  const retry = {
    ...(retries !== undefined && { maxAttempts: retries + 1, maxRateLimitRetries: retries * 4 }),
    ...(backoffMs !== undefined && { maxDelayMs: backoffMs, maxRetryAfterMs: backoffMs }),
  };
  const request = {
    ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
    ...(options.topP !== undefined && { topP: options.topP }),
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.extraBody !== undefined && { extraBody: parseJsonLossless(options.extraBody) as PyDict }),
  };
  return {
    temperature: options.temperature,
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.timeoutSeconds !== undefined && { requestTimeoutMs: options.timeoutSeconds * 1000 }),
    ...(Object.keys(retry).length > 0 && { retry }),
    ...(Object.keys(request).length > 0 && { requestParameters: request }),
  };
}

/** Entry id → ground truth, over the categories of the run that have one. */
function groundTruthLookup(dataset: BfclDataset, categories: readonly Category[]): (id: string) => PyValue | undefined {
  let byId: Map<string, PyValue> | undefined;
  return (id) => {
    if (byId === undefined) {
      byId = new Map();
      for (const category of categories) {
        const info = getCategoryInfo(category);
        if (!info.hasPossibleAnswer || info.isFormatSensitivity) continue;
        // BFCL parity: utils.py::load_ground_truth_entry — agentic answer ids are not rewritten like
        // their entries' (`memory_3-...` for `memory_kv_3-...`): the entries' rewrite is applied here.
        const rewrite = isWebSearch(category) ? 'web_search' : isMemory(category) ? 'memory' : undefined;
        for (const answer of dataset.loadPossibleAnswers(category)) {
          byId.set(rewrite === undefined ? answer.id : answer.id.replaceAll(rewrite, category), answer.groundTruth);
        }
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
  const interrupt = deps.signal === undefined ? installSignalHandlers(io) : undefined;
  const signal = deps.signal ?? interrupt!.signal;
  const isTTY = deps.isTTY ?? false;
  const locks: ResultFolderLock[] = [];
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
    requireSomethingToGenerate(models, selection.entries.map((entry) => entry.id));
    // Web search keys, the search cache and memory_vector's embeddings are checked before any entry runs.
    const agentic = await createAgenticRunBackends(
      selection.entries.map((entry) => entry.id),
      {
        ...agenticOptionsOf(options, io, deps.agentic),
        // The oracle answers from the ground truth and never searches: no SerpAPI key nor embeddings needed.
        ...(models.every((model) => model.registryName === ORACLE_MODEL_NAME) && { noBackendCalls: true }),
      },
    );

    // Every model's folder is locked before any entry runs, so a second run fails at once.
    const startedAt = new Date();
    const command = `bfcl generate ${options.models.join(',')}`;
    for (const dir of new Set(models.map((model) => join(options.resultDir, model.resultDirName)))) {
      const lock = await lockResultFolder(dir, { command, startedAt, onCompromised: (message) => io.stderr(`Warning: ${message}\n`) });
      locks.push(lock);
      const stale = lock.staleOwnerRemoved;
      if (stale !== undefined) io.stderr(`Removed a stale lock of ${dir}: its holder (pid ${stale.pid}, started ${stale.started_at}) is gone.\n`);
    }

    io.stderr(`Generating results for ${options.models.join(', ')}\n`);
    io.stderr(
      options.runIds
        ? `Running the test cases listed in test_case_ids_to_generate.json (--test-category is ignored): ${selection.entries.length} entries in ${selection.categories.join(', ')}.\n`
        : `Running full test cases for categories: ${selection.categories.join(', ')}.\n`,
    );

    const progress: ProgressSink = { write: io.stderr, isTTY };
    // Only long-context entries read long_context.json: a data folder without it runs everything else.
    const simContext = lazySimContext(() => dataset.longContext());
    const summaries: ModelGenerationSummary[] = [];
    for (const model of models) {
      const apiModelId = apiModelIdOf(model.registryName);
      const baseUrl = options.baseUrl ?? nonEmpty(io.env['OPENAI_BASE_URL']) ?? nonEmpty(io.env['REMOTE_OPENAI_BASE_URL']);
      const summary = await generateWithManifest(
        model,
        {
          categories: selection.categories,
          entries: selection.entries,
          resultDir: options.resultDir,
          allowOverwrite: options.allowOverwrite,
          runIds: options.runIds,
          retryErrors: options.retryErrors ?? false,
          includeInputLog: options.includeInputLog,
          excludeStateLog: options.excludeStateLog,
          numThreads: options.numThreads,
          simContext,
          ...(hasAgenticBackends(agentic) && { agentic }),
          signal,
          progress,
          ...(options.maxConsecutiveFailures !== undefined && { maxConsecutiveFailures: options.maxConsecutiveFailures }),
          ...(deps.breakerMinOutageMs !== undefined && { breakerMinOutageMs: deps.breakerMinOutageMs }),
          ...(deps.heartbeatMs !== undefined && { heartbeatMs: deps.heartbeatMs }),
          ...(deps.logIntervalMs !== undefined && { logIntervalMs: deps.logIntervalMs }),
          endpoint: { ...(baseUrl !== undefined && { baseUrl }), ...(apiModelId !== null && { modelId: apiModelId }) },
        },
        { dataset, options, apiModelId, interruptedBy: () => interrupt?.received() },
      );
      summaries.push(summary);
      io.stderr(summaryText(summary));
      if (summary.stop !== undefined || summary.interrupted) break;
    }

    if (agentic.web !== undefined && options.searchCacheDir !== undefined && (options.searchCacheMode === 'record' || options.searchCacheMode === 'auto')) {
      const cache = await writeWebCacheManifest(options.searchCacheDir, packageVersion());
      io.stderr(`Web search cache ${options.searchCacheDir}: ${cache.records} records (digest ${cache.digest.slice(0, 16)}).\n`);
    }
    const interruptedBy = interrupt?.received();
    const exitCode = exitCodeOf(summaries, interruptedBy);
    const last = summaries.at(-1);
    if (last?.stop !== undefined) {
      io.stderr(`Stopped: ${last.stop.message} Everything finished so far is saved; run the same command again to continue.\n`);
    } else if (last?.interrupted === true) {
      io.stderr(`${interruptedText(last, interruptedBy)}\n`);
    }
    const modelsNotRun = models.slice(summaries.length).map((model) => model.registryName);
    if (modelsNotRun.length > 0) io.stderr(`Not run: ${modelsNotRun.join(', ')}.\n`);
    if (options.json === true) {
      io.stdout(`${JSON.stringify(generationReport(summaries, { exitCode, interruptedBy, modelsNotRun }), null, 2)}\n`);
    }
    return exitCode;
  } finally {
    for (const lock of locks) await lock.release();
    interrupt?.dispose();
  }
}

/**
 * The agentic backend settings: SerpAPI key from `SERPAPI_API_KEY`, the search cache flags, the
 * embeddings flag over `BFCL_EMBEDDINGS_*`; then the caller's overrides.
 */
function agenticOptionsOf(options: GenerateOptions, io: CliIo, overrides: AgenticOptions | undefined): AgenticOptions {
  const serpApiKey = nonEmpty(io.env['SERPAPI_API_KEY']);
  const embeddings = embedderOptionsFromEnv(io.env);
  return {
    ...overrides,
    web: {
      ...(serpApiKey !== undefined && { serpApiKey }),
      cacheMode: options.searchCacheMode ?? 'off',
      ...(options.searchCacheDir !== undefined && { cacheDir: options.searchCacheDir }),
      onRetry: (notice) => io.stderr(`SerpAPI rate limit (${notice.reason}) on attempt ${notice.attempt}; retrying in ${(notice.waitMs / 1000).toFixed(1)} s.\n`),
      ...overrides?.web,
    },
    embeddings: {
      ...embeddings,
      ...(options.embeddingsBaseUrl !== undefined && { baseUrl: options.embeddingsBaseUrl }),
      ...overrides?.embeddings,
    },
  };
}

function hasAgenticBackends(backends: AgenticRunBackends): boolean {
  return backends.web !== undefined || backends.snapshots !== undefined || backends.embedder !== undefined;
}

/**
 * A usage error when no model can generate any selected entry (only agentic categories, say, or
 * format sensitivity for FC models), instead of reporting that everything was generated before.
 */
function requireSomethingToGenerate(models: readonly Model[], ids: readonly string[]): void {
  if (ids.length === 0) throw new UsageError('No test entries are selected.');
  for (const model of models) if (ids.some((id) => unsupportedReason(model, id) === undefined)) return;
  const categories = [...new Set(ids.map((id) => extractTestCategoryFromId(id)))];
  const reasons = [...new Set(models.flatMap((model) => ids.map((id) => unsupportedReason(model, id) ?? '')))].filter((r) => r !== '');
  throw new UsageError(`This build cannot generate any selected entry (categories: ${categories.join(', ')}): ${reasons.join(' ')}`);
}

/** Interrupted by a signal > stopped by itself > entries ended as errors > success. */
export function exitCodeOf(summaries: readonly ModelGenerationSummary[], interruptedBy: HandledSignal | undefined): number {
  if (summaries.some((s) => s.interrupted)) return interruptedBy === undefined ? INTERRUPTED_EXIT_CODE : SIGNAL_EXIT_CODES[interruptedBy];
  if (summaries.some((s) => s.stop !== undefined)) return STOPPED_EXIT_CODE;
  if (summaries.some((s) => errorsAtEnd(s) > 0)) return ENTRY_ERRORS_EXIT_CODE;
  return 0;
}

/** What an interrupted run kept, and how to go on. */
function interruptedText(s: ModelGenerationSummary, signal: HandledSignal | undefined): string {
  const by = signal === undefined || signal === 'SIGINT' ? 'Interrupted' : `Interrupted by ${signal}`;
  if (s.unfinishedAsideFiles.length === 0) {
    return `${by}. Everything finished so far is saved; run the same command again to generate the rest.`;
  }
  return (
    `${by}. The old results of the categories not completed are untouched; the new results finished so far are saved in ` +
    `${s.unfinishedAsideFiles.join(', ')}. Run the same command (with -o) again to continue from them.`
  );
}

/** `HTTP 500 x6, timeout x3`. */
function byCause(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([cause, n]) => `${cause} x${n}`)
    .join(', ');
}

const sum = (counts: Readonly<Record<string, number>>): number => Object.values(counts).reduce((a, b) => a + b, 0);

/** One paragraph about a model's run. */
export function summaryText(s: ModelGenerationSummary): string {
  const skipped = sum(s.skippedPermanent);
  const skippedLine = `  ${skipped} entries failed before with a permanent error (${byCause(s.skippedPermanent)}) and were not retried; --retry-errors generates them again.`;
  if (s.toGenerate === 0) {
    const lines = [`✅ All ${s.selected} selected test cases have been previously generated for ${s.model}. No new test cases to generate.`];
    if (skipped > 0) lines.push(skippedLine);
    return `${lines.join('\n')}\n`;
  }
  const rate = s.seconds > 0 ? ` (${(s.written / s.seconds).toFixed(1)} entries/s)` : '';
  const lines = [`${s.model}: ${s.written} of ${s.toGenerate} entries written in ${formatDuration(s.seconds)}${rate}; results in ${s.modelDir}`];
  if (s.errors > 0) {
    lines.push(`  ${s.ok} with a result, ${s.errors} written as errors ("Error during inference: ..."): ${byCause(s.errorsByCause)}.`);
    if (s.permanentErrors > 0) {
      lines.push(`  ${s.permanentErrors} of the errors are permanent (the request was refused, e.g. too long): the next run skips them unless --retry-errors.`);
    }
  }
  const retries = sum(s.retriesByCause);
  if (retries > 0) lines.push(`  ${retries} retries: ${byCause(s.retriesByCause)}.`);
  if (s.alreadyDone > 0) lines.push(`  ${s.alreadyDone - skipped} entries already had results and were skipped.`);
  if (skipped > 0) lines.push(skippedLine);
  if (s.retried > 0) lines.push(`  ${s.retried} entries had failed before and were generated again.`);
  if (s.unfinished > 0) lines.push(`  ${s.unfinished} entries were not finished (${s.stop === undefined ? 'interrupted' : 'stopped'}).`);
  if (s.nextRunRedoes > 0) {
    const transient = s.errors - s.permanentErrors;
    const parts = [...(transient > 0 ? [`${transient} errors`] : []), ...(s.unfinished > 0 ? [`${s.unfinished} not finished`] : [])];
    lines.push(`  The next run with the same arguments will generate ${s.nextRunRedoes} entries (${parts.join(', ')}).`);
  }
  if (s.replacedFiles.length > 0) lines.push(`  ${s.replacedFiles.length} result files replaced by their new results (--allow-overwrite).`);
  if (s.sortedFiles.length > 0) lines.push(`  ${s.sortedFiles.length} result files re-sorted by id.`);
  return `${lines.join('\n')}\n`;
}

/**
 * Ctrl-C, SIGTERM (timeout, docker stop, Slurm, Kubernetes) and SIGHUP (a closed terminal): the
 * first one aborts the run (no new entries, running ones abandoned, then the manifest and the sort);
 * a second one exits at once, the finished entries being on disk already.
 */
function installSignalHandlers(io: CliIo): { signal: AbortSignal; received: () => HandledSignal | undefined; dispose: () => void } {
  const controller = new AbortController();
  let received: HandledSignal | undefined;
  const handlers = HANDLED_SIGNALS.map((name) => {
    const handler = (): void => {
      if (controller.signal.aborted) {
        io.stderr(`\n${name} again: exiting now.\n`);
        process.exit(SIGNAL_EXIT_CODES[received ?? name]);
      }
      received = name;
      const what = name === 'SIGINT' ? 'Interrupted' : `Received ${name}`;
      io.stderr(`\n${what}: no new entries will start; finishing up (Ctrl-C again to exit at once).\n`);
      controller.abort(name);
    };
    process.on(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: controller.signal,
    received: () => received,
    dispose: () => {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

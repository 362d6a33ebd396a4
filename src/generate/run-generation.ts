/**
 * One model's generation run (_llm_response_generation.py::collect_test_cases + generate_results):
 * skip what is already done, run the rest concurrently, write every finished entry at once, and
 * sort the result files at the end. The run watches its requests: it stops by itself when the first
 * requests are refused in a way no retry fixes or when the server keeps failing (circuit breaker),
 * prints retries and failures one line per kind per interval, a heartbeat when nothing finishes
 * for a while, and sums up what happened by cause.
 */

import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import type { SimContext } from '../sim/simulated-api.js';
import { containMultiTurnInteraction, isFormatSensitivity, sortById, type Category } from '../spec/categories.js';
import type { Model } from '../spec/model.js';
import type { TestEntry } from '../spec/schemas.js';
import { linkSignals } from '../util/abort-signals.js';
import { type AgenticRunBackends, executorBackendsOf } from './agentic-backends.js';
import { clearMemorySnapshotsForOverwrite, prepareAgenticEntries, previousSnapshotFolder } from './agentic-run.js';
import { inferEntry } from './infer-entry.js';
import { IntervalLog, seconds } from './interval-log.js';
import type { MultiTurnOptions } from './multi-turn.js';
import { ProgressReporter, formatDuration, type ProgressSink, type WorkEstimate } from './progress.js';
import { RequestMonitor, type EndpointContext, type StopRequest } from './request-monitor.js';
import {
  type DuplicateId,
  type ExistingResults,
  type UnreadableLine,
  type WriteMode,
  ResultWriter,
  asideFileOf,
  findResultFiles,
  removeStaleLines,
  resultFileOfId,
  resultFilesOfCategory,
  scanExistingResults,
  sortResultFile,
} from './result-store.js';
import { orderLongestFirst, runScheduled } from './schedule.js';

/** Default of `--max-consecutive-failures`. */
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 10;
/**
 * How long no request may have succeeded before the circuit breaker trips: a server restarting
 * fails every request in flight at once, which alone must not stop a long run.
 */
export const DEFAULT_BREAKER_MIN_OUTAGE_MS = 60_000;
/** A heartbeat line when no entry finished for this long. */
const DEFAULT_HEARTBEAT_MS = 30_000;
/** Retry and failure lines: one per kind per this interval. */
const DEFAULT_LOG_INTERVAL_MS = 10_000;
/** Requests per turn of a multi-turn entry expected before any has finished (a call, then its result's answer). */
const DEFAULT_REQUESTS_PER_TURN = 2;

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
  /** `--retry-errors`: entries that failed for good before (HTTP 400...) are generated again. */
  readonly retryErrors?: boolean;
  readonly includeInputLog: boolean;
  readonly excludeStateLog: boolean;
  /** `--num-threads`; undefined: the model's default (1 for API models). */
  readonly numThreads: number | undefined;
  readonly simContext: SimContext;
  /** Backends of the agentic entries (web search, memory snapshots, embeddings); needed only when the run has such entries. */
  readonly agentic?: AgenticRunBackends;
  /** Fired on Ctrl-C: no new entry starts, running ones are abandoned (not written). */
  readonly signal?: AbortSignal;
  /** Where progress goes (stderr). */
  readonly progress: ProgressSink;
  /** Plain progress output: a line every this many entries (default: a tenth of the total). */
  readonly progressEveryEntries?: number;
  /** `--max-consecutive-failures` (default 10). */
  readonly maxConsecutiveFailures?: number;
  /** How long no request may have succeeded before the breaker trips (default 60 s). */
  readonly breakerMinOutageMs?: number;
  /** The endpoint and model id, for the advice of a run stopped after its first request. */
  readonly endpoint?: EndpointContext;
  /** A heartbeat line after this long without a finished entry (default 30 s). */
  readonly heartbeatMs?: number;
  /** Retry and failure lines: one per kind per interval of this length (default 10 s). */
  readonly logIntervalMs?: number;
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
  /** Entries written with a result. */
  readonly ok: number;
  /** Entries written as errors (`Error during inference: ...`). */
  readonly errors: number;
  /** Of `errors`, those refused for good (HTTP 400...): the next run skips them unless `--retry-errors`. */
  readonly permanentErrors: number;
  /** Errors written by this run, by cause label (`HTTP 500`, `timeout`...). */
  readonly errorsByCause: Readonly<Record<string, number>>;
  /** Retries of requests, by cause label. */
  readonly retriesByCause: Readonly<Record<string, number>>;
  /** Requests that succeeded. */
  readonly requests: number;
  /** Entries not generated because an earlier run recorded a permanent error for them, by cause label. */
  readonly skippedPermanent: Readonly<Record<string, number>>;
  /** Lines of existing result files that could not be used (dropped; their entries generated again). */
  readonly unreadableLines: readonly UnreadableLine[];
  /** Ids found more than once in an existing result file. */
  readonly duplicateIds: readonly DuplicateId[];
  /** Entries not written because the run was interrupted or stopped. */
  readonly unfinished: number;
  /** Entries the next run with the same arguments generates: transient errors and unfinished entries. */
  readonly nextRunRedoes: number;
  readonly interrupted: boolean;
  /** Why the run stopped by itself before its end; undefined otherwise. */
  readonly stop?: StopRequest;
  /** `stop.message` (kept for callers that only print it). */
  readonly stoppedBecause?: string;
  readonly seconds: number;
  /** Result files re-sorted at the end. */
  readonly sortedFiles: readonly string[];
  /** `--allow-overwrite`: files replaced by their complete new results, and `.new` files left by categories not completed. */
  readonly replacedFiles: readonly string[];
  readonly unfinishedAsideFiles: readonly string[];
  /** Warnings printed before the run (skipped categories and the like). */
  readonly warnings: readonly string[];
}

/** Entries this port cannot run for `model`, with the reason. */
export function unsupportedReason(model: Pick<Model, 'mode' | 'registryName'>, id: string): string | undefined {
  // BFCL parity: _llm_response_generation.py::collect_test_cases — format sensitivity is prompting only.
  if (model.mode === 'fc' && isFormatSensitivity(id)) {
    return `Format sensitivity test cases are only supported for prompting (non-FC) models; ${model.registryName} is a FC model, so they are skipped.`;
  }
  return undefined;
}

/** Generate `model`'s results for the run's entries. */
export async function generateForModel(model: Model, options: GenerationOptions): Promise<ModelGenerationSummary> {
  const modelDir = join(options.resultDir, model.resultDirName);
  const write = (text: string): void => options.progress.write(`${text}\n`);
  const warnings = new Set<string>();
  const supported = options.entries.filter((entry) => {
    const reason = unsupportedReason(model, entry.id);
    if (reason !== undefined) warnings.add(reason);
    return reason === undefined;
  });
  for (const warning of warnings) write(`Warning: ${warning}`);

  const files = options.categories.flatMap((category) => resultFilesOfCategory(modelDir, category));
  const replace = options.allowOverwrite && !options.runIds;
  const existing = scanExistingResults(files, { allowOverwrite: options.allowOverwrite, runIds: options.runIds, retryErrors: options.retryErrors ?? false });
  // Memory prerequisites no question needs are dropped; agentic entries get their initial_config.
  const pending = prepareAgenticEntries(sortById(supported.filter((entry) => !existing.doneIds.has(entry.id) && !existing.permanentIds.has(entry.id))), modelDir, existing.failedIds);
  const pendingIds = new Set(pending.map((entry) => entry.id));
  if (!options.allowOverwrite) removeStaleLines(files, pendingIds);
  else if (replace) removeStaleLines(existing.scannedFiles, pendingIds);
  if (replace) for (const folder of clearMemorySnapshotsForOverwrite(modelDir, supported, pending)) write(`Moved the memory snapshots of the previous run aside: ${folder} -> ${previousSnapshotFolder(folder)}`);
  for (const line of describeExisting(existing, options.allowOverwrite)) write(line);

  const skippedPermanent: Record<string, number> = {};
  for (const entry of supported) {
    const cause = existing.permanentIds.get(entry.id);
    if (cause !== undefined) skippedPermanent[cause] = (skippedPermanent[cause] ?? 0) + 1;
  }
  const retried = pending.filter((entry) => existing.failedIds.has(entry.id)).length;
  const base = {
    model: model.registryName,
    modelDir,
    selected: supported.length,
    alreadyDone: supported.length - pending.length,
    retried,
    toGenerate: pending.length,
    skippedPermanent,
    unreadableLines: existing.unreadable,
    duplicateIds: existing.duplicates,
    warnings: [...warnings],
  };
  const plan = planLine(base, supported.length, pending.length);
  if (plan !== undefined) write(plan);

  const mode: WriteMode = options.runIds ? 'update' : replace ? 'replace' : 'append';
  const writer = new ResultWriter(modelDir, mode, replace ? expectedPerFile(modelDir, files, pending) : new Map());
  if (pending.length === 0) {
    return {
      ...base,
      written: 0,
      ok: 0,
      errors: 0,
      permanentErrors: 0,
      errorsByCause: {},
      retriesByCause: {},
      requests: 0,
      unfinished: 0,
      nextRunRedoes: 0,
      interrupted: false,
      seconds: 0,
      sortedFiles: [],
      replacedFiles: writer.replacedFiles,
      unfinishedAsideFiles: writer.unfinishedAsideFiles(),
    };
  }

  // Fires on Ctrl-C (options.signal) and when the run stops by itself (fail-fast, circuit breaker, a fatal error).
  const stop = new AbortController();
  const combined = linkSignals(options.signal, stop.signal);
  const signal = combined.signal ?? stop.signal;
  // Every running entry listens to it (each request links a signal of its own to it): up to --num-threads listeners.
  setMaxListeners(0, signal);

  const unfinishedEntries = new Set(pending);
  const requestsPerTurn = new RequestsPerTurn();
  let stopRequest: StopRequest | undefined;
  // The monitor's callbacks use the progress output below; they fire only once entries run.
  const requests = new RequestMonitor({
    breaker: {
      maxConsecutiveFailures: options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES,
      minOutageMs: options.breakerMinOutageMs ?? DEFAULT_BREAKER_MIN_OUTAGE_MS,
    },
    ...(options.endpoint !== undefined && { endpoint: options.endpoint }),
    onStop: (request) => {
      stopRequest = request;
      progress.message(`Stopping: ${request.message}`);
      stop.abort();
    },
    onRetry: (entryId, notice) =>
      lines.record(
        `retries after ${notice.cause.label}`,
        `${entryId}: attempt ${notice.attempt} failed (${notice.reason}); retrying in ${seconds(notice.delayMs)}s`,
        notice.delayMs,
      ),
  });
  const progress = new ProgressReporter(`Generating ${model.registryName}`, pending.length, options.progress, {
    ...(options.progressEveryEntries !== undefined && { everyEntries: options.progressEveryEntries }),
    work: () => workEstimate(unfinishedEntries, requestsPerTurn, requests),
  });
  const lines = new IntervalLog((text) => progress.message(text), options.logIntervalMs ?? DEFAULT_LOG_INTERVAL_MS);
  // The memory backends' warning (a chain without a snapshot to start from) goes with the progress output.
  const agentic = executorBackendsOf(options.agentic, (message) => progress.message(message), signal);
  const loopOptions: MultiTurnOptions = {
    includeInputLog: options.includeInputLog,
    excludeStateLog: options.excludeStateLog,
    simContext: options.simContext,
    ...(agentic !== undefined && { agentic }),
    signal,
    queryHooks: (entryId) => requests.hooksFor(entryId),
  };

  let written = 0;
  let ok = 0;
  let errors = 0;
  let permanentErrors = 0;
  const errorsByCause: Record<string, number> = {};
  let fatal: { error: unknown } | undefined;
  let lastFinishAt = performance.now();
  let lastHeartbeatAt = lastFinishAt;
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const ticker = setInterval(() => {
    lines.flushIfDue();
    const now = performance.now();
    if (now - lastFinishAt < heartbeatMs || now - lastHeartbeatAt < heartbeatMs || signal.aborted) return;
    lastHeartbeatAt = now;
    progress.message(heartbeatLine(now - lastFinishAt, requests));
  }, Math.min(1_000, heartbeatMs));
  ticker.unref();

  try {
    await runScheduled(
      // A turn costs at least one request: turns are what tells a long conversation from a short one.
      orderLongestFirst(pending, (entry) => entry.question.length),
      options.numThreads ?? model.defaultNumThreads ?? 1,
      async (entry) => {
        let outcome;
        try {
          outcome = await inferEntry(model, entry, loopOptions);
        } catch (error) {
          // Not a failure of this entry but of the run (a dataset file missing): stop, keep what finished.
          fatal ??= { error };
          stop.abort();
          return;
        } finally {
          requests.entryEnded(entry.id);
        }
        if (outcome.kind === 'interrupted') return;
        writer.write(outcome.line);
        written++;
        unfinishedEntries.delete(entry);
        lastFinishAt = performance.now();
        if (containMultiTurnInteraction(entry.id)) requestsPerTurn.add(entry.question.length, requests.requestsOf(entry.id));
        if (outcome.kind === 'error') {
          errors++;
          errorsByCause[outcome.cause.label] = (errorsByCause[outcome.cause.label] ?? 0) + 1;
          if (outcome.permanent) permanentErrors++;
          const retry = outcome.permanent ? 'a permanent error: later runs skip it unless --retry-errors' : 'the next run retries it';
          lines.record(
            `entries failed with ${outcome.cause.label}`,
            `Error during inference of ${entry.id} (written as an error; ${retry}): ${outcome.message}`,
          );
        } else {
          ok++;
        }
        progress.tick(outcome.kind === 'error');
      },
      signal,
    );
  } finally {
    clearInterval(ticker);
    writer.close();
    combined.dispose();
  }
  lines.flush();
  progress.finish();

  // BFCL parity: _llm_response_generation.py::main — files are re-sorted after a model's run.
  const sortedFiles: string[] = [];
  for (const file of findResultFiles(modelDir)) {
    try {
      if (sortResultFile(file, writer.idsWrittenTo(file))) sortedFiles.push(file);
    } catch (error) {
      write(`Warning: could not sort ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (fatal !== undefined) throw fatal.error;
  const unfinished = pending.length - written;
  return {
    ...base,
    written,
    ok,
    errors,
    permanentErrors,
    errorsByCause,
    retriesByCause: Object.fromEntries(requests.retriesByCause),
    requests: requests.successfulRequests(),
    unfinished,
    nextRunRedoes: errors - permanentErrors + unfinished,
    interrupted: options.signal?.aborted === true,
    ...(stopRequest !== undefined && { stop: stopRequest, stoppedBecause: stopRequest.message }),
    seconds: progress.elapsedSeconds(),
    sortedFiles,
    replacedFiles: writer.replacedFiles,
    unfinishedAsideFiles: writer.unfinishedAsideFiles(),
  };
}

/** Replace mode: entries the run will write per result file, plus files whose `.new` twin is already complete. */
function expectedPerFile(modelDir: string, files: readonly string[], pending: readonly TestEntry[]): Map<string, number> {
  const expected = new Map<string, number>();
  for (const entry of pending) {
    const file = resultFileOfId(modelDir, entry.id);
    expected.set(file, (expected.get(file) ?? 0) + 1);
  }
  for (const file of files) if (!expected.has(file) && existsSync(asideFileOf(file))) expected.set(file, 0);
  return expected;
}

/** Lines about what was found in the existing result files: unreadable lines, duplicate ids, a resumed overwrite. */
function describeExisting(existing: ExistingResults, allowOverwrite: boolean): string[] {
  const out: string[] = [];
  const byFile = new Map<string, UnreadableLine[]>();
  for (const line of existing.unreadable) byFile.set(line.file, [...(byFile.get(line.file) ?? []), line]);
  for (const [file, unreadable] of byFile) {
    const shown = unreadable.slice(0, 5).map((u) => `line ${u.line}: ${u.reason}`);
    const more = unreadable.length > shown.length ? `; and ${unreadable.length - shown.length} more` : '';
    out.push(
      `Warning: ${unreadable.length} line${unreadable.length === 1 ? '' : 's'} of ${file} cannot be used and ${unreadable.length === 1 ? 'is' : 'are'} dropped ` +
        `(${shown.join('; ')}${more}); entries without a usable line are generated again.`,
    );
  }
  const duplicatesByFile = new Map<string, DuplicateId[]>();
  for (const duplicate of existing.duplicates) duplicatesByFile.set(duplicate.file, [...(duplicatesByFile.get(duplicate.file) ?? []), duplicate]);
  for (const [file, duplicates] of duplicatesByFile) {
    const first = duplicates[0]!;
    out.push(
      `Warning: ${duplicates.length} id${duplicates.length === 1 ? '' : 's'} of ${file} appear on more than one line ` +
        `(e.g. ${first.id} on lines ${first.lines.join(', ')}); the first result of each is kept, the other lines are dropped.`,
    );
  }
  if (allowOverwrite && existing.scannedFiles.length > 0) {
    out.push(
      `Resuming an interrupted --allow-overwrite run: ${existing.doneIds.size} new results are kept from ${existing.scannedFiles.join(', ')}; ` +
        'each replaces its result file once its category is complete.',
    );
  }
  return out;
}

/** What the run will generate and why, when earlier runs left anything behind; undefined for a fresh run. */
function planLine(
  base: { alreadyDone: number; retried: number; skippedPermanent: Readonly<Record<string, number>>; unreadableLines: readonly UnreadableLine[] },
  selected: number,
  toGenerate: number,
): string | undefined {
  const skipped = Object.values(base.skippedPermanent).reduce((a, b) => a + b, 0);
  if (base.alreadyDone === 0 && base.retried === 0 && base.unreadableLines.length === 0) return undefined;
  const parts = [`${toGenerate - base.retried} without a usable result`];
  if (base.retried > 0) parts.push(`${base.retried} that failed before`);
  let text = `Will generate ${toGenerate} of ${selected} entries (${parts.join(', ')}); ${base.alreadyDone - skipped} already have results.`;
  if (skipped > 0) {
    const causes = Object.entries(base.skippedPermanent).map(([cause, n]) => `${cause} x${n}`).join(', ');
    text += ` Skipping ${skipped} that failed before with a permanent error (${causes}); --retry-errors generates them again.`;
  }
  return text;
}

/** Observed requests per turn of finished multi-turn entries (the time-left estimate's unit). */
export class RequestsPerTurn {
  private turns = 0;
  private requests = 0;

  add(turns: number, requests: number): void {
    this.turns += turns;
    this.requests += requests;
  }

  value(): number {
    return this.turns > 0 && this.requests > 0 ? this.requests / this.turns : DEFAULT_REQUESTS_PER_TURN;
  }
}

/**
 * The run's work in requests: made so far, and that plus what the unfinished entries are expected
 * to need (single-turn: one request; multi-turn: their turns at the observed requests per turn).
 */
export function workEstimate(unfinished: ReadonlySet<TestEntry>, perTurn: RequestsPerTurn, monitor: RequestMonitor): WorkEstimate | undefined {
  const done = monitor.successfulRequests();
  // A model that reports no requests (a test double): the estimate by entries it is.
  if (done === 0) return undefined;
  const rate = perTurn.value();
  let left = 0;
  for (const entry of unfinished) {
    const expected = containMultiTurnInteraction(entry.id) ? entry.question.length * rate : 1;
    left += Math.max(0, expected - monitor.requestsOf(entry.id));
  }
  return { done, total: done + left };
}

/** `No entry finished in the last 45s: 64 requests in flight (oldest 45s: multi_turn_base_3, attempt 2), 3 waiting to retry.` */
function heartbeatLine(quietMs: number, monitor: RequestMonitor): string {
  const now = monitor.snapshot();
  const oldest = now.oldest === undefined ? '' : ` (oldest ${formatDuration(now.oldest.ms / 1000)}: ${now.oldest.entryId}, attempt ${now.oldest.attempt})`;
  const waiting = now.waiting > 0 ? `, ${now.waiting} waiting to retry` : '';
  return `No entry finished in the last ${formatDuration(quietMs / 1000)}: ${now.inFlight} request${now.inFlight === 1 ? '' : 's'} in flight${oldest}${waiting}.`;
}

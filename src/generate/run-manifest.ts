/**
 * The run manifest: `<result dir>/<model dir>/bfcl_run_manifest.json`, a record of how a model's
 * results were made — harness version, the dataset files (sha256 per file), model id, sampling
 * settings, flags, start/end time and counts. Every `generate` run into the folder appends one
 * record to `runs`, so resumed and repeated runs stay visible. `evaluate` reads it to warn when the
 * results were generated from other data than it evaluates against (src/evaluate/manifest-check.ts).
 *
 * The reference BFCL writes no manifest; this is our addition, and nothing else reads the file (its
 * name does not match the `BFCL_v4_*_result.json` pattern of result files).
 */

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { DATA_LAYOUT, packageVersion } from '../data/data-dir.js';
import type { BfclDataset } from '../data/dataset.js';
import { funcDocFileOf } from '../data/function-docs.js';
import { sha256Hex } from '../util/hash.js';
import {
  type Category,
  MEMORY_SCENARIO_NAME,
  getCategoryInfo,
  isAgentic,
  isCategory,
  isMemory,
  isMultiTurn,
} from '../spec/categories.js';
import type { Model } from '../spec/model.js';
import type { GenerateOptions } from '../spec/options.js';
import { type GenerationOptions, type ModelGenerationSummary, generateForModel } from './run-generation.js';

/** File name of the manifest inside a model's result folder. */
export const RUN_MANIFEST_FILE = 'bfcl_run_manifest.json';
/** Version of the manifest's layout (bumped when a field changes meaning). */
export const RUN_MANIFEST_FORMAT = 1;
/** The harness name recorded in every run. */
export const HARNESS_NAME = 'bfcl-ts';

/** Relative dataset path (always `/`-separated) → sha256 hex, or null when the file was absent. */
export type DatasetFileHashes = Record<string, string | null>;

/** What one run did; the JSON keys are snake_case like the rest of BFCL's files. */
export interface RunRecord {
  readonly harness: { readonly name: string; readonly version: string };
  /** ISO 8601 (UTC). */
  readonly started_at: string;
  readonly ended_at: string;
  /**
   * `failed`: the run stopped on an error (`error`); its counts are then unknown (null). `stopped`:
   * the run stopped by itself (`stopped_because`: its first requests were refused, or the circuit
   * breaker tripped). `interrupted`: Ctrl-C, SIGTERM or SIGHUP (`interrupted_by`).
   */
  readonly status: 'completed' | 'interrupted' | 'stopped' | 'failed';
  readonly error?: string;
  readonly stopped_because?: string;
  /** The signal that interrupted the run (`SIGINT`, `SIGTERM`, `SIGHUP`), when known. */
  readonly interrupted_by?: string;
  readonly model: {
    readonly registry_name: string;
    readonly result_dir_name: string;
    /** The id sent to the API (`model_name` of the registry); null for a model the registry cannot name. */
    readonly api_model_id: string | null;
    readonly inference_mode: 'FC' | 'prompting';
  };
  /** `--temperature`, and `--max-tokens`, `--top-p`, `--seed`, `--extra-body` when given. */
  readonly sampling: {
    readonly temperature: number;
    readonly max_tokens?: number;
    readonly top_p?: number;
    readonly seed?: number;
    readonly extra_body?: unknown;
  };
  readonly flags: {
    /** `--test-category`, expanded (ignored by the run when `run_ids` is set). */
    readonly test_categories: readonly string[];
    /** Categories the run covered (with `run_ids`: those of the id file). */
    readonly categories: readonly string[];
    /** `--num-threads`; null when not given. */
    readonly num_threads: number | null;
    /** Concurrency used: the flag, else the model's default. */
    readonly effective_num_threads: number;
    readonly include_input_log: boolean;
    readonly exclude_state_log: boolean;
    readonly allow_overwrite: boolean;
    readonly run_ids: boolean;
    /** `--base-url` with credentials, query and fragment removed; null when not given. */
    readonly base_url: string | null;
    /** Run control, when given: `--mode`, `--timeout`, `--max-retries`, `--max-backoff`, `--max-consecutive-failures`, `--retry-errors`. */
    readonly mode?: string;
    readonly timeout_s?: number;
    readonly max_retries?: number;
    readonly max_backoff_s?: number;
    readonly max_consecutive_failures?: number;
    readonly retry_errors?: boolean;
  };
  readonly dataset: { readonly dir: string; readonly files: DatasetFileHashes };
  readonly counts: {
    readonly selected: number;
    readonly already_done: number;
    readonly retried: number;
    readonly to_generate: number;
    readonly written: number;
    readonly errors: number;
    readonly unfinished: number;
    readonly interrupted: boolean;
    /** Of `errors`, those refused for good (HTTP 400...). */
    readonly permanent_errors: number;
    readonly errors_by_cause: Readonly<Record<string, number>>;
    readonly retries_by_cause: Readonly<Record<string, number>>;
    /** Entries skipped because an earlier run recorded a permanent error, by cause. */
    readonly skipped_permanent_errors: Readonly<Record<string, number>>;
    readonly unreadable_lines: number;
    readonly requests: number;
  } | null;
}

export interface RunManifest {
  readonly format_version: number;
  readonly model_dir: string;
  readonly runs: readonly RunRecord[];
}

// ---------------------------------------------------------------------------------------------
// Dataset files

/** The v4 file, or the v3 one when only that exists (the dataset loader's fallback). */
function fileWithFallback(dataset: BfclDataset, v4: string, v3: string | undefined): string {
  const v4Path = join(dataset.dir, v4);
  if (v3 !== undefined && !existsSync(v4Path) && existsSync(join(dataset.dir, v3))) return v3;
  return v4;
}

/**
 * The dataset files (relative, `/`-separated, in reading order) that loading a category's entries and
 * ground truth reads: its data file, its possible answers, the function docs of the simulated classes
 * its entries involve, the memory prerequisite conversations, `long_context.json` for multi-turn
 * categories, and for format sensitivity the id file plus the files of the categories it lists.
 * May throw a `DatasetError` when a file it must read to find the others is broken.
 */
export function datasetFilesOfCategory(dataset: BfclDataset, category: Category): string[] {
  const info = getCategoryInfo(category);
  const files: string[] = [];
  if (info.isFormatSensitivity) {
    files.push(info.dataFile);
    for (const [source, ids] of dataset.formatSensitivityIds()) {
      if (ids.length > 0 && isCategory(source)) files.push(...datasetFilesOfCategory(dataset, source));
    }
    return unique(files);
  }
  files.push(fileWithFallback(dataset, info.dataFile, info.v3DataFile));
  if (info.possibleAnswerFile !== undefined) {
    const dir = DATA_LAYOUT.possibleAnswer;
    files.push(fileWithFallback(dataset, `${dir}/${info.possibleAnswerFile}`, info.v3DataFile && `${dir}/${info.v3DataFile}`));
  }
  if (isMemory(category)) {
    for (const scenario of MEMORY_SCENARIO_NAME) files.push(`${DATA_LAYOUT.memoryPrereqConversation}/memory_${scenario}.json`);
  }
  if (isMultiTurn(category) || isAgentic(category)) {
    const classes = new Set<string>();
    for (const entry of dataset.loadTestEntries(category, { includeLanguageHint: false })) {
      for (const name of entry.involvedClasses ?? []) classes.add(name);
    }
    for (const name of classes) files.push(`${DATA_LAYOUT.multiTurnFuncDoc}/${funcDocFileOf(name, category)}`);
  }
  // The simulated APIs read the long-context filler only in multi-turn entries.
  if (isMultiTurn(category)) files.push(DATA_LAYOUT.longContext);
  return unique(files);
}

function unique(files: readonly string[]): string[] {
  return [...new Set(files)];
}

/** sha256 (hex) of a file, or null when it does not exist. */
export function sha256OfFile(file: string): string | null {
  if (!existsSync(file)) return null;
  return sha256Hex(readFileSync(file));
}

/** Hashes of `files` (relative to the dataset directory), keys sorted for stable output. */
export function hashDatasetFiles(dataset: BfclDataset, files: Iterable<string>): DatasetFileHashes {
  const hashes: DatasetFileHashes = {};
  for (const file of [...new Set(files)].sort()) hashes[file] = sha256OfFile(join(dataset.dir, file));
  return hashes;
}

/** Every dataset file the categories read, hashed. */
export function datasetFileHashes(dataset: BfclDataset, categories: readonly Category[]): DatasetFileHashes {
  return hashDatasetFiles(
    dataset,
    categories.flatMap((category) => datasetFilesOfCategory(dataset, category)),
  );
}

// ---------------------------------------------------------------------------------------------
// Run records

/**
 * A base URL that is safe to write down: user name, password, query (`?key=...`) and fragment are
 * dropped. Text that is not a URL is not recorded at all (it might be a secret pasted by mistake).
 */
export function redactBaseUrl(url: string | undefined): string | null {
  if (url === undefined || url === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '<not a URL; not recorded>';
  }
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString();
}

/** What a run record needs beyond the model's summary. */
export interface RunRecordInput {
  readonly model: Model;
  readonly generation: GenerationOptions;
  readonly options: GenerateOptions;
  /** The model's id in its API (the registry's `model_name`), or null when unknown. */
  readonly apiModelId: string | null;
  readonly dataset: BfclDataset;
  readonly datasetFiles: DatasetFileHashes;
  readonly startedAt: Date;
  readonly endedAt: Date;
  /** Undefined when the run failed with `error`. */
  readonly summary: ModelGenerationSummary | undefined;
  readonly error?: string;
  /** The signal that interrupted the run, when it was one. */
  readonly interruptedBy?: string;
}

export function buildRunRecord(input: RunRecordInput): RunRecord {
  const { model, generation, options, summary } = input;
  const status = summary === undefined ? 'failed' : summary.interrupted ? 'interrupted' : summary.stop !== undefined ? 'stopped' : 'completed';
  return {
    harness: { name: HARNESS_NAME, version: packageVersion() },
    started_at: input.startedAt.toISOString(),
    ended_at: input.endedAt.toISOString(),
    status,
    ...(input.error !== undefined && { error: input.error }),
    ...(summary?.stop !== undefined && { stopped_because: summary.stop.message }),
    ...(summary?.interrupted === true && input.interruptedBy !== undefined && { interrupted_by: input.interruptedBy }),
    model: {
      registry_name: model.registryName,
      result_dir_name: model.resultDirName,
      api_model_id: input.apiModelId,
      inference_mode: model.mode === 'fc' ? 'FC' : 'prompting',
    },
    sampling: {
      temperature: options.temperature,
      ...(options.maxTokens !== undefined && { max_tokens: options.maxTokens }),
      ...(options.topP !== undefined && { top_p: options.topP }),
      ...(options.seed !== undefined && { seed: options.seed }),
      ...(options.extraBody !== undefined && { extra_body: JSON.parse(options.extraBody) as unknown }),
    },
    flags: {
      test_categories: [...options.testCategories],
      categories: [...generation.categories],
      num_threads: generation.numThreads ?? null,
      effective_num_threads: generation.numThreads ?? model.defaultNumThreads ?? 1,
      include_input_log: generation.includeInputLog,
      exclude_state_log: generation.excludeStateLog,
      allow_overwrite: generation.allowOverwrite,
      run_ids: generation.runIds,
      base_url: redactBaseUrl(options.baseUrl),
      ...(options.mode !== undefined && { mode: options.mode }),
      ...(options.timeoutSeconds !== undefined && { timeout_s: options.timeoutSeconds }),
      ...(options.maxRetries !== undefined && { max_retries: options.maxRetries }),
      ...(options.maxBackoffSeconds !== undefined && { max_backoff_s: options.maxBackoffSeconds }),
      ...(options.maxConsecutiveFailures !== undefined && { max_consecutive_failures: options.maxConsecutiveFailures }),
      ...(options.retryErrors === true && { retry_errors: true }),
    },
    dataset: { dir: input.dataset.dir, files: input.datasetFiles },
    counts:
      summary === undefined
        ? null
        : {
            selected: summary.selected,
            already_done: summary.alreadyDone,
            retried: summary.retried,
            to_generate: summary.toGenerate,
            written: summary.written,
            errors: summary.errors,
            unfinished: summary.unfinished,
            interrupted: summary.interrupted,
            permanent_errors: summary.permanentErrors,
            errors_by_cause: summary.errorsByCause,
            retries_by_cause: summary.retriesByCause,
            skipped_permanent_errors: summary.skippedPermanent,
            unreadable_lines: summary.unreadableLines.length,
            requests: summary.requests,
          },
  };
}

// ---------------------------------------------------------------------------------------------
// Reading and writing

/** The manifest of a model folder; undefined when there is none or it cannot be read. */
export function readRunManifest(modelDir: string): RunManifest | undefined {
  const file = join(modelDir, RUN_MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isRunManifest(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Shallow shape check: enough for the code that reads runs' categories and dataset hashes. */
function isRunManifest(value: unknown): value is RunManifest {
  if (typeof value !== 'object' || value === null) return false;
  const runs = (value as { runs?: unknown }).runs;
  return Array.isArray(runs) && runs.every(isRunRecordShape);
}

function isRunRecordShape(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const run = value as Partial<Record<keyof RunRecord, unknown>>;
  const flags = run.flags as { categories?: unknown } | undefined;
  const dataset = run.dataset as { dir?: unknown; files?: unknown } | undefined;
  return (
    Array.isArray(flags?.categories) &&
    typeof dataset?.dir === 'string' &&
    typeof dataset.files === 'object' &&
    dataset.files !== null
  );
}

/**
 * Append `run` to the model folder's manifest (created when absent), writing through a temporary
 * file and a rename. A manifest that cannot be read is kept aside as `<name>.unreadable` rather than
 * overwritten; returns a warning then.
 */
export function appendRunRecord(modelDir: string, modelDirName: string, run: RunRecord): { file: string; warning?: string } {
  mkdirSync(modelDir, { recursive: true });
  const file = join(modelDir, RUN_MANIFEST_FILE);
  let runs: readonly RunRecord[] = [];
  let warning: string | undefined;
  if (existsSync(file)) {
    const existing = readRunManifest(modelDir);
    if (existing === undefined) {
      renameSync(file, `${file}.unreadable`);
      warning = `Warning: ${file} could not be read; it was moved to ${file}.unreadable and a new manifest was started.`;
    } else {
      runs = existing.runs;
    }
  }
  const manifest: RunManifest = { format_version: RUN_MANIFEST_FORMAT, model_dir: modelDirName, runs: [...runs, run] };
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(tmp, file);
  return warning === undefined ? { file } : { file, warning };
}

// ---------------------------------------------------------------------------------------------
// The generate hook

/** What `generateWithManifest` needs besides the generation options. */
export interface ManifestContext {
  readonly dataset: BfclDataset;
  /** The command's options (temperature, requested categories, base URL). */
  readonly options: GenerateOptions;
  /** The model's id in its API, as the command resolved it (null when unknown). */
  readonly apiModelId: string | null;
  /** Clock (tests). */
  readonly now?: () => Date;
  /** The signal that interrupted the run, read when the record is written (`SIGINT`...). */
  readonly interruptedBy?: () => string | undefined;
}

/**
 * `generateForModel`, recorded in the model folder's manifest: the dataset files are hashed before
 * the run starts, and the record is appended when it ends — also when it is interrupted or fails
 * (the error is then rethrown).
 */
export async function generateWithManifest(
  model: Model,
  generation: GenerationOptions,
  context: ManifestContext,
): Promise<ModelGenerationSummary> {
  const now = context.now ?? (() => new Date());
  const startedAt = now();
  const datasetFiles = datasetFileHashes(context.dataset, generation.categories);
  const record = (summary: ModelGenerationSummary | undefined, error?: string): void => {
    const run = buildRunRecord({
      model,
      generation,
      options: context.options,
      apiModelId: context.apiModelId,
      dataset: context.dataset,
      datasetFiles,
      startedAt,
      endedAt: now(),
      summary,
      ...(error !== undefined && { error }),
      ...(context.interruptedBy?.() !== undefined && { interruptedBy: context.interruptedBy()! }),
    });
    const { warning } = appendRunRecord(join(generation.resultDir, model.resultDirName), model.resultDirName, run);
    if (warning !== undefined) generation.progress.write(`${warning}\n`);
  };
  let summary: ModelGenerationSummary;
  try {
    summary = await generateForModel(model, generation);
  } catch (error) {
    try {
      record(undefined, error instanceof Error ? error.message : String(error));
    } catch {
      // The run's own error is the one to report.
    }
    throw error;
  }
  record(summary);
  return summary;
}

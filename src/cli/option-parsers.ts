/**
 * Parsing of flag values and assembly of the typed command options. Everything here is pure apart
 * from checking that a given data directory exists.
 */

import { resolve } from 'node:path';

import { InvalidArgumentError } from 'commander';

import { resolveDataDir } from '../data/data-dir.js';
import { type Category, parseTestCategoryArgument } from '../spec/categories.js';
import type { EvaluateOptions, GenerateOptions } from '../spec/options.js';
import { UsageError } from '../util/errors.js';
import type { CliIo } from './io.js';

/**
 * Accumulator for list flags: every occurrence is split on commas, items are trimmed and empty
 * ones dropped (the reference's `handle_multiple_input`), so `--model a,b --model c` gives [a, b, c].
 */
export function collectList(value: string, previous: string[] | undefined): string[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return [...(previous ?? []), ...items];
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A finite, non-negative decimal number such as `0.001`, `1`, `1e-3`. */
export function parseTemperature(value: string): number {
  const text = value.trim();
  const n = Number(text);
  if (!DECIMAL.test(text) || !Number.isFinite(n) || n < 0) {
    throw new InvalidArgumentError('Expected a non-negative number, e.g. 0.001.');
  }
  return n;
}

/** A positive integer such as `8`. */
export function parsePositiveInt(value: string): number {
  const text = value.trim();
  const n = Number(text);
  if (!/^\+?\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1) {
    throw new InvalidArgumentError('Expected a positive integer, e.g. 8.');
  }
  return n;
}

/** A non-negative integer such as `0` or `7`. */
export function parseNonNegativeInt(value: string): number {
  const text = value.trim();
  const n = Number(text);
  if (!/^\+?\d+$/.test(text) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError('Expected a non-negative integer, e.g. 3.');
  }
  return n;
}

/** A positive number of seconds such as `30` or `2.5`. */
export function parsePositiveSeconds(value: string): number {
  const text = value.trim();
  const n = Number(text);
  if (!DECIMAL.test(text) || !Number.isFinite(n) || n <= 0) {
    throw new InvalidArgumentError('Expected a positive number of seconds, e.g. 60.');
  }
  return n;
}

/** A number in [0, 1] such as `0.95` (`--top-p`). */
export function parseUnitInterval(value: string): number {
  const text = value.trim();
  const n = Number(text);
  if (!DECIMAL.test(text) || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError('Expected a number from 0 to 1, e.g. 0.95.');
  }
  return n;
}

/**
 * `--extra-body`: the text of a JSON object, checked and returned as given (it is merged into every
 * request body, so numbers keep the form they were written in).
 */
export function checkExtraBody(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--extra-body must be a JSON object, e.g. '{"chat_template_kwargs": {"enable_thinking": false}}'; got ${text} (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`--extra-body must be a JSON object, e.g. '{"chat_template_kwargs": {"enable_thinking": false}}'; got ${text}`);
  }
  return text;
}

/** `--test-category` values (default `all`) expanded to categories; an empty list is a usage error. */
export function expandTestCategories(values: readonly string[] | undefined): Category[] {
  const args = values ?? ['all'];
  if (args.length === 0) throw new UsageError('No test category given (--test-category is empty).');
  return parseTestCategoryArgument(args);
}

/** `BFCL_PROJECT_ROOT`, else the cwd: the base of relative result/score paths. */
export function projectRootOf(io: CliIo): string {
  const root = io.env['BFCL_PROJECT_ROOT'];
  return root === undefined || root === '' ? io.cwd : resolve(io.cwd, root);
}

/** Dataset directory from `--data-dir`, else `BFCL_DATA_DIR`, else the package's `data/`. */
export function dataDirOf(flag: string | undefined, io: CliIo): string {
  return resolveDataDir(flag ?? io.env['BFCL_DATA_DIR'], io.cwd);
}

/** Raw values commander collects for `generate`. */
export interface GenerateFlags {
  model?: string[];
  testCategory?: string[];
  temperature: number;
  includeInputLog?: boolean;
  excludeStateLog?: boolean;
  numThreads?: number;
  resultDir?: string;
  allowOverwrite?: boolean;
  runIds?: boolean;
  dataDir?: string;
  baseUrl?: string;
  mode?: 'fc' | 'prompting';
  maxTokens?: number;
  topP?: number;
  seed?: number;
  extraBody?: string;
  timeout?: number;
  maxRetries?: number;
  maxBackoff?: number;
  maxConsecutiveFailures?: number;
  retryErrors?: boolean;
  json?: boolean;
  searchCache?: string;
  searchCacheMode?: SearchCacheMode;
  embeddingsBaseUrl?: string;
}

/** `--search-cache-mode` values. */
export type SearchCacheMode = 'off' | 'record' | 'replay' | 'auto';
const SEARCH_CACHE_MODES: readonly SearchCacheMode[] = ['off', 'record', 'replay', 'auto'];

/**
 * The web-search cache and embeddings options from flags, else `BFCL_SEARCH_CACHE`,
 * `BFCL_SEARCH_CACHE_MODE` and `BFCL_EMBEDDINGS_BASE_URL`. A cache directory alone means `auto`;
 * a mode that uses the cache needs a directory.
 */
export function agenticGenerateOptions(
  flags: Pick<GenerateFlags, 'searchCache' | 'searchCacheMode' | 'embeddingsBaseUrl'>,
  io: CliIo,
  projectRoot: string,
): Pick<GenerateOptions, 'searchCacheDir' | 'searchCacheMode' | 'embeddingsBaseUrl'> {
  const env = (name: string): string | undefined => {
    const value = io.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const dir = flags.searchCache ?? env('BFCL_SEARCH_CACHE');
  const modeText = flags.searchCacheMode ?? env('BFCL_SEARCH_CACHE_MODE');
  if (modeText !== undefined && !SEARCH_CACHE_MODES.includes(modeText as SearchCacheMode)) {
    throw new UsageError(`BFCL_SEARCH_CACHE_MODE must be one of ${SEARCH_CACHE_MODES.join(', ')}; got ${modeText}`);
  }
  const mode = (modeText as SearchCacheMode | undefined) ?? (dir === undefined ? 'off' : 'auto');
  if (mode !== 'off' && dir === undefined) {
    throw new UsageError(`--search-cache-mode ${mode} needs a cache directory: --search-cache <dir> (or BFCL_SEARCH_CACHE).`);
  }
  const embeddingsBaseUrl = flags.embeddingsBaseUrl ?? env('BFCL_EMBEDDINGS_BASE_URL');
  return {
    ...(mode !== 'off' && { searchCacheMode: mode }),
    ...(dir !== undefined && { searchCacheDir: resolve(projectRoot, dir) }),
    ...(embeddingsBaseUrl !== undefined && { embeddingsBaseUrl }),
  };
}

/** Validated `GenerateOptions` from the parsed flags. */
export function toGenerateOptions(flags: GenerateFlags, io: CliIo): GenerateOptions {
  const models = flags.model ?? [];
  if (models.length === 0) throw new UsageError('No model given (--model is empty).');
  const projectRoot = projectRootOf(io);
  return {
    models,
    testCategories: expandTestCategories(flags.testCategory),
    temperature: flags.temperature,
    includeInputLog: flags.includeInputLog ?? false,
    excludeStateLog: flags.excludeStateLog ?? false,
    numThreads: flags.numThreads,
    resultDir: resolve(projectRoot, flags.resultDir ?? 'result'),
    allowOverwrite: flags.allowOverwrite ?? false,
    runIds: flags.runIds ?? false,
    dataDir: dataDirOf(flags.dataDir, io),
    ...(flags.baseUrl === undefined ? {} : { baseUrl: flags.baseUrl }),
    projectRoot,
    ...(flags.mode !== undefined && { mode: flags.mode }),
    ...(flags.maxTokens !== undefined && { maxTokens: flags.maxTokens }),
    ...(flags.topP !== undefined && { topP: flags.topP }),
    ...(flags.seed !== undefined && { seed: flags.seed }),
    ...(flags.extraBody !== undefined && { extraBody: checkExtraBody(flags.extraBody) }),
    ...(flags.timeout !== undefined && { timeoutSeconds: flags.timeout }),
    ...(flags.maxRetries !== undefined && { maxRetries: flags.maxRetries }),
    ...(flags.maxBackoff !== undefined && { maxBackoffSeconds: flags.maxBackoff }),
    ...(flags.maxConsecutiveFailures !== undefined && { maxConsecutiveFailures: flags.maxConsecutiveFailures }),
    ...(flags.retryErrors === true && { retryErrors: true }),
    ...(flags.json === true && { json: true }),
    ...agenticGenerateOptions(flags, io, projectRoot),
  };
}

/** Raw values commander collects for `evaluate`. */
export interface EvaluateFlags {
  model?: string[];
  testCategory?: string[];
  resultDir?: string;
  scoreDir?: string;
  partialEval?: boolean;
  dataDir?: string;
  decoder?: 'fc' | 'prompting';
  underscoreToDot?: boolean;
  numThreads?: number;
}

/** Validated `EvaluateOptions` from the parsed flags. */
export function toEvaluateOptions(flags: EvaluateFlags, io: CliIo): EvaluateOptions {
  const projectRoot = projectRootOf(io);
  const models = flags.model;
  return {
    // BFCL parity: an empty --model list means "all models", as typer turns [] into None.
    models: models === undefined || models.length === 0 ? undefined : models,
    testCategories: expandTestCategories(flags.testCategory),
    resultDir: resolve(projectRoot, flags.resultDir ?? 'result'),
    scoreDir: resolve(projectRoot, flags.scoreDir ?? 'score'),
    partialEval: flags.partialEval ?? false,
    decoder: flags.decoder,
    ...(flags.underscoreToDot === undefined ? {} : { underscoreToDot: flags.underscoreToDot }),
    ...(flags.numThreads === undefined ? {} : { numThreads: flags.numThreads }),
    dataDir: dataDirOf(flags.dataDir, io),
    projectRoot,
  };
}

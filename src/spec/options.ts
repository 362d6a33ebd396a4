/**
 * Validated options of the `generate` and `evaluate` commands, as the CLI hands them to
 * `runGenerate` / `runEvaluate`. Paths are absolute; categories are expanded and known.
 */

import type { Category } from './categories.js';

/** Options of `bfcl generate`. */
export interface GenerateOptions {
  /** Registry names of the models to run (`--model`, comma list, repeatable). */
  readonly models: readonly string[];
  /** Categories to generate, expanded from `--test-category` (groups allowed), sorted and unique. */
  readonly testCategories: readonly Category[];
  /** Sampling temperature (`--temperature`, default 0.001). */
  readonly temperature: number;
  /** Record the fully transformed model input in `inference_log` (`--include-input-log`). */
  readonly includeInputLog: boolean;
  /** Leave the per-turn `state_info` out of multi-turn logs (`--exclude-state-log`). */
  readonly excludeStateLog: boolean;
  /** Concurrent requests (`--num-threads`); undefined means the model handler's default. */
  readonly numThreads: number | undefined;
  /** Where result files go (`--result-dir`, default `<project root>/result`). */
  readonly resultDir: string;
  /** Regenerate entries that already have results (`--allow-overwrite` / `-o`). */
  readonly allowOverwrite: boolean;
  /** Generate only the ids of `<project root>/test_case_ids_to_generate.json` (`--run-ids`). */
  readonly runIds: boolean;
  /** Dataset directory (`--data-dir` / `BFCL_DATA_DIR`, else the package's `data/`). */
  readonly dataDir: string;
  /** `--base-url`: endpoint of an OpenAI-compatible server (or the provider), overriding the environment. */
  readonly baseUrl?: string | undefined;
  /** Base of relative paths and of `test_case_ids_to_generate.json` (`BFCL_PROJECT_ROOT`, else the cwd). */
  readonly projectRoot: string;
  /** `--mode fc|prompting` for `openai-compatible/<id>` models; undefined: FC (registry models have a fixed mode). */
  readonly mode?: 'fc' | 'prompting' | undefined;
  /** `--max-tokens`: sent as the API's max-tokens field; undefined: not sent (the reference's request). */
  readonly maxTokens?: number | undefined;
  /** `--top-p`; undefined: not sent. */
  readonly topP?: number | undefined;
  /** `--seed`; undefined: not sent. */
  readonly seed?: number | undefined;
  /** `--extra-body`: a JSON object (as given) merged into every request body; undefined: none. */
  readonly extraBody?: string | undefined;
  /** `--timeout`: per-request time limit in seconds; undefined: the provider's (the reference's) default. */
  readonly timeoutSeconds?: number | undefined;
  /** `--max-retries`: retries of a failed request (rate limits get 4x as many); undefined: 7. */
  readonly maxRetries?: number | undefined;
  /** `--max-backoff`: the longest wait between attempts, in seconds (also caps Retry-After); undefined: 120 s (Retry-After: 600 s). */
  readonly maxBackoffSeconds?: number | undefined;
  /** `--max-consecutive-failures`: failed requests in a row that stop the run (circuit breaker); undefined: 10. */
  readonly maxConsecutiveFailures?: number | undefined;
  /** `--retry-errors`: also generate entries that failed for good before (HTTP 400...). */
  readonly retryErrors?: boolean | undefined;
  /** `--json`: print the end summary as JSON on stdout. */
  readonly json?: boolean | undefined;
  /** `--search-cache` (env `BFCL_SEARCH_CACHE`): directory of the web-search record/replay cache (absolute). */
  readonly searchCacheDir?: string | undefined;
  /** `--search-cache-mode` (env `BFCL_SEARCH_CACHE_MODE`): off (default), record, replay or auto. */
  readonly searchCacheMode?: 'off' | 'record' | 'replay' | 'auto' | undefined;
  /** `--embeddings-base-url` (env `BFCL_EMBEDDINGS_BASE_URL`): an OpenAI-compatible /v1/embeddings server for memory_vector. */
  readonly embeddingsBaseUrl?: string | undefined;
}

/** Options of `bfcl evaluate`. */
export interface EvaluateOptions {
  /** Models to evaluate (`--model`); undefined means every model directory found in `resultDir`. */
  readonly models: readonly string[] | undefined;
  /** Categories to evaluate, expanded from `--test-category`, sorted and unique. */
  readonly testCategories: readonly Category[];
  /** Where result files are read from (`--result-dir`, default `<project root>/result`). */
  readonly resultDir: string;
  /** Where score files and CSVs go (`--score-dir`, default `<project root>/score`). */
  readonly scoreDir: string;
  /** Evaluate only the entries present in the result files (`--partial-eval`). */
  readonly partialEval: boolean;
  /**
   * How to decode results (`--decoder fc|prompting`); undefined: the registry's handler, or for an
   * unknown model a guess from the shape of its results.
   */
  readonly decoder: 'fc' | 'prompting' | undefined;
  /**
   * Expect `_` for `.` in function names (`--underscore-to-dot` / `--no-underscore-to-dot`);
   * undefined: the registry's `underscore_to_dot`, or for an unknown model on when it is decoded as FC.
   */
  readonly underscoreToDot?: boolean | undefined;
  /** `--num-threads`, accepted and ignored (evaluate runs on one thread). */
  readonly numThreads?: number | undefined;
  /** Dataset directory (`--data-dir` / `BFCL_DATA_DIR`, else the package's `data/`). */
  readonly dataDir: string;
  /** Base of relative paths (`BFCL_PROJECT_ROOT`, else the cwd). */
  readonly projectRoot: string;
}

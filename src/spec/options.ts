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

/**
 * The work behind `generate` and `evaluate`. `buildProgram` takes replacements, so tests plug in
 * through the same interface as the real pipelines.
 */

import type { EvaluateOptions, GenerateOptions } from '../spec/options.js';
import type { CliIo } from './io.js';

/** Runs a command with validated options; resolves to the process exit code. */
export type CommandRunner<Options> = (options: Options, io: CliIo) => Promise<number>;

export interface CliRunners {
  readonly runGenerate: CommandRunner<GenerateOptions>;
  readonly runEvaluate: CommandRunner<EvaluateOptions>;
}

// Each command's pipeline is imported when that command runs, so `bfcl evaluate` never loads the
// generation side (model SDKs, providers) and `bfcl --help` loads neither.

/** `bfcl generate`. */
export const runGenerate: CommandRunner<GenerateOptions> = async (options, io) => {
  const { runGenerateCommand } = await import('./generate-command.js');
  return runGenerateCommand(options, io, { isTTY: process.stderr.isTTY === true });
};

/** `bfcl evaluate`. */
export const runEvaluate: CommandRunner<EvaluateOptions> = async (options, io) => {
  const { runEvaluateCommand } = await import('./evaluate-command.js');
  return runEvaluateCommand(options, io);
};

export const DEFAULT_RUNNERS: CliRunners = { runGenerate, runEvaluate };

/**
 * The work behind `generate` and `evaluate`. These are placeholders until the generation and
 * evaluation pipelines are wired in; `buildProgram` takes replacements, so tests (and the real
 * implementations) plug in through the same interface.
 */

import type { EvaluateOptions, GenerateOptions } from '../spec/options.js';
import { runEvaluateCommand } from './evaluate-command.js';
import { runGenerateCommand } from './generate-command.js';
import type { CliIo } from './io.js';

/** Runs a command with validated options; resolves to the process exit code. */
export type CommandRunner<Options> = (options: Options, io: CliIo) => Promise<number>;

export interface CliRunners {
  readonly runGenerate: CommandRunner<GenerateOptions>;
  readonly runEvaluate: CommandRunner<EvaluateOptions>;
}

/** `bfcl generate`. */
export const runGenerate: CommandRunner<GenerateOptions> = (options, io) =>
  runGenerateCommand(options, io, { isTTY: process.stderr.isTTY === true });

/** `bfcl evaluate`. */
export const runEvaluate: CommandRunner<EvaluateOptions> = (options, io) => runEvaluateCommand(options, io);

export const DEFAULT_RUNNERS: CliRunners = { runGenerate, runEvaluate };

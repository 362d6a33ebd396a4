/**
 * The work behind `generate` and `evaluate`. These are placeholders until the generation and
 * evaluation pipelines are wired in; `buildProgram` takes replacements, so tests (and the real
 * implementations) plug in through the same interface.
 */

import type { EvaluateOptions, GenerateOptions } from '../spec/options.js';
import { runEvaluateCommand } from './evaluate-command.js';
import type { CliIo } from './io.js';

/** Runs a command with validated options; resolves to the process exit code. */
export type CommandRunner<Options> = (options: Options, io: CliIo) => Promise<number>;

export interface CliRunners {
  readonly runGenerate: CommandRunner<GenerateOptions>;
  readonly runEvaluate: CommandRunner<EvaluateOptions>;
}

/** Placeholder for `bfcl generate`. */
export const runGenerate: CommandRunner<GenerateOptions> = async (options, io) => {
  io.stderr(
    `bfcl generate: not implemented yet (would run ${options.models.join(', ')} on ${options.testCategories.length} categories).\n`,
  );
  return 1;
};

/** `bfcl evaluate`. */
export const runEvaluate: CommandRunner<EvaluateOptions> = (options, io) => runEvaluateCommand(options, io);

export const DEFAULT_RUNNERS: CliRunners = { runGenerate, runEvaluate };

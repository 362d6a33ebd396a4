/**
 * The `bfcl` program as a function, and the one place where errors become exit codes:
 * 0 success, 2 usage errors (bad flags, unknown categories), 1 everything else. Commands report
 * outcomes of their own through `CliOutcome`: `evaluate` 3 (an accuracy gate missed); `generate` 4
 * (entries ended as errors), 5 (it stopped by itself: first requests refused, circuit breaker),
 * 130/143/129 (interrupted by SIGINT/SIGTERM/SIGHUP); see generate-command.ts.
 */

import { CommanderError } from 'commander';

import { BfclError } from '../util/errors.js';
import { type CliIo, isDrained, processIo } from './io.js';
import { type CliOutcome, buildProgram } from './program.js';
import { type CliRunners, DEFAULT_RUNNERS } from './runners.js';

/** Exit code of a usage error (bad flag, unknown command or category). */
export const USAGE_EXIT_CODE = 2;

/**
 * Run the CLI on `argv` (arguments after the program name) and resolve to its exit code.
 * Never exits the process; all output goes to `io`.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo = processIo(),
  runners: CliRunners = DEFAULT_RUNNERS,
): Promise<number> {
  const outcome: CliOutcome = { exitCode: 0 };
  const program = buildProgram(io, runners, outcome);
  if (argv.length === 0) {
    io.stdout(program.helpInformation());
    return 0;
  }
  // `bfcl --version` as most CLIs have it; the reference's own form is the `version` command.
  const args = argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V') ? ['version'] : [...argv];
  try {
    await program.parseAsync(args, { from: 'user' });
    return outcome.exitCode;
  } catch (e) {
    return exitCodeOf(e, io);
  }
}

/** Report an error on stderr (commander has already printed its own) and choose the exit code. */
function exitCodeOf(e: unknown, io: CliIo): number {
  if (e instanceof CommanderError) {
    // Help and version exit with 0; every other commander error is a usage error.
    return e.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
  }
  if (e instanceof BfclError) {
    io.stderr(`bfcl: error: ${e.message}\n`);
    return e.exitCode;
  }
  const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
  io.stderr(`bfcl: internal error: ${detail}\n`);
  return 1;
}

/**
 * What the `bfcl` binary does with its arguments (after the program name): exits with runCli's
 * code. Its entry point (main.ts) has loaded `.env` already.
 */
export async function runBinary(argv: readonly string[]): Promise<void> {
  process.exitCode = await runCli(argv);
  // Leave once the output is flushed, even if a library keeps an idle handle open (keep-alive sockets).
  // Writes to pipes are asynchronous on macOS, so with output still queued node drains it first.
  if (isDrained(process.stdout) && isDrained(process.stderr)) process.exit();
}

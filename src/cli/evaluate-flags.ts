/** `bfcl evaluate`'s flags: commander wiring only; the work is `runners.runEvaluate`. */

import { type Command, Option } from 'commander';

import { parseAccuracyGates } from '../inspect/accuracy-gates.js';
import type { EvaluateOptions } from '../spec/options.js';
import { dataDirOption, listOption } from './command-options.js';
import type { EvaluateReportOptions } from './evaluate-command.js';
import type { CliIo } from './io.js';
import { type EvaluateFlags, parsePositiveInt, toEvaluateOptions } from './option-parsers.js';
import type { CliOutcome } from './program.js';
import type { CliRunners } from './runners.js';

/** Add `evaluate` to the program. */
export function registerEvaluateCommand(program: Command, io: CliIo, runners: CliRunners, outcome: CliOutcome): void {
  program
    .command('evaluate')
    .description('Evaluate the results of one or more models on the selected test categories.')
    .addOption(listOption('--model <names>', 'Model names, comma-separated; repeatable (default: every model in the result directory).'))
    .addOption(listOption('--test-category <names>', 'Test categories or groups, comma-separated; repeatable (default: all).'))
    .option('--result-dir <dir>', 'Result directory, relative to the project root (default: result).')
    .option('--score-dir <dir>', 'Score directory, relative to the project root (default: score).')
    .option('--partial-eval', 'Evaluate only the entries present in the result files, without failing on missing ids.')
    .addOption(
      new Option('--decoder <mode>', 'Decode results as function-calling or prompting output (default: from the model registry, else guessed from the results).').choices(['fc', 'prompting']),
    )
    .option('--underscore-to-dot', "Expect '_' in place of '.' in function names (a model that cannot emit '.'; default: the registry's setting, or on for unknown FC models).")
    .option('--no-underscore-to-dot', "Expect function names exactly as documented, dots included.")
    // Accepted so that scripts written for earlier versions still run (evaluate is single-threaded).
    .addOption(new Option('--num-threads <n>').argParser(parsePositiveInt).hideHelp())
    .addOption(dataDirOption())
    .addOption(listOption('--min-accuracy <thresholds>', 'CI gate: minimum accuracy, overall (0.8 or 80%) or per category/group (multi_turn=0.5); comma-separated, repeatable. Exit code 3 when one is missed.'))
    .option('--json', 'Print a JSON summary (per model and category: accuracy, counts, error classes, gates) on stdout instead of the table.')
    .option(
      '--allow-data-mismatch',
      "Evaluate even when the results' run manifest (bfcl_run_manifest.json) names other dataset files than the ones evaluated against (default: stop with exit code 2).",
    )
    .action(async (flags: EvaluateFlags & { minAccuracy?: string[]; json?: boolean; allowDataMismatch?: boolean }) => {
      const options: EvaluateOptions & EvaluateReportOptions = {
        ...toEvaluateOptions(flags, io),
        minAccuracy: flags.minAccuracy === undefined ? undefined : parseAccuracyGates(flags.minAccuracy),
        json: flags.json,
        ...(flags.allowDataMismatch === true && { allowDataMismatch: true }),
      };
      outcome.exitCode = await runners.runEvaluate(options, io);
    });
}

/**
 * `bfcl diff A B`: compare two runs (model names, or model score/result folders) per category.
 */

import { resolve } from 'node:path';

import { type Command, Option } from 'commander';

import { openCommandDataset } from './command-dataset.js';
import type { DecoderMode } from '../evaluate/model-decoder.js';
import { diffRuns, renderRunDiff, runDiffToJson } from '../inspect/run-diff.js';
import { loadRunVerdicts, locateRun } from '../inspect/run-verdicts.js';
import { createTextStyle, shouldColor, type ColorMode } from '../inspect/text-style.js';
import type { Category } from '../spec/categories.js';
import { modelSettingsResolver } from './evaluate-command.js';
import type { CliIo } from './io.js';
import { collectList, dataDirOf, expandTestCategories, projectRootOf } from './option-parsers.js';
import type { CliOutcome } from './program.js';

/** Validated options of `bfcl diff`. */
export interface DiffOptions {
  readonly a: string;
  readonly b: string;
  /** Only these categories (undefined: every category of either run). */
  readonly testCategories: readonly Category[] | undefined;
  readonly scoreDir: string;
  readonly resultDir: string;
  readonly dataDir: string;
  /** Read score files or evaluate result files (undefined: score files when both exist). */
  readonly source: 'scores' | 'results' | undefined;
  readonly decoder: DecoderMode | undefined;
  readonly json: boolean;
  readonly color: ColorMode;
  readonly cwd: string;
}

/** Print the comparison; exit code 0. */
export async function runDiffCommand(options: DiffOptions, io: CliIo): Promise<number> {
  const places = { cwd: options.cwd, scoreDir: options.scoreDir, resultDir: options.resultDir };
  const locationA = locateRun(options.a, places, options.source);
  const locationB = locateRun(options.b, places, options.source);
  const dataset = openCommandDataset(options.dataDir, io);
  const categories = options.testCategories === undefined ? undefined : new Set(options.testCategories);
  const resolveSettings = modelSettingsResolver(options.decoder);
  const diff = diffRuns(
    loadRunVerdicts(locationA, dataset, resolveSettings, categories, io.stderr),
    loadRunVerdicts(locationB, dataset, resolveSettings, categories, io.stderr),
  );
  if (options.json) {
    io.stdout(JSON.stringify(runDiffToJson(diff), null, 2) + '\n');
  } else {
    const isTerminal = io.env === process.env && process.stdout.isTTY === true;
    io.stdout(renderRunDiff(diff, createTextStyle(shouldColor(options.color, isTerminal, io.env))));
  }
  return 0;
}

/** Raw values commander collects for `diff`. */
interface DiffFlags {
  testCategory?: string[];
  scoreDir?: string;
  resultDir?: string;
  dataDir?: string;
  source?: 'scores' | 'results';
  decoder?: DecoderMode;
  json?: boolean;
  color: ColorMode;
}

/** Add `bfcl diff` to the program. */
export function registerDiffCommand(program: Command, io: CliIo, outcome: CliOutcome): void {
  program
    .command('diff')
    .description('Compare two runs per category: accuracy change, entries that flipped, McNemar\'s exact p-value.')
    .argument('<a>', 'The baseline: a model name, or a model\'s score or result folder.')
    .argument('<b>', 'The run compared with it, in the same forms.')
    .addOption(new Option('--test-category <names>', 'Only these categories or groups, comma-separated; repeatable (default: every category of either run).').argParser(collectList))
    .option('--score-dir <dir>', 'Where model names are looked up first, relative to the project root (default: score).')
    .option('--result-dir <dir>', 'Where model names are looked up next, relative to the project root (default: result).')
    .addOption(new Option('--source <kind>', 'Read score files, or evaluate result files in memory (default: score files when found).').choices(['scores', 'results']))
    .addOption(new Option('--decoder <mode>', 'Decoder for evaluating result files (default: as evaluate does).').choices(['fc', 'prompting']))
    .option('--json', 'Print the comparison as JSON.')
    .addOption(new Option('--color <when>', 'Colour the output.').choices(['auto', 'always', 'never']).default('auto'))
    .addOption(new Option('--data-dir <dir>', 'BFCL dataset directory, to know which entries were evaluated (env: BFCL_DATA_DIR; default: the package data/).'))
    .action(async (a: string, b: string, flags: DiffFlags) => {
      const projectRoot = projectRootOf(io);
      outcome.exitCode = await runDiffCommand(
        {
          a,
          b,
          testCategories: flags.testCategory === undefined ? undefined : expandTestCategories(flags.testCategory),
          scoreDir: resolve(projectRoot, flags.scoreDir ?? 'score'),
          resultDir: resolve(projectRoot, flags.resultDir ?? 'result'),
          dataDir: dataDirOf(flags.dataDir, io),
          source: flags.source,
          decoder: flags.decoder,
          json: flags.json ?? false,
          color: flags.color,
          cwd: io.cwd,
        },
        io,
      );
    });
}

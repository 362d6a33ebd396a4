/**
 * `bfcl show`: one result entry as a readable conversation with its verdict. The entry is found by
 * model and id (`--model M --id ID`, under the result directory) or in a given result file.
 */

import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

import { type Command, Option } from 'commander';

import { openCommandDataset } from './command-dataset.js';
import { modelDecoder, type DecoderMode } from '../evaluate/model-decoder.js';
import { formatResultFileWarning, readResultFile } from '../evaluate/read-results.js';
import { renderEntryReport } from '../inspect/render-entry.js';
import { scoreFileOfEntry } from '../inspect/score-lookup.js';
import { buildEntryReport } from '../inspect/show-entry.js';
import { createTextStyle, shouldColor, type ColorMode } from '../inspect/text-style.js';
import type { SimContext } from '../sim/simulated-api.js';
import { extractTestCategoryFromId, getDirectoryStructureById, getFileNameByCategory } from '../spec/categories.js';
import { UsageError } from '../util/errors.js';
import { modelSettingsResolver } from './evaluate-command.js';
import type { CliIo } from './io.js';
import { dataDirOf, projectRootOf } from './option-parsers.js';
import type { CliOutcome } from './program.js';

/** Validated options of `bfcl show`. */
export interface ShowOptions {
  readonly id: string;
  /** Model name (registry name; `/` becomes `_` for the folder). */
  readonly model: string | undefined;
  /** A result file given directly (absolute). */
  readonly resultFile: string | undefined;
  readonly resultDir: string;
  readonly scoreDir: string;
  readonly dataDir: string;
  readonly decoder: DecoderMode | undefined;
  readonly color: ColorMode;
}

/** Where the entry's result is: the result file, and the model folder name when it is known. */
function locateResult(options: ShowOptions): { resultFile: string; modelDir: string | undefined } {
  const category = extractTestCategoryFromId(options.id);
  const groupDir = getDirectoryStructureById(options.id);
  if (options.resultFile !== undefined) {
    if (!existsSync(options.resultFile)) throw new UsageError(`No such result file: ${options.resultFile}`);
    // `<result dir>/<model>/<group dir>/<file>`: the model is the folder above the group folders.
    const parent = dirname(options.resultFile);
    const inferred = parent.endsWith(groupDir) ? basename(resolve(parent, ...groupDir.split('/').map(() => '..'))) : undefined;
    return { resultFile: options.resultFile, modelDir: options.model?.replaceAll('/', '_') ?? inferred };
  }
  if (options.model === undefined) throw new UsageError('Name the entry\'s run with --model (or give --result-file).');
  const modelDir = options.model.replaceAll('/', '_');
  const resultFile = join(options.resultDir, modelDir, groupDir, getFileNameByCategory(category, 'result'));
  if (!existsSync(resultFile)) throw new UsageError(`No result file for ${options.id} of ${options.model}: ${resultFile} does not exist.`);
  return { resultFile, modelDir };
}

/** Whether the CLI's stdout is the process's own terminal (in-process test runs bring their own env). */
function isTerminal(io: CliIo): boolean {
  return io.env === process.env && process.stdout.isTTY === true;
}

/** Print the entry; exit code 0. */
export async function runShowCommand(options: ShowOptions, io: CliIo): Promise<number> {
  const { resultFile, modelDir } = locateResult(options);
  const dataset = openCommandDataset(options.dataDir, io);
  const context: SimContext = { longContext: dataset.longContext() };
  const content = readResultFile(resultFile);
  // The same warning evaluate, report and diff give for this file, on stderr (stdout is the entry).
  const warning = formatResultFileWarning(content);
  if (warning !== undefined) io.stderr(warning);
  const settings = modelSettingsResolver(options.decoder)(modelDir ?? '', content.entries.slice(0, 50));
  const report = buildEntryReport(
    {
      id: options.id,
      content,
      model: modelDir,
      scoreFile: modelDir === undefined ? undefined : scoreFileOfEntry(options.scoreDir, modelDir, options.id),
      dataset,
      decoder: modelDecoder(settings.decoderMode),
    },
    context,
  );
  const style = createTextStyle(shouldColor(options.color, isTerminal(io), io.env));
  io.stdout(renderEntryReport(report, style));
  return 0;
}

/** Raw values commander collects for `show`. */
interface ShowFlags {
  id: string;
  model?: string;
  resultFile?: string;
  resultDir?: string;
  scoreDir?: string;
  dataDir?: string;
  decoder?: DecoderMode;
  color: ColorMode;
}

/** Add `bfcl show` to the program. */
export function registerShowCommand(program: Command, io: CliIo, outcome: CliOutcome): void {
  program
    .command('show')
    .description('Show one result entry as a conversation (turns, calls, tool results, state changes) with its verdict.')
    .requiredOption('--id <id>', 'The entry id, e.g. multi_turn_base_12 or simple_python_3.')
    .option('--model <name>', 'Model whose result to show (its folder under the result directory).')
    .option('--result-file <file>', 'A result file to read instead (relative to the current directory).')
    .option('--result-dir <dir>', 'Result directory, relative to the project root (default: result).')
    .option('--score-dir <dir>', 'Score directory for the verdict, relative to the project root (default: score).')
    .addOption(new Option('--decoder <mode>', 'Decode results as function-calling or prompting output (default: as evaluate does).').choices(['fc', 'prompting']))
    .addOption(new Option('--color <when>', 'Colour the output.').choices(['auto', 'always', 'never']).default('auto'))
    .addOption(new Option('--data-dir <dir>', 'BFCL dataset directory (env: BFCL_DATA_DIR; default: the package data/).'))
    .action(async (flags: ShowFlags) => {
      const projectRoot = projectRootOf(io);
      outcome.exitCode = await runShowCommand(
        {
          id: flags.id,
          model: flags.model,
          resultFile: flags.resultFile === undefined ? undefined : resolve(io.cwd, flags.resultFile),
          resultDir: resolve(projectRoot, flags.resultDir ?? 'result'),
          scoreDir: resolve(projectRoot, flags.scoreDir ?? 'score'),
          dataDir: dataDirOf(flags.dataDir, io),
          decoder: flags.decoder,
          color: flags.color,
        },
        io,
      );
    });
}

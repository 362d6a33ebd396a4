/**
 * `bfcl ground-truth`: the reference's ground-truth conversation visualizer as a command, for any
 * multi-turn categories and ids. One JSON Lines file per category, `<category>_conversation.json`.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { type Command, Option } from 'commander';

import { openCommandDataset } from './command-dataset.js';
import {
  buildGroundTruthConversation,
  groundTruthConversationFileName,
  renderGroundTruthConversationLine,
} from '../inspect/ground-truth-conversation.js';
import type { SimContext } from '../sim/simulated-api.js';
import type { PossibleAnswer, TestEntry } from '../spec/schemas.js';
import { type Category, MULTI_TURN_CATEGORY, extractTestCategoryFromId, isCategory, isMultiTurn } from '../spec/categories.js';
import { UsageError } from '../util/errors.js';
import type { CliIo } from './io.js';
import { collectList, dataDirOf, expandTestCategories, projectRootOf } from './option-parsers.js';
import type { CliOutcome } from './program.js';

/** Validated options of `bfcl ground-truth`. */
export interface GroundTruthOptions {
  /** Categories from `--test-category` (expanded); only multi-turn ones are allowed. */
  readonly testCategories: readonly Category[] | undefined;
  /** Entry ids from `--id`; when given, only these entries are written. */
  readonly ids: readonly string[] | undefined;
  readonly outDir: string;
  readonly dataDir: string;
}

/** The categories to write and, per category, the ids wanted (undefined: all). */
function planCategories(options: GroundTruthOptions): Map<Category, Set<string> | undefined> {
  const plan = new Map<Category, Set<string> | undefined>();
  if (options.ids !== undefined && options.ids.length > 0) {
    for (const id of options.ids) {
      const category = extractTestCategoryFromId(id);
      if (!isCategory(category) || !isMultiTurn(category)) {
        throw new UsageError(`Ground-truth conversations exist only for multi-turn entries; "${id}" is not one.`);
      }
      if (options.testCategories !== undefined && !options.testCategories.includes(category)) {
        throw new UsageError(`Entry "${id}" is not in the requested test categories.`);
      }
      const ids = plan.get(category) ?? new Set<string>();
      ids.add(id);
      plan.set(category, ids);
    }
    // Files in the usual category order, whatever the order of the ids.
    return new Map(MULTI_TURN_CATEGORY.filter((c) => plan.has(c)).map((c) => [c, plan.get(c)]));
  }
  const requested = options.testCategories ?? MULTI_TURN_CATEGORY;
  const others = requested.filter((c) => !isMultiTurn(c));
  if (others.length > 0) {
    throw new UsageError(
      `Ground-truth conversations exist only for multi-turn categories (their ground truth is executable); not for: ${others.join(', ')}.`,
    );
  }
  for (const category of requested) plan.set(category, undefined);
  return plan;
}

/** Write the conversations; ground-truth calls that report errors are listed on stderr. */
export async function runGroundTruthCommand(options: GroundTruthOptions, io: CliIo): Promise<number> {
  const plan = planCategories(options);
  const dataset = openCommandDataset(options.dataDir, io);
  const context: SimContext = { longContext: dataset.longContext() };
  const written: { file: string; count: number }[] = [];
  let errorCount = 0;

  // Validate every id before writing anything.
  const work: { category: Category; entries: TestEntry[]; answers: PossibleAnswer[] }[] = [];
  for (const [category, wanted] of plan) {
    const entries = dataset.loadTestEntries(category);
    const answers = dataset.loadPossibleAnswers(category);
    if (wanted !== undefined) {
      const known = new Set(entries.map((e) => e.id));
      const unknown = [...wanted].filter((id) => !known.has(id));
      if (unknown.length > 0) throw new UsageError(`Unknown entry id(s) in ${category}: ${unknown.join(', ')} (dataset: ${dataset.dir})`);
    }
    work.push({ category, entries, answers });
  }

  mkdirSync(options.outDir, { recursive: true });
  for (const { category, entries, answers } of work) {
    const wanted = plan.get(category);
    const answerById = new Map(answers.map((a) => [a.id, a]));
    const lines: string[] = [];
    // BFCL parity: entries and answers are paired by position (zip), in dataset order.
    entries.forEach((entry, i) => {
      if (wanted !== undefined && !wanted.has(entry.id)) return;
      const answer = answers[i]?.id === entry.id ? answers[i]! : answerById.get(entry.id);
      if (answer === undefined) {
        io.stderr(`${entry.id}: no ground truth in possible_answer, skipped\n`);
        return;
      }
      const conversation = buildGroundTruthConversation(entry, answer, context);
      lines.push(renderGroundTruthConversationLine(conversation.line) + '\n');
      for (const error of conversation.errors) {
        errorCount++;
        io.stderr(`ground truth reports an error: ${error.id} turn ${error.turn}: ${error.call} -> ${error.result}\n`);
      }
    });
    const file = join(options.outDir, groundTruthConversationFileName(category));
    writeFileSync(file, lines.join(''));
    written.push({ file, count: lines.length });
  }
  for (const { file, count } of written) io.stdout(`Wrote ${count} conversation${count === 1 ? '' : 's'} to ${file}\n`);
  if (errorCount > 0) io.stderr(`${errorCount} ground-truth call${errorCount === 1 ? '' : 's'} reported an error (listed above).\n`);
  return 0;
}

/**
 * The multi-turn categories of `--test-category`: groups (`all`, `multi_turn`...) keep their
 * multi-turn members; a single-turn category named on its own is a usage error.
 */
function multiTurnCategoriesOf(names: readonly string[]): Category[] {
  const others = names.filter((name) => isCategory(name) && !isMultiTurn(name));
  if (others.length > 0) {
    throw new UsageError(
      `Ground-truth conversations exist only for multi-turn categories (their ground truth is executable); not for: ${others.join(', ')}.`,
    );
  }
  const categories = expandTestCategories(names).filter((c) => isMultiTurn(c));
  if (categories.length === 0) throw new UsageError(`No multi-turn category in --test-category ${names.join(',')}.`);
  return categories;
}

/** Raw values commander collects for `ground-truth`. */
interface GroundTruthFlags {
  testCategory?: string[];
  id?: string[];
  outDir?: string;
  dataDir?: string;
}

/** Add `bfcl ground-truth` to the program. */
export function registerGroundTruthCommand(program: Command, io: CliIo, outcome: CliOutcome): void {
  program
    .command('ground-truth')
    .description('Execute the multi-turn ground truth on the simulated APIs and write each conversation (the reference\'s visualizer).')
    .addOption(new Option('--test-category <names>', 'Multi-turn categories or groups, comma-separated; repeatable (default: multi_turn).').argParser(collectList))
    .addOption(new Option('--id <ids>', 'Only these entry ids, comma-separated; repeatable.').argParser(collectList))
    .option('--out-dir <dir>', 'Output folder, relative to the project root (default: ground_truth_conversation).')
    .addOption(new Option('--data-dir <dir>', 'BFCL dataset directory (env: BFCL_DATA_DIR; default: the package data/).'))
    .action(async (flags: GroundTruthFlags) => {
      const projectRoot = projectRootOf(io);
      outcome.exitCode = await runGroundTruthCommand(
        {
          testCategories: flags.testCategory === undefined ? undefined : multiTurnCategoriesOf(flags.testCategory),
          ids: flags.id,
          outDir: resolve(projectRoot, flags.outDir ?? 'ground_truth_conversation'),
          dataDir: dataDirOf(flags.dataDir, io),
        },
        io,
      );
    });
}

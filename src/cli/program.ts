/**
 * The `bfcl` command tree (commander). Wiring only: flags → validated options → one runner call.
 * Errors propagate to `runCli` in main.ts, the one place that turns them into exit codes.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { Command } from 'commander';

import { packageVersion } from '../data/data-dir.js';
import { datasetEntryCounter } from '../data/dataset-size.js';
import { openDataset } from '../data/dataset.js';
import { listResultFiles } from '../data/result-files.js';
import {
  ALL_CATEGORIES,
  TEST_COLLECTION_MAPPING,
  getCategoryInfo,
  type Category,
} from '../spec/categories.js';
import { MODEL_REGISTRY, usesFcInference } from '../models/model-registry.js';
import { renderScoreTable } from '../report/score-table.js';
import type { CliIo } from './io.js';
import { dataDirOption } from './command-options.js';
import { dataDirOf, projectRootOf } from './option-parsers.js';
import { type CliRunners, DEFAULT_RUNNERS } from './runners.js';
import { registerDiffCommand } from './diff-command.js';
import { registerEvaluateCommand } from './evaluate-flags.js';
import { registerGenerateCommand } from './generate-flags.js';
import { registerGroundTruthCommand } from './ground-truth-command.js';
import { registerShowCommand } from './show-command.js';
import { registerReportCommand } from './report-command.js';
import { registerJudgeCommand } from './judge-flags.js';

/** Where a command's exit code is left for `runCli` (commander does not return action results). */
export interface CliOutcome {
  exitCode: number;
}

/** Build the program. Output goes to `io`; commander errors are thrown, never `process.exit`ed. */
export function buildProgram(io: CliIo, runners: CliRunners = DEFAULT_RUNNERS, outcome: CliOutcome = { exitCode: 0 }): Command {
  const program = new Command('bfcl')
    .description('Berkeley Function Calling Leaderboard (v4) in TypeScript: generate model responses and evaluate them.')
    .helpOption('-h, --help', 'Show help.')
    .helpCommand(false)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
    })
    .showHelpAfterError('(run "bfcl <command> --help" for usage)')
    .showSuggestionAfterError(true);

  // Command order follows the reference's help listing.
  program
    .command('models')
    .description('List available models.')
    .action(() => {
      io.stdout(formatModels());
    });

  program
    .command('test-categories')
    .description('List the test categories (with their entry counts in the dataset) and the groups that --test-category accepts.')
    .addOption(dataDirOption())
    .action((flags: { dataDir?: string }) => {
      const dataset = openDataset(dataDirOf(flags.dataDir, io), io.cwd);
      io.stdout(formatTestCategories(datasetEntryCounter(dataset), dataset.dir));
    });

  registerGenerateCommand(program, io, runners, outcome);

  program
    .command('results')
    .description('List the result files available for evaluation.')
    .option('--result-dir <dir>', 'Result directory, relative to the project root (default: result).')
    .action((flags: { resultDir?: string }) => {
      const resultDir = resolve(projectRootOf(io), flags.resultDir ?? 'result');
      io.stdout(formatResults(resultDir));
    });

  registerEvaluateCommand(program, io, runners, outcome);

  program
    .command('scores')
    .description('Show the leaderboard of the score directory.')
    .option('--score-dir <dir>', 'Score directory, relative to the project root (default: score).')
    .action((flags: { scoreDir?: string }) => {
      const scoreDir = resolve(projectRootOf(io), flags.scoreDir ?? 'score');
      const overall = join(scoreDir, 'data_overall.csv');
      if (!existsSync(overall)) {
        io.stderr(`bfcl scores: no ${overall}; run "bfcl evaluate" first.\n`);
        outcome.exitCode = 1;
        return;
      }
      io.stdout(renderScoreTable(readFileSync(overall, 'utf8')) + '\n');
    });

  registerGroundTruthCommand(program, io, outcome);

  registerShowCommand(program, io, outcome);

  registerDiffCommand(program, io, outcome);

  registerReportCommand(program, io, outcome);

  registerJudgeCommand(program, io, outcome);

  program
    .command('version')
    .description('Show the bfcl-ts version.')
    .action(() => {
      io.stdout(`bfcl-ts version ${packageVersion()} (Berkeley Function Calling Leaderboard v4)\n`);
    });

  return program;
}

/**
 * Every category (with its folder, data file, whether it has ground truth and, given a counter, its
 * number of entries in the dataset at `dataDir`), then every group.
 */
export function formatTestCategories(entries?: (category: Category) => number, dataDir?: string): string {
  const width = Math.max(...ALL_CATEGORIES.map((c) => c.length));
  const lines = [`Test categories (${ALL_CATEGORIES.length})${dataDir === undefined ? '' : `, entries in ${dataDir}`}:`];
  for (const category of ALL_CATEGORIES) {
    const info = getCategoryInfo(category);
    const answers = info.isFormatSensitivity ? 'derived' : info.hasPossibleAnswer ? 'yes' : 'no';
    const count = entries === undefined ? '' : `  entries: ${countOrAbsent(entries, category)}`;
    lines.push(`  ${category.padEnd(width)}  ${info.directory.padEnd(22)}  ${info.dataFile.padEnd(40)}  ground truth: ${answers.padEnd(7)}${count}`.trimEnd());
  }
  lines.push('', `Groups (${TEST_COLLECTION_MAPPING.size}):`);
  const groupWidth = Math.max(...[...TEST_COLLECTION_MAPPING.keys()].map((g) => g.length));
  for (const [group, categories] of TEST_COLLECTION_MAPPING) {
    lines.push(`  ${group.padEnd(groupWidth)}  ${categories.join(', ')}`);
  }
  return lines.join('\n') + '\n';
}

/** A category's entry count, or `-` when its files are not in the dataset (a count cannot be had). */
function countOrAbsent(entries: (category: Category) => number, category: Category): string {
  try {
    const n = entries(category);
    return n === 0 ? '-' : String(n);
  } catch {
    return '-';
  }
}

/** Result files found under `resultDir`, one line per file. */
export function formatResults(resultDir: string): string {
  const files = listResultFiles(resultDir);
  if (files.length === 0) return `No result files found in ${resultDir}\n`;
  const modelWidth = Math.max('Model'.length, ...files.map((f) => f.model.length));
  const categoryWidth = Math.max('Category'.length, ...files.map((f) => f.category.length));
  const lines = [`Result files in ${resultDir}:`, `${'Model'.padEnd(modelWidth)}  ${'Category'.padEnd(categoryWidth)}  ${'Entries'.padStart(7)}  File`];
  for (const f of files) {
    lines.push(`${f.model.padEnd(modelWidth)}  ${f.category.padEnd(categoryWidth)}  ${String(f.entries).padStart(7)}  ${f.relativePath}`);
  }
  return lines.join('\n') + '\n';
}

/** `bfcl models`: every registry name with its mode, handler family and display name. */
function formatModels(): string {
  const rows = [...MODEL_REGISTRY.values()].map((m) => [m.registryName, usesFcInference(m) ? 'FC' : 'prompt', m.family, m.displayName]);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell)).join('  '));
  return `${lines.join('\n')}\n\n${rows.length} models. Any other id runs through an OpenAI-compatible endpoint: --model openai-compatible/<model id>.\n`;
}

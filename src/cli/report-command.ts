/**
 * `bfcl report`: one self-contained HTML file for a score folder (and, optionally, the result
 * folder behind it). Flags → options here; the reading is `collectReportData`, the page `renderReportHtml`.
 */

import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { type Command, InvalidArgumentError, Option } from 'commander';

import { datasetEntryCounter } from '../data/dataset-size.js';
import { openCommandDataset } from './command-dataset.js';
import { collectReportData } from '../report/html/collect-report.js';
import { DEFAULT_MAX_TEXT_CHARS } from '../report/html/failure-view.js';
import { renderReportHtml } from '../report/html/render-html.js';
import { UsageError } from '../util/errors.js';
import type { CliIo } from './io.js';
import { modelMetadataResolver } from './model-metadata.js';
import { dataDirOf, projectRootOf } from './option-parsers.js';
import type { CliOutcome } from './program.js';

/** Raw values commander collects for `report`. */
export interface ReportFlags {
  scoreDir?: string;
  resultDir?: string;
  out?: string;
  title?: string;
  maxText?: number;
  dataDir?: string;
}

/** Validated options of `bfcl report`; paths are absolute. */
export interface ReportOptions {
  readonly scoreDir: string;
  readonly resultDir: string | undefined;
  /** The HTML file to write (default `<score dir>/report.html`). */
  readonly out: string;
  readonly title: string | undefined;
  readonly maxTextChars: number;
  /** Dataset whose category sizes weigh missing categories in the summaries, as `evaluate` does. */
  readonly dataDir: string;
  /**
   * Where the models' `bfcl_model_metadata.json` files are looked for: `--result-dir`, else the
   * default result folder, as `evaluate` finds them (so the report names models as the CSVs do).
   */
  readonly metadataResultDir: string;
  /** Time stamp shown in the page; null leaves it out (reproducible output). */
  readonly generatedAt: string | null;
}

const DEFAULT_REPORT_FILE = 'report.html';

/** Options from the flags: relative paths against the project root, as `evaluate` resolves them. */
export function toReportOptions(flags: ReportFlags, io: CliIo, now: Date | null = new Date()): ReportOptions {
  const root = projectRootOf(io);
  const scoreDir = resolve(root, flags.scoreDir ?? 'score');
  return {
    scoreDir,
    resultDir: flags.resultDir === undefined ? undefined : resolve(root, flags.resultDir),
    out: flags.out === undefined ? resolve(scoreDir, DEFAULT_REPORT_FILE) : resolve(root, flags.out),
    title: flags.title,
    maxTextChars: flags.maxText ?? DEFAULT_MAX_TEXT_CHARS,
    dataDir: dataDirOf(flags.dataDir, io),
    metadataResultDir: resolve(root, flags.resultDir ?? 'result'),
    generatedAt: now === null ? null : now.toISOString(),
  };
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** Build and write the report; resolves to the exit code. */
export async function runReportCommand(options: ReportOptions, io: CliIo): Promise<number> {
  if (!isDirectory(options.scoreDir)) throw new UsageError(`Score folder not found: ${options.scoreDir} (run "bfcl evaluate" first, or pass --score-dir)`);
  if (options.resultDir !== undefined && !isDirectory(options.resultDir)) throw new UsageError(`Result folder not found: ${options.resultDir}`);
  const data = collectReportData({
    scoreDir: options.scoreDir,
    resultDir: options.resultDir,
    datasetSize: datasetEntryCounter(openCommandDataset(options.dataDir, io)),
    metadata: modelMetadataResolver(options.metadataResultDir),
    title: options.title,
    generatedAt: options.generatedAt,
    maxTextChars: options.maxTextChars,
  });
  if (data.models.length === 0) {
    io.stderr(`bfcl report: no score files under ${options.scoreDir}\n`);
    return 1;
  }
  const html = renderReportHtml(data);
  mkdirSync(dirname(options.out), { recursive: true });
  writeFileSync(options.out, html, 'utf8');
  // Result-file warnings are worded as in every command that reads result files ("Warning: <file>: ...").
  for (const warning of data.warnings) io.stderr(warning.startsWith('Warning: ') ? `${warning}\n` : `bfcl report: warning: ${warning}\n`);
  const megabytes = (Buffer.byteLength(html, 'utf8') / 1e6).toFixed(1);
  io.stdout(`Wrote ${options.out} (${data.models.length} models, ${data.categories.length} categories, ${data.failures.length} failed entries, ${megabytes} MB)\n`);
  return 0;
}

/** `--max-text`: a whole number of characters, at least 100. */
function parseMaxText(value: string): number {
  const n = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 100) {
    throw new InvalidArgumentError('Expected a whole number of characters, at least 100.');
  }
  return n;
}

/** Add `bfcl report` to the program. */
export function registerReportCommand(program: Command, io: CliIo, outcome: CliOutcome): void {
  program
    .command('report')
    .description('Write one self-contained HTML report of a score folder: accuracy tables and charts, cost and latency, every failed entry.')
    .option('--score-dir <dir>', 'Score directory, relative to the project root (default: score).')
    .option('--result-dir <dir>', 'Result directory the scores were made from: adds cost/latency from the result files and per-entry usage.')
    .option('--out <file>', 'HTML file to write, relative to the project root (default: <score dir>/report.html).')
    .option('--title <text>', 'Title of the page (default: "BFCL report").')
    .option('--max-text <chars>', `Longest text kept per value of a failed entry (default: ${DEFAULT_MAX_TEXT_CHARS}).`, parseMaxText)
    .addOption(new Option('--data-dir <dir>', 'BFCL dataset directory, for the category sizes the summaries weigh (env: BFCL_DATA_DIR; default: the package data/).'))
    .action(async (flags: ReportFlags) => {
      outcome.exitCode = await runReportCommand(toReportOptions(flags, io), io);
    });
}

/**
 * Everything the HTML report shows, read from a score folder (and optionally the result folder the
 * scores were made from): per-model category scores and leaderboard summaries, cost and latency,
 * the failure lines of every score file, and the error-class counts.
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

import { formatResultFileWarning, readResultFile } from '../../evaluate/read-results.js';
import { ERROR_CLASSES, classifyFailure, errorTypeOf } from '../../evaluate/error-taxonomy.js';
import { listResultFiles } from '../../data/result-files.js';
import { parseJsonLossless } from '../../py/json.js';
import { isDict, type PyDict } from '../../py/value.js';
import { ALL_CATEGORIES, extractTestCategoryFromFileName, type Category } from '../../spec/categories.js';
import { addCostLatency, emptyCostLatency, summarizeCostLatency, type CostLatencyData } from '../cost-latency.js';
import { NOT_AVAILABLE, pyNumberStr, type CsvCell } from '../csv-writer.js';
import { summarizeModel, type CategoryScore, type ModelMetadata } from '../leaderboard.js';
import { parseScoreHeader, walkScoreFiles } from '../score-files.js';
import { parseLeaderboardCsv } from '../score-table.js';
import { TextPool, buildFailureView } from './failure-view.js';
import { collectJudgeCalibrations } from './judge-calibration.js';
import type {
  CategoryScoreView,
  CostLatencyView,
  ErrorClassCounts,
  FailureView,
  ModelView,
  ReportData,
  SummaryView,
} from './report-data.js';

export interface CollectReportOptions {
  readonly scoreDir: string;
  /** Result folder of the run: cost/latency from the result files, and per-entry usage. */
  readonly resultDir?: string | undefined;
  /** Entries of a category in the dataset (a missing category counts as 0 over this many). */
  readonly datasetSize: (category: Category) => number;
  /** Display name and prices of a model directory. */
  readonly metadata: (modelDir: string) => ModelMetadata;
  readonly title?: string | undefined;
  readonly generatedAt?: string | null | undefined;
  /** Longest text kept per value of a failure (see `DEFAULT_MAX_TEXT_CHARS`). */
  readonly maxTextChars?: number | undefined;
}

/** One score file: its category, header and failure lines. */
interface ScoreFileContent {
  readonly category: string;
  readonly header: CategoryScore;
  readonly failures: PyDict[];
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Every readable score file of one model directory; problems go to `warnings`. */
function readModelScoreFiles(modelDir: string, warnings: string[]): ScoreFileContent[] {
  const files: ScoreFileContent[] = [];
  for (const file of walkScoreFiles(modelDir)) {
    const category = extractTestCategoryFromFileName(basename(file));
    if (category === undefined) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    let header: CategoryScore;
    try {
      header = parseScoreHeader(lines[0] ?? '', file);
    } catch (e) {
      warnings.push(`${file}: skipped, ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    const failures: PyDict[] = [];
    lines.slice(1).forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        const value = parseJsonLossless(line);
        if (isDict(value)) failures.push(value);
        else warnings.push(`${file}:${i + 2}: not a JSON object, skipped`);
      } catch (e) {
        warnings.push(`${file}:${i + 2}: invalid JSON, skipped (${e instanceof Error ? e.message : String(e)})`);
      }
    });
    files.push({ category, header, failures });
  }
  return files;
}

/** Model directories of the score folder, in name order. */
function modelDirectories(scoreDir: string): string[] {
  if (!existsSync(scoreDir) || !statSync(scoreDir).isDirectory()) return [];
  return readdirSync(scoreDir)
    .sort(byName)
    .filter((name) => statSync(join(scoreDir, name)).isDirectory());
}

function scoreView(score: CategoryScore): CategoryScoreView {
  return {
    accuracy: Number(score.accuracy),
    correct: score.correctCount === undefined ? null : Number(score.correctCount),
    total: Number(score.totalCount),
  };
}

/** The summary columns of data_overall.csv, computed as the leaderboard does. */
function summariesOf(scores: ReadonlyMap<string, CategoryScore>, datasetSize: (c: Category) => number): SummaryView[] {
  const s = summarizeModel(scores, { datasetSize });
  const view = (label: string, display: number | string): SummaryView => ({ label, accuracy: typeof display === 'number' ? display : null });
  return [
    view('Overall Acc', s.overall.display),
    view('Non-Live AST Acc', s.summaryAstNonLive.display),
    view('Live Acc', s.overallLive.display),
    view('Multi Turn Acc', s.overallMultiTurn.display),
    view('Web Search Acc', s.summaryWebSearch.display),
    view('Memory Acc', s.summaryMemory.display),
    view('Relevance Detection', s.category.get('live_relevance')!.display),
    view('Irrelevance Detection', s.totalIrrelevance.display),
  ];
}

const cellText = (cell: CsvCell): string => (typeof cell === 'string' ? cell : pyNumberStr(cell));

/** What one model's result files hold: cost/latency data, per-category latencies, lines by id. */
interface ModelResults {
  readonly data: CostLatencyData;
  readonly categoryLatency: Record<string, number>;
  readonly entries: Map<string, PyDict>;
}

function sumNumbers(values: readonly (number | bigint)[]): number {
  let total = 0;
  for (const v of values) total += Number(v);
  return total;
}

function readModelResults(resultDir: string, modelDir: string, categories: ReadonlySet<string>, warnings: string[]): ModelResults {
  const data = emptyCostLatency();
  const categoryLatency: Record<string, number> = {};
  const entries = new Map<string, PyDict>();
  for (const info of listResultFiles(resultDir)) {
    if (info.model !== modelDir || !categories.has(info.category)) continue;
    const content = readResultFile(info.file);
    // One warning per file, worded as every command that reads result files words it.
    const warning = formatResultFileWarning(content);
    if (warning !== undefined) warnings.push(warning.trimEnd());
    const lines = content.entries.map((e) => e.line);
    addCostLatency(data, lines);
    const own = emptyCostLatency();
    addCostLatency(own, lines);
    if (own.latency.length > 0) categoryLatency[info.category] = sumNumbers(own.latency) / own.latency.length;
    for (const entry of content.entries) entries.set(entry.id, entry.line);
  }
  return { data, categoryLatency, entries };
}

/** Cost and latency of each model in data_overall.csv (by display name), when the file is there. */
function costLatencyFromCsv(scoreDir: string): Map<string, CostLatencyView> {
  const found = new Map<string, CostLatencyView>();
  const file = join(scoreDir, 'data_overall.csv');
  if (!existsSync(file)) return found;
  const [header = [], ...rows] = parseLeaderboardCsv(readFileSync(file, 'utf8'));
  const column = (name: string): number => header.indexOf(name);
  const model = column('Model');
  const cost = column('Total Cost ($)');
  const mean = column('Latency Mean (s)');
  const std = column('Latency Standard Deviation (s)');
  const p95 = column('Latency 95th Percentile (s)');
  if ([model, cost, mean, std, p95].includes(-1)) return found;
  for (const row of rows) {
    found.set(row[model] ?? '', {
      source: 'data_overall.csv',
      cost: row[cost] ?? NOT_AVAILABLE,
      latencyMean: row[mean] ?? NOT_AVAILABLE,
      latencyStd: row[std] ?? NOT_AVAILABLE,
      latency95: row[p95] ?? NOT_AVAILABLE,
      inputTokens: null,
      outputTokens: null,
      categoryLatency: {},
    });
  }
  return found;
}

const categoryOrder = (c: string): number => {
  const index = (ALL_CATEGORIES as readonly string[]).indexOf(c);
  return index === -1 ? ALL_CATEGORIES.length : index;
};

/** Read the score folder (and result folder) into the report's data. */
export function collectReportData(options: CollectReportOptions): ReportData {
  const warnings: string[] = [];
  const csvCosts = options.resultDir === undefined ? costLatencyFromCsv(options.scoreDir) : new Map<string, CostLatencyView>();
  const models: (ModelView & { readonly order: number; readonly overall: number })[] = [];
  const failures: FailureView[] = [];
  const classCounts: ErrorClassCounts[] = [];
  const seenCategories = new Set<string>();
  const seenClasses = new Set<string>();
  const pool = new TextPool();

  modelDirectories(options.scoreDir).forEach((dir, order) => {
    const files = readModelScoreFiles(join(options.scoreDir, dir), warnings).sort((a, b) => categoryOrder(a.category) - categoryOrder(b.category));
    if (files.length === 0) return;
    const metadata = options.metadata(dir);
    const scores = new Map(files.map((f) => [f.category, f.header] as const));
    const results = options.resultDir === undefined ? undefined : readModelResults(options.resultDir, dir, new Set(scores.keys()), warnings);

    const failureCounts: Record<string, number> = {};
    for (const file of files) {
      seenCategories.add(file.category);
      failureCounts[file.category] = file.failures.length;
      const counts: Record<string, number> = {};
      for (const record of file.failures) {
        const errorClass = classifyFailure(record);
        counts[errorClass] = (counts[errorClass] ?? 0) + 1;
        seenClasses.add(errorClass);
        const id = record.get('id');
        failures.push(
          buildFailureView(record, {
            model: dir,
            category: file.category,
            errorType: errorTypeOf(record),
            errorClass,
            resultEntry: typeof id === 'string' ? results?.entries.get(id) : undefined,
            maxTextChars: options.maxTextChars,
            share: (text) => pool.share(text),
          }),
        );
      }
      if (file.failures.length > 0) classCounts.push({ model: dir, category: file.category, counts });
    }

    let costLatency: CostLatencyView | null = csvCosts.get(metadata.displayName) ?? null;
    if (results !== undefined) {
      const summary = summarizeCostLatency(results.data, metadata);
      costLatency = {
        source: 'result files',
        cost: cellText(summary.cost),
        latencyMean: cellText(summary.latencyMean),
        latencyStd: cellText(summary.latencyStd),
        latency95: cellText(summary.latency95),
        inputTokens: results.data.inputTokens.length > 0 ? sumNumbers(results.data.inputTokens) : null,
        outputTokens: results.data.outputTokens.length > 0 ? sumNumbers(results.data.outputTokens) : null,
        categoryLatency: results.categoryLatency,
      };
    }
    const summaries = summariesOf(scores, options.datasetSize);
    models.push({
      order,
      overall: summaries[0]!.accuracy ?? -1,
      dir,
      name: metadata.displayName,
      scores: Object.fromEntries(files.map((f) => [f.category, scoreView(f.header)])),
      summaries,
      costLatency,
      failureCounts,
    });
  });

  // Best Overall Acc first; ties keep the folder's name order.
  models.sort((a, b) => b.overall - a.overall || a.order - b.order);
  const modelRank = new Map(models.map((m, i) => [m.dir, i]));
  const rankOf = (dir: string): number => modelRank.get(dir) ?? models.length;
  failures.sort((a, b) => rankOf(a.model) - rankOf(b.model) || categoryOrder(a.category) - categoryOrder(b.category));
  classCounts.sort((a, b) => rankOf(a.model) - rankOf(b.model) || categoryOrder(a.category) - categoryOrder(b.category));

  return {
    title: options.title ?? 'BFCL report',
    generatedAt: options.generatedAt ?? null,
    scoreDir: options.scoreDir,
    resultDir: options.resultDir ?? null,
    models: models.map(({ order: _order, overall: _overall, ...model }) => model),
    categories: [...seenCategories].sort((a, b) => categoryOrder(a) - categoryOrder(b)),
    errorClasses: ERROR_CLASSES.filter((c) => seenClasses.has(c)),
    errorClassCounts: classCounts,
    failures,
    sharedTexts: pool.texts,
    judges: collectJudgeCalibrations(options.scoreDir, models.map((m) => m.dir), warnings),
    warnings,
  };
}

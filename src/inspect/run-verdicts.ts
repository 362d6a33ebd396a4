/**
 * Per-entry verdicts of one model's run, from its score files or (evaluated in memory, nothing
 * written) from its result files: the input of `bfcl diff`.
 */

import { existsSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';

import type { BfclDataset } from '../data/dataset.js';
import { listResultFiles } from '../data/result-files.js';
import { evaluateCategory } from '../evaluate/evaluate-category.js';
import { modelDecoder } from '../evaluate/model-decoder.js';
import { formatResultFileWarning, readResultFile } from '../evaluate/read-results.js';
import type { ModelSettingsResolver } from '../evaluate/run-evaluate.js';
import type { SimContext } from '../sim/simulated-api.js';
import {
  extractTestCategoryFromFileName,
  isCategory,
  isChatable,
  isExecutable,
  isMemoryPrereq,
  isSql,
  type Category,
} from '../spec/categories.js';
import { UsageError } from '../util/errors.js';
import { filesUnder } from '../util/files-under.js';
import { readScoreFile } from './score-lookup.js';

/** One category of a run. */
export interface CategoryVerdicts {
  readonly category: Category;
  readonly accuracy: number;
  readonly correct: number;
  readonly total: number;
  readonly failedIds: ReadonlySet<string>;
  /**
   * Every id that was evaluated, when known: all dataset ids when the score file's total equals
   * the dataset's size (or the run was evaluated here). Undefined for partial evaluations.
   */
  readonly evaluatedIds: readonly string[] | undefined;
}

/** A run: where it was read from and its categories. */
export interface RunVerdicts {
  /** What the user named (model name or path). */
  readonly label: string;
  /** The model directory read. */
  readonly dir: string;
  readonly kind: 'scores' | 'results';
  readonly categories: ReadonlyMap<Category, CategoryVerdicts>;
}

/** Where a run's files are, decided from a command-line argument. */
export interface RunLocation {
  readonly label: string;
  readonly dir: string;
  readonly kind: 'scores' | 'results';
}

const GROUP_DIRS = new Set(['non_live', 'live', 'multi_turn', 'agentic', 'format_sensitivity']);

const SCORE_FILE = /^BFCL_v4_.+_score\.json$/;
const RESULT_FILE = /^BFCL_v4_.+_result\.json$/;

/** The model directory inside `dir` holding files of `kind` (`dir` itself, or its only model folder). */
function modelDirIn(dir: string, pattern: RegExp): string | undefined | { several: string[] } {
  const models = new Set<string>();
  for (const file of filesUnder(dir)) {
    if (!pattern.test(basename(file))) continue;
    const first = relative(dir, file).split(sep)[0]!;
    if (GROUP_DIRS.has(first)) return dir;
    models.add(first);
  }
  if (models.size === 0) return undefined;
  if (models.size > 1) return { several: [...models].sort() };
  return join(dir, [...models][0]!);
}

function locateInDirectory(label: string, dir: string, preferred: 'scores' | 'results' | undefined): RunLocation | undefined {
  const kinds: ('scores' | 'results')[] = preferred === undefined ? ['scores', 'results'] : [preferred];
  for (const kind of kinds) {
    const found = modelDirIn(dir, kind === 'scores' ? SCORE_FILE : RESULT_FILE);
    if (found === undefined) continue;
    if (typeof found !== 'string') {
      throw new UsageError(`${label} holds the ${kind} of several models (${found.several.join(', ')}); name one of their folders.`);
    }
    return { label, dir: found, kind };
  }
  return undefined;
}

/**
 * Resolve a `bfcl diff` argument: an existing directory (a model's score or result folder, or a
 * score/result root with exactly one model), else a model name looked up under the score
 * directory, then the result directory. `preferred` forces score files or result files.
 */
export function locateRun(
  arg: string,
  places: { cwd: string; scoreDir: string; resultDir: string },
  preferred?: 'scores' | 'results',
): RunLocation {
  const asPath = resolve(places.cwd, arg);
  if (existsSync(asPath) && statSync(asPath).isDirectory()) {
    const found = locateInDirectory(arg, asPath, preferred);
    if (found !== undefined) return found;
    throw new UsageError(`${arg} holds no ${preferred ?? 'score or result'} files (BFCL_v4_*_score.json / BFCL_v4_*_result.json).`);
  }
  const modelDir = arg.replaceAll('/', '_');
  const candidates: RunLocation[] = [];
  if (preferred !== 'results') candidates.push({ label: arg, dir: join(places.scoreDir, modelDir), kind: 'scores' });
  if (preferred !== 'scores') candidates.push({ label: arg, dir: join(places.resultDir, modelDir), kind: 'results' });
  for (const candidate of candidates) {
    if (existsSync(candidate.dir) && modelDirIn(candidate.dir, candidate.kind === 'scores' ? SCORE_FILE : RESULT_FILE) !== undefined) {
      return candidate;
    }
  }
  throw new UsageError(
    `No run named "${arg}": not a directory, and neither ${candidates.map((c) => c.dir).join(' nor ')} holds its files.`,
  );
}

/** Dataset ids of a category in evaluation order (memory prerequisites excluded). */
function datasetIds(dataset: BfclDataset, category: Category, cache: Map<Category, string[] | undefined>): string[] | undefined {
  if (!cache.has(category)) {
    try {
      cache.set(category, dataset.loadTestEntries(category, { includePrereq: false, includeLanguageHint: false }).map((e) => e.id));
    } catch {
      cache.set(category, undefined);
    }
  }
  return cache.get(category);
}

function readScoreRun(location: RunLocation, dataset: BfclDataset, categories: ReadonlySet<Category> | undefined): Map<Category, CategoryVerdicts> {
  const out = new Map<Category, CategoryVerdicts>();
  const idCache = new Map<Category, string[] | undefined>();
  for (const file of filesUnder(location.dir)) {
    if (!SCORE_FILE.test(basename(file))) continue;
    const category = extractTestCategoryFromFileName(basename(file));
    if (category === undefined || !isCategory(category) || (categories !== undefined && !categories.has(category))) continue;
    const content = readScoreFile(file)!;
    const total = Number(content.header.get('total_count') ?? 0);
    const correct = Number(content.header.get('correct_count') ?? 0);
    const accuracy = Number(content.header.get('accuracy') ?? 0);
    const ids = datasetIds(dataset, category, idCache);
    out.set(category, {
      category,
      accuracy,
      correct,
      total,
      failedIds: new Set(content.failures.keys()),
      evaluatedIds: ids !== undefined && ids.length === total ? ids : undefined,
    });
  }
  return out;
}

function evaluateResultRun(
  location: RunLocation,
  dataset: BfclDataset,
  categories: ReadonlySet<Category> | undefined,
  resolveSettings: ModelSettingsResolver,
  warn: (text: string) => void,
): Map<Category, CategoryVerdicts> {
  const out = new Map<Category, CategoryVerdicts>();
  const context: SimContext = { longContext: dataset.longContext() };
  const root = resolve(location.dir, '..');
  const model = basename(location.dir);
  const files = listResultFiles(root).filter(
    (f) =>
      f.model === model &&
      isCategory(f.category) &&
      (categories === undefined || categories.has(f.category)) &&
      // BFCL parity: eval_runner.runner — these categories are not evaluated.
      !isChatable(f.category) &&
      !isSql(f.category) &&
      !isExecutable(f.category) &&
      !isMemoryPrereq(f.category),
  );
  let settings: ReturnType<ModelSettingsResolver> | undefined;
  for (const file of files) {
    const category = file.category as Category;
    if (out.has(category)) continue;
    const content = readResultFile(file.file);
    const warning = formatResultFileWarning(content);
    if (warning !== undefined) warn(warning);
    settings ??= resolveSettings(model, content.entries.slice(0, 50));
    const evaluation = evaluateCategory({
      category,
      modelName: model,
      entries: content.entries,
      malformed: content.malformed,
      dataset,
      decoder: modelDecoder(settings.decoderMode),
      underscoreToDot: settings.underscoreToDot,
      context,
      partial: false,
    });
    const ids = datasetIds(dataset, category, new Map());
    out.set(category, {
      category,
      accuracy: evaluation.total === 0 ? 0 : evaluation.correct / evaluation.total,
      correct: evaluation.correct,
      total: evaluation.total,
      failedIds: new Set(evaluation.failures.map((f) => String(f.get('id')))),
      evaluatedIds: ids,
    });
  }
  return out;
}

/**
 * Read (or evaluate) a located run, limited to `categories` when given. Result files with unreadable
 * lines or duplicated ids are reported through `warn`, once per file, as `evaluate` reports them.
 */
export function loadRunVerdicts(
  location: RunLocation,
  dataset: BfclDataset,
  resolveSettings: ModelSettingsResolver,
  categories?: ReadonlySet<Category>,
  warn: (text: string) => void = () => {},
): RunVerdicts {
  const byCategory =
    location.kind === 'scores'
      ? readScoreRun(location, dataset, categories)
      : evaluateResultRun(location, dataset, categories, resolveSettings, warn);
  return { label: location.label, dir: location.dir, kind: location.kind, categories: byCategory };
}

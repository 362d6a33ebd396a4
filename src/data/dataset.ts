/**
 * Reading a BFCL dataset directory (official layout) into test entries and ground truth, with the
 * reference's loading steps (utils.py::load_dataset_entry, load_ground_truth_entry).
 *
 * Each file is read and validated once per `BfclDataset` and cached; every call builds fresh entry
 * dicts on top of the cached values (nested values are shared: treat them as read-only).
 */

import { existsSync } from 'node:fs';
import { join } from 'node:path';

import type { z } from 'zod';

import type { PyDict, PyValue } from '../py/value.js';
import {
  type Category,
  FORMAT_SENSITIVITY_CONFIGS,
  MEMORY_SCENARIO_NAME,
  V3_RENAMED_CATEGORIES,
  getCategoryInfo,
  isCategory,
  isFormatSensitivity,
  isMemory,
  isMultiTurn,
  isWebSearch,
  v3CategoryName,
} from '../spec/categories.js';
import { datasetSchemas, type DatasetSchemaName, type PossibleAnswer, type TestEntry } from '../spec/schemas.js';
import { DatasetError, InternalError } from '../util/errors.js';
import { addAgenticSystemPrompt, processMemoryScenario, processWebSearchEntries } from './agentic.js';
import { DATA_LAYOUT, resolveDataDir } from './data-dir.js';
import { funcDocFileOf, populateFunctionDocs } from './function-docs.js';
import { readJsonFile, readJsonLinesFile, type SharedItems } from './json-file.js';
import { NO_CACHE, type ParsedFileCache } from './parsed-file-cache.js';
import { addLanguageSpecificHint } from './language-hint.js';
import { toPossibleAnswer, toTestEntry } from './test-entry.js';

/** Options of `loadTestEntries` (the reference's `load_dataset_entry` flags). */
export interface LoadTestEntriesOptions {
  /** Include memory prerequisite conversations (default true; evaluation passes false). */
  readonly includePrereq?: boolean;
  /** Add the language hint to function docs (default true, for generation; evaluation passes false). */
  readonly includeLanguageHint?: boolean;
}

/** Options of a `BfclDataset`. */
export interface DatasetOptions {
  /** Check every file against its zod schema when it is first read (default true). */
  readonly validate?: boolean;
  /** Where parsed files are kept between runs (default none: every file is parsed). */
  readonly cache?: ParsedFileCache;
}

/** Entries selected by a category → ids list, in the list's category order and dataset order. */
export interface SelectedEntries {
  /** Categories with at least one id, in file order. */
  readonly categories: Category[];
  readonly entries: TestEntry[];
}

/** A JSON-lines file as read: its dicts. */
interface LineFile {
  readonly dicts: readonly PyDict[];
}

/** A dataset directory in the official layout, read lazily and cached per file. */
export class BfclDataset {
  private readonly lineFiles = new Map<string, LineFile>();
  private readonly jsonFiles = new Map<string, PyValue>();
  private readonly docsByClass = new Map<string, readonly PyValue[]>();
  /** Whether files are checked against their schemas when first read. */
  readonly validate: boolean;
  /** Where parsed files are kept between runs. */
  readonly cache: ParsedFileCache;

  /** `dir` must be a dataset directory; see `openDataset` to resolve one from options. */
  constructor(
    readonly dir: string,
    options: DatasetOptions = {},
  ) {
    this.validate = options.validate ?? true;
    this.cache = options.cache ?? NO_CACHE;
  }

  /** Test entries of one category, processed as the reference's `load_dataset_entry` does. */
  loadTestEntries(category: Category, options: LoadTestEntriesOptions = {}): TestEntry[] {
    const includePrereq = options.includePrereq ?? true;
    const includeLanguageHint = options.includeLanguageHint ?? true;

    let raws: PyDict[];
    if (isFormatSensitivity(category)) {
      raws = this.formatSensitivityEntries();
    } else if (isWebSearch(category)) {
      raws = processWebSearchEntries(this.questionDicts(category), category);
    } else if (isMemory(category)) {
      raws = [...this.questionDicts(category)];
      for (const scenario of MEMORY_SCENARIO_NAME) {
        raws = processMemoryScenario(raws, this.memoryPrereqDicts(scenario), category, scenario, includePrereq);
      }
    } else {
      raws = [...this.questionDicts(category)];
    }
    raws = addAgenticSystemPrompt(raws);
    raws = populateFunctionDocs(raws, (className, entryId) => this.functionDocs(className, entryId));

    // A fresh top-level dict per entry, so callers may set keys without touching the cache.
    const entries = raws.map((raw) => toTestEntry(new Map(raw)));
    return includeLanguageHint ? entries.map(addLanguageSpecificHint) : entries;
  }

  /** Ground truth of one category (`load_ground_truth_entry`); relevance categories have none. */
  loadPossibleAnswers(category: Category): PossibleAnswer[] {
    const info = getCategoryInfo(category);
    if (!info.hasPossibleAnswer) throw new InternalError(`Category ${category} has no possible answers`);
    if (isFormatSensitivity(category)) return this.formatSensitivityPossibleAnswers();
    return this.possibleAnswerDicts(category).map((raw) => toPossibleAnswer(new Map(raw)));
  }

  /**
   * The entries listed in a category → ids map (a `test_case_ids_to_generate.json`), loaded with the
   * default options; categories with an empty list are skipped. BFCL parity:
   * utils.py::load_test_entries_from_id_file. `source` names the list in errors.
   */
  loadTestEntriesByIds(idsByCategory: ReadonlyMap<string, readonly string[]>, source = 'id list'): SelectedEntries {
    const categories: Category[] = [];
    const entries: TestEntry[] = [];
    for (const [category, ids] of idsByCategory) {
      if (ids.length === 0) continue;
      if (!isCategory(category)) throw new DatasetError({ file: source, path: [category] }, `unknown test category "${category}"`);
      const wanted = new Set(ids);
      for (const entry of this.loadTestEntries(category)) if (wanted.has(entry.id)) entries.push(entry);
      categories.push(category);
    }
    return { categories, entries };
  }

  /** Docs of a simulated class (`multi_turn_func_doc/<file>`), in file order. */
  functionDocs(className: string, entryId = '?'): readonly PyValue[] {
    // Asked for once per class of every multi-turn entry (about 1,500 times for a real run).
    let docs = this.docsByClass.get(className);
    if (docs === undefined) {
      const file = join(this.dir, DATA_LAYOUT.multiTurnFuncDoc, funcDocFileOf(className, entryId));
      docs = this.readLines(file, 'multiTurnFunctionDocSchema');
      this.docsByClass.set(className, docs);
    }
    return docs;
  }

  /** Memory prerequisite conversations of a scenario, as stored (ids `memory_prereq_<n>-<scenario>-<k>`). */
  memoryPrereqDicts(scenario: string): readonly PyDict[] {
    const file = join(this.dir, DATA_LAYOUT.memoryPrereqConversation, `memory_${scenario}.json`);
    return this.readLines(file, 'memoryPrereqEntrySchema');
  }

  /** `BFCL_v4_format_sensitivity.json`: category → ids, in file order. */
  formatSensitivityIds(): ReadonlyMap<string, readonly string[]> {
    const file = join(this.dir, getCategoryInfo('format_sensitivity').dataFile);
    return this.readJson(file, 'formatSensitivityIdsSchema') as ReadonlyMap<string, readonly string[]>;
  }

  /**
   * `long_context.json`: the long-context filler lists by constant name, as parsed (the last item of
   * `WATCH_LIST_EXTENSION` is the string "..." that stands for Python's Ellipsis). The same dict is
   * returned on every call.
   */
  longContext(): PyDict {
    return this.readJson(join(this.dir, DATA_LAYOUT.longContext), 'longContextSchema') as PyDict;
  }

  // -------------------------------------------------------------------------------------------

  /** Question dicts of a category's data file (v3 file names accepted as a fallback). */
  private questionDicts(category: Category): readonly PyDict[] {
    return this.questionFile(category).dicts;
  }

  private questionFile(category: Category): LineFile {
    const info = getCategoryInfo(category);
    const schema = isMultiTurn(category)
      ? 'multiTurnEntrySchema'
      : isWebSearch(category)
        ? 'webSearchEntrySchema'
        : isMemory(category)
          ? 'memoryEntrySchema'
          : 'singleTurnEntrySchema';
    return this.readCategoryFile(category, join(this.dir, info.dataFile), info.v3DataFile && join(this.dir, info.v3DataFile), schema);
  }

  /** Single-turn files repeat the same function docs from entry to entry: read each distinct doc once. */
  private sharedItemsFor(schema: DatasetSchemaName): SharedItems | undefined {
    if (schema !== 'singleTurnEntrySchema') return undefined;
    return {
      key: 'function',
      itemSchema: this.validate ? datasetSchemas().functionDocSchema : undefined,
      lineSchema: this.validate ? datasetSchemas().singleTurnEntryWithoutDocsSchema : undefined,
    };
  }

  private possibleAnswerDicts(category: Category): readonly PyDict[] {
    return this.possibleAnswerFile(category).dicts;
  }

  private possibleAnswerFile(category: Category): LineFile {
    const info = getCategoryInfo(category);
    const schema = isMultiTurn(category)
      ? 'multiTurnPossibleAnswerSchema'
      : isWebSearch(category)
        ? 'webSearchPossibleAnswerSchema'
        : isMemory(category)
          ? 'memoryPossibleAnswerSchema'
          : 'astPossibleAnswerSchema';
    const dir = join(this.dir, DATA_LAYOUT.possibleAnswer);
    return this.readCategoryFile(category, join(dir, info.possibleAnswerFile!), info.v3DataFile && join(dir, info.v3DataFile), schema);
  }

  /**
   * The v4 file, or else the v3 one. Ids of v3 files of renamed categories are rewritten to the
   * v4 names (`simple_3` → `simple_python_3`) so that every id-based rule sees a v4 category.
   */
  private readCategoryFile(category: Category, v4File: string, v3File: string | undefined, schema: DatasetSchemaName): LineFile {
    if (v3File === undefined || existsSync(v4File) || !existsSync(v3File)) return this.readLineFile(v4File, schema);
    const cached = this.lineFiles.get(v3File);
    if (cached !== undefined) return cached;
    const v3Name = v3CategoryName(category)!;
    const parsed = this.parseLines(v3File, schema);
    let dicts = parsed.dicts;
    if (V3_RENAMED_CATEGORIES.has(v3Name)) {
      dicts = dicts.map((d) => {
        const id = d.get('id') as string;
        if (!id.startsWith(`${v3Name}_`)) return d;
        const copy: PyDict = new Map(d);
        copy.set('id', `${category}${id.slice(v3Name.length)}`);
        return copy;
      });
    }
    const file: LineFile = { dicts };
    this.lineFiles.set(v3File, file);
    return file;
  }

  /**
   * BFCL parity: utils.py::load_format_sensitivity_test_cases — for each category of the id file
   * (file order), the dataset entries whose id is listed (dataset order), loaded *with* the hint;
   * each copied for the 26 configs with ids `format_sensitivity_<k>:<config>:<original id>`.
   */
  private formatSensitivityEntries(): PyDict[] {
    const result: PyDict[] = [];
    let index = 0;
    for (const entry of this.formatSensitivitySource().entries) {
      for (const config of FORMAT_SENSITIVITY_CONFIGS) {
        const copy: PyDict = new Map(entry.raw);
        copy.set('id', `format_sensitivity_${index}:${config}:${entry.id}`);
        result.push(copy);
        index++;
      }
    }
    return result;
  }

  /** BFCL parity: utils.py::load_format_sensitivity_ground_truth_entry — each source GT repeated 26 times. */
  private formatSensitivityPossibleAnswers(): PossibleAnswer[] {
    const source = this.formatSensitivitySource();
    const sourceIds = new Set(source.entries.map((e) => e.id));
    const result: PossibleAnswer[] = [];
    for (const category of source.categories) {
      for (const raw of this.possibleAnswerDicts(category)) {
        if (!sourceIds.has(raw.get('id') as string)) continue;
        for (let i = 0; i < FORMAT_SENSITIVITY_CONFIGS.length; i++) result.push(toPossibleAnswer(new Map(raw)));
      }
    }
    return result;
  }

  /** `load_test_entries_from_id_file` on the format-sensitivity id file. */
  private formatSensitivitySource(): SelectedEntries {
    const file = join(this.dir, getCategoryInfo('format_sensitivity').dataFile);
    const ids = this.formatSensitivityIds();
    if ((ids.get('format_sensitivity') ?? []).length > 0) {
      throw new DatasetError({ file, path: ['format_sensitivity'] }, 'the format-sensitivity id file cannot list itself');
    }
    return this.loadTestEntriesByIds(ids, file);
  }

  private readLines(file: string, schema: DatasetSchemaName): readonly PyDict[] {
    return this.readLineFile(file, schema).dicts;
  }

  private readLineFile(file: string, schema: DatasetSchemaName): LineFile {
    let lineFile = this.lineFiles.get(file);
    if (lineFile === undefined) {
      lineFile = this.parseLines(file, schema);
      this.lineFiles.set(file, lineFile);
    }
    return lineFile;
  }

  private parseLines(file: string, schema: DatasetSchemaName): LineFile {
    // The schemas are built only when a file is parsed: a cached value needs none.
    const dicts = this.cache.read<PyDict[]>(file, this.readingWay('lines', schema), (bytes) =>
      readJsonLinesFile(file, this.checkedWith(schema), this.sharedItemsFor(schema), bytes),
    );
    return { dicts };
  }

  private readJson(file: string, schema: DatasetSchemaName): PyValue {
    let value = this.jsonFiles.get(file);
    if (value === undefined) {
      value = this.cache.read(file, this.readingWay('json', schema), (bytes) => readJsonFile(file, this.checkedWith(schema), bytes));
      this.jsonFiles.set(file, value);
    }
    return value;
  }

  /** The schema a file is checked against, or undefined when files are not checked. */
  private checkedWith(schema: DatasetSchemaName): z.ZodType | undefined {
    return this.validate ? datasetSchemas()[schema] : undefined;
  }

  /** How a file is read, for the cache key: its form and schema, and whether it is checked. */
  private readingWay(form: 'lines' | 'json', schema: DatasetSchemaName): string {
    // `lines` values are [dicts, member texts?] (see ParsedLines).
    return `${form}:${schema}:${this.validate ? 'checked' : 'unchecked'}`;
  }
}

/**
 * Open the dataset at `dataDir` (from `--data-dir` / `BFCL_DATA_DIR`, relative to `cwd`), or the
 * package's own `data/` when none is given.
 */
export function openDataset(dataDir?: string, cwd?: string, options?: DatasetOptions): BfclDataset {
  return new BfclDataset(resolveDataDir(dataDir, cwd), options);
}

/** Read a category → ids file such as `test_case_ids_to_generate.json`. */
export function readIdListFile(file: string): ReadonlyMap<string, readonly string[]> {
  return readJsonFile(file, datasetSchemas().categoryIdListSchema) as ReadonlyMap<string, readonly string[]>;
}

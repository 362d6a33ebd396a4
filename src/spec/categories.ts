/**
 * The BFCL v4 test categories: ids, groups, file names and the id/category predicates.
 *
 * Mirrors the reference's `constants/category_mapping.py` and the category helpers of `utils.py`.
 * The predicates are substring tests, exactly as in the reference, so they work on a category
 * *or* an entry id (`isLive('live_simple_3-0-0')` is true).
 */

import { UsageError } from '../util/errors.js';

/** File-name prefix of every v4 data, result and score file. */
export const VERSION_PREFIX = 'BFCL_v4';
/** File-name prefix of the previous dataset release, still accepted when reading data. */
export const V3_VERSION_PREFIX = 'BFCL_v3';

export const MEMORY_BACKENDS = ['kv', 'vector', 'rec_sum'] as const;
export type MemoryBackend = (typeof MEMORY_BACKENDS)[number];

export const NON_LIVE_CATEGORY = [
  'simple_python',
  'simple_java',
  'simple_javascript',
  'multiple',
  'parallel',
  'parallel_multiple',
  'irrelevance',
] as const;
export const LIVE_CATEGORY = [
  'live_simple',
  'live_multiple',
  'live_parallel',
  'live_parallel_multiple',
  'live_irrelevance',
  'live_relevance',
] as const;
export const MULTI_TURN_CATEGORY = [
  'multi_turn_base',
  'multi_turn_miss_func',
  'multi_turn_miss_param',
  'multi_turn_long_context',
] as const;
export const WEB_SEARCH_CATEGORY = ['web_search_base', 'web_search_no_snippet'] as const;
export const MEMORY_CATEGORY = ['memory_kv', 'memory_vector', 'memory_rec_sum'] as const;
/** Memory scenarios, in the reference's order (the loader's output order depends on it). */
export const MEMORY_SCENARIO_NAME = ['student', 'customer', 'finance', 'healthcare', 'notetaker'] as const;
export type MemoryScenario = (typeof MEMORY_SCENARIO_NAME)[number];

export const SINGLE_TURN_CATEGORY = [...NON_LIVE_CATEGORY, ...LIVE_CATEGORY] as const;
export const AGENTIC_CATEGORY = [...MEMORY_CATEGORY, ...WEB_SEARCH_CATEGORY] as const;
export const NON_SCORING_CATEGORY = ['format_sensitivity'] as const;
export const ALL_SCORING_CATEGORIES = [
  ...SINGLE_TURN_CATEGORY,
  ...MULTI_TURN_CATEGORY,
  ...AGENTIC_CATEGORY,
] as const;
export const ALL_CATEGORIES = [...ALL_SCORING_CATEGORIES, ...NON_SCORING_CATEGORY] as const;

/** A v4 test category id, e.g. `live_parallel_multiple`. */
export type Category = (typeof ALL_CATEGORIES)[number];

/** Named collections of categories accepted by `--test-category` (`TEST_COLLECTION_MAPPING`), in reference order. */
export const TEST_COLLECTION_MAPPING: ReadonlyMap<string, readonly Category[]> = new Map<string, readonly Category[]>([
  ['all', ALL_CATEGORIES],
  ['all_scoring', ALL_SCORING_CATEGORIES],
  ['multi_turn', MULTI_TURN_CATEGORY],
  ['single_turn', SINGLE_TURN_CATEGORY],
  ['live', LIVE_CATEGORY],
  ['non_live', NON_LIVE_CATEGORY],
  ['non_python', ['simple_java', 'simple_javascript']],
  [
    'python',
    [
      'simple_python',
      'irrelevance',
      'parallel',
      'multiple',
      'parallel_multiple',
      'live_simple',
      'live_multiple',
      'live_parallel',
      'live_parallel_multiple',
      'live_irrelevance',
      'live_relevance',
    ],
  ],
  ['memory', MEMORY_CATEGORY],
  ['web_search', WEB_SEARCH_CATEGORY],
  ['agentic', AGENTIC_CATEGORY],
]);

/** v3 category names that v4 renamed (the v3 data files use the old names). */
export const V3_RENAMED_CATEGORIES: ReadonlyMap<string, Category> = new Map<string, Category>([
  ['simple', 'simple_python'],
  ['java', 'simple_java'],
  ['javascript', 'simple_javascript'],
]);

const CATEGORY_SET: ReadonlySet<string> = new Set(ALL_CATEGORIES);

/** Whether `name` is a v4 category id. */
export const isCategory = (name: string): name is Category => CATEGORY_SET.has(name);

// ---------------------------------------------------------------------------------------------
// Predicates: substring tests on a category or an entry id, as in the reference's utils.py.

export const isFormatSensitivity = (s: string): boolean => s.includes('format_sensitivity');
export const isWebSearch = (s: string): boolean => s.includes('web_search');
export const isMemory = (s: string): boolean => s.includes('memory');
export const isMemoryPrereq = (s: string): boolean => s.includes('prereq');
export const isFirstMemoryPrereqEntry = (id: string): boolean => id.includes('prereq') && id.endsWith('-0');
export const isAgentic = (s: string): boolean => isWebSearch(s) || isMemory(s);
export const isMultiTurn = (s: string): boolean => s.includes('multi_turn');
export const isLive = (s: string): boolean => s.includes('live');
/**
 * Neither format sensitivity, live, multi-turn nor agentic.
 * BFCL parity: utils.py::is_non_live — format sensitivity is tested first because its ids embed
 * the original id (`format_sensitivity_0:...:live_simple_23-5-1`).
 */
export const isNonLive = (s: string): boolean =>
  !(isFormatSensitivity(s) || isLive(s) || isMultiTurn(s) || isAgentic(s));
export const containMultiTurnIrrelevance = (s: string): boolean => s.includes('miss_func') || s.includes('miss_param');
export const isExecutable = (s: string): boolean => s.includes('exec') || s.includes('rest');
export const isRest = (s: string): boolean => s.includes('rest');
export const isRelevanceOrIrrelevance = (s: string): boolean => s.includes('relevance') || s.includes('irrelevance');
export const isChatable = (s: string): boolean => s.includes('chatable');
export const isJs = (s: string): boolean => s.includes('javascript');
export const isJava = (s: string): boolean => s.includes('java') && !isJs(s);
export const isSql = (s: string): boolean => s.includes('sql');
/** Multi-turn or agentic: entries whose model loop runs over turns and executes calls. */
export const containMultiTurnInteraction = (s: string): boolean => isMultiTurn(s) || isAgentic(s);

// ---------------------------------------------------------------------------------------------
// Grouping and directories

/** The five top-level folders of result and score files. */
export type GeneralGroup = 'non_live' | 'live' | 'multi_turn' | 'agentic' | 'format_sensitivity';

/** Top-level folder of a category or entry id (`get_general_grouping`); checks in reference order. */
export function getGeneralGrouping(categoryOrId: string): GeneralGroup {
  if (isFormatSensitivity(categoryOrId)) return 'format_sensitivity';
  if (isNonLive(categoryOrId)) return 'non_live';
  if (isLive(categoryOrId)) return 'live';
  if (isMultiTurn(categoryOrId)) return 'multi_turn';
  if (isAgentic(categoryOrId)) return 'agentic';
  throw new UsageError(`Invalid test category: ${categoryOrId}`);
}

/** `memory_kv` → `kv`. */
export function extractMemoryBackendType(category: string): string {
  if (!isMemory(category)) throw new UsageError(`Test category ${category} is not a memory category.`);
  return category.slice('memory_'.length);
}

/** Result/score sub-directory of a category: the group, plus `memory/<backend>` for memory. */
export function getDirectoryStructureByCategory(category: string): string {
  const group = getGeneralGrouping(category);
  return isMemory(category) ? `${group}/memory/${extractMemoryBackendType(category)}` : group;
}

/** Result/score sub-directory of an entry id (memory prereq ids go with their category). */
export function getDirectoryStructureById(id: string): string {
  const group = getGeneralGrouping(id);
  if (!isMemory(id)) return group;
  return `${group}/memory/${extractMemoryBackendType(extractTestCategoryFromId(id, true))}`;
}

// ---------------------------------------------------------------------------------------------
// Ids and file names

/**
 * Category of an entry id: the part before the first `:` (format-sensitivity ids), without the
 * trailing `_<index>`. With `removePrereq`, `memory_kv_prereq_3-student-0` gives `memory_kv`.
 */
export function extractTestCategoryFromId(id: string, removePrereq = false): string {
  // BFCL parity: utils.py::extract_test_category_from_id — `str.replace` drops every "_prereq".
  let s = removePrereq ? id.replaceAll('_prereq', '') : id;
  const colon = s.indexOf(':');
  if (colon !== -1) s = s.slice(0, colon);
  const underscore = s.lastIndexOf('_');
  return underscore === -1 ? s : s.slice(0, underscore);
}

// BFCL parity: utils.py::extract_test_category — greedy `.*` (the last `BFCL_v4_` wins), lazy `\w+?`.
const CATEGORY_FROM_FILE_NAME = new RegExp(`.*${VERSION_PREFIX}_([\\p{L}\\p{N}_]+?)(?:_score|_result)?\\.json`, 'u');

/** Category named by a data/result/score file name (`BFCL_v4_<cat>[_result|_score].json`), or undefined. */
export function extractTestCategoryFromFileName(fileName: string): string | undefined {
  return CATEGORY_FROM_FILE_NAME.exec(fileName)?.[1];
}

/** `BFCL_v4_<category>.json`, or with `_result` / `_score` before the extension. */
export function getFileNameByCategory(category: string, kind: 'data' | 'result' | 'score' = 'data'): string {
  const suffix = kind === 'data' ? '' : `_${kind}`;
  return `${VERSION_PREFIX}_${category}${suffix}.json`;
}

/** The default prompt configuration of non-format-sensitivity entries (`DEFAULT_SYSTEM_PROMPT_FORMAT`). */
export const DEFAULT_PROMPT_FORMAT_CONFIG =
  'ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic';

/** The 26 prompt configurations of format sensitivity, in reference order (`get_all_format_sensitivity_configs`). */
export const FORMAT_SENSITIVITY_CONFIGS: readonly string[] = (() => {
  const configs: string[] = [];
  for (const retFmt of ['python', 'json', 'verbose_xml', 'concise_xml']) {
    for (const tag of ['True', 'False']) {
      for (const docFmt of ['python', 'xml', 'json']) {
        configs.push(`ret_fmt=${retFmt}&tool_call_tag=${tag}&func_doc_fmt=${docFmt}&prompt_fmt=plaintext&style=classic`);
      }
    }
  }
  configs.push('ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=markdown&style=classic');
  configs.push('ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=experimental');
  return configs;
})();

/** Prompt configuration of an entry: the middle part of a format-sensitivity id, else the default. */
export function extractPromptFormatFromId(id: string): string {
  if (!id.includes(':')) return DEFAULT_PROMPT_FORMAT_CONFIG;
  const parts = id.split(':');
  if (parts.length !== 3) {
    throw new UsageError(`Test entry ID ${id} should contain exactly two colons, since they are supposed to be the format sensitivity ids.`);
  }
  return parts[1]!;
}

// ---------------------------------------------------------------------------------------------
// Per-category facts

/** What the harness needs to know about one category. */
export interface CategoryInfo {
  readonly id: Category;
  /** Top-level result/score folder. */
  readonly group: GeneralGroup;
  /** Result/score sub-directory (`agentic/memory/kv` for memory). */
  readonly directory: string;
  /** Question file (shared by web search and memory categories). */
  readonly dataFile: string;
  /** Question file name of the v3 release, where one existed. */
  readonly v3DataFile: string | undefined;
  /** Ground-truth file in `possible_answer/`; undefined for relevance categories and format sensitivity (derived). */
  readonly possibleAnswerFile: string | undefined;
  /** Whether the category is checked against ground truth (false for irrelevance / relevance). */
  readonly hasPossibleAnswer: boolean;
  readonly isMultiTurn: boolean;
  readonly isAgentic: boolean;
  readonly isFormatSensitivity: boolean;
  /** Counted in the overall score (everything except format sensitivity). */
  readonly isScoring: boolean;
}

const V3_CATEGORIES: ReadonlySet<string> = new Set([
  ...NON_LIVE_CATEGORY,
  ...LIVE_CATEGORY,
  ...MULTI_TURN_CATEGORY,
]);

/** The v3 name of a category (`simple_python` → `simple`); undefined when v3 had no such file. */
export function v3CategoryName(category: Category): string | undefined {
  if (!V3_CATEGORIES.has(category)) return undefined;
  for (const [v3, v4] of V3_RENAMED_CATEGORIES) if (v4 === category) return v3;
  return category;
}

/** Data file of a category: web search and memory categories share one file each. */
function dataFileOf(category: Category): string {
  if (isWebSearch(category)) return getFileNameByCategory('web_search');
  if (isMemory(category)) return getFileNameByCategory('memory');
  return getFileNameByCategory(category);
}

function categoryInfo(id: Category): CategoryInfo {
  const hasPossibleAnswer = !isRelevanceOrIrrelevance(id);
  const v3 = v3CategoryName(id);
  return {
    id,
    group: getGeneralGrouping(id),
    directory: getDirectoryStructureByCategory(id),
    dataFile: dataFileOf(id),
    v3DataFile: v3 === undefined ? undefined : `${V3_VERSION_PREFIX}_${v3}.json`,
    possibleAnswerFile: hasPossibleAnswer && !isFormatSensitivity(id) ? dataFileOf(id) : undefined,
    hasPossibleAnswer,
    isMultiTurn: isMultiTurn(id),
    isAgentic: isAgentic(id),
    isFormatSensitivity: isFormatSensitivity(id),
    isScoring: !isFormatSensitivity(id),
  };
}

/** Facts of every category, in `ALL_CATEGORIES` order. */
export const CATEGORY_INFO: ReadonlyMap<Category, CategoryInfo> = new Map(
  ALL_CATEGORIES.map((id) => [id, categoryInfo(id)] as const),
);

/** Facts of one category. */
export function getCategoryInfo(category: Category): CategoryInfo {
  return CATEGORY_INFO.get(category)!;
}

// ---------------------------------------------------------------------------------------------
// --test-category parsing and entry ordering

/**
 * Expand `--test-category` values (group names or category ids) into categories, de-duplicated and
 * sorted alphabetically as the reference does. Unknown names raise a `UsageError` that lists the
 * valid names.
 */
export function parseTestCategoryArgument(args: readonly string[]): Category[] {
  const selected = new Set<Category>();
  for (const arg of args) {
    const group = TEST_COLLECTION_MAPPING.get(arg);
    if (group !== undefined) for (const c of group) selected.add(c);
    else if (isCategory(arg)) selected.add(arg);
    else throw new UsageError(invalidCategoryMessage(arg));
  }
  // BFCL parity: utils.py::parse_test_category_argument — `sorted(set)`; ids are ASCII, so JS order = Python order.
  return [...selected].sort();
}

function invalidCategoryMessage(name: string): string {
  const renamed = V3_RENAMED_CATEGORIES.get(name);
  const hint = renamed === undefined ? '' : ` (the v3 category "${name}" is called "${renamed}" in v4)`;
  return (
    `Invalid test category name provided: ${name}${hint}\n` +
    `Valid categories: ${ALL_CATEGORIES.join(', ')}\n` +
    `Valid groups: ${[...TEST_COLLECTION_MAPPING.keys()].join(', ')}`
  );
}

/** The reference's `sort_key`: (priority, category, numeric index). */
export type SortKey = readonly [priority: number, category: string, index: number];

/**
 * Sort key of an entry id: memory prereqs first, then web search, single-turn (with format
 * sensitivity), multi-turn, memory; then category name; then the numeric index (the part before the
 * first `-` for live ids such as `live_simple_12-3-4`).
 */
export function sortKey(id: string): SortKey {
  const base = id.split(':')[0]!;
  const underscore = base.lastIndexOf('_');
  const category = underscore === -1 ? base : base.slice(0, underscore);
  let index = underscore === -1 ? '' : base.slice(underscore + 1);
  if (index.includes('-')) {
    // BFCL parity: utils.py::sort_key — asserts the `<n>-<doc>-<prompt>` form.
    if (index.split('-').length !== 3) throw new UsageError(`Invalid index format: ${index} (entry id ${id})`);
    index = index.slice(0, index.indexOf('-'));
  }
  if (!/^\s*[+-]?\d+\s*$/.test(index)) {
    throw new UsageError(`invalid literal for int() with base 10: '${index}' (entry id ${id})`);
  }
  return [entryPriority(category), category, Number.parseInt(index, 10)];
}

function entryPriority(category: string): number {
  if (isMemoryPrereq(category)) return 0;
  if (isWebSearch(category)) return 1;
  if (!containMultiTurnInteraction(category)) return 2;
  if (isMultiTurn(category)) return 3;
  return 4; // memory
}

/** Compare two sort keys as Python compares tuples. */
export function compareSortKeys(a: SortKey, b: SortKey): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return a[2] - b[2];
}

/** Sort anything with an `id` by `sortKey` (stable, like Python's `sorted`); returns a new array. */
export function sortById<T extends { readonly id: string }>(entries: readonly T[]): T[] {
  const keyed = entries.map((entry) => ({ entry, key: sortKey(entry.id) }));
  keyed.sort((x, y) => compareSortKeys(x.key, y.key));
  return keyed.map((k) => k.entry);
}

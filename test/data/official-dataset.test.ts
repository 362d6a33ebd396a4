/**
 * Loads every file of the official dataset (skipped unless BFCL_DATA_DIR is set) and checks entry
 * counts (spec §1) and, through sha256 digests, that every loaded entry is byte-identical to the
 * reference's `json.dumps(entry)` after `load_dataset_entry` / `load_ground_truth_entry`.
 */
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { BfclDataset } from '../../src/data/dataset.js';
import { FUNC_DOC_FILE_BY_CLASS } from '../../src/data/function-docs.js';
import { jsonDumps } from '../../src/py/json.js';
import { ALL_CATEGORIES, type Category, MEMORY_SCENARIO_NAME, isMemory, sortById } from '../../src/spec/categories.js';

const DATA_DIR = process.env['BFCL_DATA_DIR'];

/** Entries per category (spec §1); memory counts are without the 37 prereq conversations. */
const ENTRY_COUNTS: Record<Category, number> = {
  simple_python: 400, simple_java: 100, simple_javascript: 50, multiple: 200, parallel: 200, parallel_multiple: 200, irrelevance: 240,
  live_simple: 258, live_multiple: 1053, live_parallel: 16, live_parallel_multiple: 24, live_irrelevance: 884, live_relevance: 16,
  multi_turn_base: 200, multi_turn_miss_func: 200, multi_turn_miss_param: 200, multi_turn_long_context: 200,
  memory_kv: 155, memory_vector: 155, memory_rec_sum: 155, web_search_base: 100, web_search_no_snippet: 100,
  format_sensitivity: 5200,
};

const PREREQ_COUNTS = { student: 10, customer: 10, finance: 7, healthcare: 5, notetaker: 5 } as const;

/**
 * First 16 hex digits of the sha256 of the reference's output for gorilla 6ea5797 on the official
 * data: `json.dumps(entry) + "\n"` per entry of load_dataset_entry(c) (generation: hint and prereqs)
 * and load_dataset_entry(c, include_prereq=False, include_language_specific_hint=False) (evaluation),
 * of load_ground_truth_entry(c), and the ids sorted by sort_key (`id + "\n"` each).
 */
const REFERENCE_DIGESTS: Record<Category, { generation: string; evaluation: string; possibleAnswers: string | undefined; sortedIds: string }> = {
  simple_python: { generation: '1540c3456950c3aa', evaluation: 'd7726a2b9ecfc57d', possibleAnswers: '3fd3c31aa00b90c6', sortedIds: '2beaf1b7a3ef10c5' },
  simple_java: { generation: 'a639c435e14bd2b3', evaluation: '67f6010906b3fb55', possibleAnswers: '5f2eda679a4aceb7', sortedIds: '92a47b521348ab0a' },
  simple_javascript: { generation: 'c69d02ba739921f4', evaluation: '4a1077d5b40ebf16', possibleAnswers: '0ed4e2f3f974eb80', sortedIds: 'ac71994d643bc98c' },
  multiple: { generation: '6e88fe5ef8c4e52d', evaluation: '7e9d4013df47d97e', possibleAnswers: '6036219d1c187325', sortedIds: '64985cf280e18c57' },
  parallel: { generation: 'cedfa4323a7cee1c', evaluation: '8642fbc6bd48dff3', possibleAnswers: 'affe52468a84b094', sortedIds: '8fcdae8638648c29' },
  parallel_multiple: { generation: '814290151e3d50d6', evaluation: '70e8a28c4880ef66', possibleAnswers: '8d44e87d530c15db', sortedIds: '079f10c84c05a743' },
  irrelevance: { generation: 'f55fd1cf09e4b44c', evaluation: 'ad96b0666c496e17', possibleAnswers: undefined, sortedIds: '84f5d4cb85a94709' },
  live_simple: { generation: 'a7376a6f79c68b8f', evaluation: 'f7a51cb1dfa9a17f', possibleAnswers: 'fec9cfa9744a936f', sortedIds: '2e016df21c0b293b' },
  live_multiple: { generation: '2963bbb094c37949', evaluation: 'a6facec4fa6702ae', possibleAnswers: '276af9a07db5e1ed', sortedIds: '2e2823cfc85e89bb' },
  live_parallel: { generation: '164c03ad77ff7fe1', evaluation: '441b2c347f57c37c', possibleAnswers: 'eff40211d6b62d4f', sortedIds: '997d1da8acd4a527' },
  live_parallel_multiple: { generation: '403900e719a3bd21', evaluation: '8ab8c14e85a413a2', possibleAnswers: 'e0400272d1d82f41', sortedIds: 'a6d8c182a70ac144' },
  live_irrelevance: { generation: 'd41483a22ff736a3', evaluation: '6559fda2beaceb60', possibleAnswers: undefined, sortedIds: 'c1980777f02b3c74' },
  live_relevance: { generation: 'fb43ca120a55ac55', evaluation: 'e03f9e241657a137', possibleAnswers: undefined, sortedIds: '4971e9c1cfc99f75' },
  multi_turn_base: { generation: '3ba6db655a5e09f1', evaluation: 'f44c4d7bdc4509b7', possibleAnswers: '1fee67823b317571', sortedIds: '34abbe1ede3f7e7d' },
  multi_turn_miss_func: { generation: '63395a9af9f0acb5', evaluation: 'bee2a14f31ad7b2d', possibleAnswers: '69e679b806d1c871', sortedIds: '98040bd8d3f7a2d8' },
  multi_turn_miss_param: { generation: '63da7bbef8d71a0e', evaluation: '6b20d051f2daf8e1', possibleAnswers: '59c442901779e2c3', sortedIds: '49a65b9917c010e6' },
  multi_turn_long_context: { generation: '91b86418263d0d42', evaluation: '209498a97783467a', possibleAnswers: 'e82aa0e839c39d23', sortedIds: '323df3172e5dfb37' },
  memory_kv: { generation: '542b1fc9501e671c', evaluation: '589122985e3cef8e', possibleAnswers: '95b8c6a5c68c722c', sortedIds: '74658a8b91776bd5' },
  memory_vector: { generation: 'e2ef9ba5bbc0f63a', evaluation: 'b86f5491e31aee92', possibleAnswers: '95b8c6a5c68c722c', sortedIds: '499e29ded4cefb99' },
  memory_rec_sum: { generation: '2482fbe76db528c2', evaluation: '4c6859b504350f91', possibleAnswers: '95b8c6a5c68c722c', sortedIds: '18a7343e474bf2ab' },
  web_search_base: { generation: 'bbb51b20e232696c', evaluation: '8a1f2a412f24093c', possibleAnswers: '069846f36829f8b3', sortedIds: '2a0903f0493df36e' },
  web_search_no_snippet: { generation: '4f3b6043869cc03e', evaluation: '7c0c96d4700e9dcd', possibleAnswers: '069846f36829f8b3', sortedIds: 'cd056ded6e47856b' },
  format_sensitivity: { generation: 'bb48a09d3ebdb9fb', evaluation: '3918df41df5cf859', possibleAnswers: 'b8345c6300adecb8', sortedIds: '6c7a46e3df906bb5' },
};

const digest = (lines: readonly string[]): string =>
  createHash('sha256').update(lines.map((l) => `${l}\n`).join('')).digest('hex').slice(0, 16);

describe.skipIf(DATA_DIR === undefined)('official dataset (BFCL_DATA_DIR)', () => {
  const dataset = new BfclDataset(DATA_DIR ?? '');

  it.each(ALL_CATEGORIES)('%s loads like the reference', (category) => {
    const expected = REFERENCE_DIGESTS[category];
    const evaluation = dataset.loadTestEntries(category, { includePrereq: false, includeLanguageHint: false });
    expect(evaluation).toHaveLength(ENTRY_COUNTS[category]);
    expect(digest(evaluation.map((e) => jsonDumps(e.raw)))).toBe(expected.evaluation);

    const generation = dataset.loadTestEntries(category);
    expect(generation).toHaveLength(ENTRY_COUNTS[category] + (isMemory(category) ? 37 : 0));
    expect(digest(generation.map((e) => jsonDumps(e.raw)))).toBe(expected.generation);
    expect(digest(sortById(generation).map((e) => e.id))).toBe(expected.sortedIds);

    if (expected.possibleAnswers !== undefined) {
      const answers = dataset.loadPossibleAnswers(category);
      expect(answers).toHaveLength(ENTRY_COUNTS[category]);
      expect(digest(answers.map((a) => jsonDumps(a.raw)))).toBe(expected.possibleAnswers);
    }
  });

  it('loads every function-doc file, the memory prereqs and long_context.json', () => {
    for (const className of FUNC_DOC_FILE_BY_CLASS.keys()) expect(dataset.functionDocs(className).length).toBeGreaterThan(0);
    for (const scenario of MEMORY_SCENARIO_NAME) expect(dataset.memoryPrereqDicts(scenario)).toHaveLength(PREREQ_COUNTS[scenario]);
    expect([...dataset.formatSensitivityIds().values()].map((ids) => ids.length)).toEqual([30, 15, 15, 15, 24, 86, 6, 9]);
    const watchList = dataset.longContext().get('WATCH_LIST_EXTENSION') as unknown[];
    expect(watchList.at(-1)).toBe('...');
  });
});

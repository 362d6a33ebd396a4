/**
 * Which test entries a `generate` run covers (_llm_response_generation.py::get_involved_test_entries):
 * every entry of the selected categories, or with `--run-ids` the ids listed in
 * `<project root>/test_case_ids_to_generate.json`.
 */

import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { type BfclDataset, readIdListFile } from '../data/dataset.js';
import type { Category } from '../spec/categories.js';
import type { TestEntry } from '../spec/schemas.js';
import { UsageError } from '../util/errors.js';

/** File name of the id list that `--run-ids` reads (`TEST_IDS_TO_GENERATE_PATH`). */
export const TEST_IDS_FILE = 'test_case_ids_to_generate.json';

export interface SelectedTestEntries {
  /** Categories covered: the requested ones, or those with ids in the id file. */
  readonly categories: readonly Category[];
  /** Entries in category order, then dataset order. */
  readonly entries: readonly TestEntry[];
}

/** Load the entries of the run. */
export function selectTestEntries(
  dataset: BfclDataset,
  options: { readonly categories: readonly Category[]; readonly runIds: boolean; readonly projectRoot: string },
): SelectedTestEntries {
  if (options.runIds) {
    const file = join(options.projectRoot, TEST_IDS_FILE);
    if (!existsSync(file)) throw new UsageError(`--run-ids needs ${file} (a JSON object: category → list of entry ids).`);
    const idsByCategory = readIdListFile(file);
    const selected = dataset.loadTestEntriesByIds(idsByCategory, file);
    const found = new Set(selected.entries.map((entry) => entry.id));
    const unknown = [...idsByCategory.values()].flat().filter((id) => !found.has(id));
    if (unknown.length > 0) {
      const shown = unknown.slice(0, 10).join(', ');
      const more = unknown.length > 10 ? ` and ${unknown.length - 10} more` : '';
      throw new UsageError(
        `${file} lists ${unknown.length} id${unknown.length === 1 ? '' : 's'} that ${unknown.length === 1 ? 'is' : 'are'} not in the dataset (${dataset.dir}): ${shown}${more}. ` +
          'Check the ids (and that each is listed under its own category) or the data directory.',
      );
    }
    if (selected.entries.length === 0) throw new UsageError(`${file} lists no ids (every category's list is empty).`);
    return { categories: selected.categories, entries: selected.entries };
  }
  const entries: TestEntry[] = [];
  for (const category of options.categories) entries.push(...dataset.loadTestEntries(category));
  return { categories: options.categories, entries };
}

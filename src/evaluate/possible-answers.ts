/**
 * The possible answer of each test entry. The reference pairs them by position (`possible_answer[i]`
 * with `prompt[i]`), which silently scores every later entry against its neighbour's answer when the
 * possible-answer file lacks one line; here the pairing is checked first, and a file that is out of
 * step with its test data is a `DatasetError` naming the file and the entry.
 */

import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { DATA_LAYOUT } from '../data/data-dir.js';
import type { BfclDataset } from '../data/dataset.js';
import {
  extractTestCategoryFromId,
  getCategoryInfo,
  isCategory,
  isFormatSensitivity,
  isMemory,
  isWebSearch,
  type Category,
} from '../spec/categories.js';
import type { PossibleAnswer, TestEntry } from '../spec/schemas.js';
import { DatasetError } from '../util/errors.js';

/**
 * The id the possible answer of a test entry has: the same id, except where loading renames test
 * entries (data/agentic.ts, the format-sensitivity copies) while their answers keep the file's id.
 */
export function possibleAnswerIdOf(category: Category, testEntryId: string): string {
  // format_sensitivity_<k>:<config>:<original id>
  if (isFormatSensitivity(category)) return testEntryId.slice(testEntryId.lastIndexOf(':') + 1);
  // web_search_0 → web_search_base_0, memory_0-customer-0 → memory_kv_0-customer-0 when loaded.
  if (isWebSearch(category)) return testEntryId.replaceAll(category, 'web_search');
  if (isMemory(category)) return testEntryId.replaceAll(category, 'memory');
  return testEntryId;
}

/** The possible-answer file a test entry's answer is read from (for messages), relative to the data directory when it is inside. */
function possibleAnswerFileOf(dataset: BfclDataset, category: Category, answerId: string): string {
  let source: string = category;
  if (isFormatSensitivity(category)) source = extractTestCategoryFromId(answerId);
  const info = isCategory(source) ? getCategoryInfo(source) : undefined;
  const dir = join(dataset.dir, DATA_LAYOUT.possibleAnswer);
  const v4 = join(dir, info?.possibleAnswerFile ?? `${source}.json`);
  if (info?.v3DataFile !== undefined && !existsSync(v4) && existsSync(join(dir, info.v3DataFile))) return join(dir, info.v3DataFile);
  return v4;
}

/**
 * The possible answers of `category`, one per test entry of `prompts` (all of the category's test
 * entries, prerequisites excluded, in dataset order). Throws a `DatasetError` when an entry has no
 * answer, the answers are in another order, or an answer has no test entry.
 */
export function pairPossibleAnswers(dataset: BfclDataset, category: Category, prompts: readonly TestEntry[]): PossibleAnswer[] {
  const answers = dataset.loadPossibleAnswers(category);
  const count = `the possible answers have ${answers.length} entries, the test data ${prompts.length}`;
  const answerIds = new Set(answers.map((a) => a.id));
  for (let i = 0; i < Math.max(answers.length, prompts.length); i++) {
    const prompt = prompts[i];
    const answer = answers[i];
    if (prompt === undefined) {
      const file = possibleAnswerFileOf(dataset, category, answer!.id);
      throw new DatasetError({ file, entryId: answer!.id }, `a possible answer without a test entry in ${category} (${count}); the test and possible-answer files are out of sync`);
    }
    const expected = possibleAnswerIdOf(category, prompt.id);
    if (answer?.id === expected) continue;
    const file = possibleAnswerFileOf(dataset, category, expected);
    if (!answerIds.has(expected)) {
      throw new DatasetError({ file, entryId: prompt.id }, `no possible answer for this test entry (no line with id "${expected}"; ${count}); the test and possible-answer files are out of sync`);
    }
    throw new DatasetError(
      { file, entryId: prompt.id },
      `the possible answers are not in the order of the test entries: answer ${i + 1} is ${answer === undefined ? 'missing' : `"${answer.id}"`}, expected "${expected}"`,
    );
  }
  return answers;
}

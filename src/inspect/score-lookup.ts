/**
 * Reading verdicts back from score files: a score file lists only failed entries, so an entry of a
 * fully evaluated category passed exactly when its id is not listed.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { scoreFilePath } from '../evaluate/score-file.js';
import { parseJsonLossless } from '../py/json.js';
import type { PyDict } from '../py/value.js';
import { extractTestCategoryFromId, getDirectoryStructureById, getFileNameByCategory } from '../spec/categories.js';

/** A score file read back: its header and its failure lines by id. */
export interface ScoreFileContent {
  readonly file: string;
  readonly header: PyDict;
  readonly failures: ReadonlyMap<string, PyDict>;
}

/** Read a score file; undefined when it does not exist. Unreadable lines are skipped. */
export function readScoreFile(file: string): ScoreFileContent | undefined {
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  let header: PyDict = new Map();
  const failures = new Map<string, PyDict>();
  lines.forEach((line, i) => {
    let value;
    try {
      value = parseJsonLossless(line);
    } catch {
      return;
    }
    if (!(value instanceof Map)) return;
    if (i === 0) header = value;
    else failures.set(String(value.get('id')), value);
  });
  return { file, header, failures };
}

/** The score file that holds an entry's verdict (`<scoreDir>/<model>/<group>/BFCL_v4_<category>_score.json`). */
export function scoreFileOfEntry(scoreDir: string, modelDir: string, id: string): string {
  const category = extractTestCategoryFromId(id);
  if (category.includes('prereq')) {
    // Memory prerequisite entries are never scored; point at where such a file would be.
    return join(scoreDir, modelDir, getDirectoryStructureById(id), getFileNameByCategory(category, 'score'));
  }
  return scoreFilePath(scoreDir, modelDir, category);
}

/** An entry's verdict as far as the score files tell. */
export type EntryVerdict =
  | { readonly kind: 'pass'; readonly scoreFile: string }
  | { readonly kind: 'fail'; readonly scoreFile: string; readonly record: PyDict }
  | { readonly kind: 'unknown'; readonly reason: string };

/** Look an entry up in its score file. */
export function lookUpVerdict(scoreFile: string | undefined, id: string): EntryVerdict {
  if (scoreFile === undefined) return { kind: 'unknown', reason: 'no score directory known for this result file' };
  const content = readScoreFile(scoreFile);
  if (content === undefined) return { kind: 'unknown', reason: `not evaluated (no score file ${scoreFile})` };
  const record = content.failures.get(id);
  return record === undefined ? { kind: 'pass', scoreFile } : { kind: 'fail', scoreFile, record };
}

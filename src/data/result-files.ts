import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

import { VERSION_PREFIX, extractTestCategoryFromFileName } from '../spec/categories.js';

/** One `BFCL_v4_<category>_result.json` file of a result directory. */
export interface ResultFileInfo {
  /** The model directory name (registry name with `/` replaced by `_`). */
  readonly model: string;
  readonly category: string;
  /** Absolute path. */
  readonly file: string;
  /** Path relative to the model directory, e.g. `non_live/BFCL_v4_simple_python_result.json`. */
  readonly relativePath: string;
  /** Number of non-blank lines (entries); the file is read when this is first asked for. */
  readonly entries: number;
}

const RESULT_FILE = new RegExp(`^${VERSION_PREFIX}_\\w+_result\\.json$`);

/**
 * Every result file under `<resultDir>/<model>/`, models and paths in sorted order.
 * A missing result directory gives an empty list.
 */
export function listResultFiles(resultDir: string): ResultFileInfo[] {
  if (!isDirectory(resultDir)) return [];
  const found: ResultFileInfo[] = [];
  for (const model of sortedEntries(resultDir)) {
    const modelDir = join(resultDir, model.name);
    // BFCL parity: eval_runner — `Path.is_dir()` follows a symlinked model directory.
    if (!model.isDirectory() && !(model.isSymbolicLink() && isDirectory(modelDir))) continue;
    for (const file of walkFiles(modelDir)) {
      const name = basename(file);
      if (!RESULT_FILE.test(name)) continue;
      const category = extractTestCategoryFromFileName(name);
      if (category === undefined) continue;
      let entries: number | undefined;
      found.push({
        model: model.name,
        category,
        file,
        relativePath: relative(modelDir, file),
        get entries() {
          entries ??= countEntries(file);
          return entries;
        },
      });
    }
  }
  return found;
}

function sortedEntries(dir: string) {
  return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Files below `dir`; like Python 3.12's `rglob`, symlinked files count but symlinked folders are not entered. */
function* walkFiles(dir: string): Generator<string> {
  for (const entry of sortedEntries(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walkFiles(path);
    else if (entry.isFile() || (entry.isSymbolicLink() && isFile(path))) yield path;
  }
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

function countEntries(file: string): number {
  let count = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) if (line.trim() !== '') count++;
  return count;
}

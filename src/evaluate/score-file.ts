import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonDumps } from '../py/json.js';
import type { PyDict } from '../py/value.js';
import { getDirectoryStructureByCategory, getFileNameByCategory } from '../spec/categories.js';

/** `<scoreDir>/<model>/<group dir>/BFCL_v4_<category>_score.json`. */
export function scoreFilePath(scoreDir: string, modelDir: string, category: string): string {
  return join(scoreDir, modelDir, getDirectoryStructureByCategory(category), getFileNameByCategory(category, 'score'));
}

/** One score-file line as the reference writes it: `json.dumps(make_json_serializable(x), ensure_ascii=False)`. */
export function scoreLine(entry: PyDict): string {
  return jsonDumps(entry, { ensureAscii: false, strFallback: true });
}

/** Write the header line and one line per failed entry. */
export function writeScoreFile(path: string, header: PyDict, failures: readonly PyDict[]): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, [header, ...failures].map((entry) => `${scoreLine(entry)}\n`).join(''));
}

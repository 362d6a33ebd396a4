import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonDumps } from '../py/json.js';
import type { PyDict } from '../py/value.js';
import { getDirectoryStructureByCategory, getFileNameByCategory } from '../spec/categories.js';
import { utf8Concat } from '../util/utf8-concat.js';

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
  writeFileSync(path, utf8Lines([header, ...failures].map(scoreLine)));
}

/** The lines' UTF-8 bytes, each followed by `\n`, in one buffer (the newline is not appended to each string: that made a copy of each line). */
export function utf8Lines(lines: readonly string[]): Buffer {
  return utf8Concat(lines, 0x0a).bytes;
}

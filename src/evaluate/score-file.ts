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
  writeFileSync(path, utf8Lines([header, ...failures].map(scoreLine)));
}

/**
 * The lines' UTF-8 bytes, each followed by `\n`, in one buffer. An ASCII line (its UTF-8 length is
 * its length) is copied as Latin-1, which is the same bytes; only the others go through the UTF-8
 * encoder. Joining the lines first made one string for the whole file, two-byte as soon as one
 * line had a character past Latin-1, and encoding that took the real run's multi-turn score files
 * 13-18 ms instead of 5. (The newline is not appended to each string: that made a copy of each line.)
 */
export function utf8Lines(lines: readonly string[]): Buffer {
  const lengths = lines.map((line) => Buffer.byteLength(line, 'utf8'));
  let total = lines.length;
  for (const length of lengths) total += length;
  const bytes = Buffer.allocUnsafe(total);
  let at = 0;
  lines.forEach((line, i) => {
    at += bytes.write(line, at, lengths[i]!, lengths[i] === line.length ? 'latin1' : 'utf8');
    bytes[at++] = 0x0a;
  });
  return bytes;
}

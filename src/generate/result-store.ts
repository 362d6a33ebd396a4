/**
 * Result files of one model (base_handler.py::write, utils.py::sort_file_content_by_id):
 * `<result dir>/<model dir>/<group dir>/BFCL_v4_<category>_result.json`, one JSON line per entry.
 *
 * Normal mode appends each finished entry at once (`json.dumps`, ASCII), so an interrupted run keeps
 * everything it finished; update mode (`--run-ids`) merges entries by id and rewrites the file sorted.
 * At the end of a run the files are re-sorted by id, and rewritten only when the order changed.
 */

import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { jsonDumps, makeJsonSerializable, parseJsonLossless } from '../py/json.js';
import { PyException, type PyDict, type PyValue } from '../py/value.js';
import {
  VERSION_PREFIX,
  compareSortKeys,
  extractTestCategoryFromId,
  getDirectoryStructureByCategory,
  getDirectoryStructureById,
  getFileNameByCategory,
  isMemory,
  sortKey,
} from '../spec/categories.js';
import { isInferenceErrorLine } from './infer-entry.js';

/** The result file of an entry id. */
export function resultFileOfId(modelDir: string, id: string): string {
  return join(modelDir, getDirectoryStructureById(id), `${VERSION_PREFIX}_${extractTestCategoryFromId(id)}_result.json`);
}

/** The result files of a category: its own, plus the prerequisite file of a memory category. */
export function resultFilesOfCategory(modelDir: string, category: string): string[] {
  const dir = join(modelDir, getDirectoryStructureByCategory(category));
  const files = [join(dir, getFileNameByCategory(category, 'result'))];
  if (isMemory(category)) files.push(join(dir, getFileNameByCategory(`${category}_prereq`, 'result')));
  return files;
}

/** One line of an existing result file. */
interface ExistingLine {
  readonly text: string;
  /** Undefined when the line is not a JSON object with a string `id` (e.g. cut short by a crash). */
  readonly id: string | undefined;
  readonly inferenceError: boolean;
}

function readExistingLines(file: string): ExistingLine[] {
  const lines: ExistingLine[] = [];
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    let parsed: PyValue;
    try {
      parsed = parseJsonLossless(text);
    } catch {
      lines.push({ text, id: undefined, inferenceError: false });
      continue;
    }
    const id = parsed instanceof Map ? parsed.get('id') : undefined;
    lines.push({ text, id: typeof id === 'string' ? id : undefined, inferenceError: isInferenceErrorLine(parsed) });
  }
  return lines;
}

/** What is already on disk for the selected categories. */
export interface ExistingResults {
  /** Ids with a result (not an inference error): skipped by this run. */
  readonly doneIds: ReadonlySet<string>;
  /** Ids whose last attempt failed: generated again. */
  readonly failedIds: ReadonlySet<string>;
  /** Lines that could not be read (dropped when the file is cleaned). */
  readonly unreadableLines: number;
}

/**
 * BFCL parity: _llm_response_generation.py::collect_test_cases — without `--allow-overwrite`, ids
 * already in the result files are skipped; with it (and without `--run-ids`) the files are deleted.
 * Unlike the reference, an inference error does not count as done.
 */
export function scanExistingResults(files: readonly string[], options: { allowOverwrite: boolean; runIds: boolean }): ExistingResults {
  const doneIds = new Set<string>();
  const failedIds = new Set<string>();
  let unreadableLines = 0;
  for (const file of files) {
    if (!existsSync(file)) continue;
    if (options.allowOverwrite) {
      // With --run-ids the listed entries are replaced in place (update mode), so the file stays.
      if (!options.runIds) rmSync(file);
      continue;
    }
    for (const line of readExistingLines(file)) {
      if (line.id === undefined) unreadableLines++;
      else if (line.inferenceError) failedIds.add(line.id);
      else doneIds.add(line.id);
    }
  }
  for (const id of doneIds) failedIds.delete(id);
  return { doneIds, failedIds, unreadableLines };
}

/**
 * Before generating `regenerate`: drop their inference-error lines and any unreadable line from the
 * files, keeping every other line byte for byte. Returns the files rewritten.
 */
export function removeStaleLines(files: readonly string[], regenerate: ReadonlySet<string>): string[] {
  const rewritten: string[] = [];
  for (const file of files) {
    if (!existsSync(file)) continue;
    const lines = readExistingLines(file);
    const kept = lines.filter((line) => line.id !== undefined && !(line.inferenceError && regenerate.has(line.id)));
    if (kept.length === lines.length) continue;
    writeFileAtomic(file, kept.map((line) => `${line.text}\n`).join(''));
    rewritten.push(file);
  }
  return rewritten;
}

/** Python's `json.dumps(make_json_serializable(entry))`, as result lines are written. */
export function resultLineText(line: PyDict, ensureAscii = true): string {
  // A line that dumps as it is would come out of make_json_serializable unchanged: try that first,
  // since walking and copying large multi-turn lines costs as much as dumping them.
  try {
    return jsonDumps(line, { ensureAscii });
  } catch (error) {
    if (!(error instanceof PyException)) throw error;
    return jsonDumps(makeJsonSerializable(line), { ensureAscii });
  }
}

/** Writes finished entries of one model into its result files. */
export class ResultWriter {
  private readonly createdDirs = new Set<string>();
  /** Result files kept open for appending (normal mode), until `close()`. */
  private readonly appendFds = new Map<string, number>();
  /** Ids written by this writer, per file (their lines are known to be `resultLineText` output). */
  private readonly writtenIds = new Map<string, Set<string>>();
  /** Update mode: file → id → line text, kept sorted on every write. */
  private readonly merged = new Map<string, Map<string, string>>();

  /**
   * `modelDir` is `<result dir>/<model dir>`. `updateMode` (`--run-ids`): merge by id and rewrite
   * the file sorted, instead of appending.
   */
  constructor(
    readonly modelDir: string,
    private readonly updateMode: boolean,
  ) {}

  /** Write one finished entry (a result or an error line); returns the file written. */
  write(line: PyDict): string {
    const id = line.get('id') as string;
    const file = resultFileOfId(this.modelDir, id);
    this.ensureDir(dirname(file));
    const text = resultLineText(line);
    this.idsWrittenTo(file).add(id);
    if (!this.updateMode) {
      writeAll(this.appendFd(file), Buffer.from(`${text}\n`, 'utf8'));
      return file;
    }
    const entries = this.mergedEntries(file);
    entries.set(id, text);
    const ids = [...entries.keys()].map((key) => ({ key, sortKey: sortKey(key) }));
    ids.sort((a, b) => compareSortKeys(a.sortKey, b.sortKey));
    writeFileAtomic(file, ids.map(({ key }) => `${entries.get(key)!}\n`).join(''));
    return file;
  }

  /**
   * Closes the files kept open for appending. Call it before the files are rewritten (the final
   * sort replaces them); a later `write` opens them again.
   */
  close(): void {
    for (const fd of this.appendFds.values()) closeSync(fd);
    this.appendFds.clear();
  }

  /** An append descriptor of `file`, opened once: opening and closing it per entry cost more than the write. */
  private appendFd(file: string): number {
    let fd = this.appendFds.get(file);
    if (fd === undefined) {
      fd = openSync(file, 'a');
      this.appendFds.set(file, fd);
    }
    return fd;
  }

  /** The ids this writer wrote to `file` (empty when none). */
  idsWrittenTo(file: string): Set<string> {
    let ids = this.writtenIds.get(file);
    if (ids === undefined) {
      ids = new Set();
      this.writtenIds.set(file, ids);
    }
    return ids;
  }

  /** BFCL parity: base_handler.py::write (update mode) — existing entries are re-dumped as ASCII JSON. */
  private mergedEntries(file: string): Map<string, string> {
    let entries = this.merged.get(file);
    if (entries === undefined) {
      entries = new Map();
      if (existsSync(file)) {
        for (const line of readExistingLines(file)) {
          if (line.id === undefined) continue;
          entries.set(line.id, resultLineText(parseJsonLossless(line.text) as PyDict));
        }
      }
      this.merged.set(file, entries);
    }
    return entries;
  }

  private ensureDir(dir: string): void {
    if (this.createdDirs.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    this.createdDirs.add(dir);
  }
}

/** Every `BFCL_v4_*_result.json` under `dir`, in sorted path order. */
export function findResultFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  const walk = (current: string): void => {
    const entries = readdirSync(current, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.startsWith(`${VERSION_PREFIX}_`) && entry.name.endsWith('_result.json')) found.push(path);
    }
  };
  walk(dir);
  return found;
}

/**
 * BFCL parity: utils.py::sort_file_content_by_id — sort the entries by id and rewrite the file
 * (`ensure_ascii=False`) only when the order changed. Returns whether the file was rewritten.
 * Throws when a line cannot be read or an id has no sort key (the reference fails there too).
 */
export function sortResultFile(file: string, ownIds: ReadonlySet<string> = new Set()): boolean {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((text) => text.trim() !== '');
  // Ids are read from the line starts first: parsing large multi-turn lines is needed only to rewrite.
  const ids = lines.map((text) => LEADING_ID.exec(text)?.[1] ?? idOfLine(text, file));
  const order = ids.map((id, index) => ({ index, key: sortKey(id) }));
  order.sort((a, b) => compareSortKeys(a.key, b.key) || a.index - b.index);
  if (order.every((item, i) => item.index === i)) return false;
  const text = order.map(({ index }) => `${unicodeLineText(lines[index]!, ownIds.has(ids[index]!))}\n`).join('');
  writeFileAtomic(file, text);
  return true;
}

/**
 * A line as `json.dumps(json.loads(line), ensure_ascii=False)`. Lines this run wrote are already
 * `json.dumps` output, so only their non-ASCII escapes change: they are turned into characters
 * directly (parsing and re-dumping a large multi-turn line costs far more). Other lines (written by
 * earlier runs or other tools) are re-dumped.
 */
function unicodeLineText(line: string, ownLine: boolean): string {
  if (!ownLine) return resultLineText(parseJsonLossless(line) as PyDict, false);
  return line.includes('\\u') ? line.replace(JSON_ESCAPE, unescapeNonAscii) : line;
}

/** One escape of a JSON string (`\uXXXX` or `\` plus one character), so `\\u` is never mistaken for `\u`. */
const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|.)/g;

/**
 * `ensure_ascii=True` escapes everything outside space..`~`; `ensure_ascii=False` only control
 * characters below U+0020 (and `"`, `\\`), so escapes from U+007F (DEL) up become characters.
 */
function unescapeNonAscii(escape: string, hex: string | undefined): string {
  if (hex === undefined) return escape;
  const code = Number.parseInt(hex, 16);
  return code >= 0x7f ? String.fromCharCode(code) : escape;
}

/** `{"id": "<plain id>", ...` as every result line starts. */
const LEADING_ID = /^\{"id": "([\w.:=&\-]+)"[,}]/;

function idOfLine(text: string, file: string): string {
  const entry = parseJsonLossless(text);
  const id = entry instanceof Map ? entry.get('id') : undefined;
  if (typeof id !== 'string') throw new Error(`a line without an "id" in ${file}`);
  return id;
}

/** Writes every byte (a single write may be partial). */
function writeAll(fd: number, bytes: Buffer): void {
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
}

/** Write through a temporary file and a rename, so a crash never leaves a half-written file. */
function writeFileAtomic(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}

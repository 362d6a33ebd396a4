/**
 * Result files of one model (base_handler.py::write, utils.py::sort_file_content_by_id):
 * `<result dir>/<model dir>/<group dir>/BFCL_v4_<category>_result.json`, one JSON line per entry.
 *
 * Normal mode appends each finished entry at once (`json.dumps`, ASCII), so an interrupted run keeps
 * everything it finished; update mode (`--run-ids`) merges entries by id and rewrites the file sorted;
 * replace mode (`--allow-overwrite`) writes aside and replaces a file only once its new results are complete.
 * At the end of a run the files are re-sorted by id, and rewritten only when the order changed.
 */

import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
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
import { isInferenceErrorLine, permanentErrorCause } from './infer-entry.js';

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
  /** 1-based line number in the file. */
  readonly number: number;
  /** Undefined when the line is not a JSON object with a string `id` (see `problem`). */
  readonly id: string | undefined;
  /** Why the line cannot be used (undefined for a usable line). */
  readonly problem: string | undefined;
  readonly inferenceError: boolean;
  /** The cause of a permanent error line (`HTTP 400`), else undefined. */
  readonly permanentCause: string | undefined;
}

function readExistingLines(file: string): ExistingLine[] {
  const lines: ExistingLine[] = [];
  const texts = readFileSync(file, 'utf8').split('\n');
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index]!;
    if (text.trim() === '') continue;
    const number = index + 1;
    let parsed: PyValue;
    try {
      parsed = parseJsonLossless(text);
    } catch {
      lines.push({ text, number, id: undefined, problem: 'not valid JSON (cut short?)', inferenceError: false, permanentCause: undefined });
      continue;
    }
    const problem = idProblem(parsed);
    const id = problem === undefined ? ((parsed as PyDict).get('id') as string) : undefined;
    lines.push({ text, number, id, problem, inferenceError: isInferenceErrorLine(parsed), permanentCause: permanentErrorCause(parsed) });
  }
  return lines;
}

/** Why a parsed line has no usable id; undefined when it has one. */
function idProblem(parsed: PyValue): string | undefined {
  if (!(parsed instanceof Map)) return 'not a JSON object';
  const id = parsed.get('id');
  if (id === undefined) return 'no "id"';
  if (typeof id !== 'string') return `its "id" is not a string (${truncate(jsonDumps(id), 40)})`;
  return undefined;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** A line of an existing result file that cannot be used; it is dropped and its entry generated again. */
export interface UnreadableLine {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly reason: string;
}

/** An id with more than one line in a file; the first result line is kept, the others dropped. */
export interface DuplicateId {
  readonly file: string;
  readonly id: string;
  /** 1-based line numbers of every line with the id. */
  readonly lines: readonly number[];
}

/** What is already on disk for the selected categories. */
export interface ExistingResults {
  /** Ids with a result (not an inference error): skipped by this run. */
  readonly doneIds: ReadonlySet<string>;
  /** Ids whose last attempt failed (transient errors, and permanent ones with `retryErrors`): generated again. */
  readonly failedIds: ReadonlySet<string>;
  /** Ids whose last attempt failed for good (HTTP 400...), with the cause; skipped unless `retryErrors`. */
  readonly permanentIds: ReadonlyMap<string, string>;
  /** Lines that could not be read (dropped when the file is cleaned). */
  readonly unreadable: readonly UnreadableLine[];
  /** Ids written more than once in a file. */
  readonly duplicates: readonly DuplicateId[];
  /** Files that were read (with `--allow-overwrite`: the `.new` files of an interrupted run, resumed). */
  readonly scannedFiles: readonly string[];
}

/** What `scanExistingResults` needs to know about the run. */
export interface ScanOptions {
  readonly allowOverwrite: boolean;
  readonly runIds: boolean;
  /** `--retry-errors`: permanent errors are generated again too. */
  readonly retryErrors?: boolean;
}

/** Where an `--allow-overwrite` run writes a result file's new results until its category is complete. */
export function asideFileOf(file: string): string {
  return `${file}.new`;
}

/**
 * BFCL parity: _llm_response_generation.py::collect_test_cases — without `--allow-overwrite`, ids
 * already in the result files are skipped. Unlike the reference, an inference error does not count
 * as done (unless it is permanent and `retryErrors` is off), and `--allow-overwrite` deletes nothing:
 * its new results go to `<file>.new` and replace the file when its category is complete
 * (`ResultWriter` in replace mode), so the `.new` files of an interrupted overwrite are what is
 * scanned here (its finished entries are kept). With `--run-ids` and `--allow-overwrite` every
 * listed entry is regenerated in place.
 */
export function scanExistingResults(files: readonly string[], options: ScanOptions): ExistingResults {
  const doneIds = new Set<string>();
  const failedIds = new Set<string>();
  const permanentIds = new Map<string, string>();
  const unreadable: UnreadableLine[] = [];
  const duplicates: DuplicateId[] = [];
  const scannedFiles: string[] = [];
  if (options.allowOverwrite && options.runIds) return { doneIds, failedIds, permanentIds, unreadable, duplicates, scannedFiles };
  for (const target of files) {
    const file = options.allowOverwrite ? asideFileOf(target) : target;
    if (!existsSync(file)) continue;
    scannedFiles.push(file);
    const linesById = new Map<string, number[]>();
    for (const line of readExistingLines(file)) {
      if (line.id === undefined) {
        unreadable.push({ file, line: line.number, reason: line.problem ?? 'unreadable' });
        continue;
      }
      const numbers = linesById.get(line.id);
      if (numbers === undefined) linesById.set(line.id, [line.number]);
      else numbers.push(line.number);
      if (!line.inferenceError) doneIds.add(line.id);
      else if (line.permanentCause !== undefined && options.retryErrors !== true) permanentIds.set(line.id, line.permanentCause);
      else failedIds.add(line.id);
    }
    for (const [id, lines] of linesById) if (lines.length > 1) duplicates.push({ file, id, lines });
  }
  for (const id of doneIds) {
    failedIds.delete(id);
    permanentIds.delete(id);
  }
  for (const id of failedIds) permanentIds.delete(id);
  return { doneIds, failedIds, permanentIds, unreadable, duplicates, scannedFiles };
}

/**
 * Before generating `regenerate`: clean the files, keeping every other line byte for byte. Dropped:
 * unreadable lines; error lines of ids that are generated again or that also have a result; and of
 * an id written more than once, every line but the first result (or the first error line when it
 * has no result). Returns the files rewritten.
 */
export function removeStaleLines(files: readonly string[], regenerate: ReadonlySet<string>): string[] {
  const rewritten: string[] = [];
  for (const file of files) {
    if (!existsSync(file)) continue;
    const lines = readExistingLines(file);
    const withResult = new Set(lines.flatMap((line) => (line.id !== undefined && !line.inferenceError ? [line.id] : [])));
    const kept: ExistingLine[] = [];
    const keptIds = new Set<string>();
    for (const line of lines) {
      if (line.id === undefined || keptIds.has(line.id)) continue;
      if (line.inferenceError && (regenerate.has(line.id) || withResult.has(line.id))) continue;
      kept.push(line);
      keptIds.add(line.id);
    }
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

/**
 * How a `ResultWriter` writes: `append` each entry to its file (normal runs); `update` (`--run-ids`)
 * merges entries by id and rewrites the file sorted; `replace` (`--allow-overwrite`) appends to the
 * file's `.new` twin and, once every expected entry of the file is written, sorts it and renames it
 * over the file, so the old results stay until the new ones are complete.
 */
export type WriteMode = 'append' | 'update' | 'replace';

/** Writes finished entries of one model into its result files. */
export class ResultWriter {
  private readonly createdDirs = new Set<string>();
  /** Result files kept open for appending (normal mode), until `close()`. */
  private readonly appendFds = new Map<string, number>();
  /** Ids written by this writer, per file (their lines are known to be `resultLineText` output). */
  private readonly writtenIds = new Map<string, Set<string>>();
  /** Update mode: file → id → line text, kept sorted on every write. */
  private readonly merged = new Map<string, Map<string, string>>();
  /** Replace mode: entries still expected per result file. */
  private readonly expected = new Map<string, number>();
  /** Replace mode: files whose new results replaced the old ones. */
  readonly replacedFiles: string[] = [];

  /**
   * `modelDir` is `<result dir>/<model dir>`. In replace mode, `expected` gives the number of
   * entries the run will write per result file; a file whose `.new` twin already holds everything
   * (a resumed overwrite with nothing left to do) is replaced at once.
   */
  constructor(
    readonly modelDir: string,
    private readonly mode: WriteMode,
    expected: ReadonlyMap<string, number> = new Map(),
  ) {
    for (const [file, count] of expected) {
      this.expected.set(file, count);
      if (count === 0 && mode === 'replace' && existsSync(asideFileOf(file))) this.replace(file);
    }
  }

  /** Write one finished entry (a result or an error line); returns the file written. */
  write(line: PyDict): string {
    const id = line.get('id') as string;
    const file = resultFileOfId(this.modelDir, id);
    this.ensureDir(dirname(file));
    const text = resultLineText(line);
    const mode = this.mode;
    if (mode === 'append') {
      this.idsWrittenTo(file).add(id);
      writeAll(this.appendFd(file), Buffer.from(`${text}\n`, 'utf8'));
      return file;
    }
    if (mode === 'replace') {
      const aside = asideFileOf(file);
      this.idsWrittenTo(aside).add(id);
      writeAll(this.appendFd(aside), Buffer.from(`${text}\n`, 'utf8'));
      const left = (this.expected.get(file) ?? 1) - 1;
      this.expected.set(file, left);
      if (left === 0) this.replace(file);
      return file;
    }
    this.idsWrittenTo(file).add(id);
    const entries = this.mergedEntries(file);
    entries.set(id, text);
    const ids = [...entries.keys()].map((key) => ({ key, sortKey: sortKey(key) }));
    ids.sort((a, b) => compareSortKeys(a.sortKey, b.sortKey));
    writeFileAtomic(file, ids.map(({ key }) => `${entries.get(key)!}\n`).join(''));
    return file;
  }

  /** Replace mode: `.new` files left because their category did not complete (interrupted, stopped). */
  unfinishedAsideFiles(): string[] {
    return [...this.expected].flatMap(([file, left]) => (left > 0 && existsSync(asideFileOf(file)) ? [asideFileOf(file)] : []));
  }

  /** The complete new results of `file`: sorted as the end of a run sorts, then renamed over the file. */
  private replace(file: string): void {
    const aside = asideFileOf(file);
    const fd = this.appendFds.get(aside);
    if (fd !== undefined) {
      closeSync(fd);
      this.appendFds.delete(aside);
    }
    sortResultFile(aside, this.idsWrittenTo(aside));
    renameSync(aside, file);
    // The file now holds what this writer wrote to its twin.
    for (const id of this.idsWrittenTo(aside)) this.idsWrittenTo(file).add(id);
    this.replacedFiles.push(file);
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

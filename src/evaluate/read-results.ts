import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { idInText } from '../data/json-file.js';
import { jsonDumps, parseJsonLossless, type ParseJsonOptions } from '../py/json.js';
import { JsonFragment } from '../py/json-fragment.js';
import type { PyDict, PyValue } from '../py/value.js';
import type { ResultEntry } from './runners/category-input.js';

/** A result line that could not be used, kept so that its entry fails instead of vanishing. */
export interface MalformedResultLine {
  readonly file: string;
  /** 1-based line number. */
  readonly line: number;
  /** The entry id when it could still be recognised in the text. */
  readonly id: string | undefined;
  readonly problem: string;
}

/** An id written on more than one readable line of a result file. */
export interface DuplicateResultId {
  readonly id: string;
  /** 1-based line numbers of every readable line with the id, in file order. */
  readonly lines: readonly number[];
  /** The line that is used (scored by `evaluate`, shown by `show`): see `chooseUsedLine`. */
  readonly usedLine: number;
}

/** The usable entries of a result file and the lines that were not. */
export interface ResultFileContent {
  readonly file: string;
  /** One entry per id (for a duplicated id, the used line), in file order. */
  readonly entries: ResultEntry[];
  readonly malformed: MalformedResultLine[];
  /** Ids on more than one readable line, in order of their first line. */
  readonly duplicates: DuplicateResultId[];
}

export interface ReadResultOptions {
  /**
   * Keep each line's `inference_log` as a `JsonFragment` (checked, not turned into Python values):
   * evaluation only copies it into score files, and it is most of a result file's bytes.
   */
  readonly inferenceLogAsText?: boolean;
  /** Stop after this many usable lines (a sample; lines after them are not read). */
  readonly maxEntries?: number;
}

const INFERENCE_LOG_AS_TEXT: ParseJsonOptions = {
  deferred: { keys: new Set(['inference_log']), read: (reader) => JsonFragment.read(reader) },
};

/** Whether a result line records a failed inference (`Error during inference: ...`, or a traceback). */
export function isInferenceErrorEntry(entry: ResultEntry): boolean {
  return (typeof entry.result === 'string' && entry.result.startsWith('Error during inference')) || entry.line.has('traceback');
}

/**
 * Of the lines of a duplicated id, the one that counts: the first that is not an inference error,
 * else the first. The reference has no rule (it stops on a result count that differs from the
 * dataset's); this is the line `bfcl generate` keeps when it cleans the file before its next run,
 * so the score of an entry does not change when generate tidies up.
 */
function chooseUsedLine(lines: readonly { entry: ResultEntry; line: number }[]): { entry: ResultEntry; line: number } {
  return lines.find((l) => !isInferenceErrorEntry(l.entry)) ?? lines[0]!;
}

/** Why a parsed line is not a result entry; undefined when it is one. */
function entryProblem(value: PyValue): string | undefined {
  if (!(value instanceof Map)) return 'not a JSON object';
  const id = value.get('id');
  if (id === undefined) return 'no "id"';
  if (typeof id !== 'string') return `its "id" is not a string (${truncate(jsonDumps(id), 40)})`;
  return undefined;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * Read a JSON Lines result file with Python value semantics. A bad line is reported with its
 * file and line (and its id when the text still shows one) instead of failing the whole file; an
 * id on several lines is reported with its lines, and one of them is used (`chooseUsedLine`).
 */
export function readResultFile(file: string, options: ReadResultOptions = {}): ResultFileContent {
  const parseOptions = options.inferenceLogAsText === true ? INFERENCE_LOG_AS_TEXT : {};
  const read: { entry: ResultEntry; line: number }[] = [];
  const malformed: MalformedResultLine[] = [];
  const maxEntries = options.maxEntries ?? Infinity;
  const seen = new Set<string>();
  let duplicated = false;
  eachLine(readFileSync(file), (text, index) => {
    if (read.length >= maxEntries) return false;
    if (text.trim() === '') return;
    const lineNumber = index + 1;
    let value;
    try {
      value = parseJsonLossless(text, parseOptions);
    } catch (error) {
      const id = idInText(text);
      malformed.push({ file, line: lineNumber, id, problem: `invalid JSON: ${(error as Error).message}` });
      return;
    }
    const problem = entryProblem(value);
    if (problem !== undefined) {
      malformed.push({ file, line: lineNumber, id: undefined, problem });
      return;
    }
    const line = value as PyDict;
    const id = line.get('id') as string;
    if (seen.has(id)) duplicated = true;
    else seen.add(id);
    read.push({ entry: { id, result: line.get('result') ?? null, line }, line: lineNumber });
  });
  if (!duplicated) return { file, entries: read.map((r) => r.entry), malformed, duplicates: [] };
  return { file, ...usedLines(read), malformed };
}

/** One entry per id, and the ids that had several lines (rare: only files with duplicates get here). */
function usedLines(read: readonly { entry: ResultEntry; line: number }[]): { entries: ResultEntry[]; duplicates: DuplicateResultId[] } {
  const byId = new Map<string, { entry: ResultEntry; line: number }[]>();
  for (const r of read) {
    const lines = byId.get(r.entry.id);
    if (lines === undefined) byId.set(r.entry.id, [r]);
    else lines.push(r);
  }
  const used = new Set<number>();
  const duplicates: DuplicateResultId[] = [];
  for (const [id, lines] of byId) {
    const chosen = chooseUsedLine(lines);
    used.add(chosen.line);
    if (lines.length > 1) duplicates.push({ id, lines: lines.map((l) => l.line), usedLine: chosen.line });
  }
  return { entries: read.filter((r) => used.has(r.line)).map((r) => r.entry), duplicates };
}

/** What a result file had besides one readable line per id. */
export type ResultFileIssues = Pick<ResultFileContent, 'file' | 'malformed' | 'duplicates'>;

/** Whether a result file had lines that were skipped or ids on several lines. */
export function hasResultFileIssues(content: ResultFileIssues): boolean {
  return content.malformed.length > 0 || content.duplicates.length > 0;
}

/** How many lines of each kind a warning lists before it says how many more there are. */
const LISTED_PER_KIND = 10;

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The one warning about a result file's unreadable lines and duplicated ids, the same in every
 * command that reads the file (`evaluate`, `show`, `report`, `diff`); undefined when there is
 * nothing to say. Newline-terminated.
 */
export function formatResultFileWarning(content: ResultFileIssues): string | undefined {
  if (!hasResultFileIssues(content)) return undefined;
  const counts: string[] = [];
  if (content.malformed.length > 0) counts.push(plural(content.malformed.length, 'unreadable line', 'unreadable lines'));
  if (content.duplicates.length > 0) counts.push(plural(content.duplicates.length, 'id on more than one line', 'ids on more than one line'));
  const lines = [`Warning: ${content.file}: ${counts.join(', ')}`];
  for (const m of content.malformed.slice(0, LISTED_PER_KIND)) {
    lines.push(`  line ${m.line}: ${truncate(m.problem, 120)}${m.id === undefined ? '' : ` (id ${m.id})`}`);
  }
  if (content.malformed.length > LISTED_PER_KIND) lines.push(`  ... and ${content.malformed.length - LISTED_PER_KIND} more unreadable lines`);
  for (const d of content.duplicates.slice(0, LISTED_PER_KIND)) {
    lines.push(`  ${d.id}: lines ${d.lines.join(', ')}; line ${d.usedLine} is used`);
  }
  if (content.duplicates.length > LISTED_PER_KIND) lines.push(`  ... and ${content.duplicates.length - LISTED_PER_KIND} more ids on more than one line`);
  if (content.duplicates.length > 0) lines.push('  Of an id on several lines the first line that is not an inference error is used (the one the next `bfcl generate` keeps).');
  return `${lines.join('\n')}\n`;
}

/**
 * The lines of UTF-8 `bytes` (split on `\n`, as `text.split('\n')` of the decoded text), each
 * decoded on its own: a line without non-ASCII characters becomes a compact one-byte string even
 * when other lines of the file have some (decoding the whole file made every line two-byte, and
 * reading the real run's multi-turn results took 20 ms to decode instead of 8). `visit` returns false to stop.
 */
export function eachLine(bytes: Buffer, visit: (text: string, index: number) => boolean | void): void {
  let start = 0;
  for (let index = 0; ; index++) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    // An ASCII line is its own Latin-1 text, which node copies instead of running the UTF-8 decoder.
    const encoding = isAscii(bytes.subarray(start, stop)) ? 'latin1' : 'utf8';
    if (visit(bytes.toString(encoding, start, stop), index) === false) return;
    if (end === -1) return;
    start = end + 1;
  }
}

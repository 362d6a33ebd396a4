import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { idInText } from '../data/json-file.js';
import { parseJsonLossless, type ParseJsonOptions } from '../py/json.js';
import { JsonFragment } from '../py/json-fragment.js';
import type { PyDict } from '../py/value.js';
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

/** The usable entries of a result file and the lines that were not. */
export interface ResultFileContent {
  readonly entries: ResultEntry[];
  readonly malformed: MalformedResultLine[];
}

export interface ReadResultOptions {
  /**
   * Keep each line's `inference_log` as a `JsonFragment` (checked, not turned into Python values):
   * evaluation only copies it into score files, and it is most of a result file's bytes.
   */
  readonly inferenceLogAsText?: boolean;
  /** Stop after this many usable entries (a sample; lines after them are not read). */
  readonly maxEntries?: number;
}

const INFERENCE_LOG_AS_TEXT: ParseJsonOptions = {
  deferred: { keys: new Set(['inference_log']), read: (reader) => JsonFragment.read(reader) },
};

/**
 * Read a JSON Lines result file with Python value semantics. A bad line is reported with its
 * file and line (and its id when the text still shows one) instead of failing the whole file.
 */
export function readResultFile(file: string, options: ReadResultOptions = {}): ResultFileContent {
  const parseOptions = options.inferenceLogAsText === true ? INFERENCE_LOG_AS_TEXT : {};
  const entries: ResultEntry[] = [];
  const malformed: MalformedResultLine[] = [];
  const maxEntries = options.maxEntries ?? Infinity;
  eachLine(readFileSync(file), (text, index) => {
    if (entries.length >= maxEntries) return false;
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
    if (!(value instanceof Map) || typeof value.get('id') !== 'string') {
      malformed.push({ file, line: lineNumber, id: undefined, problem: 'not an object with a string "id"' });
      return;
    }
    const line = value as PyDict;
    entries.push({ id: line.get('id') as string, result: line.get('result') ?? null, line });
  });
  return { entries, malformed };
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

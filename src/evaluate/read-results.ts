import { readFileSync } from 'node:fs';
import { parseJsonLossless } from '../py/json.js';
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

const ID_IN_TEXT = /"id"\s*:\s*"((?:[^"\\]|\\.)*)"/;

/**
 * Read a JSON Lines result file with Python value semantics. A bad line is reported with its
 * file and line (and its id when the text still shows one) instead of failing the whole file.
 */
export function readResultFile(file: string): ResultFileContent {
  const entries: ResultEntry[] = [];
  const malformed: MalformedResultLine[] = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    const lineNumber = index + 1;
    let value;
    try {
      value = parseJsonLossless(text);
    } catch (error) {
      const id = ID_IN_TEXT.exec(text)?.[1];
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

/**
 * The `json.dumps(..., ensure_ascii=False)` texts of a JSON-lines file's member values, made once
 * when the parsed file goes into the cache and read back with it. A score file repeats the dataset
 * entry (`prompt`) and its ground truth (`possible_answer`) of every failed entry; encoding them
 * again on every run was 5% of the instructions of evaluating a real run.
 *
 * A text stands for one value object: it is used only for the very object the line holds (shared,
 * read-only, like every loaded value), so a copied or changed member is never given a stale text.
 */

import { jsonDumps, jsonString } from '../py/json.js';
import { KnownJsonText } from '../py/known-json-text.js';
import type { PyDict, PyValue } from '../py/value.js';
import { utf8Concat } from '../util/utf8-concat.js';

/**
 * What the cache stores next to a file's parsed lines: every member text in UTF-8, joined (bytes,
 * not a string: read back without a copy on the JS heap, and half the size of a string with one
 * character past Latin-1), and the byte offset where each ends. An empty text stands for a member
 * without one (no JSON text is empty).
 */
export type StoredLineTexts = readonly [utf8: Buffer, ends: readonly number[]];

/** A lone surrogate, which UTF-8 cannot carry (`ensure_ascii=False` writes it as it is). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Member texts of every line, in line order, then key order. */
export function lineTextsOf(lines: readonly PyDict[]): StoredLineTexts {
  const texts: string[] = [];
  for (const line of lines) {
    for (const value of line.values()) {
      const text = jsonDumps(value, { ensureAscii: false });
      texts.push(LONE_SURROGATE.test(text) ? '' : text);
    }
  }
  const { bytes, ends } = utf8Concat(texts);
  return [bytes, ends];
}

/** The stored member texts of a file's lines (`lines` as parsed, before any copy). */
export class LineTexts {
  /** Index in `ends` of each line's first member (made on first use). */
  private firstMember: Int32Array | undefined;

  constructor(
    private readonly lines: readonly PyDict[],
    private readonly stored: StoredLineTexts,
  ) {}

  /** Whether the stored texts fit these lines (a member count that disagrees means a foreign blob). */
  static fits(lines: readonly PyDict[], stored: StoredLineTexts): boolean {
    let members = 0;
    for (const line of lines) members += line.size;
    return Buffer.isBuffer(stored[0]) && members === stored[1].length && (members === 0 || stored[1][members - 1] === stored[0].length);
  }

  /** The text of `value` when it is the very object that member `key` of line `index` holds. */
  memberText(index: number, key: string, value: PyValue): string | undefined {
    const line = this.lines[index];
    if (line === undefined || line.get(key) !== value || typeof value !== 'object' || value === null) return undefined;
    let position = 0;
    for (const k of line.keys()) {
      if (k === key) break;
      position++;
    }
    return this.textOfMember(index, position);
  }

  /**
   * `value` for a score file: a dict made from line `index` (a copy, maybe with keys removed, added
   * or replaced) with its known member texts, or a value that one of the line's members is, as a
   * `KnownJsonText`; any other value as it is.
   */
  withKnownText(index: number, value: PyValue): PyValue {
    const line = this.lines[index];
    if (line === undefined || typeof value !== 'object' || value === null) return value;
    if (value instanceof Map) return this.dictWithKnownTexts(index, value as PyDict);
    let position = 0;
    for (const member of line.values()) {
      if (member === value) {
        const text = this.textOfMember(index, position);
        return text === undefined ? value : new KnownJsonText(value, text);
      }
      position++;
    }
    return value;
  }

  /** The stored text of the member at `position` (in key order) of line `index`; undefined when none was kept. */
  private textOfMember(index: number, position: number): string | undefined {
    const member = this.firstMemberOf(index) + position;
    const ends = this.stored[1];
    const start = member === 0 ? 0 : ends[member - 1]!;
    return ends[member]! > start ? this.stored[0].toString('utf8', start, ends[member]) : undefined;
  }

  private dictWithKnownTexts(index: number, dict: PyDict): PyValue {
    let known = 0;
    const texts: string[] = [];
    for (const [key, value] of dict) {
      if (typeof key !== 'string') return dict; // loaded dicts have str keys only
      const memberText = this.memberText(index, key, value);
      if (memberText !== undefined) known++;
      // Other members as the score file writes them (json.dumps of make_json_serializable).
      texts.push(`${jsonString(key, false)}: ${memberText ?? jsonDumps(value, { ensureAscii: false, strFallback: true })}`);
    }
    return known === 0 ? dict : new KnownJsonText(dict, `{${texts.join(', ')}}`);
  }

  private firstMemberOf(index: number): number {
    if (this.firstMember === undefined) {
      const first = new Int32Array(this.lines.length);
      let member = 0;
      for (let i = 0; i < this.lines.length; i++) {
        first[i] = member;
        member += this.lines[i]!.size;
      }
      this.firstMember = first;
    }
    return this.firstMember[index]!;
  }
}

/**
 * A fast path for JSON text that Python's `json.dumps` wrote, done with regular expressions (and,
 * for the text of a failed entry, the native JSON parser) instead of a character loop in
 * JavaScript. A result file's `inference_log` is most of its bytes; the loop (`canonicalJsonAt`)
 * ran cold, in V8's interpreter, for most of a run. Anything these checks do not vouch for goes to
 * the exact path (src/py/json-fragment.ts).
 */

import { floatText, numberTokenEnd } from './json.js';

/**
 * `regex.test(text)` from `from` (a sticky regex): the end of its match, or undefined when it does
 * not match or the regex engine gives up (its backtracking stack overflows on runs of many
 * megabytes). Callers then take the exact path.
 */
function stickyMatchEnd(regex: RegExp, text: string, from: number): number | undefined {
  regex.lastIndex = from;
  try {
    return regex.test(text) ? regex.lastIndex : undefined;
  } catch {
    return undefined;
  }
}

// JSON's tokens, as JSON.parse and json.loads read them (no NaN or Infinity: those go the exact path).
const STRING = String.raw`"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"`;
const NUMBER = String.raw`-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?`;
const SCALAR = `(?:${STRING}|${NUMBER}|true|false|null)`;
/** Scalar array items separated by `, ` (possibly none): each scalar is read once. */
const ARRAY_SCALARS = new RegExp(`(?:${SCALAR}(?:, ${SCALAR})*)?`, 'y');
/** Object members with scalar values separated by `, ` (possibly none). */
const OBJECT_SCALARS = new RegExp(`(?:${STRING}: ${SCALAR}(?:, ${STRING}: ${SCALAR})*)?`, 'y');
/** An object key and its `: ` (before a nested container). */
const KEY = new RegExp(`${STRING}: `, 'y');

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const SPACE = 0x20;

/**
 * The end of the array or object at `start` when it is valid JSON written with `json.dumps`'s
 * separators (`, ` and `: `, no other whitespace), else -1 (the caller then takes the exact path).
 * One regex reads each run of scalar items (each scalar once); JavaScript only steps in at nested
 * containers. Unlike `JSON.parse`, it builds nothing: on the real run that saved 2.5% of all
 * instructions.
 */
export function dumpsContainerEnd(text: string, start: number): number {
  let c = text.charCodeAt(start);
  if (c !== OPEN_ARRAY && c !== OPEN_OBJECT) return -1;
  const closers: number[] = [];
  let i = start;
  for (;;) {
    // `text[i]` opens a container.
    const closer = c === OPEN_ARRAY ? CLOSE_ARRAY : CLOSE_OBJECT;
    closers.push(closer);
    i++;
    // `expectItem`: an item must come next (a container's start, or after `, `); else an item has
    // just ended and `, ` or the closer comes next.
    let expectItem = text.charCodeAt(i) !== closer;
    for (;;) {
      const top = closers[closers.length - 1]!;
      if (expectItem) {
        const scalarsEnd = stickyMatchEnd(top === CLOSE_ARRAY ? ARRAY_SCALARS : OBJECT_SCALARS, text, i);
        if (scalarsEnd === undefined) return -1;
        if (scalarsEnd > i) {
          // Scalars were read: `, ` or the closer follows (below).
          i = scalarsEnd;
          expectItem = false;
          continue;
        }
        // A nested container is the next item (after its key in an object).
        if (top === CLOSE_OBJECT) {
          const keyEnd = stickyMatchEnd(KEY, text, i);
          if (keyEnd === undefined) return -1;
          i = keyEnd;
        }
        c = text.charCodeAt(i);
        if (c !== OPEN_ARRAY && c !== OPEN_OBJECT) return -1;
        break;
      }
      c = text.charCodeAt(i);
      if (c === top) {
        i++;
        closers.pop();
        if (closers.length === 0) return i;
        continue; // the parent's item has ended
      }
      if (c !== COMMA || text.charCodeAt(i + 1) !== SPACE) return -1;
      i += 2;
      // After `, ` an item is required; a container is handled by the branch above.
      expectItem = true;
    }
  }
}

/**
 * The number of object members in `JSON.parse` output. `JSON.parse` keeps one member per repeated
 * key, so fewer members than the text has keys means a repeated key.
 */
function memberCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) count += memberCount(value[i]);
    return count;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) count += 1 + memberCount(record[key]);
  return count;
}

/**
 * Runs of tokens as `json.dumps` writes them with its default separators, in either `ensure_ascii`
 * mode: strings with only the escapes it writes (one-letter ones, `\u00XX` for other control
 * characters, `\uXXXX` from DEL up), brackets, `, ` and `: `, ints without a leading zero (and not
 * `-0`), and the literals. Floats stop a run; they are checked one by one.
 */
const DUMPS_TOKENS =
  /(?:"[^"\\\x00-\x1f]*(?:\\(?:["\\nrtbf]|u(?:00(?:0[0-7bef]|1[0-9a-f]|7f|[89a-f][0-9a-f])|0[1-9a-f][0-9a-f]{2}|[1-9a-f][0-9a-f]{3}))[^"\\\x00-\x1f]*)*"|[[\]{}]|, |: |(?:0|-?[1-9][0-9]*)(?![.eE0-9])|true|false|null)*/y;

/** Whether every token of the (valid) JSON `text` is written as `json.dumps` writes it. */
function hasDumpsTokens(text: string): boolean {
  let i = 0;
  for (;;) {
    const runEnd = stickyMatchEnd(DUMPS_TOKENS, text, i);
    if (runEnd === undefined) return false;
    i = runEnd;
    if (i === text.length) return true;
    const numberEnd = numberTokenEnd(text, i);
    if (numberEnd === -1) return false;
    const token = text.slice(i, numberEnd);
    if (floatText(Number(token)) !== token) return false; // `-0`, `1.50`, `1E5`...: not repr's spelling
    i = numberEnd;
  }
}

/**
 * The keys of the (dumps-spelled) JSON `text`: each `": ` whose quote closes a string, that is, is
 * not escaped (an even run of backslashes before it). Inside a string `": ` only follows an escaped quote.
 */
function keyCount(text: string): number {
  let count = 0;
  for (let i = text.indexOf('": '); i !== -1; i = text.indexOf('": ', i + 3)) {
    let backslashes = 0;
    while (text.charCodeAt(i - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) count++;
  }
  return count;
}

/** An escape sequence; group 1 is the hex of a `\uXXXX` that `ensure_ascii=False` writes as the character. */
const ESCAPE = /\\(?:u(00(?:7f|[89a-f][0-9a-f])|0[1-9a-f][0-9a-f]{2}|[1-9a-f][0-9a-f]{3})|[^])/g;

/**
 * `json.dumps(json.loads(text), ensure_ascii=False)` when the valid JSON `text` is already the
 * output of `json.dumps` in either `ensure_ascii` mode, else undefined. Only `\uXXXX` escapes of
 * characters from DEL up then need decoding.
 */
export function unicodeDumpsText(text: string): string | undefined {
  if (!hasDumpsTokens(text) || keyCount(text) !== memberCount(JSON.parse(text))) return undefined;
  if (!text.includes('\\u')) return text;
  return text.replace(ESCAPE, (escape: string, hex: string | undefined) => (hex === undefined ? escape : String.fromCharCode(parseInt(hex, 16))));
}

/**
 * A fast path for JSON text that Python's `json.dumps` wrote, done with the native JSON parser and
 * regular expressions instead of a character loop in JavaScript. A result file's `inference_log` is
 * most of its bytes; the loop (`canonicalJsonAt`) ran cold, in V8's interpreter, for most of a run.
 * Anything these checks do not vouch for goes to the exact path (src/py/json-fragment.ts).
 */

import { floatText } from './json.js';

/** A run of whole string tokens and characters that are neither quotes nor brackets. */
const RUN_TO_BRACKET = /(?:"(?:[^"\\]|\\[^])*"|[^"[\]{}])*/y;

/**
 * `regex.test(text)` from `from` (a sticky regex), or undefined when the regex engine gives up: its
 * backtracking stack overflows on runs of many megabytes. Callers then take the exact path.
 */
function stickyMatchEnd(regex: RegExp, text: string, from: number): number | undefined {
  regex.lastIndex = from;
  try {
    regex.test(text);
  } catch {
    return undefined;
  }
  return regex.lastIndex;
}

/**
 * The end of the array or object that starts at `start`, found by counting brackets outside
 * strings, or -1 when `text[start]` opens none, the brackets do not balance, or a run is too long
 * for the regex engine. Says nothing about validity: the caller checks the slice with the native parser.
 */
export function containerEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first !== 0x5b && first !== 0x7b) return -1;
  let depth = 0;
  let i = start;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) {
      if (--depth === 0) return i + 1;
    } else return -1; // the end of the text, or an unterminated string
    const next = stickyMatchEnd(RUN_TO_BRACKET, text, i + 1);
    if (next === undefined) return -1;
    i = next;
  }
}

/**
 * The number of object members in `JSON.parse` output. `JSON.parse` keeps one member per repeated
 * key, so fewer members than the text has keys means a repeated key.
 */
export function memberCount(value: unknown): number {
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
  /(?:"(?:[^"\\\x00-\x1f]|\\["\\nrtbf]|\\u(?:00(?:0[0-7bef]|1[0-9a-f]|7f|[89a-f][0-9a-f])|0[1-9a-f][0-9a-f]{2}|[1-9a-f][0-9a-f]{3}))*"|[[\]{}]|, |: |(?:0|-?[1-9][0-9]*)(?![.eE0-9])|true|false|null)*/y;
const NUMBER_TOKEN = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;

/** Whether every token of the (valid) JSON `text` is written as `json.dumps` writes it. */
function hasDumpsTokens(text: string): boolean {
  let i = 0;
  for (;;) {
    const runEnd = stickyMatchEnd(DUMPS_TOKENS, text, i);
    if (runEnd === undefined) return false;
    i = runEnd;
    if (i === text.length) return true;
    NUMBER_TOKEN.lastIndex = i;
    if (!NUMBER_TOKEN.test(text)) return false;
    const token = text.slice(i, NUMBER_TOKEN.lastIndex);
    if (floatText(Number(token)) !== token) return false; // `-0`, `1.50`, `1E5`...: not repr's spelling
    i = NUMBER_TOKEN.lastIndex;
  }
}

/** A key's closing quote (one not escaped: an even run of backslashes before it) and its `: `. */
const KEY_END = /(?<!\\)(?:\\\\)*": /g;

function keyCount(text: string): number {
  let count = 0;
  KEY_END.lastIndex = 0;
  while (KEY_END.test(text)) count++;
  return count;
}

/** An escape sequence; group 1 is the hex of a `\uXXXX` that `ensure_ascii=False` writes as the character. */
const ESCAPE = /\\(?:u(00(?:7f|[89a-f][0-9a-f])|0[1-9a-f][0-9a-f]{2}|[1-9a-f][0-9a-f]{3})|[^])/g;

/**
 * `json.dumps(json.loads(text), ensure_ascii=False)` when the valid JSON `text` (`members`: its
 * member count from `memberCount`) is already the output of `json.dumps` in either `ensure_ascii`
 * mode, else undefined. Only `\uXXXX` escapes of characters from DEL up then need decoding.
 */
export function unicodeDumpsText(text: string, members: number): string | undefined {
  if (!hasDumpsTokens(text) || keyCount(text) !== members) return undefined;
  if (!text.includes('\\u')) return text;
  return text.replace(ESCAPE, (escape: string, hex: string | undefined) => (hex === undefined ? escape : String.fromCharCode(parseInt(hex, 16))));
}

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

// JSON's tokens as json.dumps spells them (either `ensure_ascii` mode): strings with only the
// escapes it writes (one-letter ones, `\u00XX` for other control characters, `\uXXXX` from DEL up),
// ints without a leading zero (and not `-0`), and floats that are surely `repr`'s spelling: at most
// 15 significant digits (then the token is its double's shortest form, see json.ts's
// canonicalFloatEnd), no exponent, at least 1e-4, no trailing zero but a whole number's `.0`.
const DUMPS_STRING = String.raw`"[^"\\\x00-\x1f]*(?:\\(?:["\\nrtbf]|u(?:00(?:0[0-7bef]|1[0-9a-f]|7f|[89a-f][0-9a-f])|0[1-9a-f][0-9a-f]{2}|[1-9a-f][0-9a-f]{3}))[^"\\\x00-\x1f]*)*"`;
const SURE_FLOAT = String.raw`-?(?:[1-9][0-9]{0,14}\.0|0\.0|[1-9][0-9]{0,6}\.[0-9]{0,7}[1-9]|0\.0{0,3}[1-9](?:[0-9]{0,12}[1-9])?)`;
const DUMPS_SCALAR = `(?:${DUMPS_STRING}|(?:${SURE_FLOAT}|0|-?[1-9][0-9]*)(?![.eE0-9])|true|false|null)`;
/** Scalar array items separated by `, ` (possibly none): each scalar is read once. */
const ARRAY_SCALARS = new RegExp(`(?:${DUMPS_SCALAR}(?:, ${DUMPS_SCALAR})*)?`, 'y');
/** Object members with scalar values separated by `, ` (possibly none). */
const OBJECT_SCALARS = new RegExp(`(?:${DUMPS_STRING}: ${DUMPS_SCALAR}(?:, ${DUMPS_STRING}: ${DUMPS_SCALAR})*)?`, 'y');
/** An object key and its `: ` (before a nested container, or a value the run did not take). */
const DUMPS_KEY = new RegExp(`${DUMPS_STRING}: `, 'y');
const ONE_DUMPS_SCALAR = new RegExp(DUMPS_SCALAR, 'y');

// A string as JSON.parse and json.loads read it, for the rare one that json.dumps would spell otherwise.
const JSON_STRING = String.raw`"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"`;
const ONE_JSON_STRING = new RegExp(JSON_STRING, 'y');
const JSON_KEY = new RegExp(`${JSON_STRING}: `, 'y');

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const SPACE = 0x20;
const QUOTE = 0x22;

/** An array or object the fast path vouches for. */
export interface DumpsShapedContainer {
  /** Where it ends in the text. */
  readonly end: number;
  /**
   * Whether every token is spelled as `json.dumps` spells it: the text is then its own `json.dumps`
   * form (in either `ensure_ascii` mode) unless a key repeats, see `unicodeTextOfDumpsTokens`.
   */
  readonly dumpsTokens: boolean;
}

/**
 * The array or object at `start` when it is valid JSON written with `json.dumps`'s separators
 * (`, ` and `: `, no other whitespace), else undefined (the caller then takes the exact path).
 * One regex reads each run of scalar items in `json.dumps`'s spelling (each scalar once);
 * JavaScript only steps in at nested containers and at the rare token spelled otherwise (a float
 * `repr` may not write alike is checked on its own). Unlike `JSON.parse`, it builds nothing: on the
 * real run that saved 2.5% of all instructions.
 */
export function dumpsShapedContainer(text: string, start: number): DumpsShapedContainer | undefined {
  let c = text.charCodeAt(start);
  if (c !== OPEN_ARRAY && c !== OPEN_OBJECT) return undefined;
  const closers: number[] = [];
  let dumpsTokens = true;
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
        if (scalarsEnd === undefined) return undefined;
        if (scalarsEnd > i) {
          // Scalars were read: `, ` or the closer follows (below).
          i = scalarsEnd;
          expectItem = false;
          continue;
        }
        // The run stopped at this item: a nested container, or a token in another spelling.
        if (top === CLOSE_OBJECT) {
          let keyEnd = stickyMatchEnd(DUMPS_KEY, text, i);
          if (keyEnd === undefined) {
            keyEnd = stickyMatchEnd(JSON_KEY, text, i);
            if (keyEnd === undefined) return undefined;
            dumpsTokens = false;
          }
          i = keyEnd;
        }
        c = text.charCodeAt(i);
        if (c === OPEN_ARRAY || c === OPEN_OBJECT) break;
        // A scalar value after a key in another spelling, or a scalar the dumps grammar refused.
        let end = stickyMatchEnd(ONE_DUMPS_SCALAR, text, i);
        if (end === undefined) {
          const otherEnd = c === QUOTE ? stickyMatchEnd(ONE_JSON_STRING, text, i) : numberTokenEnd(text, i);
          if (otherEnd === undefined || otherEnd === -1) return undefined;
          // Such a string is spelled otherwise; a number may still be `repr`'s spelling (`1e-05`, `0.7847423553466797`).
          if (c === QUOTE || !isReprSpelling(text.slice(i, otherEnd))) dumpsTokens = false;
          end = otherEnd;
        }
        i = end;
        expectItem = false;
        continue;
      }
      c = text.charCodeAt(i);
      if (c === top) {
        i++;
        closers.pop();
        if (closers.length === 0) return { end: i, dumpsTokens };
        continue; // the parent's item has ended
      }
      if (c !== COMMA || text.charCodeAt(i + 1) !== SPACE) return undefined;
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

/** Whether a JSON number token is spelled as `json.dumps` writes its value (`-0`, `1.50`, `1E5`: no). */
function isReprSpelling(token: string): boolean {
  return floatText(Number(token)) === token;
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
 * `json.dumps(json.loads(text), ensure_ascii=False)` of a container whose tokens are all in
 * `json.dumps`'s spelling (`dumpsTokens` of `dumpsShapedContainer`), or undefined when a key
 * repeats. Only `\uXXXX` escapes of characters from DEL up need decoding.
 */
export function unicodeTextOfDumpsTokens(text: string): string | undefined {
  if (keyCount(text) !== memberCount(JSON.parse(text))) return undefined;
  if (!text.includes('\\u')) return text;
  return text.replace(ESCAPE, (escape: string, hex: string | undefined) => (hex === undefined ? escape : String.fromCharCode(parseInt(hex, 16))));
}

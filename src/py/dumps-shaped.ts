/**
 * A fast path for JSON text that Python's `json.dumps` wrote, done with regular expressions and
 * `indexOf` instead of a character loop in JavaScript. A result file's `inference_log` is most of
 * its bytes; the loop (`canonicalJsonAt`) ran cold, in V8's interpreter, for most of a run.
 * Anything these checks do not vouch for goes to the exact path (src/py/json-fragment.ts).
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
const COLON = 0x3a;
const BACKSLASH = 0x5c;

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

/** Whether a JSON number token is spelled as `json.dumps` writes its value (`-0`, `1.50`, `1E5`: no). */
function isReprSpelling(token: string): boolean {
  return floatText(Number(token)) === token;
}

/** Past this many keys an object's keys are looked up in a set, not compared one by one. */
const KEYS_IN_A_LIST = 16;

/**
 * Whether an object of the valid JSON `text` has a key twice (`json.loads` then keeps one member,
 * so its text must be rebuilt). Walks from string to string with `indexOf`, building nothing but
 * the keys: a string followed by `:` is a key of the innermost open object, and braces count only
 * between strings.
 */
function hasRepeatedKey(text: string): boolean {
  const outer: (string[] | Set<string>)[] = [];
  let keys: string[] | Set<string> | undefined;
  let pos = 0;
  for (;;) {
    const quote = text.indexOf('"', pos);
    const between = quote === -1 ? text.length : quote;
    for (let i = pos; i < between; i++) {
      const c = text.charCodeAt(i);
      if (c === OPEN_OBJECT) {
        if (keys !== undefined) outer.push(keys);
        keys = [];
      } else if (c === CLOSE_OBJECT) {
        keys = outer.pop();
      }
    }
    if (quote === -1) return false;
    // The closing quote: the first one not escaped (an even run of backslashes before it).
    let close = text.indexOf('"', quote + 1);
    for (;;) {
      if (close === -1) return true; // not valid JSON after all: let the exact path judge it
      let backslashes = 0;
      while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) break;
      close = text.indexOf('"', close + 1);
    }
    pos = close + 1;
    if (text.charCodeAt(pos) !== COLON || keys === undefined) continue;
    const key = text.slice(quote, pos);
    if (Array.isArray(keys)) {
      if (keys.includes(key)) return true;
      keys.push(key);
      if (keys.length > KEYS_IN_A_LIST) keys = new Set(keys);
    } else {
      if (keys.has(key)) return true;
      keys.add(key);
    }
  }
}

/** An escape sequence; group 1 is the hex of a `\uXXXX` that `ensure_ascii=False` writes as the character. */
const ESCAPE = /\\(?:u(00(?:7f|[89a-f][0-9a-f])|0[1-9a-f][0-9a-f]{2}|[1-9a-f][0-9a-f]{3})|[^])/g;

/**
 * `json.dumps(json.loads(text), ensure_ascii=False)` of a container whose tokens are all in
 * `json.dumps`'s spelling (`dumpsTokens` of `dumpsShapedContainer`), or undefined when a key
 * repeats. Only `\uXXXX` escapes of characters from DEL up need decoding.
 */
export function unicodeTextOfDumpsTokens(text: string): string | undefined {
  if (hasRepeatedKey(text)) return undefined;
  if (!text.includes('\\u')) return text;
  return text.replace(ESCAPE, (escape: string, hex: string | undefined) => (hex === undefined ? escape : String.fromCharCode(parseInt(hex, 16))));
}

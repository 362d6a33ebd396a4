import { floatRepr, pyStr } from './repr.js';
import { PyException, PyObject, PyTuple, pyTypeName, type PyDict, type PyKey, type PyValue } from './value.js';

/** Options of Python's `json.dumps` that BFCL uses. */
export interface JsonDumpsOptions {
  /** `indent=N`; items are then separated by `,` + newline (Python's default with an indent). */
  indent?: number;
  /** `ensure_ascii` (default true): non-ASCII as `\uXXXX`. */
  ensureAscii?: boolean;
  /** `sort_keys` (default false). */
  sortKeys?: boolean;
  /** `separators=(item, key)`; default `(', ', ': ')`, or `(',', ': ')` with an indent. */
  separators?: [string, string];
  /**
   * Write values JSON cannot hold as their `str()`, in one pass: the same text as
   * `json.dumps(make_json_serializable(v))` (dicts and lists walked, anything else that fails
   * as a whole becomes a string).
   */
  strFallback?: boolean;
}

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};
const ASCII_SAFE = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;
const UNICODE_SAFE = /^[^\x00-\x1f"\\]*$/;

const ESCAPE_ASCII = /[\x00-\x1f"\\\x7f-\uffff]/g;
const ESCAPE_UNICODE = /[\x00-\x1f"\\]/g;

function escapeChar(ch: string): string {
  return ESCAPES[ch] ?? '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0');
}

/** Python `json.dumps` of a str (`encode_basestring_ascii` or `encode_basestring`). */
export function jsonString(s: string, ensureAscii = true): string {
  if ((ensureAscii ? ASCII_SAFE : UNICODE_SAFE).test(s)) return '"' + s + '"';
  // Every UTF-16 unit is escaped on its own, surrogates included, as CPython does.
  return '"' + s.replace(ensureAscii ? ESCAPE_ASCII : ESCAPE_UNICODE, escapeChar) + '"';
}

/** `json.dumps` of a float: `repr`, or NaN, Infinity, -Infinity. */
export function floatText(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  return floatRepr(x);
}

// Dict keys repeat from dict to dict (`name`, `type`, `role`...): the `"key": ` text of short ones
// is kept (on the real run the prompts' function docs encode 10% faster).
const keyTexts = [new Map<string, string>(), new Map<string, string>()] as const;
const KEY_TEXTS = 20_000;
const KEPT_KEY_LENGTH = 64;

/** `json.dumps` of a str key followed by the default key separator. */
function keyText(k: string, ensureAscii: boolean): string {
  const texts = keyTexts[ensureAscii ? 0 : 1];
  let text = texts.get(k);
  if (text === undefined) {
    if (texts.size >= KEY_TEXTS) texts.clear();
    text = jsonString(k, ensureAscii) + ': ';
    texts.set(k, text);
  }
  return text;
}

function jsonKey(k: PyKey, ensureAscii: boolean): string {
  if (typeof k === 'string') return jsonString(k, ensureAscii);
  if (typeof k === 'bigint') return '"' + k.toString() + '"';
  if (typeof k === 'number') return '"' + floatText(k) + '"';
  if (typeof k === 'boolean') return k ? '"true"' : '"false"';
  if (k === null) return '"null"';
  throw new PyException('TypeError', `keys must be str, int, float, bool or None, not ${pyTypeName(k)}`);
}

/** Python `json.dumps(v, ...)`; throws `PyException('TypeError')` for values JSON cannot hold. */
export function jsonDumps(v: PyValue, opts: JsonDumpsOptions = {}): string {
  const ensureAscii = opts.ensureAscii ?? true;
  const indent = opts.indent;
  const [itemSep, keySep] = opts.separators ?? (indent === undefined ? [', ', ': '] : [',', ': ']);
  const sortKeys = opts.sortKeys ?? false;
  const strFallback = opts.strFallback ?? false;
  const defaultLayout = indent === undefined && !sortKeys && itemSep === ', ' && keySep === ': ';

  // One output string built left to right (V8 concatenation is cheap); no per-level joins.
  let out = '';
  // Called only with an indent (the checks sit at the call sites: most dumps have none).
  const newline = (level: number): void => {
    out += '\n' + ' '.repeat(indent! * level);
  };
  const encode = (x: PyValue, level: number): void => {
    if (x === null) {
      out += 'null';
      return;
    }
    switch (typeof x) {
      case 'boolean':
        out += x ? 'true' : 'false';
        return;
      case 'bigint':
        out += x.toString();
        return;
      case 'number':
        out += floatText(x);
        return;
      case 'string':
        out += jsonString(x, ensureAscii);
        return;
    }
    if (Array.isArray(x) || x instanceof PyTuple) {
      if (strFallback && x instanceof PyTuple) {
        out += encodeWhole(x);
        return;
      }
      const list = Array.isArray(x) ? x : x.items;
      if (list.length === 0) {
        out += '[]';
        return;
      }
      out += '[';
      for (let i = 0; i < list.length; i++) {
        if (i > 0) out += itemSep;
        if (indent !== undefined) newline(level + 1);
        encode(list[i]!, level + 1);
      }
      if (indent !== undefined) newline(level);
      out += ']';
      return;
    }
    if (x instanceof Map) {
      if (x.size === 0) {
        out += '{}';
        return;
      }
      out += '{';
      let first = true;
      const item = (val: PyValue, k: PyKey): void => {
        if (!first) out += itemSep;
        first = false;
        if (indent !== undefined) newline(level + 1);
        out += typeof k === 'string' && k.length <= KEPT_KEY_LENGTH && keySep === ': ' ? keyText(k, ensureAscii) : jsonKey(k, ensureAscii) + keySep;
        encode(val, level + 1);
      };
      // forEach, not for-of: no [key, value] array per entry (most dumps run in cold code).
      if (sortKeys) for (const [k, val] of [...(x as PyDict)].sort(([a], [b]) => compareKeys(a, b))) item(val, k);
      else (x as PyDict).forEach(item);
      if (indent !== undefined) newline(level);
      out += '}';
      return;
    }
    if (x instanceof PyObject && x.jsonSerializable) {
      const text = defaultLayout ? x.jsonText(ensureAscii) : undefined;
      if (text !== undefined) out += text;
      else encode(x.jsonValue(), level);
      return;
    }
    if (strFallback) {
      out += encodeWhole(x);
      return;
    }
    const typeName = x instanceof PyObject ? x.pyTypeName : pyTypeName(x);
    throw new PyException('TypeError', `Object of type ${typeName} is not JSON serializable`);
  };
  // make_json_serializable keeps a non-dict, non-list value whole when json.dumps accepts it, else str()s it.
  const encodeWhole = (x: PyValue): string =>
    isJsonSerializable(x)
      ? jsonDumps(x, { ...opts, strFallback: false, indent: undefined })
      : jsonString(pyStr(x), ensureAscii);
  encode(v, 0);
  // Flatten the rope now: texts are often reused (request histories), and V8 re-walks a rope on every join.
  out.charCodeAt(0);
  return out;
}

function compareKeys(a: PyKey, b: PyKey): number {
  const sa = typeof a === 'string' ? a : String(a);
  const sb = typeof b === 'string' ? b : String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** A JSON syntax error with CPython's `json.JSONDecodeError` message text. */
export class JsonDecodeError extends PyException {
  constructor(
    readonly reason: string,
    readonly doc: string,
    readonly pos: number,
  ) {
    const line = (doc.slice(0, pos).match(/\n/g)?.length ?? 0) + 1;
    const col = pos - doc.lastIndexOf('\n', pos - 1);
    super('JSONDecodeError', `${reason}: line ${line} column ${col} (char ${pos})`);
  }
}

/** Text up to the next quote, backslash or control character (where a JSON string needs a closer look). */
const PLAIN_RUN = /[^"\\\x00-\x1f]*/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** JSON's whitespace (and `json.loads`'s): space, line feed, carriage return, tab. */
export function isJsonWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * A cursor over JSON text with CPython's acceptance rules and error messages; shared by
 * `parseJsonLossless` and the fragment re-encoder (src/py/json-fragment.ts).
 */
export class JsonReader {
  i = 0;
  constructor(readonly text: string) {}

  fail(reason: string, pos = this.i): never {
    throw new JsonDecodeError(reason, this.text, pos);
  }

  skipWs(): void {
    const text = this.text;
    let i = this.i;
    while (isJsonWhitespace(text.charCodeAt(i))) i++;
    this.i = i;
  }

  /**
   * Move past a string token (the cursor is at its opening quote). Returns whether it held a
   * backslash escape, i.e. whether its raw text differs from its value.
   */
  skipString(): boolean {
    const text = this.text;
    const start = this.i;
    PLAIN_RUN.lastIndex = start + 1;
    PLAIN_RUN.test(text);
    let i = PLAIN_RUN.lastIndex;
    if (text.charCodeAt(i) === 0x22) {
      this.i = i + 1;
      return false;
    }
    for (;;) {
      if (i >= text.length) this.fail('Unterminated string starting at', start);
      const code = text.charCodeAt(i);
      if (code === 0x22) break;
      if (code === 0x5c) {
        const esc = text[i + 1];
        if (esc === undefined) this.fail('Unterminated string starting at', start);
        if (esc === 'u') {
          if (!HEX4.test(text.slice(i + 2, i + 6))) this.fail('Invalid \\uXXXX escape', i + 1);
          i += 6;
        } else {
          if (SIMPLE_ESCAPES[esc!] === undefined) this.fail('Invalid \\escape', i);
          i += 2;
        }
        continue;
      }
      if (code < 0x20) this.fail('Invalid control character at', i);
      i++;
    }
    this.i = i + 1;
    return true;
  }

  /** The value of the string token at the cursor, moving past it. */
  parseString(): string {
    const start = this.i;
    const escaped = this.skipString();
    const end = this.i - 1;
    return escaped ? decodeEscapes(this.text, start + 1, end) : this.text.slice(start + 1, end);
  }

  /**
   * Move past a number or literal (`null`, `true`, `false`, `NaN`, `Infinity`, `-Infinity`) and
   * return its token; a number token is recognised by its first character.
   */
  scanScalar(): string {
    const text = this.text;
    const i = this.i;
    const literal = LITERAL_BY_FIRST_CHAR.get(text.charCodeAt(i));
    if (literal !== undefined && text.startsWith(literal, i)) {
      this.i += literal.length;
      return literal;
    }
    if (text.startsWith('-Infinity', i)) {
      this.i += 9;
      return '-Infinity';
    }
    const end = numberTokenEnd(text, i);
    if (end === -1) return this.fail('Expecting value');
    this.i = end;
    return text.slice(i, end);
  }

  parseValue(): PyValue {
    const text = this.text;
    if (this.i >= text.length) this.fail('Expecting value');
    const ch = text.charCodeAt(this.i);
    if (ch === 0x22) return this.parseString();
    if (ch === 0x7b) return this.parseObject(undefined);
    if (ch === 0x5b) {
      this.i++;
      const arr: PyValue[] = [];
      this.skipWs();
      if (text.charCodeAt(this.i) === 0x5d) {
        this.i++;
        return arr;
      }
      for (;;) {
        this.skipWs();
        arr.push(this.parseValue());
        this.skipWs();
        if (this.endOfItems(0x5d)) return arr;
      }
    }
    // The usual number in BFCL files is a plain int: read it without the regex of scanScalar.
    const intEnd = plainIntEnd(text, this.i);
    if (intEnd !== -1) {
      const token = text.slice(this.i, intEnd);
      this.i = intEnd;
      return BigInt(token);
    }
    return scalarValue(this.scanScalar());
  }

  /** An object; the values of `deferredKeys` are kept as `readDeferred`'s results instead of parsed. */
  parseObject(deferred: DeferredKeys | undefined): PyDict {
    const text = this.text;
    this.i++;
    const obj: PyDict = new Map();
    this.skipWs();
    if (text.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return obj;
    }
    for (;;) {
      if (text.charCodeAt(this.i) !== 0x22) this.fail('Expecting property name enclosed in double quotes');
      const key = this.parseString();
      this.skipWs();
      if (text.charCodeAt(this.i) !== 0x3a) this.fail("Expecting ':' delimiter");
      this.i++;
      this.skipWs();
      if (this.i >= text.length) this.fail('Expecting value');
      const read = deferred?.keys.has(key) === true ? deferred.read : undefined;
      obj.set(key, read === undefined ? this.parseValue() : read(this));
      this.skipWs();
      if (this.endOfItems(0x7d)) return obj;
      this.skipWs();
    }
  }

  /**
   * After an array item or object member: moves past the closing `close` (true, the container
   * ends) or a `,` (false, another item follows); anything else is json.loads's delimiter error.
   */
  endOfItems(close: number): boolean {
    const c = this.text.charCodeAt(this.i);
    if (c !== close && c !== 0x2c) this.fail("Expecting ',' delimiter");
    this.i++;
    return c === close;
  }
}

/** The JSON literals Python accepts (besides `-Infinity`), by their first character. */
const LITERAL_BY_FIRST_CHAR: ReadonlyMap<number, string> = new Map(
  ['null', 'true', 'false', 'NaN', 'Infinity'].map((literal) => [literal.charCodeAt(0), literal]),
);

/** The Python value of a number or literal token from `scanScalar`. */
function scalarValue(token: string): PyValue {
  switch (token) {
    case 'null':
      return null;
    case 'true':
      return true;
    case 'false':
      return false;
    case 'NaN':
      return NaN;
    case 'Infinity':
      return Infinity;
    case '-Infinity':
      return -Infinity;
  }
  return isIntegerToken(token) ? BigInt(token) : Number(token);
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * The end of a plain int token at `start` (`-`, then digits without a leading zero, and no fraction
 * or exponent after them), or -1 for anything else (floats, literals, `01`, which scanScalar and
 * its callers read or reject as json.loads does).
 */
export function plainIntEnd(text: string, start: number): number {
  const digitsStart = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  let i = digitsStart;
  while (isDigit(text.charCodeAt(i))) i++;
  if (i === digitsStart || (i > digitsStart + 1 && text.charCodeAt(digitsStart) === 0x30)) return -1;
  const next = text.charCodeAt(i);
  return next === 0x2e || next === 0x65 || next === 0x45 ? -1 : i;
}

/**
 * The end of the number token at `start` as `json.loads` reads it (its NUMBER_RE:
 * `-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?`, a fraction or exponent without digits left out), or -1
 * when no number starts there.
 */
export function numberTokenEnd(text: string, start: number): number {
  let i = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  const first = text.charCodeAt(i);
  if (first === 0x30) i++;
  else if (first >= 0x31 && first <= 0x39) while (isDigit(text.charCodeAt(++i)));
  else return -1;
  if (text.charCodeAt(i) === 0x2e && isDigit(text.charCodeAt(i + 1))) {
    i += 2;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    let j = i + 1;
    const sign = text.charCodeAt(j);
    if (sign === 0x2b || sign === 0x2d) j++;
    if (isDigit(text.charCodeAt(j))) {
      while (isDigit(text.charCodeAt(++j)));
      i = j;
    }
  }
  return i;
}

/**
 * The end of the float token at `start` when `json.dumps` would write its value exactly as it is
 * written (Python's `repr`), else -1. Covers the usual case without converting: `-?int.frac` with
 * at most 15 significant digits (so the token is the shortest form of its double), no trailing zero
 * in the fraction unless it is the single `0` of a whole number, no exponent, and a magnitude that
 * `repr` writes without one (at least 1e-4; below 1e15 by the digit count).
 */
export function canonicalFloatEnd(text: string, start: number): number {
  let i = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  const intStart = i;
  while (isDigit(text.charCodeAt(i))) i++;
  const intDigits = i - intStart;
  if (intDigits === 0 || text.charCodeAt(i) !== 0x2e) return -1;
  const intIsZero = text.charCodeAt(intStart) === 0x30;
  if (intIsZero && intDigits > 1) return -1;
  const fracStart = ++i;
  while (isDigit(text.charCodeAt(i))) i++;
  const fracDigits = i - fracStart;
  if (fracDigits === 0) return -1;
  const next = text.charCodeAt(i);
  if (next === 0x65 || next === 0x45) return -1;
  // `5.0` yes (a whole number below 1e15 is exact), `5.10` no.
  if (text.charCodeAt(i - 1) === 0x30) return fracDigits === 1 && intDigits <= 15 ? i : -1;
  if (!intIsZero) return intDigits + fracDigits <= 15 ? i : -1;
  let zeros = 0;
  while (text.charCodeAt(fracStart + zeros) === 0x30) zeros++;
  return zeros <= 3 && fracDigits - zeros <= 15 ? i : -1;
}

/** Whether a number token is a Python int (no fraction, no exponent). */
export function isIntegerToken(token: string): boolean {
  for (let k = 0; k < token.length; k++) {
    const c = token.charCodeAt(k);
    if (c === 0x2e || c === 0x65 || c === 0x45) return false;
  }
  return true;
}

/** The value of the (already validated) string body `text[start, end)` that holds escapes. */
export function decodeEscapes(text: string, start: number, end: number): string {
  let out = '';
  let chunkStart = start;
  let i = start;
  while (i < end) {
    if (text.charCodeAt(i) !== 0x5c) {
      i++;
      continue;
    }
    out += text.slice(chunkStart, i);
    const esc = text[i + 1]!;
    if (esc === 'u') {
      out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
      i += 6;
    } else {
      out += SIMPLE_ESCAPES[esc]!;
      i += 2;
    }
    chunkStart = i;
  }
  return out + text.slice(chunkStart, end);
}

/** Top-level object keys whose values are read by `read` instead of being parsed. */
export interface DeferredKeys {
  readonly keys: ReadonlySet<string>;
  readonly read: (reader: JsonReader) => PyValue;
}

export interface ParseJsonOptions {
  /** When the text is an object: these keys' values are read by a custom reader (e.g. kept as fragments). */
  readonly deferred?: DeferredKeys;
}

/**
 * Python `json.loads` with Python's types kept: integer literals become `bigint`, other numbers
 * `number`, objects `Map` (insertion ordered; a repeated key keeps its first position, last value).
 */
export function parseJsonLossless(text: string, options: ParseJsonOptions = {}): PyValue {
  const reader = new JsonReader(text);
  reader.skipWs();
  const value =
    options.deferred !== undefined && text.charCodeAt(reader.i) === 0x7b ? reader.parseObject(options.deferred) : reader.parseValue();
  reader.skipWs();
  if (reader.i !== text.length) reader.fail('Extra data');
  return value;
}

/**
 * The reference's `make_json_serializable`: dicts and lists are walked; any other value that
 * `json.dumps` rejects (a set, a simulated file, an mpf...) is replaced by its `str()`.
 */
export function makeJsonSerializable(v: PyValue): PyValue {
  if (v instanceof Map) {
    const out: PyDict = new Map();
    for (const [k, val] of v) out.set(k, makeJsonSerializable(val));
    return out;
  }
  if (Array.isArray(v)) return v.map(makeJsonSerializable);
  return isJsonSerializable(v) ? v : pyStr(v);
}

/** Whether `json.dumps` accepts the value (without trying it). */
export function isJsonSerializable(v: PyValue): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (Array.isArray(v)) return v.every(isJsonSerializable);
  if (v instanceof PyTuple) return v.items.every(isJsonSerializable);
  if (v instanceof Map) {
    for (const [k, val] of v) {
      if (k instanceof PyTuple || !isJsonSerializable(val)) return false;
    }
    return true;
  }
  return v instanceof PyObject && v.jsonSerializable;
}

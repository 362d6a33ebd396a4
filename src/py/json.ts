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

// Long strings (file contents, documents) are dumped again and again as state is logged each turn.
const LONG_STRING = 256;
const longStringCache = [new Map<string, string>(), new Map<string, string>()] as const;
const LONG_STRING_CACHE_CHARS = 8_000_000;
let cachedChars = 0;

/** Python `json.dumps` of a str (`encode_basestring_ascii` or `encode_basestring`). */
export function jsonString(s: string, ensureAscii = true): string {
  if ((ensureAscii ? ASCII_SAFE : UNICODE_SAFE).test(s)) return '"' + s + '"';
  const cache = longStringCache[ensureAscii ? 0 : 1];
  if (s.length >= LONG_STRING) {
    const cached = cache.get(s);
    if (cached !== undefined) return cached;
  }
  // Every UTF-16 unit is escaped on its own, surrogates included, as CPython does.
  const out = '"' + s.replace(ensureAscii ? ESCAPE_ASCII : ESCAPE_UNICODE, escapeChar) + '"';
  if (s.length >= LONG_STRING) {
    // Bounded by characters, not entries: a few huge strings must not pin hundreds of megabytes.
    if (cachedChars > LONG_STRING_CACHE_CHARS) {
      longStringCache[0].clear();
      longStringCache[1].clear();
      cachedChars = 0;
    }
    cache.set(s, out);
    cachedChars += s.length + out.length;
  }
  return out;
}

function jsonFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  return floatRepr(x);
}

function jsonKey(k: PyKey, ensureAscii: boolean): string {
  if (typeof k === 'string') return jsonString(k, ensureAscii);
  if (typeof k === 'bigint') return '"' + k.toString() + '"';
  if (typeof k === 'number') return '"' + jsonFloat(k) + '"';
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

  // One output string built left to right (V8 concatenation is cheap); no per-level joins.
  let out = '';
  const newline = (level: number): void => {
    if (indent !== undefined) out += '\n' + ' '.repeat(indent * level);
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
        out += jsonFloat(x);
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
        newline(level + 1);
        encode(list[i]!, level + 1);
      }
      newline(level);
      out += ']';
      return;
    }
    if (x instanceof Map) {
      if (x.size === 0) {
        out += '{}';
        return;
      }
      let entries: Iterable<[PyKey, PyValue]> = x as PyDict;
      if (sortKeys) entries = [...(x as PyDict)].sort(([a], [b]) => compareKeys(a, b));
      out += '{';
      let first = true;
      for (const [k, val] of entries) {
        if (!first) out += itemSep;
        first = false;
        newline(level + 1);
        out += jsonKey(k, ensureAscii) + keySep;
        encode(val, level + 1);
      }
      newline(level);
      out += '}';
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

const PLAIN_STRING = /^[^\\\x00-\x1f]*$/;
const NUMBER_RE = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;

/**
 * Python `json.loads` with Python's types kept: integer literals become `bigint`, other numbers
 * `number`, objects `Map` (insertion ordered; a repeated key keeps its first position, last value).
 */
export function parseJsonLossless(text: string): PyValue {
  let i = 0;
  const n = text.length;
  const skipWs = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };
  const fail = (reason: string, pos = i): never => {
    throw new JsonDecodeError(reason, text, pos);
  };

  const parseString = (): string => {
    const start = i; // at the opening quote
    i++;
    const close = text.indexOf('"', i);
    if (close !== -1) {
      const candidate = text.slice(i, close);
      if (PLAIN_STRING.test(candidate)) {
        i = close + 1;
        return candidate;
      }
    }
    let out = '';
    let chunkStart = i;
    for (;;) {
      if (i >= n) fail('Unterminated string starting at', start);
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        out += text.slice(chunkStart, i);
        i++;
        return out;
      }
      if (code === 0x5c) {
        out += text.slice(chunkStart, i);
        const esc = text[i + 1];
        if (esc === undefined) fail('Unterminated string starting at', start);
        if (esc === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('Invalid \\uXXXX escape', i + 1);
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else {
          const map: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
          const ch = map[esc!];
          if (ch === undefined) fail('Invalid \\escape', i);
          out += ch;
          i += 2;
        }
        chunkStart = i;
        continue;
      }
      if (code < 0x20) fail('Invalid control character at', i);
      i++;
    }
  };

  const parseValue = (): PyValue => {
    if (i >= n) fail('Expecting value');
    const ch = text[i]!;
    if (ch === '"') return parseString();
    if (ch === '{') {
      i++;
      const obj: PyDict = new Map();
      skipWs();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        if (text[i] !== '"') fail('Expecting property name enclosed in double quotes');
        const key = parseString();
        skipWs();
        if (text[i] !== ':') fail("Expecting ':' delimiter");
        i++;
        skipWs();
        obj.set(key, parseValue());
        skipWs();
        if (text[i] === '}') {
          i++;
          return obj;
        }
        if (text[i] !== ',') fail("Expecting ',' delimiter");
        i++;
        skipWs();
      }
    }
    if (ch === '[') {
      i++;
      const arr: PyValue[] = [];
      skipWs();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        skipWs();
        arr.push(parseValue());
        skipWs();
        if (text[i] === ']') {
          i++;
          return arr;
        }
        if (text[i] !== ',') fail("Expecting ',' delimiter");
        i++;
      }
    }
    if (text.startsWith('null', i)) return (i += 4), null;
    if (text.startsWith('true', i)) return (i += 4), true;
    if (text.startsWith('false', i)) return (i += 5), false;
    if (text.startsWith('NaN', i)) return (i += 3), NaN;
    if (text.startsWith('Infinity', i)) return (i += 8), Infinity;
    if (text.startsWith('-Infinity', i)) return (i += 9), -Infinity;
    NUMBER_RE.lastIndex = i;
    const m = NUMBER_RE.exec(text);
    if (m === null) return fail('Expecting value');
    i += m[0].length;
    return m[1] === undefined && m[2] === undefined ? BigInt(m[0]) : Number(m[0]);
  };

  skipWs();
  const value = parseValue();
  skipWs();
  if (i !== n) fail('Extra data');
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
  return false;
}

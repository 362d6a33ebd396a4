import { readFileSync } from 'node:fs';

import { z } from 'zod';

import { JsonReader, parseJsonLossless } from '../py/json.js';
import type { PyDict, PyValue } from '../py/value.js';
import { DatasetError } from '../util/errors.js';
import { toPlain } from './plain.js';

/**
 * Read a UTF-8 text file (or decode its `bytes`, already read); a missing or unreadable file is a
 * `DatasetError` naming it.
 */
export function readTextFile(file: string, bytes?: Buffer): string {
  let text: string;
  try {
    text = bytes === undefined ? readFileSync(file, 'utf8') : bytes.toString('utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const detail = code === 'ENOENT' ? 'file not found' : `cannot read file (${code ?? String(e)})`;
    throw new DatasetError({ file }, detail, { cause: e });
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// BFCL parity: utils.py::load_file — text-mode `readlines()` splits on \n, \r\n and \r.
const LINE_BREAK = /\r\n|\r|\n/;

/**
 * A top-level list whose items repeat from line to line (the function docs of `live_multiple` are
 * over three quarters repeats): each distinct item text is parsed and checked once per file, and
 * the lines share the parsed item (loaded values are read-only).
 */
export interface SharedItems {
  readonly key: string;
  /** Schema of one item; undefined when the file is not validated. */
  readonly itemSchema: z.ZodType | undefined;
  /** Schema of the line with the key's items left unchecked (they are checked by `itemSchema`). */
  readonly lineSchema: z.ZodType | undefined;
}

/**
 * Read a JSON Lines file (or its `bytes`, already read): one JSON object per line, parsed
 * losslessly and, when `schema` is given, validated on its plain view. Blank lines are skipped. A
 * bad line throws a `DatasetError` naming `file:line`, the entry id when it can be read and the
 * path of the first problem.
 */
export function readJsonLinesFile(file: string, schema: z.ZodType | undefined, sharedItems?: SharedItems, bytes?: Buffer): PyDict[] {
  const lines = readTextFile(file, bytes).split(LINE_BREAK);
  const entries: PyDict[] = [];
  const sharing = sharedItems && new ItemSharing(sharedItems);
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (text.trim() === '') continue;
    // The shared-items reading covers well-formed lines; anything it does not accept is read (and
    // reported) the plain way below.
    const shared = sharing?.readLine(text);
    if (shared !== undefined) {
      entries.push(shared);
      continue;
    }
    const location = { file, line: i + 1 };
    const value = parseLine(text, location);
    if (!(value instanceof Map)) {
      throw new DatasetError(location, `expected a JSON object, found ${describeJson(value)}`);
    }
    // The schemas check the plain view that JSON.parse gives (the text is valid JSON by now).
    if (schema !== undefined) validateValue(schema, value, location, JSON.parse(text) as unknown);
    entries.push(value);
  }
  return entries;
}

/** A line's value, as Python's json.loads reads it. */
function parseLine(text: string, location: { readonly file: string; readonly line: number }): PyValue {
  try {
    return parseJsonLossless(text);
  } catch (e) {
    const entryId = idInText(text);
    throw new DatasetError({ ...location, entryId }, `invalid JSON: ${errorText(e)}`, { cause: e });
  }
}

// Bounded: an unbounded `(...)*` on a string of many megabytes overflows the regex engine's stack
// (a RangeError thrown while reporting the line). No real id is that long.
const ID_IN_TEXT = /"id"\s*:\s*"((?:[^"\\]|\\.){0,1000})"/;

/** The `"id"` a JSON line that cannot be parsed still shows in its text, for error reports. */
export function idInText(text: string): string | undefined {
  return ID_IN_TEXT.exec(text)?.[1];
}

/** Thrown inside `ItemSharing` when a line is not of the shape it reads; the line is then read plainly. */
const NOT_SHAREABLE = Symbol('not shareable');

/** Reads lines whose `key` holds a list of objects, parsing and checking each distinct object text once. */
class ItemSharing {
  private readonly items = new Map<string, PyValue>();
  private readonly deferred;
  /** Where the current line's item list starts and ends in its text. */
  private listStart = -1;
  private listEnd = -1;

  constructor(private readonly spec: SharedItems) {
    this.deferred = { keys: new Set([spec.key]), read: (reader: JsonReader) => this.readItems(reader) };
  }

  /** The line's value, or undefined when the line must be read the plain way. */
  readLine(text: string): PyDict | undefined {
    let value: PyValue;
    this.listStart = -1;
    try {
      value = parseJsonLossless(text, { deferred: this.deferred });
    } catch {
      return undefined;
    }
    if (!(value instanceof Map)) return undefined;
    const lineSchema = this.spec.lineSchema;
    if (lineSchema !== undefined) {
      // The items were checked one by one; check the rest of the line (small) on its plain view,
      // parsed natively from the text with an empty list in place of the items.
      const rest = this.listStart === -1 ? text : `${text.slice(0, this.listStart)}[]${text.slice(this.listEnd)}`;
      if (!compiled(lineSchema).safeParse(JSON.parse(rest)).success) return undefined;
    }
    return value;
  }

  private readItems(reader: JsonReader): PyValue[] {
    const text = reader.text;
    if (text.charCodeAt(reader.i) !== 0x5b || this.listStart !== -1) throw NOT_SHAREABLE;
    this.listStart = reader.i;
    reader.i++;
    const items: PyValue[] = [];
    reader.skipWs();
    if (text.charCodeAt(reader.i) === 0x5d) {
      reader.i++;
      this.listEnd = reader.i;
      return items;
    }
    for (;;) {
      reader.skipWs();
      if (text.charCodeAt(reader.i) !== 0x7b) throw NOT_SHAREABLE;
      const start = reader.i;
      skipObject(reader);
      items.push(this.item(text.slice(start, reader.i)));
      reader.skipWs();
      const c = text.charCodeAt(reader.i);
      reader.i++;
      if (c === 0x5d) {
        this.listEnd = reader.i;
        return items;
      }
      if (c !== 0x2c) throw NOT_SHAREABLE;
    }
  }

  private item(raw: string): PyValue {
    let item = this.items.get(raw);
    if (item === undefined) {
      item = parseJsonLossless(raw);
      const schema = this.spec.itemSchema;
      if (schema !== undefined && !compiled(schema).safeParse(JSON.parse(raw)).success) throw NOT_SHAREABLE;
      this.items.set(raw, item);
    }
    return item;
  }
}

/** Move past the object at the cursor without building it (the text is parsed once it is known to be new). */
function skipObject(reader: JsonReader): void {
  const text = reader.text;
  let depth = 0;
  while (reader.i < text.length) {
    const c = text.charCodeAt(reader.i);
    if (c === 0x22) {
      reader.skipString();
      continue;
    }
    reader.i++;
    if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return;
  }
  throw NOT_SHAREABLE;
}

/** Read a file holding one JSON document, parsed losslessly and validated against `schema` when given. */
export function readJsonFile(file: string, schema: z.ZodType | undefined, bytes?: Buffer): PyValue {
  const text = readTextFile(file, bytes);
  let value: PyValue;
  try {
    value = parseJsonLossless(text);
  } catch (e) {
    throw new DatasetError({ file }, `invalid JSON: ${errorText(e)}`, { cause: e });
  }
  if (schema !== undefined) validateValue(schema, value, { file });
  return value;
}

/**
 * Validate a Python value against a zod schema of its plain view; throws a `DatasetError` at
 * `location` that names the entry id (when the value has one) and the path of the first issue.
 */
export function validateValue(
  schema: z.ZodType,
  value: PyValue,
  location: { readonly file: string; readonly line?: number },
  plain: unknown = toPlain(value),
): void {
  const result = compiled(schema).safeParse(plain);
  if (result.success) return;
  const issues = result.error.issues;
  const first = issues[0]!;
  const id = value instanceof Map ? value.get('id') : undefined;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  throw new DatasetError(
    { ...location, entryId: typeof id === 'string' ? id : undefined, path: first.path },
    `${first.message}${more}`,
  );
}

const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

/** The schema with zod's ahead-of-time compiled fast path (same results, several times faster on big files). */
function compiled(schema: z.ZodType): z.ZodType {
  let fast = compiledSchemas.get(schema);
  if (fast === undefined) {
    fast = z.compile(schema);
    compiledSchemas.set(schema, fast);
  }
  return fast;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function describeJson(v: PyValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v === 'bigint' ? 'number' : typeof v}`;
}

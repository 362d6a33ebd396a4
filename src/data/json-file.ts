import { readFileSync } from 'node:fs';

import { z } from 'zod';

import { parseJsonLossless } from '../py/json.js';
import type { PyDict, PyValue } from '../py/value.js';
import { DatasetError } from '../util/errors.js';
import { toPlain } from './plain.js';

/** Read a UTF-8 text file; a missing or unreadable file is a `DatasetError` naming it. */
export function readTextFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
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
 * Read a JSON Lines file: one JSON object per line, parsed losslessly and, when `schema` is given,
 * validated on its plain view. Blank lines are skipped. A bad line throws a `DatasetError` naming
 * `file:line`, the entry id when it can be read and the path of the first problem.
 */
export function readJsonLinesFile(file: string, schema: z.ZodType | undefined): PyDict[] {
  const lines = readTextFile(file).split(LINE_BREAK);
  const entries: PyDict[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (text.trim() === '') continue;
    const location = { file, line: i + 1 };
    let value: PyValue;
    try {
      value = parseJsonLossless(text);
    } catch (e) {
      const entryId = /"id"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
      throw new DatasetError({ ...location, entryId }, `invalid JSON: ${errorText(e)}`, { cause: e });
    }
    if (!(value instanceof Map)) {
      throw new DatasetError(location, `expected a JSON object, found ${describeJson(value)}`);
    }
    // The native parser gives the plain view for validation far faster than converting the PyValue.
    if (schema !== undefined) validateValue(schema, value, location, JSON.parse(text) as unknown);
    entries.push(value);
  }
  return entries;
}

/** Read a file holding one JSON document, parsed losslessly and validated against `schema` when given. */
export function readJsonFile(file: string, schema: z.ZodType | undefined): PyValue {
  const text = readTextFile(file);
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

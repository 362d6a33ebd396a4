/**
 * Helpers shared by the decoder tests: locating the conformance data, comparing decoded values
 * with the JSON the reference wrote, and printing a decode result as the expectation tables do.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonDumps, parseJsonLossless } from '../../../src/py/json.js';
import type { DecodeResult } from '../../../src/exec/decode/index.js';
import { pyRepr } from '../../../src/py/repr.js';
import type { PyValue } from '../../../src/py/value.js';

/** `${BFCL_DATA_DIR}/../conformance`, or undefined when the data is not available. */
export function conformanceDir(): string | undefined {
  const dataDir = process.env.BFCL_DATA_DIR;
  if (dataDir === undefined || dataDir === '') return undefined;
  const dir = join(dataDir, '..', 'conformance');
  return existsSync(dir) ? dir : undefined;
}

/** JSON Lines of a file, parsed losslessly (ints stay bigint, floats number, objects Map). */
export function readJsonLines(path: string): PyValue[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parseJsonLossless(line));
}

/** `d[key]` of a parsed JSON object. */
export function get(value: PyValue, key: string): PyValue {
  if (!(value instanceof Map)) throw new Error(`not an object: ${String(value)}`);
  return value.get(key) ?? null;
}

/**
 * The JSON text Python's `json.dumps` gives for a value (tuples as lists, non-str keys as
 * strings, floats in repr form) — the way the reference's files hold decoded values.
 */
export function asJson(value: PyValue): string {
  return jsonDumps(value);
}

/** `repr(result)` or `Type: message`, as the expectation tables write them. */
export function outcome(result: DecodeResult<PyValue>): string {
  return result.ok ? pyRepr(result.value) : `${result.errorType}: ${result.error}`;
}

/**
 * `bfcl judge --input traces.jsonl`: a user's own records, one JSON object per line, each with
 * `question`, `tool_call` and `tool_definitions` (and an optional `id`). Strings are used as they
 * are; any other JSON value is written as Python's `json.dumps(value, indent=4)` would write it. A
 * line that is not a JSON object is skipped with its reason; a missing or null field makes the unit
 * `MISSING INPUT` (Phoenix's status), never a judge call.
 */

import { readFileSync } from 'node:fs';

import { eachLine } from '../evaluate/read-results.js';
import { jsonDumps, parseJsonLossless } from '../py/json.js';
import type { PyValue } from '../py/value.js';
import { UsageError } from '../util/errors.js';
import { INPUT_NAMES, type JudgeInputs } from './judge-template.js';
import type { RunnableUnit } from './run-judge.js';

/** The category trace units are recorded under. */
export const TRACE_CATEGORY = 'traces';

/** What a traces file gave. */
export interface TraceUnits {
  readonly units: RunnableUnit[];
  /** Lines that are not records, with their reasons. */
  readonly skippedLines: string[];
}

const NO_VERDICT = { valid: null, errorType: null, error: null } as const;

/** Read a traces file (JSON Lines). */
export function readTraceUnits(file: string): TraceUnits {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new UsageError(`Cannot read --input ${file}: ${(error as Error).message}`);
  }
  const units: RunnableUnit[] = [];
  const skippedLines: string[] = [];
  const ids = new Set<string>();
  eachLine(bytes, (text, index) => {
    if (text.trim() === '') return;
    const where = `${file}:${index + 1}`;
    let value: PyValue;
    try {
      value = parseJsonLossless(text);
    } catch (error) {
      skippedLines.push(`${where}: not JSON (${(error as Error).message})`);
      return;
    }
    if (!(value instanceof Map)) {
      skippedLines.push(`${where}: not a JSON object`);
      return;
    }
    const rawId = value.get('id');
    const id = typeof rawId === 'string' && rawId !== '' ? rawId : typeof rawId === 'bigint' ? String(rawId) : `line_${index + 1}`;
    if (ids.has(id)) {
      skippedLines.push(`${where}: id ${id} repeats an earlier line`);
      return;
    }
    ids.add(id);
    const missing = INPUT_NAMES.filter((name) => value.get(name) === undefined || value.get(name) === null);
    const base = { id, category: TRACE_CATEGORY, turn: null, bfcl: NO_VERDICT, entryBfcl: null, groundTruthCalls: null };
    if (missing.length > 0) {
      units.push({ ...base, inputs: null, skipReason: `Missing template variables: ${missing.join(', ')}`, skipStatus: 'MISSING INPUT' });
      return;
    }
    const field = (name: keyof JudgeInputs): string => {
      const v = value.get(name)!;
      return typeof v === 'string' ? v : jsonDumps(v, { indent: 4 });
    };
    units.push({ ...base, inputs: { question: field('question'), tool_call: field('tool_call'), tool_definitions: field('tool_definitions') }, skipReason: null });
  });
  return { units, skippedLines };
}

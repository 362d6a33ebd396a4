import type { PyDict, PyValue } from '../../py/value.js';
import type { SimContext } from '../../sim/simulated-api.js';
import type { PossibleAnswer, TestEntry } from '../../spec/schemas.js';
import type { ModelDecoder } from '../model-decoder.js';

/** One result line as read from a result file. */
export interface ResultEntry {
  readonly id: string;
  /** The `result` field (`null` when the line had none). */
  readonly result: PyValue;
  /** The whole line, for `inference_log` and the cost/latency fields. */
  readonly line: PyDict;
}

/** Everything a category runner needs; `results[i]` pairs with `prompts[i]` and `answers[i]`. */
export interface CategoryRunInput {
  readonly category: string;
  /** The result directory's model name, e.g. `openai_gpt-oss-20b`. */
  readonly modelName: string;
  readonly results: readonly ResultEntry[];
  readonly prompts: readonly TestEntry[];
  /** Absent for relevance/irrelevance. */
  readonly answers: readonly PossibleAnswer[] | undefined;
  readonly decoder: ModelDecoder;
  /** The model cannot emit `.` in function names (registry `underscore_to_dot`). */
  readonly underscoreToDot: boolean;
  readonly context: SimContext;
}

/** What a runner produces: the score file's failed-entry lines and the counts. */
export interface CategoryRunOutput {
  readonly correct: number;
  readonly total: number;
  /** One record per failed entry, keys in the reference's order. */
  readonly failures: PyDict[];
  /** Extra header fields (format sensitivity statistics). */
  readonly extraHeader?: PyDict;
}

/** Build a record with keys in the given order. */
export function record(entries: [string, PyValue][]): PyDict {
  return new Map(entries);
}

/** A copy of an entry's dict without its `function` docs (the reference deletes them from multi-turn records). */
export function withoutFunctionDocs(raw: PyDict): PyDict {
  const copy: PyDict = new Map(raw);
  copy.delete('function');
  return copy;
}

/** Iterate a value the way Python's `for x in value` would (lists, tuples, str chars, dict keys). */
export function pyIterate(value: PyValue): PyValue[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (value instanceof Map) return [...value.keys()];
  if (value !== null && typeof value === 'object' && 'items' in value && Array.isArray(value.items)) return value.items;
  return undefined;
}

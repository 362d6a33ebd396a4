import { pyIterate } from '../../py/ops.js';
import { PySet, PyTuple, type PyDict, type PyValue } from '../../py/value.js';
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

/** The first fields of every failure record: the entry id, model and category, and `valid: false`. */
export function failureHead(id: string, modelName: string, category: string): [string, PyValue][] {
  return [
    ['id', id],
    ['model_name', modelName],
    ['test_category', category],
    ['valid', false],
  ];
}

/** Check every entry: `check` returns the entry's failure record, or undefined when it passes. */
export function tallyEntries(
  results: readonly ResultEntry[],
  check: (entry: ResultEntry, index: number) => PyDict | undefined,
): CategoryRunOutput {
  const failures: PyDict[] = [];
  let correct = 0;
  results.forEach((entry, i) => {
    const failure = check(entry, i);
    if (failure === undefined) correct++;
    else failures.push(failure);
  });
  return { correct, total: results.length, failures };
}

/** A multi-turn or agentic failure record ends with the entry's `inference_log`, as in the reference. */
export function withInferenceLog(failure: PyDict | undefined, entry: ResultEntry): PyDict | undefined {
  failure?.set('inference_log', entry.line.get('inference_log') ?? '');
  return failure;
}

/** A copy of an entry's dict without its `function` docs (the reference deletes them from multi-turn records). */
export function withoutFunctionDocs(raw: PyDict): PyDict {
  const copy: PyDict = new Map(raw);
  copy.delete('function');
  return copy;
}

/** The items of `for x in value` (list, tuple, set, str, dict), or undefined for a value Python cannot iterate. */
export function iterateOrUndefined(value: PyValue): readonly PyValue[] | undefined {
  const iterable =
    Array.isArray(value) || typeof value === 'string' || value instanceof Map || value instanceof PyTuple || value instanceof PySet;
  return iterable ? pyIterate(value) : undefined;
}

/**
 * A coarse error taxonomy over the checkers' error types, for reading a run at a glance.
 *
 * The reference's `error_type` strings (`value_error:string`, `multi_turn:instance_state_mismatch`,
 * ...) stay the source of truth and are never changed; each failed entry is additionally given one
 * of the classes below. The classes live in a sidecar file beside each score file
 * (`BFCL_v4_<category>_taxonomy.json`), so the score files stay byte-identical to the reference's.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

import { parseJsonLossless } from '../py/json.js';
import type { PyDict, PyValue } from '../py/value.js';
import { MALFORMED_RESULT_LINE, MISSING_RESULT } from './evaluate-category.js';

/** The taxonomy classes, in the order reports list them. */
export const ERROR_CLASSES = [
  'parse_failure',
  'wrong_function',
  'missing_parameter',
  'extra_parameter',
  'type_mismatch',
  'value_mismatch',
  'state_mismatch',
  'response_subset_miss',
  'step_limit',
  'empty_turn',
  'infrastructure_error',
  'other',
] as const;

export type ErrorClass = (typeof ERROR_CLASSES)[number];

/** One line per class, for help texts and reports. */
export const ERROR_CLASS_DESCRIPTIONS: Readonly<Record<ErrorClass, string>> = {
  parse_failure: 'the model output could not be decoded into function calls, or not into the expected shape',
  wrong_function: 'a wrong function name, a wrong number of calls, or a call where none was appropriate',
  missing_parameter: 'a required parameter (or one the answer needs) was left out',
  extra_parameter: 'a parameter the function does not have',
  type_mismatch: 'a parameter value of the wrong type',
  value_mismatch: 'a parameter value (or an agentic final answer) that is not among the accepted ones',
  state_mismatch: 'multi-turn: the simulated APIs ended a turn in a different state than the ground truth',
  response_subset_miss: "multi-turn: the ground truth's execution results are not all among the model's",
  step_limit: 'the model was stopped after too many steps in one turn (force-terminated)',
  empty_turn: 'no function call where one was expected (an empty multi-turn turn, a live_relevance miss)',
  infrastructure_error: 'no usable model output: inference errors, missing or malformed result lines',
  other: 'anything else',
};

/**
 * Every error type the reference's checkers write (and ours), with its class. A few are refined
 * per entry by `classifyFailure` (see there).
 */
export const ERROR_TYPE_CLASSES: ReadonlyMap<string, ErrorClass> = new Map<string, ErrorClass>([
  // AST decoding (ast_checker / eval_runner)
  ['ast_decoder:decoder_failed', 'parse_failure'],
  ['ast_decoder:decoder_wrong_output_format', 'parse_failure'],
  // simple_function_checker
  ['simple_function_checker:wrong_func_name', 'wrong_function'],
  ['simple_function_checker:wrong_count', 'wrong_function'],
  ['simple_function_checker:missing_required', 'missing_parameter'],
  // A parameter the possible answer requires (it lacks the "" marker) was not given.
  ['simple_function_checker:missing_optional', 'missing_parameter'],
  ['simple_function_checker:unexpected_param', 'extra_parameter'],
  ['simple_function_checker:unclear', 'other'],
  // multiple / parallel checkers: the number of calls differs from the answer's
  ['multiple_function_checker:wrong_count', 'wrong_function'],
  ['parallel_function_checker_enforce_order:wrong_count', 'wrong_function'],
  ['parallel_function_checker_no_order:wrong_count', 'wrong_function'],
  // Refined from the per-candidate sub-errors by classifyFailure; this is the fallback.
  ['parallel_function_checker_no_order:cannot_find_match', 'wrong_function'],
  // type checks
  ['type_error:simple', 'type_mismatch'],
  ['type_error:nested', 'type_mismatch'],
  ['type_error:java', 'type_mismatch'],
  ['type_error:js', 'type_mismatch'],
  // value checks
  ['value_error:string', 'value_mismatch'],
  ['value_error:list/tuple', 'value_mismatch'],
  ['value_error:dict_key', 'value_mismatch'],
  ['value_error:dict_value', 'value_mismatch'],
  ['value_error:list_dict_count', 'value_mismatch'],
  ['value_error:others', 'value_mismatch'],
  ['dict_checker:unclear', 'value_mismatch'],
  ['list_dict_checker:unclear', 'value_mismatch'],
  // relevance / irrelevance
  ['irrelevance_error:decoder_success', 'wrong_function'],
  // Refined by classifyFailure: empty_turn when the output decoded but held no call.
  ['relevance_error:decoder_failed', 'parse_failure'],
  // multi-turn
  ['multi_turn:inference_error', 'infrastructure_error'],
  ['multi_turn:force_terminated', 'step_limit'],
  ['multi_turn:empty_turn_model_response', 'empty_turn'],
  ['multi_turn:instance_state_mismatch', 'state_mismatch'],
  ['multi_turn:execution_response_mismatch', 'response_subset_miss'],
  // Defined by the reference's multi_turn_checker but never produced (its callers are commented out).
  ['multi_turn:irrelevance_error:decoder_success', 'wrong_function'],
  ['multi_turn:method_invoke_order_mismatch', 'other'],
  // agentic (web search, memory)
  ['agentic:inference_error', 'infrastructure_error'],
  ['agentic:answer_not_found', 'value_mismatch'],
  // Refined by classifyFailure: step_limit when the model never stopped calling functions.
  ['agentic:no_last_message', 'other'],
  // ours: entries the reference would have crashed on
  [MISSING_RESULT, 'infrastructure_error'],
  [MALFORMED_RESULT_LINE, 'infrastructure_error'],
]);

/** The class of an error type alone; unknown types fall back on their family prefix, else `other`. */
export function classifyErrorType(errorType: string): ErrorClass {
  const known = ERROR_TYPE_CLASSES.get(errorType);
  if (known !== undefined) return known;
  if (errorType.startsWith('type_error:')) return 'type_mismatch';
  if (errorType.startsWith('value_error:')) return 'value_mismatch';
  if (errorType.startsWith('bfcl_ts:')) return 'infrastructure_error';
  return 'other';
}

/** The `error_type` of a score-file failure line (top level, or inside `error` for multi-turn and agentic). */
export function errorTypeOf(record: PyDict): string {
  const top = record.get('error_type');
  if (typeof top === 'string') return top;
  const error = record.get('error');
  if (error instanceof Map) {
    const inner = error.get('error_type');
    if (typeof inner === 'string') return inner;
  }
  return '';
}

const INFERENCE_ERROR_PREFIX = 'Error during inference';
/** BFCL parity: constants/default_prompts.py::MAXIMUM_STEP_LIMIT — a turn stops after this many steps plus one. */
const MAXIMUM_STEP_LIMIT = 20;

function isInferenceErrorResult(value: PyValue | undefined): boolean {
  return typeof value === 'string' && value.startsWith(INFERENCE_ERROR_PREFIX);
}

/**
 * `cannot_find_match` lists, per model call it tried, the sub-error of that candidate. The most
 * telling one is a candidate that had the right function but failed on a parameter; only when
 * every candidate had another name is it a wrong function.
 */
function classifyUnmatchedCall(record: PyDict): ErrorClass | undefined {
  const error = record.get('error');
  if (!Array.isArray(error)) return undefined;
  const classes: ErrorClass[] = [];
  for (const item of error) {
    if (!(item instanceof Map)) continue;
    for (const candidate of item.values()) {
      if (!(candidate instanceof Map)) continue;
      const subType = candidate.get('sub_error_type');
      if (typeof subType === 'string') classes.push(classifyErrorType(subType));
    }
  }
  return classes.find((c) => c !== 'wrong_function') ?? classes[0];
}

/** Number of steps of the (single) turn of an agentic result. */
function agenticStepCount(record: PyDict): number {
  const result = record.get('model_result');
  if (!Array.isArray(result) || !Array.isArray(result[0])) return 0;
  return result[0].length;
}

/**
 * The class of one failed entry, from its score-file line. Works on the reference's score files
 * too. Refinements over `classifyErrorType`:
 * - any entry whose model output is an `Error during inference` text is an infrastructure error;
 * - `cannot_find_match` takes the class of its most specific candidate sub-error;
 * - `relevance_error:decoder_failed` is `empty_turn` when the output decoded but held no call;
 * - `agentic:no_last_message` is `step_limit` when the turn ran past the step limit.
 */
export function classifyFailure(record: PyDict): ErrorClass {
  const errorType = errorTypeOf(record);
  if (isInferenceErrorResult(record.get('model_result_raw')) || isInferenceErrorResult(record.get('model_result'))) {
    return 'infrastructure_error';
  }
  switch (errorType) {
    case 'parallel_function_checker_no_order:cannot_find_match':
      return classifyUnmatchedCall(record) ?? 'wrong_function';
    case 'relevance_error:decoder_failed': {
      const decoded = record.get('decoded_result');
      return decoded === null || decoded === undefined ? 'parse_failure' : 'empty_turn';
    }
    case 'agentic:no_last_message':
      return agenticStepCount(record) > MAXIMUM_STEP_LIMIT ? 'step_limit' : 'other';
    default:
      return classifyErrorType(errorType);
  }
}

/** The classification of one failed entry. */
export interface ClassifiedFailure {
  readonly id: string;
  readonly errorType: string;
  readonly errorClass: ErrorClass;
}

/** The taxonomy of one model's category: counts per class and per reference error type, and per entry. */
export interface CategoryTaxonomy {
  readonly totalCount: number;
  /** Count of every class (zero included), in `ERROR_CLASSES` order. */
  readonly classes: ReadonlyMap<ErrorClass, number>;
  /** Count of each reference error type present, sorted by type. */
  readonly errorTypes: ReadonlyMap<string, number>;
  /** Failed entries in score-file order. */
  readonly entries: readonly ClassifiedFailure[];
}

/** Classify the failure lines of a category (`failures` as written to the score file). */
export function summarizeTaxonomy(failures: readonly PyDict[], totalCount: number): CategoryTaxonomy {
  const classes = new Map<ErrorClass, number>(ERROR_CLASSES.map((c) => [c, 0]));
  const errorTypes = new Map<string, number>();
  const entries: ClassifiedFailure[] = failures.map((record) => {
    const errorType = errorTypeOf(record);
    const errorClass = classifyFailure(record);
    classes.set(errorClass, classes.get(errorClass)! + 1);
    errorTypes.set(errorType, (errorTypes.get(errorType) ?? 0) + 1);
    return { id: String(record.get('id')), errorType, errorClass };
  });
  const sortedTypes = new Map([...errorTypes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { totalCount, classes, errorTypes: sortedTypes, entries };
}

/** The taxonomy of a score file's text (header line, then one line per failed entry). */
export function taxonomyOfScoreFile(text: string): CategoryTaxonomy {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const header = lines.length > 0 ? parseJsonLossless(lines[0]!) : null;
  const total = header instanceof Map ? Number(header.get('total_count') ?? 0) : 0;
  const failures = lines.slice(1).map((line) => parseJsonLossless(line)).filter((v): v is PyDict => v instanceof Map);
  return summarizeTaxonomy(failures, total);
}

// ---------------------------------------------------------------------------------------------
// The sidecar file

/** `.../BFCL_v4_<category>_score.json` → `.../BFCL_v4_<category>_taxonomy.json`. */
export function taxonomySidecarPath(scoreFile: string): string {
  return scoreFile.replace(/_score\.json$/, '_taxonomy.json');
}

/** The sidecar's JSON object (plain JSON: counts are small integers). */
export interface TaxonomySidecar {
  readonly model: string;
  readonly test_category: string;
  readonly total_count: number;
  readonly failed_count: number;
  readonly classes: Record<ErrorClass, number>;
  readonly error_types: Record<string, number>;
  readonly entries: { id: string; class: ErrorClass; error_type: string }[];
}

/** The sidecar object of a category's taxonomy. */
export function toTaxonomySidecar(model: string, category: string, taxonomy: CategoryTaxonomy): TaxonomySidecar {
  return {
    model,
    test_category: category,
    total_count: taxonomy.totalCount,
    failed_count: taxonomy.entries.length,
    classes: Object.fromEntries(taxonomy.classes) as Record<ErrorClass, number>,
    error_types: Object.fromEntries(taxonomy.errorTypes),
    entries: taxonomy.entries.map((e) => ({ id: e.id, class: e.errorClass, error_type: e.errorType })),
  };
}

/** Write the sidecar beside `scoreFile` (pretty-printed JSON, one object). */
export function writeTaxonomySidecar(scoreFile: string, model: string, category: string, taxonomy: CategoryTaxonomy): string {
  const path = taxonomySidecarPath(scoreFile);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(toTaxonomySidecar(model, category, taxonomy), null, 2) + '\n');
  return path;
}

/** Read a sidecar back; undefined when the file is absent or not a sidecar. */
export function readTaxonomySidecar(path: string): TaxonomySidecar | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<TaxonomySidecar>;
    if (typeof value !== 'object' || value === null || typeof value.classes !== 'object' || !Array.isArray(value.entries)) {
      return undefined;
    }
    return value as TaxonomySidecar;
  } catch {
    return undefined;
  }
}

/**
 * The single-turn AST checker (ast_checker.py::ast_checker): routes a decoded answer to the simple,
 * multiple or parallel (order-free) checker by the test category, and returns the reference's
 * verdict with its exact error list and error type.
 */

import { pyRepr } from '../../py/repr.js';
import { pyEquals, PyException, type PyDict, type PyValue } from '../../py/value.js';
import { pyLen } from '../../py/builtins.js';
import { getItem, noAttribute } from '../../py/ops.js';
import { pyIndexedItems } from './py-text.js';
import { type CheckerLanguage, simpleFunctionChecker } from './simple-function-checker.js';
import type { CheckResult } from './type-checker.js';

export type { CheckerLanguage } from './simple-function-checker.js';

/**
 * A verdict. `error` is the reference's error list: strings, and for parallel categories also
 * `{"Model Result Index k": {...}}` dicts. `errorType` is empty for a valid answer.
 */
export interface AstCheckResult {
  valid: boolean;
  error: PyValue[];
  errorType: string;
}

const wrongCount = (errorType: string): AstCheckResult => ({
  valid: false,
  error: ['Wrong number of functions.'],
  errorType,
});

/**
 * Check a decoded answer (`[{name: {param: value}}, ...]`, already shape-checked with
 * `isFunctionCallingFormatOutput`) against the entry's ground truth (`[{name: {param: [values]}}, ...]`).
 * `underscoreToDot` is the model's registry flag: dotted names are then expected with `_`.
 * Inputs that make the reference itself raise throw a `PyException`.
 */
export function checkAst(
  functionDocs: readonly PyValue[],
  decoded: PyValue,
  possibleAnswer: PyValue,
  language: CheckerLanguage,
  testCategory: string,
  underscoreToDot: boolean,
): AstCheckResult {
  const calls = pyIndexedItems(decoded);
  const answers = pyIndexedItems(possibleAnswer);
  if (testCategory.includes('parallel')) {
    return parallelFunctionCheckerNoOrder(functionDocs, calls, answers, language, underscoreToDot);
  }
  if (testCategory.includes('multiple')) {
    return multipleFunctionChecker(functionDocs, calls, answers, language, underscoreToDot);
  }
  if (calls.length !== 1) return wrongCount('simple_function_checker:wrong_count');
  return simpleFunctionChecker(docAt(functionDocs, 0), calls[0]!, answerAt(answers, 0), language, underscoreToDot);
}

/** `list[i]` with Python's IndexError. */
function docAt(docs: readonly PyValue[], i: number): PyValue {
  if (i >= docs.length) throw new PyException('IndexError', 'list index out of range');
  return docs[i]!;
}
const answerAt = docAt;

/** ast_checker.py::find_description — the doc with this name (None if absent). */
function findDescription(docs: readonly PyValue[], name: PyValue): PyValue {
  return docs.find((doc) => pyEquals(getItem(doc, 'name'), name)) ?? null;
}

/** The function name of a `{name: {...}}` possible answer (`list(d.keys())[0]`). */
function answerName(answer: PyValue): PyValue {
  if (!(answer instanceof Map)) throw noAttribute(answer, 'keys');
  const first = answer.keys().next();
  if (first.done) throw new PyException('IndexError', 'list index out of range');
  return first.value;
}

/** ast_checker.py::multiple_function_checker — one call, checked against the doc of the answer's function. */
function multipleFunctionChecker(
  docs: readonly PyValue[],
  calls: PyValue[],
  answers: PyValue[],
  language: CheckerLanguage,
  underscoreToDot: boolean,
): AstCheckResult {
  if (calls.length !== answers.length) return wrongCount('multiple_function_checker:wrong_count');
  const doc = findDescription(docs, answerName(answerAt(answers, 0)));
  return simpleFunctionChecker(doc, calls[0]!, answers[0]!, language, underscoreToDot);
}

/**
 * ast_checker.py::parallel_function_checker_no_order — greedy matching: each possible answer, in
 * order, takes the first still unmatched call that passes the simple checker.
 */
function parallelFunctionCheckerNoOrder(
  docs: readonly PyValue[],
  calls: PyValue[],
  answers: PyValue[],
  language: CheckerLanguage,
  underscoreToDot: boolean,
): AstCheckResult {
  if (calls.length !== answers.length) return wrongCount('parallel_function_checker_no_order:wrong_count');

  const matched = new Set<number>();
  for (let i = 0; i < answers.length; i++) {
    const answer = answers[i]!;
    const doc = findDescription(docs, answerName(answer));
    const attempts: PyValue[] = [];
    let found = false;
    for (let index = 0; index < calls.length; index++) {
      if (matched.has(index)) continue;
      const result: CheckResult = simpleFunctionChecker(doc, calls[index]!, answer, language, underscoreToDot);
      if (result.valid) {
        matched.add(index);
        found = true;
        break;
      }
      attempts.push(subError(index, result, calls[index]!, answer));
    }
    if (!found) {
      const unmatched = pyRepr(calls.map((_, k) => BigInt(k)).filter((k) => !matched.has(Number(k))));
      const header = `Could not find a matching function among index ${unmatched} of model output for index ${i} of possible answers.`;
      return {
        valid: false,
        error: [header, ...attempts],
        errorType: 'parallel_function_checker_no_order:cannot_find_match',
      };
    }
  }
  return { valid: true, error: [], errorType: '' };
}

/** One failed attempt of the parallel checker, keyed as the reference does. */
function subError(index: number, result: CheckResult, call: PyValue, answer: PyValue): PyDict {
  const detail: PyDict = new Map<string, PyValue>([
    ['sub_error', result.error],
    ['sub_error_type', result.errorType],
    ['model_output_item', call],
    ['possible_answer_item', answer],
  ]);
  return new Map([[`Model Result Index ${index}`, detail]]);
}

/**
 * utils.py::is_function_calling_format_output — a list of `{name: {param: value}}` dicts, each
 * with exactly one key whose value is a dict. An empty list is well formed.
 */
export function isFunctionCallingFormatOutput(decoded: PyValue): boolean {
  if (!Array.isArray(decoded)) return false;
  return decoded.every((item) => item instanceof Map && pyLen(item) === 1 && item.values().next().value instanceof Map);
}

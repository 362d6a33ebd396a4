/**
 * Value comparisons of the AST checker (ast_checker.py::string_checker, list_checker, dict_checker,
 * list_dict_checker). Strings are compared after `standardizeString`.
 */

import { pyRepr, pyStr } from '../../py/repr.js';
import { pyEquals, type PyValue } from '../../py/value.js';
import { pyLen } from '../../py/builtins.js';
import { getItem, noAttribute, pyContains } from '../../py/ops.js';
import { pyIndexedItems } from './py-text.js';
import { standardizeString } from './standardize-string.js';
import type { CheckResult } from './type-checker.js';

const valid = (): CheckResult => ({ valid: true, error: [], errorType: '' });

/** A string is standardized; anything else is kept as it is. */
const standardizeIfString = (v: PyValue): PyValue => (typeof v === 'string' ? standardizeString(v) : v);

/** The standardized form of every item of a possible-answer list (strings standardized). */
const standardizeItems = (answers: PyValue): PyValue[] => pyIndexedItems(answers).map(standardizeIfString);

/** ast_checker.py::string_checker — the standardized value must equal a standardized string answer. */
export function stringChecker(param: string, value: string, possibleAnswer: PyValue): CheckResult {
  const answers = pyIndexedItems(possibleAnswer)
    .filter((a): a is string => typeof a === 'string')
    .map(standardizeString);
  if (answers.includes(standardizeString(value))) return valid();
  return {
    valid: false,
    error: [
      `Invalid value for parameter ${pyRepr(param)}: ${pyRepr(value)}. Expected one of ${pyRepr(possibleAnswer)}. Case insensitive.`,
    ],
    errorType: 'value_error:string',
  };
}

/**
 * ast_checker.py::list_checker — the list, with its string elements standardized, must equal one
 * possible answer list standardized the same way. A `""` answer becomes `[]`, so an empty list
 * matches an optional parameter.
 */
export function listChecker(param: string, value: PyValue[], possibleAnswer: PyValue): CheckResult {
  const standardized = value.map(standardizeIfString);
  const answers = pyIndexedItems(possibleAnswer).map(standardizeItems);
  if (answers.some((answer) => pyEquals(standardized, answer))) return valid();
  return {
    valid: false,
    error: [`Invalid value for parameter ${pyRepr(param)}: ${pyRepr(value)}. Expected one of ${pyRepr(possibleAnswer)}.`],
    errorType: 'value_error:list/tuple',
  };
}

/**
 * ast_checker.py::dict_checker — the first possible dict (`""` answers skipped) that the value
 * matches wins; otherwise the error of the last one tried is returned. Messages name the dict keys,
 * not the parameter.
 */
export function dictChecker(value: PyValue, possibleAnswers: PyValue): CheckResult {
  let result: CheckResult = { valid: false, error: [], errorType: 'dict_checker:unclear' };
  for (const possibleAnswer of pyIndexedItems(possibleAnswers)) {
    if (pyEquals(possibleAnswer, '')) continue;
    if (!(value instanceof Map)) throw noAttribute(value, 'items');
    result = { valid: false, error: [], errorType: 'dict_checker:unclear' };
    let matched = true;

    for (const [key, keyValue] of value) {
      if (!pyContains(possibleAnswer, key)) {
        result.error.push(`Unexpected dict key parameter: '${pyStr(key)}'.`);
        result.errorType = 'value_error:dict_key';
        matched = false;
        break;
      }
      const answers = standardizeItems(getItem(possibleAnswer, key));
      if (!pyContains(answers, standardizeIfString(keyValue))) {
        // BFCL parity: ast_checker.py::dict_checker — the message names the dict key and lists the
        // standardized answers.
        result.error.push(
          `Invalid value for parameter ${pyRepr(key)}: ${pyRepr(keyValue)}. Expected one of ${pyRepr(answers)}.`,
        );
        result.errorType = 'value_error:dict_value';
        matched = false;
        break;
      }
    }

    // BFCL parity: ast_checker.py::dict_checker — missing keys are checked even after a failure
    // above, so a wrong value plus a missing key gives two messages and type dict_key.
    if (!(possibleAnswer instanceof Map)) throw noAttribute(possibleAnswer, 'items');
    for (const [key, answers] of possibleAnswer) {
      if (!pyContains(value, key) && !pyContains(answers, '')) {
        result.error.push(`Missing dict key parameter: '${pyStr(key)}'.`);
        result.errorType = 'value_error:dict_key';
        matched = false;
        break;
      }
    }

    if (matched) return valid();
  }
  return result;
}

/**
 * ast_checker.py::list_dict_checker — the list must have as many dicts as one possible answer
 * list and match it dict by dict, in order.
 */
export function listDictChecker(value: PyValue[], possibleAnswers: PyValue): CheckResult {
  let result: CheckResult = { valid: false, error: [], errorType: 'list_dict_checker:unclear' };
  for (const answer of pyIndexedItems(possibleAnswers)) {
    if (value.length !== pyLen(answer)) {
      result = { valid: false, error: ['Wrong number of dictionaries in the list.'], errorType: 'value_error:list_dict_count' };
      continue;
    }
    const answerDicts = pyIndexedItems(answer);
    let matched = true;
    for (let i = 0; i < value.length; i++) {
      result = dictChecker(value[i]!, [answerDicts[i]!]);
      if (!result.valid) {
        matched = false;
        break;
      }
    }
    if (matched) return valid();
  }
  return result;
}

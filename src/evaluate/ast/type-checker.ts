/**
 * The AST checker's type check of one parameter value (ast_checker.py::type_checker), with its
 * "variable" escape: when the possible answer holds a value of another type than the documented one
 * (usually a variable name given as a string), a value of that type is accepted too.
 */

import { pyRepr } from '../../py/repr.js';
import { pyEquals, pyTypeName, type PyValue } from '../../py/value.js';
import { pyIndexedItems } from './py-text.js';
import { type PyTypeName, typeObjectStr } from './type-mappings.js';

/** What a check returns: `error` is the reference's error list, `errorType` its error_type. */
export interface CheckResult {
  valid: boolean;
  error: PyValue[];
  errorType: string;
}

/** A type check result; `isVariable` says the value is to be compared as a variable. */
export interface TypeCheckResult extends CheckResult {
  isVariable: boolean;
}

/** ast_checker.py::get_possible_answer_type — the type of the first answer that is not `""`. */
export function possibleAnswerType(possibleAnswer: PyValue): string | undefined {
  for (const answer of pyIndexedItems(possibleAnswer)) {
    if (!pyEquals(answer, '')) return pyTypeName(answer);
  }
  return undefined;
}

/**
 * ast_checker.py::type_checker. `expectedTypeDescription` is the documented type as printed in
 * messages; `expectedType` the Python type it maps to; `nestedType` the element type of arrays.
 */
export function typeChecker(
  param: string,
  value: PyValue,
  possibleAnswer: PyValue,
  expectedTypeDescription: string,
  expectedType: PyTypeName,
  nestedType: PyTypeName | undefined,
): TypeCheckResult {
  const result: TypeCheckResult = { valid: true, error: [], isVariable: false, errorType: 'type_error:simple' };
  const answerType = possibleAnswerType(possibleAnswer);
  // A possible answer of another type than documented stands for a variable.
  const isVariable = answerType !== undefined && answerType !== expectedType;
  const valueType = pyTypeName(value);

  if (valueType === expectedType) {
    if (nestedType === undefined) return { ...result, isVariable };
    // Each element must fit one possible answer's element type; a non-list answer (such as the
    // optional marker "") accepts any value.
    for (const answerItem of pyIndexedItems(possibleAnswer)) {
      const fits =
        !Array.isArray(answerItem) ||
        pyIndexedItems(value).every(
          (element) => typeChecker(param, element, answerItem, typeObjectStr(nestedType), nestedType, undefined).valid,
        );
      if (fits) return { valid: true, error: [], isVariable, errorType: result.errorType };
    }
    result.valid = false;
    result.error = [
      `Nested type checking failed for parameter ${pyRepr(param)}. Expected outer type ${expectedTypeDescription} with inner type ${typeObjectStr(nestedType)}. Parameter value: ${pyRepr(value)}.`,
    ];
    result.errorType = 'type_error:nested';
    // BFCL parity: ast_checker.py::type_checker — a failed nested check falls through to the
    // variable test below (which keeps the nested error) or appends a second, simple error.
  }

  if (answerType !== undefined && valueType === answerType) {
    result.isVariable = true;
    return result;
  }
  result.valid = false;
  result.error.push(
    `Incorrect type for parameter ${pyRepr(param)}. Expected type ${expectedTypeDescription}, got ${valueType}. Parameter value: ${pyRepr(value)}.`,
  );
  result.errorType = 'type_error:simple';
  return result;
}

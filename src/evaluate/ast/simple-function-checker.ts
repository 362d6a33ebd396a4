/**
 * Checks one decoded call against one possible answer (ast_checker.py::simple_function_checker):
 * name, required parameters, unexpected parameters, then type and value of every argument.
 */

import { pyRepr } from '../../py/repr.js';
import { dictGet, PyException, PyTuple, pyTypeName, type PyKey, type PyValue } from '../../py/value.js';
import { javaTypeConverter } from './java-type-converter.js';
import { jsTypeConverter } from './js-type-converter.js';
import { intToFloat } from '../../py/numbers.js';
import { getItem, noAttribute, pyContains } from '../../py/ops.js';
import { pyIndexedItems } from './py-text.js';
import { type CheckResult, typeChecker } from './type-checker.js';
import {
  JAVA_TYPE_CONVERSION,
  JS_TYPE_CONVERSION,
  NESTED_CONVERSION_TYPE_LIST,
  PYTHON_NESTED_TYPE_CHECK_LIST,
  PYTHON_TYPE_MAPPING,
  type PyTypeName,
} from './type-mappings.js';
import { dictChecker, listChecker, listDictChecker, stringChecker } from './value-checkers.js';

/** The language whose value conventions the checker applies. */
export type CheckerLanguage = 'python' | 'java' | 'javascript';

const failure = (message: string, errorType: string): CheckResult => ({ valid: false, error: [message], errorType });

/**
 * ast_checker.py::convert_func_name — models that cannot use `.` in tool names (the registry's
 * `underscore_to_dot`) are expected to answer with `_` in its place.
 */
export function convertFuncName(functionName: string, underscoreToDot: boolean): string {
  return underscoreToDot && functionName.includes('.') ? functionName.replace(/\./g, '_') : functionName;
}

/** `table[key]` of a type table, raising Python's KeyError when the type is unknown. */
function lookupType(table: ReadonlyMap<string, PyTypeName>, key: PyValue): PyTypeName {
  const t = typeof key === 'string' ? table.get(key) : undefined;
  if (t === undefined) throw new PyException('KeyError', pyRepr(key));
  return t;
}

/** The value as the checker sees it, with its expected Python type and element type. */
interface PreparedValue {
  value: PyValue;
  expectedType: PyTypeName;
  nestedType: PyTypeName | undefined;
}

/**
 * Convert a Java/JavaScript value from its source text; look the Python types up. Returns a
 * CheckResult when a Java/JavaScript value is not a string.
 */
function prepareValue(
  param: string,
  value: PyValue,
  details: PyValue,
  typeDescription: string,
  language: CheckerLanguage,
): PreparedValue | CheckResult {
  const elementType = (): string => {
    const t = getItem(getItem(details, 'items'), 'type');
    if (typeof t !== 'string') throw new PyException('KeyError', pyRepr(t));
    return t;
  };
  if (language === 'python') {
    const expectedType = lookupType(PYTHON_TYPE_MAPPING, typeDescription);
    const nested = PYTHON_NESTED_TYPE_CHECK_LIST.includes(typeDescription);
    return { value, expectedType, nestedType: nested ? lookupType(PYTHON_TYPE_MAPPING, elementType()) : undefined };
  }

  const [table, convert, errorType] =
    language === 'java'
      ? [JAVA_TYPE_CONVERSION, javaTypeConverter, 'type_error:java']
      : [JS_TYPE_CONVERSION, jsTypeConverter, 'type_error:js'];
  // The table lookup comes first: an unknown documented type is a KeyError.
  const expectedType = lookupType(table, typeDescription);
  if (typeof value !== 'string') {
    return failure(
      `Incorrect type for parameter ${pyRepr(param)}. Expected type String, got ${pyTypeName(value)}. Parameter value: ${pyRepr(value)}.`,
      errorType,
    );
  }
  if (NESTED_CONVERSION_TYPE_LIST.includes(typeDescription)) {
    const element = elementType();
    const nestedType = lookupType(table, element);
    return { value: convert(value, typeDescription, element), expectedType, nestedType };
  }
  return { value: convert(value, typeDescription), expectedType, nestedType: undefined };
}

/**
 * ast_checker.py::simple_function_checker. `functionDoc` is the function's doc, `call` the decoded
 * `{name: {param: value}}`, `possibleAnswer` the ground truth `{name: {param: [values]}}`.
 */
export function simpleFunctionChecker(
  functionDoc: PyValue,
  call: PyValue,
  possibleAnswer: PyValue,
  language: CheckerLanguage,
  underscoreToDot: boolean,
): CheckResult {
  const answers = firstValue(possibleAnswer);
  const docName = getItem(functionDoc, 'name');
  const parameters = getItem(functionDoc, 'parameters');
  const paramDetails = getItem(parameters, 'properties');
  const requiredParams = getItem(parameters, 'required');

  const funcName = typeof docName === 'string' ? convertFuncName(docName, underscoreToDot) : docName;
  if (!pyContains(call, funcName)) {
    return failure(
      `Function name ${pyRepr(funcName)} not found in model output.`,
      'simple_function_checker:wrong_func_name',
    );
  }
  if (!(call instanceof Map)) {
    throw new PyException('TypeError', `${pyTypeName(call)} indices must be integers or slices, not str`);
  }
  const modelParams = dictGet(call, funcName as PyKey)!;
  if (!(modelParams instanceof Map)) throw noAttribute(modelParams, 'items');

  for (const param of pyIndexedItems(requiredParams)) {
    if (!pyContains(modelParams, param)) {
      return failure(`Missing required parameter: ${pyRepr(param)}.`, 'simple_function_checker:missing_required');
    }
  }

  for (const [param, rawValue] of modelParams) {
    if (!pyContains(paramDetails, param) || !pyContains(answers, param)) {
      return failure(`Unexpected parameter: ${pyRepr(param)}.`, 'simple_function_checker:unexpected_param');
    }
    // Parameter names in docs and possible answers are strings, so a matching key is one too.
    const name = param as string;
    const details = getItem(paramDetails, name);
    const typeDescription = getItem(details, 'type');
    if (typeof typeDescription !== 'string') throw new PyException('TypeError', 'parameter type is not a string');
    const prepared = prepareValue(name, rawValue, details, typeDescription, language);
    if ('valid' in prepared) return prepared;
    let { value } = prepared;
    const { expectedType, nestedType } = prepared;

    // Possible answers went through JSON, where tuples became lists.
    if (typeDescription === 'tuple' && value instanceof PyTuple) value = [...value.items];
    // Python would accept an int where a float is documented.
    if (language === 'python' && typeDescription === 'float' && typeof value === 'bigint') value = intToFloat(value);

    const expected = getItem(answers, name);
    const typeCheck = typeChecker(name, value, expected, typeDescription, expectedType, nestedType);
    if (!typeCheck.valid) return { valid: false, error: typeCheck.error, errorType: typeCheck.errorType };

    // A variable is compared as it is (below); otherwise dicts, lists and strings have their own checks.
    if (!typeCheck.isVariable) {
      let result: CheckResult | undefined;
      if (expectedType === 'dict') result = dictChecker(value, expected);
      else if (expectedType === 'list' && nestedType === 'dict') result = listDictChecker(value as PyValue[], expected);
      else if (expectedType === 'str') result = stringChecker(name, value as string, expected);
      else if (expectedType === 'list') result = listChecker(name, value as PyValue[], expected);
      if (result !== undefined) {
        if (!result.valid) return result;
        continue;
      }
    }

    if (!pyContains(expected, value)) {
      return failure(
        `Invalid value for parameter ${pyRepr(name)}: ${pyRepr(value)}. Expected one of ${pyRepr(expected)}.`,
        'value_error:others',
      );
    }
  }

  if (!(answers instanceof Map)) throw noAttribute(answers, 'items');
  for (const [param, expected] of answers) {
    if (!pyContains(modelParams, param) && !pyContains(expected, '')) {
      return failure(
        `Optional parameter ${pyRepr(param)} not provided and not marked as optional.`,
        'simple_function_checker:missing_optional',
      );
    }
  }
  return { valid: true, error: [], errorType: '' };
}

/** `list(d.values())[0]`: the parameters of a `{name: {param: [values]}}` possible answer. */
function firstValue(possibleAnswer: PyValue): PyValue {
  if (!(possibleAnswer instanceof Map)) throw noAttribute(possibleAnswer, 'values');
  const first = possibleAnswer.values().next();
  if (first.done) throw new PyException('IndexError', 'list index out of range');
  return first.value;
}

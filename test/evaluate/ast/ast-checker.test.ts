/**
 * AST checker verdicts. Expected messages are the reference's (checked against the Python reference
 * checker run on the same inputs).
 */
import { describe, expect, it } from 'vitest';

import {
  checkAst,
  isFunctionCallingFormatOutput,
  type AstCheckResult,
  type CheckerLanguage,
} from '../../../src/evaluate/ast/ast-checker.js';
import { standardizeString } from '../../../src/evaluate/ast/standardize-string.js';
import { jsonDumps } from '../../../src/py/json.js';
import { PyException, PyTuple, pyDict, type PyDict, type PyValue } from '../../../src/py/value.js';

/** A function doc: `props` maps a parameter to its type (or to a full property dict). */
function doc(name: string, props: Record<string, string | PyDict>, required: string[] = []): PyDict {
  const properties = new Map<string, PyValue>(
    Object.entries(props).map(([p, t]) => [p, typeof t === 'string' ? pyDict({ type: t }) : t]),
  );
  return pyDict({ name, description: '', parameters: pyDict({ type: 'dict', properties, required }) });
}
const arrayOf = (items: string, type = 'array'): PyDict => pyDict({ type, items: pyDict({ type: items }) });
const call = (name: string, args: Record<string, PyValue>): PyDict => new Map([[name, pyDict(args)]]);

function check(
  docs: PyDict[],
  decoded: PyValue[],
  answer: PyValue[],
  category = 'simple_python',
  language: CheckerLanguage = 'python',
  underscoreToDot = false,
): AstCheckResult {
  return checkAst(docs, decoded, answer, language, category, underscoreToDot);
}
const VALID = { valid: true, error: [], errorType: '' };
const invalid = (errorType: string, ...error: PyValue[]): AstCheckResult => ({ valid: false, error, errorType });

describe('standardizeString', () => {
  it('drops spaces and ,./-_*^, lowercases and turns single quotes into double quotes', () => {
    expect(standardizeString("April 1, 2024 - It's_a*b^c/d.e")).toBe('april12024it"sabcde');
  });
});

describe('simple checker', () => {
  const fact = doc('math.factorial', { n: 'integer' }, ['n']);
  const gt = [call('math.factorial', { n: [5n] })];

  it('accepts a matching call', () => {
    expect(check([fact], [call('math.factorial', { n: 5n })], gt)).toEqual(VALID);
  });

  it('needs exactly one call', () => {
    expect(check([fact], [], gt)).toEqual(invalid('simple_function_checker:wrong_count', 'Wrong number of functions.'));
  });

  it('checks the function name, with `.` → `_` for underscore_to_dot models', () => {
    const underscored = [call('math_factorial', { n: 5n })];
    expect(check([fact], underscored, gt)).toEqual(
      invalid('simple_function_checker:wrong_func_name', "Function name 'math.factorial' not found in model output."),
    );
    expect(check([fact], underscored, gt, 'simple_python', 'python', true)).toEqual(VALID);
    expect(check([fact], [call('math.factorial', { n: 5n })], gt, 'simple_python', 'python', true)).toEqual(
      invalid('simple_function_checker:wrong_func_name', "Function name 'math_factorial' not found in model output."),
    );
  });

  it('reports a missing required parameter', () => {
    expect(check([fact], [call('math.factorial', {})], gt)).toEqual(
      invalid('simple_function_checker:missing_required', "Missing required parameter: 'n'."),
    );
  });

  it('reports parameters unknown to the doc or to the possible answer', () => {
    const d = doc('f', { a: 'integer', b: 'integer' }, ['a']);
    const answer = [call('f', { a: [1n] })];
    expect(check([d], [call('f', { a: 1n, c: 2n })], answer)).toEqual(
      invalid('simple_function_checker:unexpected_param', "Unexpected parameter: 'c'."),
    );
    expect(check([d], [call('f', { a: 1n, b: 2n })], answer)).toEqual(
      invalid('simple_function_checker:unexpected_param', "Unexpected parameter: 'b'."),
    );
  });

  it('reports a GT parameter left out that is not optional', () => {
    const d = doc('f', { a: 'integer', unit: 'string' }, ['a']);
    const answer = [call('f', { a: [1n], unit: ['cm'] })];
    expect(check([d], [call('f', { a: 1n })], answer)).toEqual(
      invalid('simple_function_checker:missing_optional', "Optional parameter 'unit' not provided and not marked as optional."),
    );
    expect(check([d], [call('f', { a: 1n })], [call('f', { a: [1n], unit: ['cm', ''] })])).toEqual(VALID);
  });

  it('keeps int, float and bool apart', () => {
    expect(check([fact], [call('math.factorial', { n: 5 })], gt)).toEqual(
      invalid('type_error:simple', "Incorrect type for parameter 'n'. Expected type integer, got float. Parameter value: 5.0."),
    );
    expect(check([fact], [call('math.factorial', { n: true })], gt)).toEqual(
      invalid('type_error:simple', "Incorrect type for parameter 'n'. Expected type integer, got bool. Parameter value: True."),
    );
  });

  it('promotes an int to float for float parameters (Python only)', () => {
    const d = doc('f', { x: 'float' }, ['x']);
    expect(check([d], [call('f', { x: 5n })], [call('f', { x: [5.0] })])).toEqual(VALID);
    expect(check([d], [call('f', { x: 5n })], [call('f', { x: [6.0] })])).toEqual(
      invalid('value_error:others', "Invalid value for parameter 'x': 5.0. Expected one of [6.0]."),
    );
  });

  it('accepts a variable name where the possible answer holds a string for another type', () => {
    const answer = [call('math.factorial', { n: ['num'] })];
    expect(check([fact], [call('math.factorial', { n: 'num' })], answer)).toEqual(VALID);
    // Compared exactly (no standardization) since it is a variable.
    expect(check([fact], [call('math.factorial', { n: 'Num' })], answer)).toEqual(
      invalid('value_error:others', "Invalid value for parameter 'n': 'Num'. Expected one of ['num']."),
    );
    expect(check([fact], [call('math.factorial', { n: 5n })], answer)).toEqual(
      invalid('value_error:others', "Invalid value for parameter 'n': 5. Expected one of ['num']."),
    );
  });

  it('compares strings after standardization', () => {
    const d = doc('w', { city: 'string' }, ['city']);
    const answer = [call('w', { city: ['New York, NY', 'NYC'] })];
    expect(check([d], [call('w', { city: 'new york ny' })], answer)).toEqual(VALID);
    expect(check([d], [call('w', { city: 'Boston' })], answer)).toEqual(
      invalid('value_error:string', "Invalid value for parameter 'city': 'Boston'. Expected one of ['New York, NY', 'NYC']. Case insensitive."),
    );
  });

  it('compares lists with standardized string elements, in order', () => {
    const d = doc('f', { items: arrayOf('string') }, []);
    const answer = [call('f', { items: [['a b', 'C'], ''] })];
    expect(check([d], [call('f', { items: ['AB', 'c'] })], answer)).toEqual(VALID);
    // A "" possible answer becomes [], so an empty list matches an optional parameter.
    expect(check([d], [call('f', { items: [] })], answer)).toEqual(VALID);
    expect(check([d], [call('f', { items: ['c', 'ab'] })], answer)).toEqual(
      invalid('value_error:list/tuple', "Invalid value for parameter 'items': ['c', 'ab']. Expected one of [['a b', 'C'], '']."),
    );
  });

  it('turns a tuple into a list only for tuple parameters', () => {
    const tupleDoc = doc('f', { p: arrayOf('float', 'tuple') }, ['p']);
    const answer = [call('f', { p: [[1.0, 2.0]] })];
    expect(check([tupleDoc], [call('f', { p: new PyTuple([1.0, 2.0]) })], answer)).toEqual(VALID);
    const arrayDoc = doc('f', { p: arrayOf('float') }, ['p']);
    expect(check([arrayDoc], [call('f', { p: new PyTuple([1.0, 2.0]) })], answer)).toEqual(
      invalid('type_error:simple', "Incorrect type for parameter 'p'. Expected type array, got tuple. Parameter value: (1.0, 2.0)."),
    );
  });

  it('checks element types of arrays', () => {
    const d = doc('f', { nums: arrayOf('integer') }, ['nums']);
    expect(check([d], [call('f', { nums: [1n, '2'] })], [call('f', { nums: [[1n, 2n]] })])).toEqual(
      invalid(
        'type_error:nested',
        "Nested type checking failed for parameter 'nums'. Expected outer type array with inner type <class 'int'>. Parameter value: [1, '2'].",
      ),
    );
    // Elements get the variable escape against the possible list's element type, not the int→float promotion.
    expect(check([d], [call('f', { nums: ['a', 'b'] })], [call('f', { nums: [['a', 'b']] })])).toEqual(VALID);
    const floats = doc('f', { xs: arrayOf('float') }, ['xs']);
    expect(check([floats], [call('f', { xs: [1n] })], [call('f', { xs: [[1.0]] })])).toEqual(
      invalid(
        'type_error:nested',
        "Nested type checking failed for parameter 'xs'. Expected outer type array with inner type <class 'float'>. Parameter value: [1].",
      ),
    );
  });

  it('appends a simple type error after a nested one when no possible answer gives a type', () => {
    const d = doc('f', { nums: arrayOf('integer') }, ['nums']);
    expect(check([d], [call('f', { nums: ['x'] })], [call('f', { nums: [] })])).toEqual(
      invalid(
        'type_error:simple',
        "Nested type checking failed for parameter 'nums'. Expected outer type array with inner type <class 'int'>. Parameter value: ['x'].",
        "Incorrect type for parameter 'nums'. Expected type array, got list. Parameter value: ['x'].",
      ),
    );
  });

  describe('dict values', () => {
    const d = doc('f', { opts: 'dict' }, ['opts']);
    const answer = [call('f', { opts: [pyDict({ a: ['x y'], b: [1n, ''] })] })];

    it('accepts standardized values and optional keys', () => {
      expect(check([d], [call('f', { opts: pyDict({ a: 'XY' }) })], answer)).toEqual(VALID);
    });

    it('reports unexpected keys, wrong values and missing keys', () => {
      expect(check([d], [call('f', { opts: pyDict({ z: 1n, a: 'xy' }) })], answer)).toEqual(
        invalid('value_error:dict_key', "Unexpected dict key parameter: 'z'."),
      );
      expect(check([d], [call('f', { opts: pyDict({ a: 'Q' }) })], answer)).toEqual(
        invalid('value_error:dict_value', "Invalid value for parameter 'a': 'Q'. Expected one of ['xy']."),
      );
      const both = [call('f', { opts: [pyDict({ a: ['x'], b: [1n] })] })];
      expect(check([d], [call('f', { opts: pyDict({ a: 'Q' }) })], both)).toEqual(
        invalid(
          'value_error:dict_key',
          "Invalid value for parameter 'a': 'Q'. Expected one of ['x'].",
          "Missing dict key parameter: 'b'.",
        ),
      );
    });

    it('gives an empty "unclear" error when every possible dict is optional', () => {
      expect(check([d], [call('f', { opts: pyDict({ a: 'x' }) })], [call('f', { opts: [''] })])).toEqual(
        invalid('dict_checker:unclear'),
      );
    });

    it('checks lists of dicts element by element', () => {
      const ld = doc('f', { rows: arrayOf('dict') }, ['rows']);
      const rows = [call('f', { rows: [[pyDict({ k: ['v'] }), pyDict({ k: ['w'] })]] })];
      expect(check([ld], [call('f', { rows: [pyDict({ k: 'V' }), pyDict({ k: 'w' })] })], rows)).toEqual(VALID);
      expect(check([ld], [call('f', { rows: [pyDict({ k: 'v' })] })], rows)).toEqual(
        invalid('value_error:list_dict_count', 'Wrong number of dictionaries in the list.'),
      );
      expect(check([ld], [call('f', { rows: [pyDict({ k: 'w' }), pyDict({ k: 'w' })] })], rows)).toEqual(
        invalid('value_error:dict_value', "Invalid value for parameter 'k': 'w'. Expected one of ['v']."),
      );
    });
  });

  it('raises like the reference on an unknown documented type', () => {
    const d = doc('f', { x: 'number' }, []);
    expect(() => check([d], [call('f', { x: 1n })], [call('f', { x: [1n] })])).toThrow(PyException);
  });
});

describe('multiple and parallel checkers', () => {
  const add = doc('add', { a: 'integer', b: 'integer' }, ['a', 'b']);
  const neg = doc('neg', { a: 'integer' }, ['a']);

  it('multiple: one call checked against the doc of the answer function', () => {
    const answer = [call('neg', { a: [1n] })];
    expect(check([add, neg], [call('neg', { a: 1n })], answer, 'multiple')).toEqual(VALID);
    expect(check([add, neg], [call('add', { a: 1n, b: 2n })], answer, 'live_multiple')).toEqual(
      invalid('simple_function_checker:wrong_func_name', "Function name 'neg' not found in model output."),
    );
    expect(check([add, neg], [], answer, 'multiple')).toEqual(
      invalid('multiple_function_checker:wrong_count', 'Wrong number of functions.'),
    );
  });

  it('parallel: calls match in any order', () => {
    const answer = [call('add', { a: [1n], b: [2n] }), call('neg', { a: [3n] })];
    const calls = [call('neg', { a: 3n }), call('add', { a: 1n, b: 2n })];
    expect(check([add, neg], calls, answer, 'parallel')).toEqual(VALID);
    expect(check([add, neg], calls, answer, 'live_parallel_multiple')).toEqual(VALID);
    expect(check([add, neg], calls.slice(1), answer, 'parallel_multiple')).toEqual(
      invalid('parallel_function_checker_no_order:wrong_count', 'Wrong number of functions.'),
    );
  });

  it('parallel: lists every failed attempt for the first unmatched answer', () => {
    const answer = [call('add', { a: [1n], b: [2n] }), call('neg', { a: [3n] })];
    const calls = [call('add', { a: 1n, b: 2n }), call('neg', { a: 4n })];
    const result = check([add, neg], calls, answer, 'parallel');
    expect(result.valid).toBe(false);
    expect(result.errorType).toBe('parallel_function_checker_no_order:cannot_find_match');
    expect(jsonDumps(result.error)).toBe(
      '["Could not find a matching function among index [1] of model output for index 1 of possible answers.", ' +
        '{"Model Result Index 1": {"sub_error": ["Invalid value for parameter \'a\': 4. Expected one of [3]."], ' +
        '"sub_error_type": "value_error:others", "model_output_item": {"neg": {"a": 4}}, ' +
        '"possible_answer_item": {"neg": {"a": [3]}}}}]',
    );
  });
});

describe('Java and JavaScript values', () => {
  it('requires source text', () => {
    const d = doc('f', { n: 'integer' }, ['n']);
    expect(check([d], [call('f', { n: 5n })], [call('f', { n: [5n] })], 'simple_java', 'java')).toEqual(
      invalid('type_error:java', "Incorrect type for parameter 'n'. Expected type String, got int. Parameter value: 5."),
    );
    expect(check([d], [call('f', { n: 5n })], [call('f', { n: [5n] })], 'simple_javascript', 'javascript')).toEqual(
      invalid('type_error:js', "Incorrect type for parameter 'n'. Expected type String, got int. Parameter value: 5."),
    );
  });

  it('converts before checking', () => {
    const d = doc('f', { n: 'long', names: arrayOf('String', 'ArrayList') }, ['n', 'names']);
    const answer = [call('f', { n: [5n], names: [['a', 'b']] })];
    const ok = call('f', { n: '5L', names: 'new ArrayList<>(Arrays.asList("a", "b"))' });
    expect(check([d], [ok], answer, 'simple_java', 'java')).toEqual(VALID);
    expect(check([d], [call('f', { n: '5', names: 'new ArrayList<>()' })], answer, 'simple_java', 'java')).toEqual(
      invalid('type_error:simple', "Incorrect type for parameter 'n'. Expected type long, got str. Parameter value: '5'."),
    );
  });

  it('rejects quoted String elements of Java arrays (they keep their quotes)', () => {
    const d = doc('f', { args: arrayOf('String', 'Array') }, ['args']);
    const answer = [call('f', { args: [['-v', '-p']] })];
    expect(check([d], [call('f', { args: 'new String[]{-v, -p}' })], answer, 'simple_java', 'java')).toEqual(VALID);
    expect(check([d], [call('f', { args: 'new String[]{"-v", "-p"}' })], answer, 'simple_java', 'java')).toEqual(
      invalid('value_error:list/tuple', `Invalid value for parameter 'args': ['"-v"', '"-p"']. Expected one of [['-v', '-p']].`),
    );
  });

  it('accepts a JavaScript object for a dict parameter', () => {
    const d = doc('f', { options: 'dict' }, ['options']);
    const answer = [call('f', { options: [pyDict({ issuer: ['myapp.net'], role: ['admin'] })] })];
    expect(check([d], [call('f', { options: "{issuer: 'myapp.net', role: 'admin'}" })], answer, 'simple_javascript', 'javascript')).toEqual(VALID);
  });
});

describe('isFunctionCallingFormatOutput', () => {
  it('accepts lists of {name: {args}}', () => {
    expect(isFunctionCallingFormatOutput([])).toBe(true);
    expect(isFunctionCallingFormatOutput([call('f', {}), call('g', { a: 1n })])).toBe(true);
  });

  it('rejects anything else', () => {
    expect(isFunctionCallingFormatOutput('text')).toBe(false);
    expect(isFunctionCallingFormatOutput(null)).toBe(false);
    expect(isFunctionCallingFormatOutput(new PyTuple([call('f', {})]))).toBe(false);
    expect(isFunctionCallingFormatOutput([new Map()])).toBe(false);
    expect(isFunctionCallingFormatOutput([pyDict({ f: pyDict({}), g: pyDict({}) })])).toBe(false);
    expect(isFunctionCallingFormatOutput([pyDict({ f: 'x' })])).toBe(false);
    expect(isFunctionCallingFormatOutput(['f(a=1)'])).toBe(false);
  });
});

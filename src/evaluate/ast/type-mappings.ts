/**
 * Type tables of the AST checker (constants/type_mappings.py and ast_checker.py).
 *
 * A Python type is represented by its name (`type(x).__name__`), which is what `pyTypeName` returns
 * for a value, so `type(value) == expected` becomes a string comparison.
 */

/** The Python types the checker expects a parameter value to have. */
export type PyTypeName = 'str' | 'int' | 'float' | 'bool' | 'list' | 'dict' | 'set';

/** Python `str(t)` of a type object, e.g. `<class 'int'>`. */
export const typeObjectStr = (t: PyTypeName): string => `<class '${t}'>`;

/** Function-doc type → Python type of the value, for Python categories. */
export const PYTHON_TYPE_MAPPING: ReadonlyMap<string, PyTypeName> = new Map([
  ['string', 'str'],
  ['integer', 'int'],
  ['float', 'float'],
  ['boolean', 'bool'],
  ['array', 'list'],
  ['tuple', 'list'],
  ['dict', 'dict'],
  ['any', 'str'],
]);

/** Python doc types whose elements are type-checked too (against `items.type`). */
export const PYTHON_NESTED_TYPE_CHECK_LIST: readonly string[] = ['array', 'tuple'];

/** Java/JavaScript doc types that are converted with their element type (`items.type`). */
export const NESTED_CONVERSION_TYPE_LIST: readonly string[] = ['Array', 'ArrayList', 'array'];

/** Java doc type → Python type of the converted value. */
export const JAVA_TYPE_CONVERSION: ReadonlyMap<string, PyTypeName> = new Map([
  ['byte', 'int'],
  ['short', 'int'],
  ['integer', 'int'],
  ['float', 'float'],
  ['double', 'float'],
  ['long', 'int'],
  ['boolean', 'bool'],
  ['char', 'str'],
  ['Array', 'list'],
  ['ArrayList', 'list'],
  ['Set', 'set'],
  ['HashMap', 'dict'],
  ['Hashtable', 'dict'],
  // BFCL parity: type_mappings.py — Queue and Stack are checked as lists.
  ['Queue', 'list'],
  ['Stack', 'list'],
  ['String', 'str'],
  ['any', 'str'],
]);

/** JavaScript doc type → Python type of the converted value. */
export const JS_TYPE_CONVERSION: ReadonlyMap<string, PyTypeName> = new Map([
  ['String', 'str'],
  ['integer', 'int'],
  ['float', 'float'],
  ['Bigint', 'int'],
  ['Boolean', 'bool'],
  ['dict', 'dict'],
  ['array', 'list'],
  ['any', 'str'],
]);

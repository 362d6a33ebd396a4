/**
 * Turns the Java source text of an argument value into a Python value of the documented type
 * (type_convertor/java_type_converter.py). A value that does not have the expected form is returned
 * unchanged as a string, which the type check then rejects unless the possible answer is a variable name.
 */

import { pyFloatFromString, pyFloatParse, pyIntFromString, pyIntParse, pyStrip, strSlice } from '../../py/str.js';
import { PyException, type PyDict, type PyValue } from '../../py/value.js';
import {
  pyRegex,
  RE_D,
  RE_DOT,
  RE_DOT_ALL,
  RE_END,
  RE_S,
  RE_W,
} from './py-text.js';
import { JAVA_TYPE_CONVERSION } from './type-mappings.js';

const INTEGER_RE = pyRegex(`^-?${RE_D}+${RE_END}`);
const NUMBER_BODY = `-?${RE_D}+(\\.${RE_D}+)?([eE][+-]?${RE_D}+)?`;
const FLOAT_RE = pyRegex(`^${NUMBER_BODY}[fF]${RE_END}`);
const DOUBLE_RE = pyRegex(`^${NUMBER_BODY}${RE_END}`);
const LONG_RE = pyRegex(`^-?${RE_D}+[lL]${RE_END}`);
const FLOAT_SUFFIX_RE = pyRegex(`[fF]${RE_END}`, 'g');
const LONG_SUFFIX_RE = pyRegex(`[lL]${RE_END}`, 'g');

// new ArrayList<T>(Arrays.asList(a, b)), new ArrayList<T>() {{ add(a); add(b); }}, new ArrayList<T>()
const ARRAYLIST_AS_LIST_RE = pyRegex(`new${RE_S}+ArrayList<${RE_W}*>\\(Arrays\\.asList\\((${RE_DOT}+?)\\)\\)`);
const ARRAYLIST_ADD_RE = pyRegex(
  `new${RE_S}+ArrayList<${RE_W}*>\\(\\)${RE_S}*\\{\\{${RE_S}*(${RE_DOT_ALL}+?)${RE_S}*\\}\\}`,
);
const ADD_CALL_RE = pyRegex(`add\\((${RE_DOT}+?)\\)`, 'g');
const ARRAYLIST_EMPTY_RE = pyRegex(`new${RE_S}+ArrayList<${RE_W}*>\\(\\)`);
// new T[]{a, b}
const ARRAY_RE = pyRegex(`new${RE_S}+${RE_W}+\\[\\]${RE_S}*\\{(${RE_DOT}*?)\\}`);
// new HashMap<K, V>() {{ put("k", v); }}, new HashMap<K, V>()
const HASHMAP_RE = pyRegex(
  `new${RE_S}+HashMap<${RE_DOT_ALL}*?>${RE_S}*\\(\\)${RE_S}*\\{${RE_S}*\\{?${RE_S}*(${RE_DOT_ALL}*?)${RE_S}*\\}?${RE_S}*\\}`,
);
const PUT_CALL_RE = pyRegex(`put\\("(${RE_DOT}*?)",${RE_S}*(${RE_DOT}*?)\\)`, 'g');
const HASHMAP_EMPTY_RE = pyRegex(`new${RE_S}+HashMap<${RE_DOT}*?>${RE_S}*\\(\\)`);

/** `java_type_converter(value, expected_type, nested_type)`. */
export function javaTypeConverter(value: string, expectedType: string, nestedType?: string): PyValue {
  if (!JAVA_TYPE_CONVERSION.has(expectedType)) throw new PyException('ValueError', `Unsupported type: ${expectedType}`);
  switch (expectedType) {
    case 'byte':
    case 'short':
    case 'integer':
      return INTEGER_RE.test(value) ? pyIntFromString(value) : value;
    case 'float':
      return FLOAT_RE.test(value) ? pyFloatFromString(value.replace(FLOAT_SUFFIX_RE, '')) : value;
    case 'double':
      return DOUBLE_RE.test(value) ? pyFloatFromString(value) : value;
    case 'long':
      return LONG_RE.test(value) ? pyIntFromString(value.replace(LONG_SUFFIX_RE, '')) : value;
    case 'boolean':
      return value === 'true' || value === 'false' ? value === 'true' : value;
    case 'char':
      // BFCL parity: java_type_converter.py::java_type_converter — the char pattern `^\'.$\'` can
      // never match (`$` then a quote), so a char value always stays the original string.
      return value;
    case 'Array':
      return parseArray(value, nestedType);
    case 'ArrayList':
      return parseArrayList(value, nestedType);
    case 'HashMap':
      return parseHashMap(value);
    case 'Set':
    case 'Hashtable':
      // BFCL parity: the reference says "Set" for Hashtable too.
      throw new PyException('NotImplementedError', 'Set conversion is not implemented');
    case 'Queue':
    case 'Stack':
      throw new PyException('NotImplementedError', `${expectedType} conversion is not implemented`);
    default:
      // String and any: the text itself.
      return value;
  }
}

/** An ArrayList element: quotes dropped for String/char, else converted by the element type. */
function arrayListElement(text: string, nestedType: string | undefined): PyValue {
  // BFCL parity: java_type_converter.py::parse_arraylist — the first and last characters are
  // removed whatever they are.
  if (nestedType === 'char' || nestedType === 'String') return strSlice(text, 1, -1);
  return nestedType ? javaTypeConverter(text, nestedType) : parseJavaValue(text);
}

function parseArrayList(input: string, nestedType: string | undefined): PyValue {
  const asList = ARRAYLIST_AS_LIST_RE.exec(input);
  if (asList) {
    return asList[1]!.split(',').map((element) => arrayListElement(pyStrip(element), nestedType));
  }
  const adds = ARRAYLIST_ADD_RE.exec(input);
  if (adds) {
    return [...adds[1]!.matchAll(ADD_CALL_RE)].map((m) => arrayListElement(pyStrip(m[1]!), nestedType));
  }
  if (ARRAYLIST_EMPTY_RE.test(input)) return [];
  return input;
}

function parseArray(input: string, nestedType: string | undefined): PyValue {
  const match = ARRAY_RE.exec(input);
  if (!match) return input;
  // BFCL parity: java_type_converter.py::parse_array — elements are converted by the element type
  // as they are, so String and char elements keep their quotes.
  return match[1]!
    .split(',')
    .map((element) => pyStrip(element))
    .filter((element) => element.length > 0)
    .map((element) => (nestedType ? javaTypeConverter(element, nestedType) : parseJavaValue(element)));
}

function parseHashMap(input: string): PyValue {
  const match = HASHMAP_RE.exec(input);
  if (match) {
    const map: PyDict = new Map();
    const puts = match[1]!;
    if (pyStrip(puts)) {
      for (const put of puts.matchAll(PUT_CALL_RE)) map.set(put[1]!, parseJavaValue(pyStrip(put[2]!)));
    }
    return map;
  }
  if (HASHMAP_EMPTY_RE.test(input)) return new Map();
  return input;
}

const LONG_LITERAL_RE = pyRegex(`^-?${RE_D}+[lL]${RE_END}`);
const FLOAT_LITERAL_RE = pyRegex(`^${NUMBER_BODY}[fF]${RE_END}`);

/** A Java literal whose type is not known: boolean, string, long, float, int, double, else the text. */
export function parseJavaValue(text: string): PyValue {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text.startsWith('"') && text.endsWith('"')) return strSlice(text, 1, -1);
  if (LONG_LITERAL_RE.test(text)) return pyIntFromString(strSlice(text, 0, -1));
  if (FLOAT_LITERAL_RE.test(text)) return pyFloatFromString(text.replace(FLOAT_SUFFIX_RE, ''));
  // Python's int() and float() accept more than Java literals (`1_000`, `inf`, surrounding spaces).
  return pyIntParse(text) ?? pyFloatParse(text) ?? text;
}

/**
 * Turns the JavaScript source text of an argument value into a Python value of the documented type
 * (type_convertor/js_type_converter.py). A value that does not have the expected form stays a string.
 */

import { pyFloatFromString, pyFloatParse, pyIntFromString, pyIntParse, pyStrip, strSlice } from '../../py/str.js';
import { PyException, type PyDict, type PyValue } from '../../py/value.js';
import {
  pyRegex,
  RE_D,
  RE_DOT,
  RE_END,
  RE_S,
} from './py-text.js';
import { JS_TYPE_CONVERSION } from './type-mappings.js';

const INTEGER_RE = pyRegex(`^-?${RE_D}+${RE_END}`);
const FLOAT_RE = pyRegex(`^-?${RE_D}+(\\.${RE_D}+)?${RE_END}`);
const BIGINT_RE = pyRegex(`^-?${RE_D}+n${RE_END}`);

const isQuoted = (s: string): boolean =>
  (s.startsWith('"') && s.endsWith('"')) || (s.startsWith("'") && s.endsWith("'"));

/** `js_type_converter(value, expected_type, nested_type)`. */
export function jsTypeConverter(value: string, expectedType: string, nestedType?: string): PyValue {
  if (!JS_TYPE_CONVERSION.has(expectedType)) throw new PyException('ValueError', `Unsupported type: ${expectedType}`);
  switch (expectedType) {
    case 'String':
      return isQuoted(value) ? strSlice(value, 1, -1) : value;
    case 'integer':
      return INTEGER_RE.test(value) ? pyIntFromString(value) : value;
    case 'float':
      return FLOAT_RE.test(value) ? pyFloatFromString(value) : value;
    case 'Bigint':
      // Python's `$` also matches before a final newline, where `value[:-1]` then fails in int().
      return BIGINT_RE.test(value) ? pyIntFromString(strSlice(value, 0, -1)) : value;
    case 'Boolean':
      return value === 'true' || value === 'false' ? value === 'true' : value;
    case 'dict':
      return parseJsDict(pyStrip(value));
    case 'array':
      return parseJsArray(pyStrip(value), nestedType);
    default:
      // any: the text itself.
      return value;
  }
}

// Python patterns of parse_js_collection, matched at the start of the text (re.match).
const LIST = `\\[${RE_DOT}*?\\]`;
const ARRAY_2D_RE = pyRegex(
  `^(?:\\[${RE_S}*${LIST}${RE_S}*(,${RE_S}*${LIST}${RE_S}*)*\\]` +
    `|new${RE_S}+Array\\(${RE_S}*${LIST}${RE_S}*(,${RE_S}*${LIST}${RE_S}*)*\\))`,
);
const INNER_LIST_RE = pyRegex(`\\[(${RE_DOT}*?)\\]`, 'g');
const ARRAY_RE = pyRegex(`^(?:\\[(${RE_DOT}*?)\\]|new${RE_S}+Array\\((${RE_DOT}*?)\\))`);
const DICT_RE = pyRegex(`^\\{(${RE_DOT}*?)\\}`);
const DICT_PAIR_RE = pyRegex(`([^:]+):${RE_S}*(${RE_DOT}*?)(?:,${RE_S}*(?=[^,]+:)|${RE_END})`, 'g');

/** parse_js_collection(code, "array", nested_type), `code` already stripped. */
function parseJsArray(code: string, nestedType: string | undefined): PyValue {
  try {
    return parseJsArrayOrThrow(code, nestedType);
  } catch {
    // BFCL parity: js_type_converter.py::parse_js_collection — a bare `except:` turns any
    // conversion failure (e.g. an unsupported element type) into the stripped source text.
    return code;
  }
}

function parseJsArrayOrThrow(code: string, nestedType: string | undefined): PyValue {
  const match2d = ARRAY_2D_RE.exec(code);
  // BFCL parity: js_type_converter.py::parse_js_collection — a 2-D array ignores the element type
  // and parses every inner element on its own.
  if (match2d) {
    return [...match2d[0].matchAll(INNER_LIST_RE)].map((m, index) => {
      let inner = pyStrip(m[1]!);
      // The first inner match starts at the outer bracket.
      if (index === 0 && inner.startsWith('[')) inner = inner.slice(1);
      return inner.split(',').map((e) => parseJsValue(pyStrip(e)));
    });
  }
  const match = ARRAY_RE.exec(code);
  if (!match) return code;
  const body = pyStrip(match[1] ?? match[2] ?? '');
  const elements = body ? body.split(',').map((element) => pyStrip(element)) : [];
  if (!nestedType) return elements.map(parseJsValue);
  // A quoted element is converted with "String" as its own element type (only matters for collections).
  return elements.map((e) =>
    jsTypeConverter(e, nestedType, e.startsWith("'") || e.startsWith('"') ? 'String' : undefined),
  );
}

/** parse_js_collection(code, "dict"), `code` already stripped. */
function parseJsDict(code: string): PyValue {
  if (code === '{}') return new Map();
  const match = DICT_RE.exec(code);
  if (!match) return code;
  const dict: PyDict = new Map();
  for (const pair of match[1]!.matchAll(DICT_PAIR_RE)) {
    const key = pyStrip(pyStrip(pair[1]!), '\'"');
    const value = pyStrip(pair[2]!);
    if (value.startsWith('[') && value.endsWith(']')) dict.set(key, parseJsArray(value, undefined));
    else if (value.startsWith('{') && value.endsWith('}')) dict.set(key, parseJsDict(value));
    else dict.set(key, parseJsValue(pyStrip(value, '\'"')));
  }
  return dict;
}

/** A JavaScript literal of unknown type: boolean, quoted string, int, float, else the text. */
export function parseJsValue(text: string): PyValue {
  const value = pyStrip(text);
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (isQuoted(value)) return strSlice(value, 1, -1);
  // Python's int() and float() also take `1_000`, `Infinity`, `NaN`...
  return pyIntParse(value) ?? pyFloatParse(value) ?? value;
}

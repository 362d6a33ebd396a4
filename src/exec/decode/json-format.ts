/**
 * The JSON return format of prompting models (format-sensitivity configs with `ret_fmt=json`):
 * `[{"function": "name", "parameters": {...}}, ...]`.
 */
import { JsonDecodeError, parseJsonLossless } from '../../py/json.js';
import { PyException, type PyDict, type PyValue } from '../../py/value.js';
import { dictSet, pyIterate } from '../../py/ops.js';
import { strRepr } from '../../py/repr.js';

/** Python's `\s` in a str pattern (Unicode whitespace), for regexes ported from the reference. */
export const PY_RE_SPACE = '[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';

// BFCL parity: model_handler/parser/json_parser.py::parse_json_function_call — the first run of
// `[ {...} , {...} ]` (lazy braces, so a nested `}` can end an item early; JSON then decides).
const JSON_CALL_LIST = new RegExp(
  `\\[${PY_RE_SPACE}*\\{[\\s\\S]*?\\}${PY_RE_SPACE}*(?:,${PY_RE_SPACE}*\\{[\\s\\S]*?\\}${PY_RE_SPACE}*)*\\]`,
);

/** `d[key]` on a dict, raising KeyError as Python does. */
function getItem(d: PyDict, key: string): PyValue {
  if (!d.has(key)) throw new PyException('KeyError', strRepr(key));
  return d.get(key)!;
}

/**
 * Parse the JSON-format answer. BFCL parity: invalid JSON yields `[]` (not an error); items that
 * are not objects are skipped; an object without "function" or "parameters" raises KeyError.
 */
export function parseJsonFunctionCall(source: string): PyValue[] {
  const match = JSON_CALL_LIST.exec(source);
  const text = match !== null ? match[0] : source;
  let parsed: PyValue;
  try {
    parsed = parseJsonLossless(text);
  } catch (error) {
    if (error instanceof JsonDecodeError) return [];
    throw error;
  }
  const calls: PyValue[] = [];
  for (const item of pyIterate(parsed)) {
    if (!(item instanceof Map)) continue;
    const name = getItem(item, 'function');
    const args = getItem(item, 'parameters');
    const call: PyDict = new Map();
    dictSet(call, name, args);
    calls.push(call);
  }
  return calls;
}

/**
 * Decoders of function-calling (FC) models: OpenAI Responses, OpenAI chat completions (and
 * OpenAI-compatible servers such as vLLM) and Claude. Their result files hold a list of
 * `{name: "<arguments JSON>"}` dicts; a text reply is stored as a string (or a list of strings).
 */
import { parseJsonLossless, JsonDecodeError } from '../../py/json.js';
import { pyRepr, pyStr } from '../../py/repr.js';
import { PyException, pyTypeName, type PyDict, type PyKey, type PyValue } from '../../py/value.js';
import { noAttribute, pyIterate } from '../../py/ops.js';
import { runDecoder, type DecodeResult } from './result.js';

/** Python `json.loads(value)`: only str is accepted here (bytes never occur in our values). */
export function pyJsonLoads(value: PyValue): PyValue {
  if (typeof value !== 'string') {
    throw new PyException('TypeError', `the JSON object must be str, bytes or bytearray, not ${pyTypeName(value)}`);
  }
  if (value.startsWith('\ufeff')) {
    throw new JsonDecodeError('Unexpected UTF-8 BOM (decode using utf-8-sig)', value, 0);
  }
  try {
    return parseJsonLossless(value);
  } catch (error) {
    throw error instanceof JsonDecodeError ? withCodePointPosition(error) : error;
  }
}

/**
 * The error with its position counted as Python does, in code points: `JsonDecodeError` counts
 * UTF-16 units, which differs after a character outside the BMP (an emoji).
 */
function withCodePointPosition(error: JsonDecodeError): PyException {
  const before = [...error.doc.slice(0, error.pos)];
  const pos = before.length;
  const lastNewline = before.lastIndexOf('\n');
  const line = before.filter((ch) => ch === '\n').length + 1;
  const column = pos - lastNewline;
  return new PyException('JSONDecodeError', `${error.reason}: line ${line} column ${column} (char ${pos})`);
}

/** The first key of a dict, as `list(d.keys())[0]` finds it. */
function firstKey(value: PyValue): PyValue {
  if (!(value instanceof Map)) throw noAttribute(value, 'keys');
  const first = value.keys().next();
  if (first.done === true) throw new PyException('IndexError', 'list index out of range');
  return first.value;
}

/**
 * `decode_ast` of the FC handlers: `[{name: args_json}]` → `[{name: json.loads(args_json)}]`.
 * BFCL parity: api_inference/openai_completion.py::decode_ast — only the first key of each dict
 * is read, and whatever `result` is gets iterated (a str yields characters, which then have no
 * `.keys()`; an empty str or list decodes to `[]`).
 */
export function decodeAstFC(raw: PyValue): DecodeResult<PyValue> {
  return runDecoder(() => {
    const decoded: PyValue[] = [];
    for (const invoked of pyIterate(raw)) {
      const name = firstKey(invoked);
      const args = (invoked as PyDict).get(name as PyKey) ?? null;
      const params = pyJsonLoads(args);
      decoded.push(new Map([[name as PyKey, params]]));
    }
    return decoded;
  });
}

/**
 * `decode_execute` of the FC handlers (`convert_to_function_call`): every key of every dict
 * becomes `name(k=repr(v),...)`. BFCL parity: model_handler/utils.py::convert_to_function_call —
 * arguments are joined with "," and no space; a lone dict is treated as a one-item list; a str
 * argument value is JSON-decoded first, anything else is used as it is.
 */
export function decodeExecuteFC(raw: PyValue): DecodeResult<string[]> {
  return runDecoder(() => convertToFunctionCall(raw));
}

export function convertToFunctionCall(raw: PyValue): string[] {
  const calls = raw instanceof Map ? [raw] : pyIterate(raw);
  const out: string[] = [];
  for (const functionCall of calls) {
    if (!(functionCall instanceof Map)) throw noAttribute(functionCall, 'items');
    for (const [name, rawArgs] of functionCall) {
      const args = typeof rawArgs === 'string' ? pyJsonLoads(rawArgs) : rawArgs;
      if (!(args instanceof Map)) throw noAttribute(args, 'items');
      // forEach, not a spread of entries: no [key, value] array per argument.
      let argsText = '';
      let separator = '';
      args.forEach((v, k) => {
        argsText += `${separator}${pyStr(k)}=${pyRepr(v)}`;
        separator = ',';
      });
      out.push(`${pyStr(name)}(${argsText})`);
    }
  }
  return out;
}

/**
 * Decoders of prompting models: the answer is text in one of the return formats (Python calls by
 * default; Java/JavaScript for those test categories; JSON or XML in format-sensitivity configs).
 * Same code in every prompting handler of the reference (`default_decode_ast_prompting`,
 * `default_decode_execute_prompting` in model_handler/utils.py).
 */
import { PyException, type PyValue } from '../../py/value.js';
import { decodedOutputToExecutionList } from './execution-list.js';
import { parseJavaFunctionCall } from './java-format.js';
import { parseJavascriptFunctionCall } from './javascript-format.js';
import { parseJsonFunctionCall } from './json-format.js';
import { noAttribute } from '../../py/ops.js';
import { pyStrip, strSlice } from '../../py/str.js';
import { parsePythonFunctionCalls } from './python-format.js';
import { runDecoder, type DecodeResult, type ReturnFormat } from './result.js';
import { parseConciseXmlFunctionCall, parseVerboseXmlFunctionCall } from './xml-format.js';

const TOOL_CALL_TAG = /<TOOLCALL>([\s\S]*?)<\/TOOLCALL>/;
const XML_FUNCTIONS = /<functions>([\s\S]*?)<\/functions>/;
const JSON_LIST = /\[[\s\S]*\]/;

/**
 * Normalise the raw answer before parsing.
 * BFCL parity: model_handler/utils.py::default_decode_ast_prompting — strip backticks, newlines
 * and spaces at both ends, then add a missing `[` or `]`, whatever the return format.
 */
function wrapInBrackets(raw: PyValue): string {
  if (typeof raw !== 'string') throw noAttribute(raw, 'strip');
  let result = pyStrip(raw, '`\n ');
  if (!result.startsWith('[')) result = '[' + result;
  if (!result.endsWith(']')) result = result + ']';
  return result;
}

/** `ast_parse(input_str, language, has_tool_call_tag)`. */
export function astParse(input: string, language: ReturnFormat, hasToolCallTag: boolean): PyValue {
  let text = input;
  if (hasToolCallTag) {
    const match = TOOL_CALL_TAG.exec(text);
    if (match === null) throw new PyException('ValueError', `No tool call tag found in input string: ${text}`);
    text = pyStrip(match[1]!);
  }
  switch (language) {
    case 'python':
      return parsePythonFunctionCalls(text);
    case 'java':
      // BFCL parity: ast_parse drops the first and last character (the brackets) for Java/JS.
      return parseJavaFunctionCall(strSlice(text, 1, -1));
    case 'javascript':
      return parseJavascriptFunctionCall(strSlice(text, 1, -1));
    case 'verbose_xml':
    case 'concise_xml': {
      const match = XML_FUNCTIONS.exec(text);
      if (match === null) {
        throw new PyException(
          'ValueError',
          `No XML function call found in input string: ${text}. Missing <functions> tag.`,
        );
      }
      return language === 'verbose_xml' ? parseVerboseXmlFunctionCall(match[0]) : parseConciseXmlFunctionCall(match[0]);
    }
    case 'json': {
      const match = JSON_LIST.exec(text);
      return parseJsonFunctionCall(match !== null ? match[0] : text);
    }
    default:
      throw new PyException('NotImplementedError', `Unsupported language: ${String(language)}`);
  }
}

/** `decode_ast` of a prompting model: a list of `{name: {param: value}}` dicts. */
export function decodeAstPrompting(raw: PyValue, language: ReturnFormat, hasToolCallTag: boolean): DecodeResult<PyValue> {
  return runDecoder(() => astParse(wrapInBrackets(raw), language, hasToolCallTag));
}

/** `decode_execute` of a prompting model: Python call strings (always the Python format). */
export function decodeExecutePrompting(raw: PyValue, hasToolCallTag: boolean): DecodeResult<string[]> {
  return runDecoder(() => decodedOutputToExecutionList(astParse(wrapInBrackets(raw), 'python', hasToolCallTag)));
}

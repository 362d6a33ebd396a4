/**
 * How a judge's reply becomes an unrailed label and an explanation (spec §3.2, §3.5): Phoenix's
 * chain-of-thought label parser for text replies, and the `record_response` arguments of
 * function-calling replies. Snapping (`snapToRail`) comes after.
 */

import { parseJsonLossless } from '../py/json.js';
import { jsonDumps } from '../py/json.js';
import { pyLstrip, pyStrip } from '../py/str.js';
import { PyTuple, type PyValue } from '../py/value.js';

// Python's `\b` in a str pattern: word characters are Unicode letters, digits and `_` (marks are not).
const LABEL_WORD = /(?<![\p{L}\p{N}_])label(?![\p{L}\p{N}_])/iu;
// Python's IGNORECASE also matches `i` with `İ` and the dotless `ı` (sre's case equivalences); JS does not.
const EXPLANATION_WORD = /(?<![\p{L}\p{N}_])explanat[iİı]on(?![\p{L}\p{N}_])/iu;

/**
 * Phoenix's `parse_label_from_chain_of_thought_response` (0.20.8+): the text after the first
 * whole word `label` (any case), cut at `explanation` or else at the end of its line; the raw reply
 * when there is no such word.
 */
export function parseLabelFromChainOfThought(raw: string): string {
  const match = LABEL_WORD.exec(raw);
  if (match === null) return raw;
  const remainder = pyLstrip(raw.slice(match.index + match[0].length), ' :.-\t');
  const explanation = EXPLANATION_WORD.exec(remainder);
  const newline = remainder.indexOf('\n');
  const labelText = explanation !== null ? remainder.slice(0, explanation.index) : newline === -1 ? remainder : remainder.slice(0, newline);
  const stripped = pyStrip(labelText);
  return stripped !== '' ? stripped : pyStrip(remainder);
}

/** What a function-calling reply says: the unrailed label (or a reason it cannot be used) and the explanation. */
export type FunctionCallReading =
  | { readonly ok: true; readonly label: string | null; readonly explanation: string | null }
  /** Phoenix raises here and retries the row. */
  | { readonly ok: false; readonly error: string };

/**
 * Phoenix's `parse_openai_function_call` followed by the type checks `snap_to_rail` implies:
 * `json.loads(text, strict=False)`; not JSON → the whole text is the label, no explanation; an
 * object → its `response` (default "") and `explanation` (null when absent); any other JSON value,
 * or a truthy `response` that is not a string, is an error (Phoenix retries the row). A falsy
 * non-string `response` (null, 0, [], {}) is no label (it snaps to NOT_PARSABLE).
 */
export function readFunctionCallArguments(text: string, labelKey = 'response'): FunctionCallReading {
  let value: PyValue;
  try {
    value = loadsNonStrict(text);
  } catch {
    return { ok: true, label: text, explanation: null };
  }
  if (!(value instanceof Map)) return { ok: false, error: `AttributeError: the function arguments are not a JSON object: ${preview(text)}` };
  const response = value.has(labelKey) ? value.get(labelKey)! : '';
  const explanationValue = value.get('explanation');
  const explanation = explanationValue === undefined || explanationValue === null ? null : asText(explanationValue);
  if (typeof response === 'string') return { ok: true, label: response, explanation };
  if (!pyTruthy(response)) return { ok: true, label: null, explanation };
  return { ok: false, error: `AttributeError: "${labelKey}" is not a string: ${preview(text)}` };
}

/** An explanation as recorded: a string as it is, any other JSON value as its JSON text. */
function asText(value: PyValue): string {
  return typeof value === 'string' ? value : jsonDumps(value, { ensureAscii: false });
}

/** Python truthiness of a JSON value. */
function pyTruthy(value: PyValue): boolean {
  if (value === null || value === false || value === 0 || value === 0n || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Map) return value.size > 0;
  if (value instanceof PyTuple) return value.items.length > 0;
  return true;
}

/**
 * Python `json.loads(text, strict=False)`: control characters are allowed inside strings. They are
 * escaped before the strict reader sees them (a backslash and the character after it stay as they
 * are, so an invalid escape still fails).
 */
export function loadsNonStrict(text: string): PyValue {
  let out = '';
  let inString = false;
  let chunk = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!inString) {
      if (code === 0x22) inString = true;
      continue;
    }
    if (code === 0x5c) {
      i++;
      continue;
    }
    if (code === 0x22) {
      inString = false;
      continue;
    }
    if (code < 0x20) {
      out += text.slice(chunk, i) + '\\u' + code.toString(16).padStart(4, '0');
      chunk = i + 1;
    }
  }
  return parseJsonLossless(chunk === 0 ? text : out + text.slice(chunk));
}

function preview(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}… (${text.length} characters)`;
}

/**
 * The pieces of `bfcl show`'s conversation rendering that multi-turn and agentic entries share:
 * values as compact text, indented blocks, and the lines of one step event.
 */

import { jsonDumps } from '../py/json.js';
import { pyRepr } from '../py/repr.js';
import type { PyValue } from '../py/value.js';
import type { StepEvent } from './entry-conversation.js';
import { truncateMiddle } from './state-diff.js';
import type { TextStyle } from './text-style.js';

/** Longest tool result shown per call. */
export const MAX_TOOL_TEXT = 400;
/** Longest model output shown per step. */
export const MAX_ASSISTANT_TEXT = 1200;

/** A value as one line of text: strings as they are, anything else as JSON (Python repr if not JSON-able). */
export function compact(v: PyValue): string {
  if (typeof v === 'string') return v;
  try {
    return jsonDumps(v, { ensureAscii: false });
  } catch {
    return pyRepr(v);
  }
}

/** Every line of `text` with `prefix` in front. */
export function indentBlock(text: string, prefix: string): string[] {
  return text.split('\n').map((line) => prefix + line);
}

/** The lines of one step event; `hasTools` says whether the step's calls are shown beside their results. */
export function renderEvent(event: StepEvent, hasTools: boolean, style: TextStyle): string[] {
  switch (event.kind) {
    case 'assistant': {
      const lines = indentBlock(`assistant: ${truncateMiddle(compact(event.content), MAX_ASSISTANT_TEXT)}`, '    ');
      if (event.reasoning !== undefined) lines.push(style.dim(`    reasoning: ${truncateMiddle(event.reasoning, 300).replace(/\n/g, ' ')}`));
      return lines;
    }
    case 'decoded':
      // With tool results, each call is shown beside its result.
      return hasTools ? [] : event.calls.map((call) => `    ${style.cyan('▸ ' + call)}`);
    case 'tool':
      return [
        ...(event.call === undefined ? [] : [`    ${style.cyan('▸ ' + event.call)}`]),
        `      → ${truncateMiddle(event.content, MAX_TOOL_TEXT).replace(/\n/g, '\\n')}`,
      ];
    case 'decode_error':
      return [`    ${style.yellow(`not decodable as function calls (the turn ends): ${event.error}`)}`];
    case 'empty':
      return [`    ${style.dim('no function call (the turn ends)')}`];
    case 'force_quit':
      return [`    ${style.red(event.text)}`];
    case 'handler':
      return [`    ${style.dim(event.text)}`];
  }
}

/**
 * The `tool_call` input of a BFCL unit (spec §4.1): the decoded calls as Python call text,
 * `[name(k1=v1, k2=v2), ...]` with arguments in the model's order and values as Python `repr`, or
 * `No tool used`. One renderer for FC and prompting models, from `decode_ast`'s output.
 */

import { pyRepr, pyStr } from '../py/repr.js';
import type { PyValue } from '../py/value.js';

/** Phoenix's tutorial text for a row without a call. */
export const NO_TOOL_USED = 'No tool used';

/** One call: its name and its arguments (a dict in the model's order, or anything else decoding gave). */
export interface RenderedCallSource {
  readonly name: string;
  readonly args: PyValue;
}

/**
 * The calls of a `decode_ast` result: every key of every dict item (`{name: {arg: value}}`); an
 * item that is not a dict gives nothing.
 */
export function callsOfDecoded(decoded: PyValue): RenderedCallSource[] {
  if (!Array.isArray(decoded)) return [];
  const calls: RenderedCallSource[] = [];
  for (const item of decoded) {
    if (!(item instanceof Map)) continue;
    item.forEach((args, name) => calls.push({ name: pyStr(name), args }));
  }
  return calls;
}

/**
 * A call's name as the docs spell it: FC tool compilation turns `.` into `_`, so a name the docs
 * lack that matches exactly one doc name with `.` replaced is printed as that doc name.
 */
export function docSpelling(name: string, docNames: readonly string[]): string {
  if (docNames.includes(name)) return name;
  const matches = docNames.filter((doc) => doc.replaceAll('.', '_') === name);
  return matches.length === 1 ? matches[0]! : name;
}

/** `name(k=repr(v), ...)`; arguments that are not a dict are shown as their repr. */
export function renderCall(call: RenderedCallSource, docNames: readonly string[]): string {
  const name = docSpelling(call.name, docNames);
  if (!(call.args instanceof Map)) return `${name}(${pyRepr(call.args)})`;
  const parts: string[] = [];
  call.args.forEach((value, key) => parts.push(`${pyStr(key)}=${pyRepr(value)}`));
  return `${name}(${parts.join(', ')})`;
}

/** The unit's `tool_call` text: `[call, call]`, or `No tool used` when there is none. */
export function renderToolCalls(calls: readonly RenderedCallSource[], docNames: readonly string[]): string {
  return joinCallTexts(calls.map((call) => renderCall(call, docNames)));
}

/** Call texts as one list (`decode_execute` strings stand in for steps whose `decode_ast` failed). */
export function joinCallTexts(texts: readonly string[]): string {
  return texts.length === 0 ? NO_TOOL_USED : `[${texts.join(', ')}]`;
}

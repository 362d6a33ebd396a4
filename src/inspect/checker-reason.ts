/**
 * The checker's reason for a failed entry, from its score-file line, as a few readable lines:
 * the error messages, the sub-errors of unmatched parallel calls, the attribute differences of a
 * state mismatch, the missing results of a response mismatch.
 */

import { jsonDumps } from '../py/json.js';
import type { PyDict, PyValue } from '../py/value.js';
import { diffStates, renderStateChanges, truncateMiddle } from './state-diff.js';
import type { TextStyle } from './text-style.js';

function text(v: PyValue | undefined): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  try {
    return jsonDumps(v, { ensureAscii: false });
  } catch {
    return String(v);
  }
}

function messages(v: PyValue | undefined): string[] {
  if (Array.isArray(v)) return v.filter((m) => typeof m === 'string') as string[];
  return typeof v === 'string' ? [v] : [];
}

/** Sub-errors of `cannot_find_match`: one line per candidate model call. */
function candidateLines(item: PyDict): string[] {
  const lines: string[] = [];
  for (const [label, candidate] of item) {
    if (!(candidate instanceof Map)) continue;
    const subErrors = messages(candidate.get('sub_error')).join(' ');
    lines.push(`${String(label)}: ${subErrors} (${text(candidate.get('sub_error_type'))})`);
  }
  return lines;
}

/** State differences (`details.differences`: attribute → {model, ground_truth}), ground truth → model. */
function differenceLines(className: string, differences: PyValue | undefined, style: TextStyle): string[] {
  if (!(differences instanceof Map)) return [];
  const expected = new Map<string, PyDict>([[className, new Map()]]);
  const actual = new Map<string, PyDict>([[className, new Map()]]);
  for (const [attr, pair] of differences) {
    if (!(pair instanceof Map)) continue;
    expected.get(className)!.set(attr, pair.get('ground_truth') ?? null);
    actual.get(className)!.set(attr, pair.get('model') ?? null);
  }
  return [
    `state differences (${style.red('-')} ground truth, ${style.green('+')} model):`,
    ...renderStateChanges(diffStates(expected, actual), style).map((l) => `  ${l}`),
  ];
}

const CLASS_IN_STATE_MESSAGE = /^Model instance for (\S+) does not match/;

/** The reason lines of a failure record (without the error type, which the caller shows). */
export function describeCheckerReason(record: PyDict, style: TextStyle): string[] {
  const error = record.get('error');
  const lines: string[] = [];
  if (Array.isArray(error)) {
    for (const item of error) {
      if (typeof item === 'string') lines.push(item);
      else if (item instanceof Map) lines.push(...candidateLines(item).map((l) => `  ${l}`));
    }
    return lines;
  }
  if (!(error instanceof Map)) return lines;
  const message = messages(error.get('error_message'));
  lines.push(...message);
  const details = error.get('details');
  if (!(details instanceof Map)) return lines;
  if (details.has('differences')) {
    const className = CLASS_IN_STATE_MESSAGE.exec(message[0] ?? '')?.[1] ?? '?';
    lines.push(...differenceLines(className, details.get('differences'), style));
  }
  if (details.has('missing_items')) {
    lines.push('ground-truth results missing from the model results:');
    for (const item of messages(details.get('missing_items'))) lines.push(`  ${truncateMiddle(item, 300)}`);
  }
  if (details.has('model_response') && details.has('possible_answers')) {
    lines.push(`final answer: ${truncateMiddle(text(details.get('model_response')), 300)}`);
    lines.push(`expected one of: ${text(details.get('possible_answers'))}`);
  }
  return lines;
}

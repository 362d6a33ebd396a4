/**
 * Differences between two snapshots of the simulated APIs' public state, as readable changes
 * (`TwitterAPI.tweets[3].likes: 0 → 1`). Snapshots are in their logged, JSON-safe form: objects
 * such as a file-system `Directory` appear as their `str()` text, which is read back into its
 * files where possible; other long texts are shown as a character-level excerpt.
 */

import { jsonDumps } from '../py/json.js';
import type { PyDict, PyKey, PyValue } from '../py/value.js';
import { parseDirectoryRepr } from './directory-repr.js';
import type { TextStyle } from './text-style.js';

/** Class name → public attributes. */
export type StateView = ReadonlyMap<string, PyDict>;

/** One change: a value added, removed or replaced at `path`. */
export type StateChange =
  | { readonly kind: 'added'; readonly path: string; readonly after: PyValue }
  | { readonly kind: 'removed'; readonly path: string; readonly before: PyValue }
  | { readonly kind: 'changed'; readonly path: string; readonly before: PyValue; readonly after: PyValue };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function keyPath(parent: string, key: PyKey): string {
  if (typeof key === 'string' && IDENTIFIER.test(key)) return `${parent}.${key}`;
  return `${parent}[${jsonText(key as PyValue)}]`;
}

/** Exact text of a JSON-safe value (also tells `1` from `1.0`). */
function jsonText(v: PyValue): string {
  try {
    return jsonDumps(v, { ensureAscii: false });
  } catch {
    return String(v);
  }
}

function sameValue(a: PyValue, b: PyValue): boolean {
  return jsonText(a) === jsonText(b);
}

function diffValues(path: string, before: PyValue, after: PyValue, out: StateChange[]): void {
  if (sameValue(before, after)) return;
  if (before instanceof Map && after instanceof Map) {
    for (const [key, value] of before) {
      if (!after.has(key)) out.push({ kind: 'removed', path: keyPath(path, key), before: value });
      else diffValues(keyPath(path, key), value, after.get(key)!, out);
    }
    for (const [key, value] of after) {
      if (!before.has(key)) out.push({ kind: 'added', path: keyPath(path, key), after: value });
    }
    return;
  }
  if (typeof before === 'string' && typeof after === 'string') {
    // A file system's state is logged as the Directory's str(); compare its files instead.
    const beforeTree = parseDirectoryRepr(before);
    const afterTree = beforeTree === undefined ? undefined : parseDirectoryRepr(after);
    if (beforeTree !== undefined && afterTree !== undefined) {
      diffValues(path, beforeTree, afterTree, out);
      return;
    }
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const common = Math.min(before.length, after.length);
    const prefixEqual = before.slice(0, common).every((v, i) => sameValue(v, after[i]!));
    if (before.length === after.length || !prefixEqual) {
      if (before.length !== after.length) {
        out.push({ kind: 'changed', path, before, after });
        return;
      }
      before.forEach((v, i) => diffValues(`${path}[${i}]`, v, after[i]!, out));
      return;
    }
    // One list extends the other: list the appended or dropped tail items.
    for (let i = common; i < after.length; i++) out.push({ kind: 'added', path: `${path}[${i}]`, after: after[i]! });
    for (let i = common; i < before.length; i++) out.push({ kind: 'removed', path: `${path}[${i}]`, before: before[i]! });
    return;
  }
  out.push({ kind: 'changed', path, before, after });
}

/** Every change from `before` to `after`, class by class, attributes in their order. */
export function diffStates(before: StateView, after: StateView): StateChange[] {
  const changes: StateChange[] = [];
  for (const [className, attrs] of after) {
    const previous = before.get(className);
    if (previous === undefined) {
      changes.push({ kind: 'added', path: className, after: attrs });
      continue;
    }
    diffValues(className, previous, attrs, changes);
  }
  for (const [className, attrs] of before) {
    if (!after.has(className)) changes.push({ kind: 'removed', path: className, before: attrs });
  }
  return changes;
}

/** Shorten `s` to `max` characters with an ellipsis in the middle. */
export function truncateMiddle(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = Math.ceil((max - 1) / 2);
  return `${s.slice(0, head)}…${s.slice(s.length - (max - 1 - head))}`;
}

/**
 * A long text change as an excerpt around the part that differs:
 * `…context[-removed-]{+added+}context…`.
 */
export function describeTextChange(before: string, after: string, style: TextStyle, context = 30, maxPart = 240): string {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--;
    endAfter--;
  }
  const lead = start > context ? `…${before.slice(start - context, start)}` : before.slice(0, start);
  const tail = before.length - endBefore > context ? `${before.slice(endBefore, endBefore + context)}…` : before.slice(endBefore);
  const removed = truncateMiddle(before.slice(start, endBefore), maxPart);
  const added = truncateMiddle(after.slice(start, endAfter), maxPart);
  const parts = [escapeControl(lead)];
  if (removed !== '') parts.push(style.red(`[-${escapeControl(removed)}-]`));
  if (added !== '') parts.push(style.green(`{+${escapeControl(added)}+}`));
  parts.push(escapeControl(tail));
  return parts.join('');
}

/** Newlines and tabs shown as escapes so that each change stays on one line. */
function escapeControl(s: string): string {
  return s.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
}

const LONG_TEXT = 80;

/** One line per change, e.g. `~ TicketAPI.ticket_queue[0].status: "Open" → "Closed"`. */
export function renderStateChanges(changes: readonly StateChange[], style: TextStyle, maxValue = 160): string[] {
  const show = (v: PyValue): string => escapeControl(truncateMiddle(jsonText(v), maxValue));
  return changes.map((change) => {
    switch (change.kind) {
      case 'added':
        return `${style.green('+')} ${change.path}: ${style.green(show(change.after))}`;
      case 'removed':
        return `${style.red('-')} ${change.path}: ${style.red(show(change.before))}`;
      case 'changed': {
        const { before, after } = change;
        if (typeof before === 'string' && typeof after === 'string' && (before.length > LONG_TEXT || after.length > LONG_TEXT)) {
          return `${style.yellow('~')} ${change.path}: ${describeTextChange(before, after, style)}`;
        }
        return `${style.yellow('~')} ${change.path}: ${style.red(show(before))} → ${style.green(show(after))}`;
      }
    }
  });
}

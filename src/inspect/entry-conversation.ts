/**
 * The conversation of one multi-turn (or agentic) result entry as turns of steps: read from the
 * entry's `inference_log` when it has one, else rebuilt by decoding the raw `result` and replaying
 * the decoded calls on fresh simulated APIs. States per turn come from the log's `state_info`
 * records, else from the replay.
 */

import { EntryExecutor } from '../exec/executor.js';
import { isEmptyExecuteResponse, type ModelDecoder } from '../evaluate/model-decoder.js';
import { iterateOrUndefined } from '../evaluate/runners/category-input.js';
import { makeJsonSerializable } from '../py/json.js';
import type { PyDict, PyValue } from '../py/value.js';
import { OMIT_STATE_INFO_CLASSES, SIMULATED_CLASSES, STATELESS_CLASSES } from '../sim/registry.js';
import type { SimContext } from '../sim/simulated-api.js';
import type { TestEntry } from '../spec/schemas.js';
import type { StateView } from './state-diff.js';

/** One thing that happened within a step. */
export type StepEvent =
  | { readonly kind: 'assistant'; readonly content: PyValue; readonly reasoning?: string }
  | { readonly kind: 'decoded'; readonly calls: readonly string[] }
  | { readonly kind: 'decode_error'; readonly error: string }
  | { readonly kind: 'empty' }
  | { readonly kind: 'tool'; readonly content: string; readonly call?: string }
  | { readonly kind: 'force_quit'; readonly text: string }
  | { readonly kind: 'handler'; readonly text: string };

export interface ConversationStep {
  readonly index: number;
  readonly events: StepEvent[];
}

/** A question message of a turn. */
export interface TurnMessage {
  readonly role: string;
  readonly content: string;
}

export interface ConversationTurn {
  readonly index: number;
  readonly messages: readonly TurnMessage[];
  /** Names of the functions that a miss_func hold-out turn adds. */
  readonly addedFunctions: readonly string[];
  readonly steps: ConversationStep[];
  /** State after the turn, when known. */
  stateAfter: StateView | undefined;
}

/** Where the states of a conversation come from. */
export type StateSource = 'log' | 'replay' | 'none';

export interface EntryConversation {
  /** Where the steps come from. */
  readonly source: 'log' | 'result';
  readonly stateSource: StateSource;
  readonly initialState: StateView | undefined;
  readonly turns: ConversationTurn[];
}

// BFCL parity: base_handler.py — the handler_log texts that mark how a step ended.
const DECODE_SUCCESS = 'Successfully decoded model response.';
const EMPTY_RESPONSE = 'Empty response from the model. Proceed to next turn.';
const DECODE_FAILURE = 'Error decoding the model response. Proceed to next turn.';
const FORCE_QUIT_PREFIX = 'Model has been forced to quit';

const STEP_KEY = /^step_(\d+)$/;

function isStateList(item: PyValue): item is PyDict[] {
  return Array.isArray(item) && item.length > 0 && item.every((r) => r instanceof Map && r.get('role') === 'state_info');
}

function stateViewOf(records: readonly PyDict[]): StateView {
  const view = new Map<string, PyDict>();
  for (const record of records) {
    const content = record.get('content');
    view.set(String(record.get('class_name')), content instanceof Map ? content : new Map());
  }
  return view;
}

function messagesOf(value: PyValue | undefined): TurnMessage[] {
  if (!Array.isArray(value)) return [];
  return value.filter((m): m is PyDict => m instanceof Map).map((m) => ({ role: String(m.get('role') ?? '?'), content: textOf(m.get('content')) }));
}

function textOf(v: PyValue | undefined): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : JSON.stringify(makeJsonSerializable(v), (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x));
}

function stringList(v: PyValue | undefined): string[] {
  return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : textOf(x))) : [];
}

/** The events of one logged step. */
function stepEventsFromLog(records: PyValue): StepEvent[] {
  const events: StepEvent[] = [];
  if (!Array.isArray(records)) return events;
  let pendingCalls: string[] = [];
  for (const record of records) {
    if (!(record instanceof Map)) continue;
    const role = record.get('role');
    const content = record.get('content');
    if (role === 'assistant') {
      const reasoning = record.get('reasoning_content');
      events.push(typeof reasoning === 'string' && reasoning !== '' ? { kind: 'assistant', content: content ?? null, reasoning } : { kind: 'assistant', content: content ?? null });
    } else if (role === 'handler_log') {
      const text = textOf(content);
      if (text === DECODE_SUCCESS) {
        const calls = stringList(record.get('model_response_decoded'));
        pendingCalls = [...calls];
        events.push({ kind: 'decoded', calls });
      } else if (text === EMPTY_RESPONSE) {
        events.push({ kind: 'empty' });
      } else if (text === DECODE_FAILURE) {
        events.push({ kind: 'decode_error', error: textOf(record.get('error')) });
      } else if (text.startsWith(FORCE_QUIT_PREFIX)) {
        events.push({ kind: 'force_quit', text });
      } else {
        events.push({ kind: 'handler', text });
      }
    } else if (role === 'tool') {
      // Tool results follow the decoded calls one for one.
      const call = pendingCalls.shift();
      events.push(call === undefined ? { kind: 'tool', content: textOf(content) } : { kind: 'tool', content: textOf(content), call });
    }
    // `inference_input` records (the full model input) are left out: they repeat the history.
  }
  return events;
}

function heldOutNames(entry: TestEntry | undefined, turn: number): string[] {
  const docs = entry?.missedFunction?.get(String(turn));
  if (docs === undefined) return [];
  return docs.map((doc) => (doc instanceof Map ? String(doc.get('name') ?? '?') : '?'));
}

/**
 * The conversation recorded in an `inference_log`, or undefined when the log holds no turns
 * (absent, an error text, or a single-turn input log).
 */
export function conversationFromLog(log: PyValue | undefined, entry?: TestEntry): EntryConversation | undefined {
  if (!Array.isArray(log)) return undefined;
  const turns: ConversationTurn[] = [];
  let initialState: StateView | undefined;
  let sawState = false;
  for (const item of log) {
    if (isStateList(item)) {
      sawState = true;
      const view = stateViewOf(item);
      const last = turns.at(-1);
      if (last === undefined) initialState = view;
      else last.stateAfter = view;
      continue;
    }
    if (!(item instanceof Map) || !item.has('begin_of_turn_query')) continue;
    const steps: ConversationStep[] = [];
    for (const [key, records] of item) {
      const m = typeof key === 'string' ? STEP_KEY.exec(key) : null;
      if (m !== null) steps.push({ index: Number(m[1]), events: stepEventsFromLog(records) });
    }
    const index = turns.length;
    turns.push({ index, messages: messagesOf(item.get('begin_of_turn_query')), addedFunctions: heldOutNames(entry, index), steps, stateAfter: undefined });
  }
  if (turns.length === 0) return undefined;
  return { source: 'log', stateSource: sawState ? 'log' : 'none', initialState, turns };
}

/** What a replay needs besides the result. */
export interface ReplayInput {
  readonly entry: TestEntry;
  /** The result's `result` field: per turn, per step, the raw model output. */
  readonly result: PyValue;
  readonly decoder: ModelDecoder;
  readonly context: SimContext;
}

/** Whether the entry's classes can be replayed here (the multi-turn APIs, not the agentic backends). */
export function canReplay(entry: TestEntry): boolean {
  const classes = entry.involvedClasses ?? [];
  return classes.length > 0 && classes.every((c) => c in SIMULATED_CLASSES);
}

function replayState(executor: EntryExecutor): StateView {
  const view = new Map<string, PyDict>();
  for (const [className, instance] of executor.getInstances()) {
    if (STATELESS_CLASSES.has(className) || OMIT_STATE_INFO_CLASSES.has(className)) continue;
    view.set(className, makeJsonSerializable(new Map<string, PyValue>(instance._publicState())) as PyDict);
  }
  return view;
}

/**
 * Rebuild the conversation from the raw result: decode every step as the evaluator does and,
 * when the APIs can be simulated, execute the calls on fresh instances to get tool results and states.
 */
export function replayConversation(input: ReplayInput): EntryConversation {
  const { entry, decoder, context } = input;
  const replay = canReplay(entry);
  const category = entry.id.slice(0, Math.max(0, entry.id.lastIndexOf('_')));
  const executor = replay
    ? new EntryExecutor({
        modelName: 'bfcl_show',
        entryId: entry.id,
        initialConfig: entry.initialConfig ?? new Map(),
        involvedClasses: entry.involvedClasses ?? [],
        longContext: category.includes('long_context') || category.includes('composite'),
        context,
      })
    : undefined;
  const initialState = executor === undefined ? undefined : replayState(executor);
  const turns: ConversationTurn[] = [];
  (iterateOrUndefined(input.result) ?? []).forEach((turnValue, index) => {
    const steps: ConversationStep[] = [];
    (iterateOrUndefined(turnValue) ?? []).forEach((raw, stepIndex) => {
      const events: StepEvent[] = [{ kind: 'assistant', content: raw }];
      const decoded = decoder.decodeExecute(raw, false);
      if (!decoded.ok) {
        events.push({ kind: 'decode_error', error: `${decoded.errorType}: ${decoded.error}` });
      } else if (isEmptyExecuteResponse(decoded.value)) {
        events.push({ kind: 'empty' });
      } else {
        events.push({ kind: 'decoded', calls: decoded.value });
        if (executor !== undefined) {
          const results = executor.execute(decoded.value);
          results.forEach((content, i) => events.push({ kind: 'tool', content, call: decoded.value[i]! }));
        }
      }
      steps.push({ index: stepIndex, events });
    });
    const messages = (entry.question[index] ?? []).map((m) => ({ role: m.role, content: m.content }));
    turns.push({ index, messages, addedFunctions: heldOutNames(entry, index), steps, stateAfter: executor === undefined ? undefined : replayState(executor) });
  });
  return { source: 'result', stateSource: executor === undefined ? 'none' : 'replay', initialState, turns };
}

/**
 * The states of a replay grafted onto a logged conversation that has none (logs written with
 * `--exclude-state-log`, or reduced logs).
 */
export function withReplayedStates(conversation: EntryConversation, replayed: EntryConversation): EntryConversation {
  if (conversation.stateSource !== 'none' || replayed.stateSource === 'none') return conversation;
  const turns = conversation.turns.map((turn, i) => ({ ...turn, stateAfter: replayed.turns[i]?.stateAfter }));
  return { ...conversation, stateSource: 'replay', initialState: replayed.initialState, turns };
}

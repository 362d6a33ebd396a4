/**
 * One score-file failure line (any of the shapes of reference §7: AST, relevance, multi-turn,
 * agentic) → what the report shows of it. Every field of the record ends up somewhere: the known
 * ones in their own blocks, the rest under "Other fields".
 */

import { jsonDumps } from '../../py/json.js';
import { pyRepr } from '../../py/repr.js';
import { isDict, type PyDict, type PyValue } from '../../py/value.js';
import { isAgentic, isMemory, isMultiTurn } from '../../spec/categories.js';
import { agenticToolKind, describeQuestionMemoryStart, memoryOfSystemPrompt, systemPromptParts } from '../agentic-text.js';
import type {
  AgenticCallView,
  AgenticFailureView,
  AgenticStepView,
  AgenticTurnView,
  CheckedStepView,
  FailureView,
  MessageView,
  SectionView,
  StateDiffView,
  StepView,
  TurnStatus,
  TurnView,
} from './report-data.js';

/** Longest text kept for one value; model output can be huge (long-context states, runaway text). */
export const DEFAULT_MAX_TEXT_CHARS = 20_000;

export interface FailureContext {
  /** Model directory name. */
  readonly model: string;
  readonly category: string;
  readonly errorType: string;
  readonly errorClass: string;
  /** The entry's line of the result file, when a result folder was given. */
  readonly resultEntry?: PyDict | undefined;
  readonly maxTextChars?: number | undefined;
  /** Store a text once for the whole report and return its index (see `TextPool`); without it texts are inlined. */
  readonly share?: ((text: string) => number) | undefined;
}

/** Texts stored once per report: the same function docs and initial states recur across models. */
export class TextPool {
  readonly texts: string[] = [];
  private readonly _index = new Map<string, number>();

  /** Index of `text`, added if new. */
  share(text: string): number {
    let index = this._index.get(text);
    if (index === undefined) {
      index = this.texts.length;
      this.texts.push(text);
      this._index.set(text, index);
    }
    return index;
  }
}

// Fields every record has, shown in the failure's heading.
const HEADING_FIELDS = ['id', 'model_name', 'test_category', 'valid'];

/** Text cut to `max` characters, saying how much was left out. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… [${text.length - max} more characters not shown]`;
}

/** A value as readable text: strings as they are, anything else as indented JSON (Python repr if not JSON-able). */
export function valueText(value: PyValue | undefined, max: number = DEFAULT_MAX_TEXT_CHARS): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return truncateText(value, max);
  let text: string;
  try {
    text = jsonDumps(value, { indent: 2, ensureAscii: false });
  } catch {
    text = pyRepr(value);
  }
  return truncateText(text, max);
}

const dictOrUndefined = (v: PyValue | undefined): PyDict | undefined => (isDict(v) ? v : undefined);
const listOrEmpty = (v: PyValue | undefined): PyValue[] => (Array.isArray(v) ? v : []);

/** Chat messages (`[{role, content}, ...]`) as role + text. */
export function messagesOf(value: PyValue | undefined, max: number): MessageView[] {
  return listOrEmpty(value).map((m) => {
    const message = dictOrUndefined(m);
    if (message === undefined) return { role: 'message', content: valueText(m, max) };
    const role = message.get('role');
    return { role: typeof role === 'string' ? role : 'message', content: valueText(message.get('content'), max) };
  });
}

/** The checker's messages: a list of strings (and sub-error dicts), or an error dict's `error_message`. */
export function reasonsOf(record: PyDict, max: number): string[] {
  const error = record.get('error');
  const fromList = (items: PyValue[]): string[] => items.map((item) => valueText(item, max));
  if (Array.isArray(error)) return fromList(error);
  if (typeof error === 'string') return [truncateText(error, max)];
  const errorDict = dictOrUndefined(error);
  if (errorDict !== undefined) {
    const message = errorDict.get('error_message');
    if (Array.isArray(message)) return fromList(message);
    if (message !== undefined) return [valueText(message, max)];
  }
  return [];
}

/** `[{name: {arg: value}}]` as Python call text, one call per line; other shapes as JSON. */
export function callsText(value: PyValue | undefined, max: number): string {
  if (Array.isArray(value) && value.every((c) => isDict(c) && c.size === 1 && isDict([...c.values()][0]))) {
    const lines = value.map((call) => {
      const [name, args] = [...(call as PyDict)][0]!;
      const argText = [...(args as PyDict)].map(([k, v]) => `${String(k)}=${pyRepr(v)}`).join(', ');
      return `${String(name)}(${argText})`;
    });
    return truncateText(lines.length > 0 ? lines.join('\n') : '[] (no calls)', max);
  }
  return valueText(value, max);
}

/**
 * A possible answer (`[{name: {param: [accepted values]}}]`) as one line per expected call:
 * `name(param=v1 | v2, other=<may be omitted>)`, where `""` among the values marks an optional parameter.
 * Other shapes (multi-turn call strings) as JSON.
 */
export function possibleAnswerText(value: PyValue | undefined, max: number): string {
  const isAnswerCall = (c: PyValue): boolean =>
    isDict(c) && c.size === 1 && isDict([...c.values()][0]) && [...([...c.values()][0] as PyDict).values()].every(Array.isArray);
  if (!Array.isArray(value) || value.length === 0 || !value.every(isAnswerCall)) return valueText(value, max);
  const lines = value.map((call) => {
    const [name, params] = [...(call as PyDict)][0]!;
    const args = [...(params as PyDict)].map(([param, accepted]) => {
      const options = (accepted as PyValue[]).map((v) => (v === '' ? '<may be omitted>' : pyRepr(v)));
      return `${String(param)}=${options.join(' | ')}`;
    });
    return `${String(name)}(${args.join(', ')})`;
  });
  return truncateText(lines.join('\n'), max);
}

/**
 * Raw model output: function-calling output (`[{name: "<arguments JSON>"}]`) as one
 * `name(<arguments JSON>)` line per call, text as it is, anything else as JSON.
 */
export function modelOutputText(value: PyValue | undefined, max: number): string {
  const isFcCall = (c: PyValue): boolean => isDict(c) && c.size === 1 && typeof [...c.values()][0] === 'string';
  if (Array.isArray(value) && value.length > 0 && value.every(isFcCall)) {
    return truncateText(value.map((call) => [...(call as PyDict)].map(([name, args]) => `${String(name)}(${String(args)})`)[0]!).join('\n'), max);
  }
  return valueText(value, max);
}

/** Function names of the docs offered to the model. */
function functionNames(docs: PyValue[]): string[] {
  return docs.map((doc) => {
    const name = dictOrUndefined(doc)?.get('name');
    return typeof name === 'string' ? name : '?';
  });
}

/** Latency and token counts of a result line (multi-turn values are per turn, per step: summed). */
export function usageText(entry: PyDict | undefined): string | null {
  if (entry === undefined) return null;
  const total = (v: PyValue | undefined): number | null => {
    if (typeof v === 'number') return v;
    if (typeof v === 'bigint') return Number(v);
    if (Array.isArray(v)) {
      let sum = 0;
      let found = false;
      for (const item of v) {
        const t = total(item);
        if (t !== null) {
          sum += t;
          found = true;
        }
      }
      return found ? sum : null;
    }
    return null;
  };
  const parts: string[] = [];
  const latency = total(entry.get('latency'));
  if (latency !== null) parts.push(`latency ${latency.toFixed(2)} s`);
  const input = total(entry.get('input_token_count'));
  if (input !== null) parts.push(`${input} input tokens`);
  const output = total(entry.get('output_token_count'));
  if (output !== null) parts.push(`${output} output tokens`);
  return parts.length > 0 ? `From the result file: ${parts.join(' · ')}` : null;
}

// ---------------------------------------------------------------------------------------------
// Multi-turn

/** The error dict of a multi-turn/agentic record (empty map for list-shaped errors). */
function errorDictOf(record: PyDict): PyDict {
  return dictOrUndefined(record.get('error')) ?? new Map();
}

/** `execution_result`: per checked turn, the model's results per step and the ground truth's results. */
function executionResultsOf(errorDict: PyDict): PyValue[] {
  const top = errorDict.get('execution_result');
  if (Array.isArray(top)) return top;
  return listOrEmpty(dictOrUndefined(errorDict.get('details'))?.get('execution_result'));
}

const stringsOf = (v: PyValue | undefined, max: number): string[] => listOrEmpty(v).map((x) => valueText(x, max));

/**
 * The turn at which the entry failed: stated in the message of a response mismatch, else the last
 * turn of `execution_result` (state mismatch, empty turn). A force-terminated entry failed in the
 * last turn the model reached. Null when the checker never ran on a turn.
 */
export function failingTurnOf(record: PyDict): number | null {
  const errorDict = errorDictOf(record);
  const errorType = errorDict.get('error_type');
  if (errorType === 'multi_turn:inference_error') return null;
  if (errorType === 'multi_turn:force_terminated') {
    const turns = record.get('model_result');
    return Array.isArray(turns) && turns.length > 0 ? turns.length - 1 : null;
  }
  const message = errorDict.get('error_message');
  const stated = typeof message === 'string' ? /for turn (\d+)/.exec(message) : null;
  if (stated !== null) return Number(stated[1]);
  const executed = executionResultsOf(errorDict).length;
  return executed > 0 ? executed - 1 : null;
}

/** The turns of an inference log (dicts with `begin_of_turn_query` / `step_k`); state lists are skipped. */
function logTurnsOf(log: PyValue | undefined): PyDict[] {
  return listOrEmpty(log).filter((item): item is PyDict => isDict(item));
}

// Handler events that only repeat what the decoded calls already show.
const ROUTINE_EVENTS = new Set(['Successfully decoded model response.']);

function stepFromLog(messages: PyValue[], max: number): StepView {
  const outputs: string[] = [];
  let decoded: string[] | null = null;
  const toolResults: string[] = [];
  const events: string[] = [];
  for (const m of messages) {
    const message = dictOrUndefined(m);
    if (message === undefined) continue;
    const role = message.get('role');
    const content = message.get('content');
    if (role === 'assistant') outputs.push(modelOutputText(content, max));
    else if (role === 'tool') toolResults.push(valueText(content, max));
    else if (role === 'handler_log') {
      const calls = message.get('model_response_decoded');
      if (Array.isArray(calls)) decoded = calls.map((c) => valueText(c, max));
      const text = valueText(content, max);
      if (!ROUTINE_EVENTS.has(text)) events.push(text);
      const error = message.get('error');
      if (error !== undefined) events.push(valueText(error, max));
    } else {
      events.push(`${typeof role === 'string' ? role : 'message'}: ${valueText(content, 500)}`);
    }
  }
  return { output: outputs.join('\n'), decoded, toolResults, events };
}

function stepsFromLogTurn(turn: PyDict, max: number): StepView[] {
  const steps: StepView[] = [];
  for (const [key, value] of turn) {
    if (typeof key === 'string' && /^step_\d+$/.test(key)) steps.push(stepFromLog(listOrEmpty(value), max));
  }
  return steps;
}

function turnStatus(index: number, failing: number | null): TurnStatus {
  if (failing === null) return 'not checked';
  if (index < failing) return 'passed';
  return index === failing ? 'failed' : 'not checked';
}

/** Key of the failing turn's ground-truth results in a response mismatch's details (the reference's wording). */
const TRUTH_RESPONSE_KEY = 'ground_truth_response (only the current turn)';

/** The conversation of a multi-turn failure, turn by turn. */
export function buildTurns(record: PyDict, max: number): TurnView[] {
  const prompt = dictOrUndefined(record.get('prompt'));
  const questionTurns = listOrEmpty(prompt?.get('question'));
  const answerTurns = listOrEmpty(record.get('possible_answer'));
  const logTurns = logTurnsOf(record.get('inference_log'));
  const rawTurns = listOrEmpty(record.get('model_result_raw') ?? record.get('model_result'));
  const decodedTurns = listOrEmpty(record.get('model_result_decoded'));
  const executed = executionResultsOf(errorDictOf(record));
  const details = dictOrUndefined(errorDictOf(record).get('details'));
  const failing = failingTurnOf(record);
  const count = Math.max(questionTurns.length, answerTurns.length, logTurns.length, rawTurns.length);

  const turns: TurnView[] = [];
  for (let t = 0; t < count; t++) {
    const logTurn = logTurns[t];
    const user = messagesOf(logTurn?.get('begin_of_turn_query') ?? questionTurns[t], max);
    const steps =
      logTurn !== undefined
        ? stepsFromLogTurn(logTurn, max)
        : listOrEmpty(rawTurns[t]).map((step): StepView => ({ output: modelOutputText(step, max), decoded: null, toolResults: [], events: [] }));
    const execution = dictOrUndefined(executed[t]);
    let checked: CheckedStepView[] | null = null;
    if (decodedTurns[t] !== undefined || execution !== undefined) {
      const decodedSteps = listOrEmpty(decodedTurns[t]);
      const resultSteps = listOrEmpty(execution?.get('model'));
      checked = [];
      for (let s = 0; s < Math.max(decodedSteps.length, resultSteps.length); s++) {
        checked.push({ calls: stringsOf(decodedSteps[s], max), results: stringsOf(resultSteps[s], max) });
      }
    }
    // A response mismatch records the failing turn's ground-truth results in its details only.
    const truthResults = execution?.get('ground_truth') ?? (t === failing ? details?.get(TRUTH_RESPONSE_KEY) : undefined);
    turns.push({
      index: t,
      user,
      steps,
      checked,
      groundTruthCalls: stringsOf(answerTurns[t], max),
      groundTruthResults: truthResults !== undefined ? stringsOf(truthResults, max) : null,
      status: turnStatus(t, failing),
    });
  }
  return turns;
}

const REPR_OPEN = '{[(';
const REPR_CLOSE = '}])';

/**
 * A long one-line Python repr (such as a `Directory` tree in a state difference) broken into
 * indented lines after opening brackets and between items, so that a diff can be read line by line.
 * Quoted strings are left alone; short text is returned as is.
 */
export function indentRepr(text: string, width = 80): string {
  if (text.length <= width) return text;
  let out = '';
  let depth = 0;
  let quote: string | null = null;
  const newline = (): string => '\n' + '  '.repeat(depth);
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      out += c;
      if (c === '\\' && i + 1 < text.length) out += text[++i]!;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else if (REPR_OPEN.includes(c)) {
      // Empty brackets stay together: `{}`.
      if (text[i + 1] === REPR_CLOSE[REPR_OPEN.indexOf(c)]) {
        out += c + text[++i]!;
        continue;
      }
      depth++;
      out += c + newline();
    } else if (REPR_CLOSE.includes(c)) {
      depth = Math.max(0, depth - 1);
      out += newline() + c;
    } else if (c === ',' && text[i + 1] === ' ' && depth > 0) {
      out += ',' + newline();
      i++;
    } else {
      out += c;
    }
  }
  return out;
}

/** A state value for the diff: strings (object reprs) broken into lines, other values as indented JSON. */
function stateValueText(value: PyValue | undefined, max: number): string {
  return typeof value === 'string' ? truncateText(indentRepr(value), max) : valueText(value, max);
}

/** The attributes that differ at the failing turn (`details.differences`), model vs ground truth. */
export function stateDiffOf(record: PyDict, max: number): StateDiffView | null {
  const errorDict = errorDictOf(record);
  const differences = dictOrUndefined(dictOrUndefined(errorDict.get('details'))?.get('differences'));
  if (differences === undefined) return null;
  const message = errorDict.get('error_message');
  const className = typeof message === 'string' ? (/Model instance for (\w+)/.exec(message)?.[1] ?? '') : '';
  const rows = [...differences].map(([attribute, pair]) => {
    const sides = dictOrUndefined(pair);
    return {
      attribute: String(attribute),
      model: stateValueText(sides?.get('model'), max),
      groundTruth: stateValueText(sides?.get('ground_truth'), max),
    };
  });
  return { className, turn: failingTurnOf(record), rows };
}

// ---------------------------------------------------------------------------------------------
// Agentic (web search, memory)

// BFCL parity: base_handler.py — handler_log texts that end a step without calls; in an agentic
// turn they mark the text answer, so they are not repeated as events.
const AGENTIC_ROUTINE_EVENTS = new Set([
  'Successfully decoded model response.',
  'Error decoding the model response. Proceed to next turn.',
  'Empty response from the model. Proceed to next turn.',
]);
const STEP_KEY = /^step_(\d+)$/;
const MAX_SYSTEM_HEAD = 200;

/** A system message as its first line and what it is made of (the memory it quotes is shown apart). */
function shortSystemMessage(text: string): string {
  const first = text.split('\n', 1)[0] ?? '';
  const head = first.length > MAX_SYSTEM_HEAD ? `${first.slice(0, MAX_SYSTEM_HEAD - 1)}…` : first;
  const parts = systemPromptParts(text);
  return `${head}\n[${parts.length === 0 ? '' : `${parts.join(' + ')}, `}${text.length} characters]`;
}

/** The steps of one logged agentic turn: calls paired with their tool results in order. */
function agenticStepsFromLog(turn: PyDict, max: number): { steps: AgenticStepView[]; textSteps: number[] } {
  const steps: AgenticStepView[] = [];
  const textSteps: number[] = [];
  for (const [key, value] of turn) {
    if (typeof key !== 'string' || !STEP_KEY.test(key)) continue;
    let output = '';
    let calls: AgenticCallView[] = [];
    const events: string[] = [];
    let results = 0;
    let endsTurn = false;
    for (const item of listOrEmpty(value)) {
      const message = dictOrUndefined(item);
      if (message === undefined) continue;
      const role = message.get('role');
      const content = message.get('content');
      if (role === 'assistant') output = modelOutputText(content, max);
      else if (role === 'tool') {
        const call = calls[results];
        if (call !== undefined) calls[results] = { ...call, result: valueText(content, max) };
        else calls.push({ kind: 'call', call: '(unknown call)', result: valueText(content, max) });
        results++;
      } else if (role === 'handler_log') {
        const decoded = message.get('model_response_decoded');
        if (Array.isArray(decoded) && decoded.length > 0) {
          calls = decoded.map((c) => {
            const call = valueText(c, max);
            return { kind: agenticToolKind(call), call, result: null };
          });
        }
        const text = valueText(content, max);
        if (text === 'Error decoding the model response. Proceed to next turn.' || text === 'Empty response from the model. Proceed to next turn.') endsTurn = true;
        if (!AGENTIC_ROUTINE_EVENTS.has(text)) events.push(text);
      }
    }
    if (endsTurn) textSteps.push(steps.length);
    steps.push({ output, calls, events, final: false });
  }
  return { steps, textSteps };
}

function toolCallsText(turns: readonly AgenticTurnView[]): string {
  const counts = new Map<string, number>();
  for (const turn of turns) for (const step of turn.steps) for (const call of step.calls) counts.set(call.kind, (counts.get(call.kind) ?? 0) + 1);
  const names: Readonly<Record<string, readonly [string, string]>> = {
    memory: ['memory operation', 'memory operations'],
    search: ['search', 'searches'],
    fetch: ['page fetch', 'page fetches'],
    call: ['other call', 'other calls'],
  };
  const parts = ['memory', 'search', 'fetch', 'call'].flatMap((kind) => {
    const n = counts.get(kind);
    return n === undefined ? [] : [`${n} ${names[kind]![n === 1 ? 0 : 1]}`];
  });
  return parts.length === 0 ? 'no tool calls' : parts.join(', ');
}

/** The agentic view of a failure record, with the conversation from its inference log (or the result line's). */
export function agenticFailureOf(record: PyDict, context: FailureContext, max: number): AgenticFailureView {
  const details = dictOrUndefined(errorDictOf(record).get('details'));
  const last = record.get('last_non_fc_message');
  const finalAnswer = last === undefined ? null : valueText(last, max);
  const standardized = details?.get('standardized_model_response');
  const expectedAnswers = listOrEmpty(record.get('possible_answer')).map((a) => valueText(a, max));
  const standardizedExpected = listOrEmpty(details?.get('standardized_possible_answers')).map((a) => valueText(a, max));
  const logged = record.get('inference_log');
  const log = Array.isArray(logged) && logged.length > 0 ? logged : context.resultEntry?.get('inference_log');
  const turns: AgenticTurnView[] = [];
  let promptMemory: MessageView | null = null;
  for (const turn of logTurnsOf(log)) {
    const messages = messagesOf(turn.get('begin_of_turn_query'), max).map((m) => {
      if (m.role !== 'system') return m;
      const memory = memoryOfSystemPrompt(m.content);
      if (memory !== undefined && promptMemory === null) promptMemory = { role: memory.label, content: truncateText(memory.content, max) };
      return { role: m.role, content: shortSystemMessage(m.content) };
    });
    const { steps, textSteps } = agenticStepsFromLog(turn, max);
    // BFCL parity: agentic_checker — the last step that is not a function call is the answer scored.
    const final = turns.length === 0 && finalAnswer !== null ? textSteps.at(-1) : undefined;
    turns.push({ index: turns.length, messages, steps: steps.map((step, i) => (i === final ? { ...step, final: true } : step)) });
  }
  if (turns.length === 0) {
    // No log: the raw result's steps, without tool results.
    listOrEmpty(record.get('model_result_raw') ?? record.get('model_result')).forEach((turn, index) => {
      const steps = listOrEmpty(turn).map((step): AgenticStepView => ({ output: modelOutputText(step, max), calls: [], events: [], final: false }));
      turns.push({ index, messages: index === 0 ? messagesOf(listOrEmpty(questionOf(record))[0], max) : [], steps });
    });
  }
  const id = record.get('id');
  return {
    finalAnswer,
    standardizedAnswer: standardized === undefined ? null : valueText(standardized, max),
    expectedAnswers,
    standardizedExpected,
    memoryStart: isMemory(context.category) && typeof id === 'string' ? (describeQuestionMemoryStart(id) ?? null) : null,
    promptMemory,
    turns,
    toolCalls: toolCallsText(turns),
  };
}

// ---------------------------------------------------------------------------------------------
// The record as sections

/** Sections of the details dict that are not already shown elsewhere. */
function detailSections(record: PyDict, max: number, multiTurn: boolean): SectionView[] {
  const details = dictOrUndefined(errorDictOf(record).get('details'));
  if (details === undefined) return [];
  const sections: SectionView[] = [];
  for (const [key, value] of details) {
    const name = String(key);
    // Shown as the state diff / the turns.
    if (name === 'differences' || (multiTurn && name === 'execution_result')) continue;
    const title = name === 'model_instance_state' || name === 'ground_truth_instance_state' ? `${name} (whole state)` : name;
    const open = !name.endsWith('_instance_state');
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
      sections.push({ kind: 'list', title, open, items: stringsOf(value, max) });
    } else {
      sections.push({ kind: 'text', title, open, text: valueText(value, max) });
    }
  }
  return sections;
}

/** The question of a record: `prompt.question` (turns of messages), or the prompt itself when it is the question. */
function questionOf(record: PyDict): PyValue[] {
  const prompt = record.get('prompt');
  if (Array.isArray(prompt)) return prompt;
  return listOrEmpty(dictOrUndefined(prompt)?.get('question'));
}

/** A closed text section, stored in the shared pool when the context has one. */
function sharedSection(title: string, text: string, context: FailureContext): SectionView {
  return context.share === undefined ? { kind: 'text', title, open: false, text } : { kind: 'shared', title, open: false, ref: context.share(text) };
}

/** Build the report's view of one failure line. */
export function buildFailureView(record: PyDict, context: FailureContext): FailureView {
  const max = context.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS;
  const multiTurn = isMultiTurn(context.category) && Array.isArray(dictOrUndefined(record.get('prompt'))?.get('question'));
  const consumed = new Set<string>([...HEADING_FIELDS, 'error', 'error_type']);
  const sections: SectionView[] = [];
  const take = (key: string): PyValue | undefined => {
    consumed.add(key);
    return record.get(key);
  };

  if (!multiTurn) {
    const question = questionOf(record);
    consumed.add('prompt');
    const messages = question.flatMap((turn) => (Array.isArray(turn) ? messagesOf(turn, max) : messagesOf([turn], max)));
    if (messages.length > 0) sections.push({ kind: 'messages', title: 'Question', open: true, messages });
  }
  for (const [key, title] of [
    ['model_result_raw', 'Model output'],
    ['model_result', 'Model output'],
  ] as const) {
    if (record.has(key) && !multiTurn) sections.push({ kind: 'text', title, open: true, text: modelOutputText(take(key), max) });
  }
  for (const key of ['model_result_decoded', 'decoded_result']) {
    if (record.has(key) && !multiTurn) sections.push({ kind: 'text', title: 'Decoded calls', open: true, text: callsText(take(key), max) });
  }
  if (record.has('last_non_fc_message')) {
    sections.push({ kind: 'text', title: 'Final answer (last non-call message)', open: true, text: valueText(take('last_non_fc_message'), max) });
  }
  if (record.has('possible_answer') && !multiTurn) {
    sections.push({ kind: 'text', title: 'Expected (possible answer)', open: true, text: possibleAnswerText(take('possible_answer'), max) });
  }
  sections.push(...detailSections(record, max, multiTurn));

  let turns: TurnView[] | null = null;
  let stateDiff: StateDiffView | null = null;
  if (multiTurn) {
    turns = buildTurns(record, max);
    stateDiff = stateDiffOf(record, max);
    for (const key of ['prompt', 'possible_answer', 'model_result_raw', 'model_result_decoded', 'model_result', 'inference_log']) consumed.add(key);
    const entry = new Map([...(dictOrUndefined(record.get('prompt')) ?? new Map<string, PyValue>())].filter(([key]) => key !== 'question' && key !== 'function'));
    if (entry.size > 0) sections.push(sharedSection('Entry (initial configuration, classes)', valueText(entry, max), context));
    const raw = record.get('model_result_raw') ?? record.get('model_result');
    // A result that is not a list of turns cannot be shown turn by turn: show it whole.
    if (raw !== undefined && !Array.isArray(raw)) sections.push({ kind: 'text', title: 'Model output', open: true, text: valueText(raw, max) });
  }

  const prompt = dictOrUndefined(record.get('prompt'));
  const docs = listOrEmpty(prompt?.get('function'));
  if (docs.length > 0) {
    sections.push(sharedSection(`Functions offered (${docs.length}): ${functionNames(docs).join(', ')}`, valueText(docs, max), context));
  }
  const log = multiTurn ? undefined : (take('inference_log') ?? context.resultEntry?.get('inference_log'));
  if (log !== undefined && !(Array.isArray(log) && log.length === 0) && log !== '') {
    sections.push({ kind: 'text', title: 'Inference log', open: false, text: valueText(log, max) });
  }
  const others = new Map([...record].filter(([key]) => typeof key !== 'string' || !consumed.has(key)));
  if (others.size > 0) sections.push({ kind: 'text', title: 'Other fields', open: false, text: valueText(others, max) });

  const id = record.get('id');
  const agentic = isAgentic(context.category) ? { agentic: agenticFailureOf(record, context, max) } : {};
  return {
    model: context.model,
    category: context.category,
    id: typeof id === 'string' ? id : valueText(id ?? null, 200),
    errorType: context.errorType,
    errorClass: context.errorClass,
    reasons: reasonsOf(record, max),
    turns,
    stateDiff,
    sections,
    usage: usageText(context.resultEntry),
    ...agentic,
  };
}

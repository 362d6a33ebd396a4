/**
 * One result entry as readable text: header, verdict with the checker's reason, then either the
 * single-turn question / output / answer, or the multi-turn conversation turn by turn with the
 * state changes after each turn.
 */

import { classifyFailure, errorTypeOf } from '../evaluate/error-taxonomy.js';
import { pyRepr } from '../py/repr.js';
import type { PyDict, PyValue } from '../py/value.js';
import { describeCheckerReason } from './checker-reason.js';
import type { ConversationTurn, EntryConversation } from './entry-conversation.js';
import { renderAgenticView, type AgenticView } from './render-agentic.js';
import { MAX_ASSISTANT_TEXT, compact, indentBlock, renderEvent } from './render-steps.js';
import type { EntryVerdict } from './score-lookup.js';
import { diffStates, renderStateChanges, truncateMiddle, type StateView } from './state-diff.js';
import type { TextStyle } from './text-style.js';

/** What a single-turn entry shows besides the verdict. */
export interface SingleTurnView {
  readonly kind: 'single';
  readonly question: readonly (readonly { role: string; content: string }[])[];
  readonly functionNames: readonly string[];
  readonly raw: PyValue;
  /** The decoded output, or the decoding error. */
  readonly decoded: { ok: true; value: PyValue } | { ok: false; error: string };
  /** What a correct answer looks like (rendered lines). */
  readonly expected: readonly string[];
}

/** What a multi-turn or agentic entry shows besides the verdict. */
export interface MultiTurnView {
  readonly kind: 'multi';
  readonly conversation: EntryConversation | undefined;
  /** Ground-truth calls per turn (multi-turn), or the accepted answers (agentic). */
  readonly groundTruthTurns: readonly (readonly string[])[] | undefined;
  readonly expectedAnswer: readonly string[] | undefined;
  /**
   * Where the inference log's answers first differ from the scored `result`, when they do; the
   * conversation is then the result's, decoded and replayed.
   */
  readonly logDifference?: string | undefined;
}

/** A failed inference as its result line records it. */
export interface InferenceErrorView {
  /** The `result` text (`Error during inference: ...`). */
  readonly message: string;
  /** The `traceback` field, when the line has one. */
  readonly traceback: string | undefined;
}

export interface EntryReport {
  readonly id: string;
  readonly category: string;
  readonly model: string | undefined;
  readonly resultFile: string;
  readonly verdict: EntryVerdict;
  /** Notes such as "entry not found in the dataset". */
  readonly notes: readonly string[];
  /** The error of a failed inference (undefined when the inference succeeded). */
  readonly inferenceError?: InferenceErrorView | undefined;
  readonly view: SingleTurnView | MultiTurnView | AgenticView;
}

const MAX_TRACEBACK_TEXT = 6000;

/** `name(a=1, b='x')` for one decoded `{name: {param: value}}` call. */
export function formatDecodedCall(call: PyValue): string {
  if (!(call instanceof Map) || call.size !== 1) return compact(call);
  const [[name, args]] = [...call];
  if (!(args instanceof Map)) return `${String(name)}(${compact(args)})`;
  const parts = [...args].map(([k, v]) => `${String(k)}=${pyRepr(v)}`);
  return `${String(name)}(${parts.join(', ')})`;
}

/** `name(a=1 | 2, b=‹omitted› | 'x')` for one possible-answer call (`{name: {param: [accepted values]}}`). */
export function formatExpectedCall(call: PyValue): string {
  if (!(call instanceof Map) || call.size !== 1) return compact(call);
  const [[name, params]] = [...call];
  if (!(params instanceof Map)) return `${String(name)}(${compact(params)})`;
  const parts = [...params].map(([k, values]) => {
    const options = Array.isArray(values) ? values.map((v) => (v === '' ? '‹omitted›' : pyRepr(v))) : [pyRepr(values)];
    return `${String(k)}=${options.join(' | ')}`;
  });
  return `${String(name)}(${parts.join(', ')})`;
}

function verdictLines(report: EntryReport, style: TextStyle): string[] {
  const verdict = report.verdict;
  if (verdict.kind === 'unknown') return [`${style.bold('Verdict:')} ${style.dim(verdict.reason)}`];
  if (verdict.kind === 'pass') return [`${style.bold('Verdict:')} ${style.green('PASS')} ${style.dim(`(not among the failures in ${verdict.scoreFile})`)}`];
  const errorType = errorTypeOf(verdict.record);
  const lines = [`${style.bold('Verdict:')} ${style.red('FAIL')}  ${errorType}  [${classifyFailure(verdict.record)}]`];
  lines.push(...describeCheckerReason(verdict.record, style).map((l) => `  ${l}`));
  return lines;
}

function renderSingleTurn(view: SingleTurnView, style: TextStyle): string[] {
  const lines: string[] = [];
  lines.push('', style.bold('Question'));
  view.question.forEach((turn, t) => {
    if (view.question.length > 1) lines.push(style.dim(`  turn ${t}`));
    for (const m of turn) lines.push(...indentBlock(`${m.role}: ${m.content}`, '  '));
  });
  if (view.functionNames.length > 0) lines.push('', `${style.bold('Functions:')} ${view.functionNames.join(', ')}`);
  lines.push('', style.bold('Model output'), ...indentBlock(truncateMiddle(compact(view.raw), MAX_ASSISTANT_TEXT), '  '));
  lines.push('', style.bold('Decoded'));
  if (!view.decoded.ok) lines.push(`  ${style.yellow(`decode error: ${view.decoded.error}`)}`);
  else if (Array.isArray(view.decoded.value)) {
    if (view.decoded.value.length === 0) lines.push(`  ${style.dim('(no function call)')}`);
    for (const call of view.decoded.value) lines.push(`  ${style.cyan(formatDecodedCall(call))}`);
  } else lines.push(`  ${compact(view.decoded.value)}`);
  if (view.expected.length > 0) lines.push('', style.bold('Expected'), ...view.expected.map((l) => `  ${l}`));
  return lines;
}

function renderTurn(turn: ConversationTurn, previous: StateView | undefined, groundTruth: readonly string[] | undefined, style: TextStyle): string[] {
  const lines = ['', style.bold(`Turn ${turn.index}`)];
  if (turn.addedFunctions.length > 0) lines.push(style.magenta(`  (held-out functions added: ${turn.addedFunctions.join(', ')})`));
  for (const m of turn.messages) lines.push(...indentBlock(`${m.role}: ${m.content}`, '  '));
  if (groundTruth !== undefined) {
    lines.push(style.dim(`  ground truth: ${groundTruth.length === 0 ? '(no call)' : groundTruth.join('; ')}`));
  }
  for (const step of turn.steps) {
    lines.push(style.dim(`  step ${step.index}`));
    const hasTools = step.events.some((e) => e.kind === 'tool');
    for (const event of step.events) lines.push(...renderEvent(event, hasTools, style));
  }
  if (turn.stateAfter !== undefined && previous !== undefined) {
    const changes = diffStates(previous, turn.stateAfter);
    if (changes.length === 0) lines.push(style.dim('  state: unchanged'));
    else lines.push('  state changes:', ...renderStateChanges(changes, style).map((l) => `    ${l}`));
  }
  return lines;
}

function renderMultiTurn(view: MultiTurnView, style: TextStyle): string[] {
  const lines: string[] = [];
  const conversation = view.conversation;
  if (conversation === undefined) return ['', style.dim('(no conversation: the result holds no turns)')];
  const source = conversation.source === 'log' ? 'inference log' : 'result, decoded and replayed';
  const states =
    conversation.stateSource === 'log' ? 'logged' : conversation.stateSource === 'replay' ? 'replayed from the decoded calls' : 'not available';
  if (view.logDifference !== undefined) {
    lines.push('', style.yellow(`The inference log differs from the scored result (${view.logDifference}).`));
    lines.push(style.yellow('The conversation below is the scored result; the log is not used.'));
  }
  lines.push('', style.dim(`Conversation from the ${source}; states ${states}.`));
  if (conversation.initialState !== undefined && conversation.initialState.size > 0) {
    lines.push(style.dim(`Initial state: ${[...conversation.initialState.keys()].join(', ')}`));
  }
  let previous = conversation.initialState;
  for (const turn of conversation.turns) {
    lines.push(...renderTurn(turn, previous, view.groundTruthTurns?.[turn.index], style));
    if (turn.stateAfter !== undefined) previous = turn.stateAfter;
  }
  if (view.groundTruthTurns !== undefined && view.groundTruthTurns.length > conversation.turns.length) {
    lines.push('', style.red(`The result has ${conversation.turns.length} turns; the ground truth has ${view.groundTruthTurns.length}.`));
  }
  if (view.expectedAnswer !== undefined) lines.push('', `${style.bold('Expected answer:')} ${view.expectedAnswer.join(' | ')}`);
  return lines;
}

/** The whole report, newline-terminated. */
export function renderEntryReport(report: EntryReport, style: TextStyle): string {
  const header = [style.bold(report.id), report.model === undefined ? undefined : `model ${report.model}`, report.category]
    .filter((x) => x !== undefined)
    .join('  ·  ');
  const lines = [header, style.dim(`result: ${report.resultFile}`)];
  lines.push(...report.notes.map((n) => style.yellow(`note: ${n}`)));
  lines.push(...verdictLines(report, style));
  if (report.inferenceError !== undefined) lines.push(...inferenceErrorLines(report.inferenceError, style));
  const view = report.view;
  lines.push(...(view.kind === 'single' ? renderSingleTurn(view, style) : view.kind === 'agentic' ? renderAgenticView(view, style) : renderMultiTurn(view, style)));
  return lines.join('\n') + '\n';
}

function inferenceErrorLines(error: InferenceErrorView, style: TextStyle): string[] {
  const lines = ['', style.bold('Inference error'), ...indentBlock(style.red(error.message), '  ')];
  if (error.traceback !== undefined && error.traceback.trim() !== '') {
    lines.push(style.dim('  traceback:'), ...indentBlock(truncateMiddle(error.traceback.trimEnd(), MAX_TRACEBACK_TEXT), '    '));
  }
  return lines;
}

/** The rendered lines of a possible answer for a single-turn entry. */
export function expectedLinesOf(category: string, possibleAnswer: PyValue | undefined): string[] {
  if (category.includes('irrelevance')) return ['no function call'];
  if (category.includes('relevance')) return ['at least one function call (any)'];
  if (!Array.isArray(possibleAnswer)) return [];
  return possibleAnswer.map(formatExpectedCall);
}

/** Function names of an entry's docs. */
export function functionNamesOf(docs: readonly PyValue[]): string[] {
  return docs.map((doc) => (doc instanceof Map ? String((doc as PyDict).get('name') ?? '?') : '?'));
}

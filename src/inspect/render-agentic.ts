/**
 * An agentic entry (web search, memory question or memory prerequisite) as readable text: the
 * final answer as scored against the expected answers, where a memory entry's memory came from,
 * the conversation with every memory operation, search and page fetch beside its (shortened) tool
 * result, and a count of the tool calls.
 */

import { agenticToolKind, systemPromptParts, type AgenticToolKind } from '../report/agentic-text.js';
import type { AgenticDetails, AgenticAnswerView, AgenticMemoryView } from './agentic-details.js';
import type { ConversationTurn, EntryConversation, StepEvent } from './entry-conversation.js';
import { MAX_TOOL_TEXT, indentBlock, renderEvent } from './render-steps.js';
import { truncateMiddle } from './state-diff.js';
import type { TextStyle } from './text-style.js';

/** What an agentic entry shows besides the verdict. */
export interface AgenticView {
  readonly kind: 'agentic';
  readonly conversation: EntryConversation | undefined;
  /** Where the inference log's answers first differ from the scored `result`, when they do. */
  readonly logDifference: string | undefined;
  readonly details: AgenticDetails;
}

const MAX_ANSWER_TEXT = 600;
const MAX_MEMORY_TEXT = 800;
const MAX_SYSTEM_HEAD = 160;

/** Whether a tool result reports a failure (a raised call, or a backend's `{"error": ...}`). */
function isToolError(content: string): boolean {
  return content.startsWith('Error during execution') || content.startsWith('{"error"');
}

function oneLine(text: string): string {
  return text.replace(/\n/g, '\\n');
}

function answerLines(answer: AgenticAnswerView, style: TextStyle): string[] {
  const lines = ['', style.bold('Answer')];
  if (answer.scored === undefined) lines.push(`  ${style.red(`no final answer: ${answer.problem ?? 'unknown'}`)}`);
  else {
    lines.push(`  final answer (as scored, step ${answer.step ?? '?'}): ${oneLine(truncateMiddle(answer.scored, MAX_ANSWER_TEXT))}`);
    lines.push(style.dim(`    normalised: ${oneLine(truncateMiddle(answer.standardized ?? '', MAX_ANSWER_TEXT))}`));
  }
  if (answer.expected.length === 0) lines.push(`  expected: ${style.dim('(no possible answer found in the dataset)')}`);
  else {
    lines.push(`  expected (any of): ${answer.expected.join(' | ')}`);
    lines.push(style.dim(`    normalised: ${answer.standardizedExpected.join(' | ')}`));
  }
  if (answer.scored !== undefined && answer.expected.length > 0) {
    lines.push(
      answer.matched !== undefined
        ? `  ${style.green(`found: "${answer.matched}" appears as whole words in the normalised answer`)}`
        : `  ${style.red('none of the expected answers appears as whole words in the normalised answer')}`,
    );
  }
  return lines;
}

function memoryLines(memory: AgenticMemoryView, style: TextStyle): string[] {
  const lines = ['', style.bold('Memory'), `  backend ${memory.backend}, scenario ${memory.scenario ?? '(unknown)'}: ${memory.start}`];
  for (const file of memory.files) lines.push(`  ${file.role}: ${file.path}  ${style.dim(`(now: ${file.summary})`)}`);
  if (memory.promptMemory !== undefined) {
    lines.push(`  ${memory.promptMemory.label} in the system message (the state the entry started from):`);
    lines.push(...indentBlock(truncateMiddle(memory.promptMemory.content, MAX_MEMORY_TEXT), '    '));
  }
  return lines;
}

/** A system message of an agentic entry: its first line, and what it is made of (the memory is shown above). */
function systemMessageLine(content: string, style: TextStyle): string {
  const first = content.split('\n', 1)[0] ?? '';
  const parts = systemPromptParts(content);
  const what = parts.length === 0 ? '' : `${parts.join(' + ')}, `;
  return `  system: ${truncateMiddle(first, MAX_SYSTEM_HEAD)} ${style.dim(`[${what}${content.length} characters]`)}`;
}

function agenticEvent(event: StepEvent, hasTools: boolean, scoredStep: boolean, style: TextStyle): string[] {
  switch (event.kind) {
    case 'tool': {
      const label = event.call === undefined ? '' : `${agenticToolKind(event.call)} `;
      const result = `      → ${oneLine(truncateMiddle(event.content, MAX_TOOL_TEXT))}`;
      return [
        ...(event.call === undefined ? [] : [`    ${style.cyan(`▸ ${label}${event.call}`)}`]),
        isToolError(event.content) ? style.yellow(result) : result,
      ];
    }
    case 'decode_error':
      // An agentic turn normally ends with a text answer, which no decoder reads as calls.
      return [`    ${style.dim('a text reply, not a function call (the turn ends)')}${scoredStep ? ` ${style.bold('← the final answer scored')}` : ''}`];
    case 'empty':
      return [`    ${style.dim('no function call (the turn ends)')}${scoredStep ? ` ${style.bold('← the final answer scored')}` : ''}`];
    default:
      return renderEvent(event, hasTools, style);
  }
}

function renderAgenticTurn(turn: ConversationTurn, scoredStep: number | undefined, style: TextStyle): string[] {
  const lines = ['', style.bold(`Turn ${turn.index}`)];
  for (const m of turn.messages) {
    lines.push(...(m.role === 'system' ? [systemMessageLine(m.content, style)] : indentBlock(`${m.role}: ${m.content}`, '  ')));
  }
  for (const step of turn.steps) {
    lines.push(style.dim(`  step ${step.index}`));
    const hasTools = step.events.some((e) => e.kind === 'tool');
    for (const event of step.events) lines.push(...agenticEvent(event, hasTools, step.index === scoredStep, style));
  }
  return lines;
}

/** The tool calls of a conversation counted by kind and function, with how many returned an error. */
function toolUseLines(conversation: EntryConversation, style: TextStyle): string[] {
  const byKind = new Map<AgenticToolKind, Map<string, number>>();
  let errors = 0;
  for (const turn of conversation.turns) {
    for (const step of turn.steps) {
      for (const event of step.events) {
        if (event.kind !== 'tool' || event.call === undefined) continue;
        const kind = agenticToolKind(event.call);
        const name = /^\s*([\w.]+)/.exec(event.call)?.[1] ?? event.call;
        const counts = byKind.get(kind) ?? new Map<string, number>();
        counts.set(name, (counts.get(name) ?? 0) + 1);
        byKind.set(kind, counts);
        if (isToolError(event.content)) errors++;
      }
    }
  }
  if (byKind.size === 0) return ['', `${style.bold('Tool calls:')} none`];
  const parts: string[] = [];
  const titles: Readonly<Record<AgenticToolKind, readonly [string, string]>> = {
    memory: ['memory operation', 'memory operations'],
    search: ['search', 'searches'],
    fetch: ['page fetch', 'page fetches'],
    call: ['other call', 'other calls'],
  };
  for (const kind of ['memory', 'search', 'fetch', 'call'] as const) {
    const counts = byKind.get(kind);
    if (counts === undefined) continue;
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    parts.push(`${total} ${titles[kind][total === 1 ? 0 : 1]} (${[...counts].map(([name, n]) => `${name} ×${n}`).join(', ')})`);
  }
  const errorText = errors === 0 ? '' : style.yellow(`; ${errors} returned an error`);
  return ['', `${style.bold('Tool calls:')} ${parts.join('; ')}${errorText}`];
}

/** The agentic part of the report (everything after the verdict and inference error). */
export function renderAgenticView(view: AgenticView, style: TextStyle): string[] {
  const lines: string[] = [];
  const { details, conversation } = view;
  if (details.answer !== undefined) lines.push(...answerLines(details.answer, style));
  if (details.memory !== undefined) lines.push(...memoryLines(details.memory, style));
  if (view.logDifference !== undefined) {
    lines.push('', style.yellow(`The inference log differs from the scored result (${view.logDifference}).`));
    lines.push(style.yellow('The conversation below is the scored result; the log is not used.'));
  }
  if (conversation === undefined) return [...lines, '', style.dim('(no conversation: the result holds no turns)')];
  const source = conversation.source === 'log' ? 'the inference log' : 'the result, decoded (no tool results: the agentic backends are not replayed)';
  lines.push('', style.dim(`Conversation from ${source}.`));
  for (const turn of conversation.turns) {
    lines.push(...renderAgenticTurn(turn, turn.index === 0 ? details.answer?.step : undefined, style));
  }
  lines.push(...toolUseLines(conversation, style));
  return lines;
}

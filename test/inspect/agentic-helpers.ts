/**
 * Hand-made agentic result lines (web search, memory questions and prerequisites) as an FC model's
 * run writes them: per step the raw output, the handler's records and the tool results, the final
 * text answer ending the turn with a decode failure.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { jsonDumps } from '../../src/py/json.js';
import { pyRepr } from '../../src/py/repr.js';
import type { PyDict, PyValue } from '../../src/py/value.js';
import { getDirectoryStructureById } from '../../src/spec/categories.js';
import { fcCall } from './helpers.js';

/** One tool call of a step: function, arguments and the tool result the backend returned. */
export type AgenticCall = readonly [name: string, args: Record<string, PyValue>, result: string];

/** A model step: calls (executed), or a text reply (ends the turn). */
export type AgenticStep = { readonly calls: readonly AgenticCall[] } | { readonly text: string };

/** One turn: the messages that opened it and the model's steps. */
export interface AgenticTurn {
  readonly messages: readonly { readonly role: string; readonly content: string }[];
  readonly steps: readonly AgenticStep[];
}

const record = (fields: [string, PyValue][]): PyDict => new Map(fields);

function callString(name: string, args: Record<string, PyValue>): string {
  return `${name}(${Object.entries(args).map(([k, v]) => `${k}=${pyRepr(v)}`).join(',')})`;
}

function rawOf(step: AgenticStep): PyValue {
  return 'text' in step ? step.text : step.calls.map(([name, args]) => fcCall(name, new Map(Object.entries(args))));
}

function stepRecords(step: AgenticStep): PyDict[] {
  const assistant = record([['role', 'assistant'], ['content', rawOf(step)]]);
  if ('text' in step) {
    return [assistant, record([['role', 'handler_log'], ['content', 'Error decoding the model response. Proceed to next turn.'], ['error', "'str' object has no attribute 'items'"]])];
  }
  const strings = step.calls.map(([name, args]) => callString(name, args));
  return [
    assistant,
    record([['role', 'handler_log'], ['content', 'Successfully decoded model response.'], ['model_response_decoded', strings]]),
    ...step.calls.map(([, , result]) => record([['role', 'tool'], ['content', result]])),
  ];
}

/** A result line with its `inference_log`. */
export function agenticLine(id: string, turns: readonly AgenticTurn[]): PyDict {
  const log = turns.map((turn) => {
    const item = new Map<string, PyValue>([['begin_of_turn_query', turn.messages.map((m) => record([['role', m.role], ['content', m.content]]))]]);
    turn.steps.forEach((step, s) => item.set(`step_${s}`, stepRecords(step)));
    return item;
  });
  return new Map<string, PyValue>([
    ['id', id],
    ['result', turns.map((turn) => turn.steps.map(rawOf))],
    ['input_token_count', turns.map((turn) => turn.steps.map(() => 100n))],
    ['output_token_count', turns.map((turn) => turn.steps.map(() => 10n))],
    ['latency', turns.map((turn) => turn.steps.map(() => 0.25))],
    ['inference_log', log],
  ]);
}

/** Write result lines into `<root>/result/<model>/<group>/<file>` (the file named by the caller). */
export function writeAgenticResults(root: string, model: string, file: string, lines: readonly PyDict[]): string {
  const dir = join(root, 'result', model, getDirectoryStructureById(lines[0]!.get('id') as string));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, lines.map((l) => jsonDumps(l) + '\n').join(''));
  return path;
}

/** Write a memory snapshot (`json.dump(indent=4)` text) under the model's backend folder. */
export function writeSnapshot(root: string, model: string, backend: string, relativePath: string, content: unknown): void {
  const file = join(root, 'result', model, 'agentic', 'memory', backend, 'memory_snapshot', relativePath);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(content, null, 4));
}

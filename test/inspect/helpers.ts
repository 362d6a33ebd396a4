/**
 * Result files for the inspect tests, built from the project's data/ without any model: FC-style
 * answers taken from the possible answers, plus a hand-written multi-turn conversation.
 */

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { openDataset } from '../../src/data/dataset.js';
import { EntryExecutor } from '../../src/exec/executor.js';
import { jsonDumps, makeJsonSerializable } from '../../src/py/json.js';
import { pyRepr } from '../../src/py/repr.js';
import type { PyDict, PyValue } from '../../src/py/value.js';
import { STATELESS_CLASSES } from '../../src/sim/registry.js';
import { getDirectoryStructureByCategory, getFileNameByCategory, type Category } from '../../src/spec/categories.js';

export const dataset = openDataset();

/** A fresh project folder. */
export function tempProject(): string {
  return mkdtempSync(join(tmpdir(), 'bfcl-inspect-'));
}

/** Write `<root>/result/<model>/<group>/BFCL_v4_<category>_result.json` (Python json.dumps lines). */
export function writeResults(root: string, model: string, category: Category, lines: readonly PyDict[]): string {
  const dir = join(root, 'result', model, getDirectoryStructureByCategory(category));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, getFileNameByCategory(category, 'result'));
  writeFileSync(file, lines.map((l) => jsonDumps(l) + '\n').join(''));
  return file;
}

/** An FC call `{name: "<arguments JSON>"}` (dots in names become `_`, as FC tool names do). */
export function fcCall(name: string, args: PyDict): PyDict {
  return new Map([[name.replaceAll('.', '_'), jsonDumps(args)]]);
}

/** The first accepted value of each key, for a dict of accepted-value lists (nested dicts alike). */
function acceptedArgs(params: PyDict): PyDict {
  const args: PyDict = new Map();
  for (const [param, values] of params) {
    const first = (values as PyValue[]).find((v) => v !== '');
    if (first !== undefined) args.set(param, acceptedValue(first));
  }
  return args;
}

function acceptedValue(v: PyValue): PyValue {
  if (v instanceof Map) return acceptedArgs(v);
  if (Array.isArray(v)) return v.map(acceptedValue);
  return v;
}

/** The FC answer that a possible answer accepts: the first accepted value of each parameter. */
export function correctFcAnswer(groundTruth: PyValue): PyValue[] {
  return (groundTruth as PyDict[]).map((call) => {
    const [[name, params]] = [...call];
    return fcCall(String(name), acceptedArgs(params as PyDict));
  });
}

/** Result lines of a single-turn category, all correct, then `edit` applied by id. */
export function singleTurnResults(category: Category, edit: Record<string, PyValue> = {}): PyDict[] {
  return dataset.loadPossibleAnswers(category).map((answer) => {
    const result = answer.id in edit ? edit[answer.id]! : correctFcAnswer(answer.groundTruth);
    return new Map<string, PyValue>([
      ['id', answer.id],
      ['result', result],
      ['input_token_count', 10n],
      ['output_token_count', 5n],
      ['latency', 0.5],
    ]);
  });
}

/** multi_turn_base_0 answered correctly by an FC model: per turn one step of calls, then an empty step. */
export const MULTI_TURN_BASE_0_CALLS: [string, Record<string, PyValue>][][] = [
  [
    ['cd', { folder: 'survey' }],
    ['wc', { file_name: 'counts_april.txt', mode: 'l' }],
  ],
  [['diff', { file_name1: 'counts_march.txt', file_name2: 'counts_april.txt' }]],
  [
    ['mean', { numbers: [14.0, 18.0, 21.0] }],
    ['round_number', { number: 17.666666666666668, decimal_places: 2n }],
  ],
  [
    ['touch', { file_name: 'may_summary.txt' }],
    ['echo', { content: 'Robin average: 17.67', file_name: 'may_summary.txt' }],
    ['mv', { source: 'counts_march.txt', destination: 'archive' }],
  ],
  [
    ['cd', { folder: 'archive' }],
    ['ls', {}],
  ],
];

/** The FC `result` of multi_turn_base_0 for `calls` (per turn, per call). */
export function multiTurnResult(calls: [string, Record<string, PyValue>][][]): PyValue[] {
  return calls.map((turn) => [turn.map(([name, args]) => fcCall(name, new Map(Object.entries(args)))), []]);
}

/** FC call strings as the FC decoder writes them (`name(k=v,...)`, no space after commas). */
function callString(name: string, args: Record<string, PyValue>): string {
  return `${name}(${Object.entries(args).map(([k, v]) => `${k}=${pyRepr(v)}`).join(',')})`;
}

/**
 * An `inference_log` as the generation loop writes it for these calls: the state before the first
 * turn, then per turn its query, the steps (assistant, decoded calls, tool results; an empty step
 * ends the turn) and the state after it.
 */
export function inferenceLog(category: Category, id: string, calls: [string, Record<string, PyValue>][][]): PyValue[] {
  const entry = dataset.loadTestEntries(category).find((e) => e.id === id)!;
  const executor = new EntryExecutor({
    modelName: 'helper',
    entryId: id,
    initialConfig: entry.initialConfig ?? new Map(),
    involvedClasses: entry.involvedClasses ?? [],
    longContext: false,
    context: { longContext: dataset.longContext() },
  });
  const state = (): PyValue[] =>
    [...executor.getInstances()]
      .filter(([name]) => !STATELESS_CLASSES.has(name))
      .map(([name, instance]) => new Map<string, PyValue>([['role', 'state_info'], ['class_name', name], ['content', makeJsonSerializable(new Map(instance._publicState()))]]));
  const record = (fields: [string, PyValue][]): PyDict => new Map(fields);
  const log: PyValue[] = [state()];
  calls.forEach((turn, t) => {
    const strings = turn.map(([name, args]) => callString(name, args));
    const results = executor.execute(strings);
    const raw = turn.map(([name, args]) => fcCall(name, new Map(Object.entries(args))));
    const query = entry.question[t]!.map((m) => record([['role', m.role], ['content', m.content]]));
    log.push(
      new Map<string, PyValue>([
        ['begin_of_turn_query', query],
        [
          'step_0',
          [
            record([['role', 'assistant'], ['content', raw]]),
            record([['role', 'handler_log'], ['content', 'Successfully decoded model response.'], ['model_response_decoded', strings]]),
            ...results.map((r) => record([['role', 'tool'], ['content', r]])),
          ],
        ],
        [
          'step_1',
          [
            record([['role', 'assistant'], ['content', []]]),
            record([['role', 'handler_log'], ['content', 'Successfully decoded model response.'], ['model_response_decoded', []]]),
            record([['role', 'handler_log'], ['content', 'Empty response from the model. Proceed to next turn.'], ['model_response_decoded', []]]),
          ],
        ],
      ]),
    );
    log.push(state());
  });
  return log;
}

/** A multi-turn result line. */
export function multiTurnLine(id: string, result: PyValue, log?: PyValue): PyDict {
  const line = new Map<string, PyValue>([
    ['id', id],
    ['result', result],
  ]);
  if (log !== undefined) line.set('inference_log', log);
  return line;
}

/** The CLI run in-process with captured output. */
export async function cli(argv: string[], root: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env: { BFCL_PROJECT_ROOT: root, ...env }, cwd: root };
  const code = await runCli(argv, io);
  return { code, ...out };
}

/**
 * The ground-truth conversation of a multi-turn entry: its ground-truth calls executed turn by turn
 * on fresh simulated APIs, written as the reference's visualizer script writes it
 * (scripts/visualize_multi_turn_ground_truth_conversation.py, spec §9).
 */

import { EntryExecutor } from '../exec/executor.js';
import { jsonDumps, makeJsonSerializable, parseJsonLossless } from '../py/json.js';
import type { PyDict, PyValue } from '../py/value.js';
import { STATELESS_CLASSES } from '../sim/registry.js';
import type { SimContext, SimulatedApi } from '../sim/simulated-api.js';
import type { PossibleAnswer, TestEntry } from '../spec/schemas.js';

/** BFCL parity: the visualizer's model name (only instance names depend on it). */
export const GROUND_TRUTH_CONVERSATION_MODEL = 'ground_truth_conversation';

/** A ground-truth call whose execution reported an error (the reference prints these). */
export interface GroundTruthExecutionError {
  readonly id: string;
  readonly turn: number;
  readonly call: string;
  readonly result: string;
}

/** One entry's conversation: the output line and the ground-truth calls that failed. */
export interface GroundTruthConversation {
  /** `{"id", "ground_truth_log"}`, values already made JSON-safe. */
  readonly line: PyDict;
  readonly errors: GroundTruthExecutionError[];
}

/** `state_info` records of every stateful instance, detached from the live state. */
function stateLog(instances: ReadonlyMap<string, SimulatedApi>): PyDict[] {
  const records: PyDict[] = [];
  for (const [className, instance] of instances) {
    // BFCL parity: the visualizer skips only STATELESS_CLASSES (not the agentic OMIT_STATE_INFO ones).
    if (STATELESS_CLASSES.has(className)) continue;
    // make_json_serializable copies dicts and lists and str()s other objects: a snapshot, like deepcopy.
    const content = makeJsonSerializable(new Map<string, PyValue>(instance._publicState()));
    records.push(
      new Map<string, PyValue>([
        ['role', 'state_info'],
        ['class_name', className],
        ['content', content],
      ]),
    );
  }
  return records;
}

/**
 * BFCL parity: the visualizer flags a result that `json.loads` to a dict with an `error` key, or
 * that is (or decodes to) a string containing "Error during execution: ".
 */
export function isGroundTruthErrorResult(result: string): boolean {
  let decoded: PyValue;
  try {
    decoded = parseJsonLossless(result);
  } catch {
    decoded = result;
  }
  if (decoded instanceof Map) return decoded.has('error');
  return typeof decoded === 'string' && decoded.includes('Error during execution: ');
}

/** Execute an entry's ground truth and build its conversation log. */
export function buildGroundTruthConversation(entry: TestEntry, answer: PossibleAnswer, context: SimContext): GroundTruthConversation {
  // BFCL parity: the category is the id without its index; long context is decided on it.
  const category = entry.id.slice(0, Math.max(0, entry.id.lastIndexOf('_')));
  const executor = new EntryExecutor({
    modelName: GROUND_TRUTH_CONVERSATION_MODEL,
    entryId: entry.id,
    initialConfig: entry.initialConfig ?? new Map(),
    involvedClasses: entry.involvedClasses ?? [],
    longContext: category.includes('long_context') || category.includes('composite'),
    context,
  });
  const log: PyValue[] = [stateLog(executor.getInstances())];
  const errors: GroundTruthExecutionError[] = [];

  const questionTurns = (entry.raw.get('question') as PyValue[] | undefined) ?? [];
  const groundTruthTurns = Array.isArray(answer.groundTruth) ? answer.groundTruth : [];
  // BFCL parity: zip() — as many turns as the shorter of the two lists.
  const turns = Math.min(questionTurns.length, groundTruthTurns.length);
  for (let turn = 0; turn < turns; turn++) {
    const calls = (groundTruthTurns[turn] as string[]).map(String);
    const turnLog: PyValue[] = [new Map<string, PyValue>([['begin_of_turn_query', makeJsonSerializable(questionTurns[turn]!)]])];
    executor.execute(calls).forEach((result, i) => {
      const call = calls[i]!;
      if (isGroundTruthErrorResult(result)) errors.push({ id: entry.id, turn, call, result });
      turnLog.push(
        new Map<string, PyValue>([
          ['role', 'assistant'],
          ['content', call],
        ]),
      );
      turnLog.push(
        new Map<string, PyValue>([
          ['role', 'tool'],
          ['content', result],
        ]),
      );
    });
    log.push(turnLog);
    log.push(stateLog(executor.getInstances()));
  }
  const line = new Map<string, PyValue>([
    ['id', entry.id],
    ['ground_truth_log', log],
  ]);
  return { line, errors };
}

/** One output line: `json.dumps(make_json_serializable(entry), ensure_ascii=False)`. */
export function renderGroundTruthConversationLine(line: PyDict): string {
  return jsonDumps(makeJsonSerializable(line), { ensureAscii: false });
}

/** BFCL parity: the visualizer's output file name, `<category>_conversation.json`. */
export function groundTruthConversationFileName(category: string): string {
  return `${category}_conversation.json`;
}

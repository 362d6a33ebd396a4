/**
 * What `bfcl show` adds for an agentic entry (web search, memory question, memory prerequisite):
 * the final answer as the agentic checker reads it, the expected answers and which one matched,
 * and for memory entries the scenario and snapshot the entry started from, with what the snapshot
 * files hold now.
 */

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { isEmptyExecuteResponse, type ModelDecoder } from '../evaluate/model-decoder.js';
import { checkAgenticAnswer, standardizeAgenticString } from '../evaluate/runners/agentic-runner.js';
import { iterateOrUndefined } from '../evaluate/runners/category-input.js';
import { pyStr } from '../py/repr.js';
import { pyTruthy, type PyValue } from '../py/value.js';
import {
  memoryOfSystemPrompt,
  memoryScenarioOfId,
  prereqCheckpointFile,
  questionSnapshotFile,
  type PromptMemory,
} from '../report/agentic-text.js';
import { extractMemoryBackendType, extractTestCategoryFromId, isFirstMemoryPrereqEntry, isMemory, isMemoryPrereq } from '../spec/categories.js';
import type { TestEntry } from '../spec/schemas.js';
import type { EntryConversation } from './entry-conversation.js';

/** The final answer of a scored agentic entry, read as the agentic checker reads it. */
export interface AgenticAnswerView {
  /** The last step that is not a function call (`last_non_fc_message`), as text; undefined when there is none. */
  readonly scored: string | undefined;
  /** Index of that step in the entry's only turn. */
  readonly step: number | undefined;
  /** The answer after the checker's normalisation (lower case, `,./-_*^()` dropped, `'` → `"`). */
  readonly standardized: string | undefined;
  /** The possible answers (`ground_truth`), and their normalised forms. */
  readonly expected: readonly string[];
  readonly standardizedExpected: readonly string[];
  /** The first expected answer found as whole words in the normalised final answer. */
  readonly matched: string | undefined;
  /** Why the checker has no answer to compare (the result is not one turn, or every step is a call). */
  readonly problem: string | undefined;
}

/** A memory snapshot file involved in an entry, and what it holds now. */
export interface SnapshotFileView {
  /** What the file is to this entry ("started from", "written by this conversation"). */
  readonly role: string;
  /** Path relative to the backend's result folder (`memory_snapshot/customer_final.json`). */
  readonly path: string;
  /** One line on its content now ("core memory 3 entries, archival memory 1 entry"), or why it cannot be read. */
  readonly summary: string;
}

/** Where a memory entry's memory came from. */
export interface AgenticMemoryView {
  readonly backend: string;
  readonly scenario: string | undefined;
  /** How the memory started (one sentence). */
  readonly start: string;
  readonly files: readonly SnapshotFileView[];
  /** The memory content quoted in the entry's system message (the state it started from), when logged. */
  readonly promptMemory: PromptMemory | undefined;
}

/** The agentic parts of `bfcl show`'s report. */
export interface AgenticDetails {
  readonly kind: 'web_search' | 'memory' | 'memory_prereq';
  /** Undefined for memory prerequisites, which are not scored. */
  readonly answer: AgenticAnswerView | undefined;
  readonly memory: AgenticMemoryView | undefined;
}

/** What `buildAgenticDetails` needs. */
export interface AgenticDetailsInput {
  readonly id: string;
  readonly result: PyValue;
  readonly decoder: ModelDecoder;
  /** The dataset entry (its scenario and prerequisites), when found. */
  readonly entry: TestEntry | undefined;
  /** The possible answers, when found. */
  readonly groundTruth: PyValue | undefined;
  readonly conversation: EntryConversation | undefined;
  /** The result file the entry was read from (snapshots are beside it). */
  readonly resultFile: string;
}

/** The answer as the agentic checker reads it: the last step that is not a decodable call. */
export function readAgenticAnswer(result: PyValue, groundTruth: PyValue | undefined, decoder: ModelDecoder): AgenticAnswerView {
  const expected = (Array.isArray(groundTruth) ? groundTruth : []).map((a) => pyStr(a));
  const standardizedExpected = expected.map(standardizeAgenticString);
  const none = (problem: string): AgenticAnswerView => ({
    scored: undefined,
    step: undefined,
    standardized: undefined,
    expected,
    standardizedExpected,
    matched: undefined,
    problem,
  });
  // BFCL parity: agentic_checker — a result that is not exactly one turn is an inference error.
  if (!Array.isArray(result) || result.length !== 1) return none('the result is not a list of one turn (the checker counts it as an inference error)');
  let last: PyValue = null;
  let step: number | undefined;
  (iterateOrUndefined(result[0]!) ?? []).forEach((raw, i) => {
    const decoded = decoder.decodeExecute(raw, false);
    if (!decoded.ok || isEmptyExecuteResponse(decoded.value)) {
      last = raw;
      step = i;
    }
  });
  if (!pyTruthy(last)) return none('every step is a function call: there is no final answer');
  const scored = typeof last === 'string' ? last : pyStr(last);
  const matched = expected.find((answer) => checkAgenticAnswer(scored, [answer]) === undefined);
  return { scored, step, standardized: standardizeAgenticString(scored), expected, standardizedExpected, matched, problem: undefined };
}

function entriesText(n: number): string {
  return n === 1 ? '1 entry' : `${n} entries`;
}

/** A count of a memory store's entries: kv stores are dicts, vector stores `{next_id, store}`. */
function storeSize(value: unknown): number | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const store = record['store'];
  if ('next_id' in record && store !== null && typeof store === 'object') return Object.keys(store).length;
  return Object.keys(record).length;
}

/** One line on a snapshot file's content now. */
export function summarizeSnapshotFile(file: string): string {
  if (!existsSync(file)) return 'not found';
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return `unreadable: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (content === null || typeof content !== 'object') return 'not a memory snapshot';
  const snapshot = content as Record<string, unknown>;
  if (typeof snapshot['memory'] === 'string') {
    const text = snapshot['memory'];
    return text === '' ? 'memory empty' : `memory ${text.length} characters`;
  }
  const core = storeSize(snapshot['core_memory']);
  const archival = storeSize(snapshot['archival_memory']);
  if (core === undefined && archival === undefined) return 'not a memory snapshot';
  return `core memory ${entriesText(core ?? 0)}, archival memory ${entriesText(archival ?? 0)}`;
}

function memoryView(input: AgenticDetailsInput): AgenticMemoryView {
  const { id, entry } = input;
  const backend = extractMemoryBackendType(extractTestCategoryFromId(id, true));
  const scenario = entry?.scenario ?? memoryScenarioOfId(id);
  // Snapshots live beside the memory result files: `<model dir>/agentic/memory/<backend>/memory_snapshot`.
  const folder = dirname(resolve(input.resultFile));
  const file = (role: string, path: string): SnapshotFileView => ({ role, path, summary: summarizeSnapshotFile(join(folder, path)) });
  const prereqs = (entry?.dependsOn ?? []).filter((d) => isMemoryPrereq(d));
  const system = input.conversation?.turns[0]?.messages.find((m) => m.role === 'system');
  const promptMemory = system === undefined ? undefined : memoryOfSystemPrompt(system.content);
  const files: SnapshotFileView[] = [];
  let start: string;
  if (isMemoryPrereq(id)) {
    const previous = prereqs.at(-1);
    if (isFirstMemoryPrereqEntry(id)) {
      start = `the first prerequisite of the ${scenario ?? '?'} chain, it started with an empty memory`;
    } else if (previous !== undefined) {
      start = `it started from the memory left by ${previous}, the previous prerequisite of the ${scenario ?? '?'} chain`;
      files.push(file(`the memory ${previous} left`, prereqCheckpointFile(previous)));
    } else {
      start = `it started from the ${scenario ?? '?'} chain's latest snapshot`;
    }
    files.push(file('the memory this conversation left', prereqCheckpointFile(id)));
  } else {
    const chain = prereqs.length === 0 ? '' : prereqs.length === 1 ? ` (${prereqs[0]})` : ` (${prereqs[0]} … ${prereqs.at(-1)})`;
    const left = prereqs.length === 0 ? "the scenario's prerequisites" : `the scenario's ${prereqs.length} prerequisite conversations${chain}`;
    start = `the question started from the memory left by ${left}`;
    files.push(file('read when the question started (questions never write it)', questionSnapshotFile(scenario ?? '?')));
  }
  return { backend, scenario, start, files, promptMemory };
}

/** Build the agentic details of an entry. */
export function buildAgenticDetails(input: AgenticDetailsInput): AgenticDetails {
  const memory = isMemory(input.id) ? memoryView(input) : undefined;
  if (isMemoryPrereq(input.id)) return { kind: 'memory_prereq', answer: undefined, memory };
  return {
    kind: memory === undefined ? 'web_search' : 'memory',
    answer: readAgenticAnswer(input.result, input.groundTruth, input.decoder),
    memory,
  };
}

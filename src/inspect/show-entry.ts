/**
 * `bfcl show`: gather everything about one result entry (its result line, its dataset entry and
 * ground truth, its verdict in the score file) and build the report that `render-entry` prints.
 */

import type { BfclDataset } from '../data/dataset.js';
import type { ModelDecoder } from '../evaluate/model-decoder.js';
import { pairPossibleAnswers } from '../evaluate/possible-answers.js';
import { isInferenceErrorEntry, type ResultFileContent } from '../evaluate/read-results.js';
import type { ResultEntry } from '../evaluate/runners/category-input.js';
import { parseFormatConfig } from '../evaluate/runners/format-sensitivity-runner.js';
import { jsonDumps, makeJsonSerializable } from '../py/json.js';
import { pyRepr } from '../py/repr.js';
import type { PyValue } from '../py/value.js';
import type { SimContext } from '../sim/simulated-api.js';
import {
  containMultiTurnInteraction,
  extractTestCategoryFromId,
  getCategoryInfo,
  isAgentic,
  isCategory,
  isFormatSensitivity,
  isMemoryPrereq,
  isMultiTurn,
} from '../spec/categories.js';
import type { PossibleAnswer, TestEntry } from '../spec/schemas.js';
import { UsageError } from '../util/errors.js';
import {
  canReplay,
  conversationFromLog,
  replayConversation,
  withReplayedStates,
  type EntryConversation,
} from './entry-conversation.js';
import { buildAgenticDetails } from './agentic-details.js';
import type { AgenticView } from './render-agentic.js';
import { expectedLinesOf, functionNamesOf, type EntryReport, type MultiTurnView, type SingleTurnView } from './render-entry.js';
import { lookUpVerdict } from './score-lookup.js';
import { describeTextChange } from './state-diff.js';
import { createTextStyle } from './text-style.js';

export interface ShowEntryInput {
  readonly id: string;
  /** The result file, as read (`readResultFile`). */
  readonly content: ResultFileContent;
  /** Model directory name, for the header (undefined when unknown). */
  readonly model: string | undefined;
  /** The score file holding the entry's verdict, when known. */
  readonly scoreFile: string | undefined;
  readonly dataset: BfclDataset;
  readonly decoder: ModelDecoder;
}

interface DatasetMatch {
  readonly entry: TestEntry | undefined;
  readonly answer: PossibleAnswer | undefined;
  readonly note: string | undefined;
}

/** The entry and its ground truth in the dataset (paired as the evaluator pairs them, checked). */
function findInDataset(dataset: BfclDataset, id: string): DatasetMatch {
  const category = extractTestCategoryFromId(id, true);
  if (!isCategory(category)) return { entry: undefined, answer: undefined, note: `unknown category "${category}" of id ${id}` };
  const entries = dataset.loadTestEntries(category, { includePrereq: true, includeLanguageHint: false });
  const index = entries.findIndex((e) => e.id === id);
  if (index === -1) return { entry: undefined, answer: undefined, note: `entry ${id} is not in the dataset at ${dataset.dir}` };
  const entry = entries[index]!;
  if (!getCategoryInfo(category).hasPossibleAnswer || id.includes('prereq')) return { entry, answer: undefined, note: undefined };
  const prompts = entries.filter((e) => !e.id.includes('prereq'));
  const answers = pairPossibleAnswers(dataset, category, prompts);
  const position = prompts.findIndex((e) => e.id === id);
  return { entry, answer: answers[position], note: undefined };
}

/** A value as one line of JSON (for comparing and quoting raw model output). */
function compactText(value: PyValue): string {
  try {
    return jsonDumps(makeJsonSerializable(value), { ensureAscii: false });
  } catch {
    return pyRepr(value);
  }
}

const PLAIN = createTextStyle(false);

/**
 * Where a logged conversation's model answers first differ from the scored `result` (per turn, per
 * step), or undefined when they agree. Steps whose log has no assistant record cannot be compared
 * and are taken as agreeing.
 */
export function logDifference(conversation: EntryConversation, result: readonly PyValue[]): string | undefined {
  if (conversation.turns.length !== result.length) {
    return `the log has ${conversation.turns.length} turns, the scored result ${result.length}`;
  }
  for (const turn of conversation.turns) {
    const steps = result[turn.index];
    if (!Array.isArray(steps)) return `turn ${turn.index} of the scored result is not a list of steps`;
    if (turn.steps.length !== steps.length) {
      return `turn ${turn.index}: the log has ${turn.steps.length} steps, the scored result ${steps.length}`;
    }
    for (const [s, step] of turn.steps.entries()) {
      const logged = step.events.find((e) => e.kind === 'assistant');
      if (logged === undefined) continue;
      const loggedText = compactText(logged.content);
      const scoredText = compactText(steps[s]!);
      if (loggedText !== scoredText) {
        return `turn ${turn.index} step ${step.index}, [-log-]{+scored result+}: ${describeTextChange(loggedText, scoredText, PLAIN, 30, 160)}`;
      }
    }
  }
  return undefined;
}

function multiTurnView(input: ShowEntryInput, result: PyValue, log: PyValue | undefined, match: DatasetMatch, context: SimContext): MultiTurnView {
  const { entry, answer } = match;
  let conversation: EntryConversation | undefined = conversationFromLog(log, entry);
  // What was scored is `result`: a log that tells another story is set aside, and the result replayed.
  const difference = conversation !== undefined && Array.isArray(result) ? logDifference(conversation, result) : undefined;
  if (difference !== undefined) conversation = undefined;
  if (entry !== undefined && Array.isArray(result)) {
    if (conversation === undefined) {
      conversation = replayConversation({ entry, result, decoder: input.decoder, context });
    } else if (conversation.stateSource === 'none' && canReplay(entry)) {
      conversation = withReplayedStates(conversation, replayConversation({ entry, result, decoder: input.decoder, context }));
    }
  }
  const groundTruth = answer?.groundTruth;
  const multiTurn = isMultiTurn(input.id);
  return {
    kind: 'multi',
    conversation,
    logDifference: difference,
    groundTruthTurns: multiTurn && Array.isArray(groundTruth) ? (groundTruth as string[][]) : undefined,
    expectedAnswer: isAgentic(input.id) && Array.isArray(groundTruth) ? groundTruth.map(String) : undefined,
  };
}

/** The conversation of an agentic entry: the log when it tells the scored result's story, else the result decoded. */
function agenticView(input: ShowEntryInput, result: PyValue, log: PyValue | undefined, match: DatasetMatch, context: SimContext): AgenticView {
  let conversation: EntryConversation | undefined = conversationFromLog(log, match.entry);
  const difference = conversation !== undefined && Array.isArray(result) ? logDifference(conversation, result) : undefined;
  if (difference !== undefined) conversation = undefined;
  // The agentic backends (memory snapshots, the web) are not replayed: the steps are decoded only.
  if (conversation === undefined && match.entry !== undefined && Array.isArray(result)) {
    conversation = replayConversation({ entry: match.entry, result, decoder: input.decoder, context });
  }
  const details = buildAgenticDetails({
    id: input.id,
    result,
    decoder: input.decoder,
    entry: match.entry,
    groundTruth: match.answer?.groundTruth,
    conversation,
    resultFile: input.content.file,
  });
  return { kind: 'agentic', conversation, logDifference: difference, details };
}

function singleTurnView(input: ShowEntryInput, result: PyValue, match: DatasetMatch): SingleTurnView {
  const category = extractTestCategoryFromId(input.id);
  // Format-sensitivity ids carry their prompt configuration; everything else is Python, no tag.
  const config = isFormatSensitivity(category) ? parseFormatConfig(input.id.split(':')[1] ?? '') : undefined;
  const decodeFormat = config ?? { format: 'python' as const, hasToolCallTag: false };
  const decoded = input.decoder.decodeAst(result, decodeFormat.format, decodeFormat.hasToolCallTag);
  return {
    kind: 'single',
    question: match.entry?.question ?? [],
    functionNames: functionNamesOf(match.entry?.functionDocs ?? []),
    raw: result,
    decoded: decoded.ok ? { ok: true, value: decoded.value } : { ok: false, error: `${decoded.errorType}: ${decoded.error}` },
    expected: expectedLinesOf(isFormatSensitivity(category) ? input.id.split(':')[2] ?? category : category, match.answer?.groundTruth),
  };
}

/** The error text and traceback of a failed inference, as the result line holds them. */
function inferenceErrorOf(line: ResultEntry): { readonly message: string; readonly traceback: string | undefined } | undefined {
  if (!isInferenceErrorEntry(line)) return undefined;
  const traceback = line.line.get('traceback');
  return {
    message: typeof line.result === 'string' ? line.result : compactText(line.result),
    traceback: traceback === undefined || traceback === null ? undefined : typeof traceback === 'string' ? traceback : compactText(traceback),
  };
}

/** Build the report of one entry; a missing result line is a usage error. */
export function buildEntryReport(input: ShowEntryInput, context: SimContext): EntryReport {
  const { content } = input;
  const line = content.entries.find((e) => e.id === input.id);
  if (line === undefined) {
    const malformed = content.malformed.find((m) => m.id === input.id);
    const why = malformed === undefined ? 'no such id' : `line ${malformed.line} is unreadable: ${malformed.problem}`;
    throw new UsageError(`No result for ${input.id} in ${content.file} (${why}).`);
  }
  const match = findInDataset(input.dataset, input.id);
  const notes = match.note === undefined ? [] : [match.note];
  const duplicate = content.duplicates.find((d) => d.id === input.id);
  if (duplicate !== undefined) {
    notes.push(`${input.id} is on lines ${duplicate.lines.join(', ')} of the result file; shown: line ${duplicate.usedLine}, the one evaluate scores`);
  }
  const result = line.result;
  const inferenceError = inferenceErrorOf(line);
  if (inferenceError !== undefined) notes.push('the inference failed for this entry');
  const log = line.line.get('inference_log');
  const view = isAgentic(input.id)
    ? agenticView(input, result, log, match, context)
    : containMultiTurnInteraction(input.id)
      ? multiTurnView(input, result, log, match, context)
      : singleTurnView(input, result, match);
  return {
    id: input.id,
    category: extractTestCategoryFromId(input.id),
    model: input.model,
    resultFile: content.file,
    verdict: isMemoryPrereq(input.id)
      ? { kind: 'unknown', reason: "not scored: a memory prerequisite, whose conversation fills the memory for its scenario's questions" }
      : lookUpVerdict(input.scoreFile, input.id),
    notes,
    inferenceError,
    view,
  };
}

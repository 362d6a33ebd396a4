/**
 * `bfcl show`: gather everything about one result entry (its result line, its dataset entry and
 * ground truth, its verdict in the score file) and build the report that `render-entry` prints.
 */

import type { BfclDataset } from '../data/dataset.js';
import type { ModelDecoder } from '../evaluate/model-decoder.js';
import { readResultFile } from '../evaluate/read-results.js';
import { parseFormatConfig } from '../evaluate/runners/format-sensitivity-runner.js';
import type { PyValue } from '../py/value.js';
import type { SimContext } from '../sim/simulated-api.js';
import {
  containMultiTurnInteraction,
  extractTestCategoryFromId,
  getCategoryInfo,
  isAgentic,
  isCategory,
  isFormatSensitivity,
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
import { expectedLinesOf, functionNamesOf, type EntryReport, type MultiTurnView, type SingleTurnView } from './render-entry.js';
import { lookUpVerdict } from './score-lookup.js';

export interface ShowEntryInput {
  readonly id: string;
  readonly resultFile: string;
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

/** The entry and its ground truth in the dataset (paired by position, as the evaluator does). */
function findInDataset(dataset: BfclDataset, id: string): DatasetMatch {
  const category = extractTestCategoryFromId(id, true);
  if (!isCategory(category)) return { entry: undefined, answer: undefined, note: `unknown category "${category}" of id ${id}` };
  const entries = dataset.loadTestEntries(category, { includePrereq: true, includeLanguageHint: false });
  const index = entries.findIndex((e) => e.id === id);
  if (index === -1) return { entry: undefined, answer: undefined, note: `entry ${id} is not in the dataset at ${dataset.dir}` };
  const entry = entries[index]!;
  if (!getCategoryInfo(category).hasPossibleAnswer || id.includes('prereq')) return { entry, answer: undefined, note: undefined };
  const answers = dataset.loadPossibleAnswers(category);
  const prompts = entries.filter((e) => !e.id.includes('prereq'));
  const position = prompts.findIndex((e) => e.id === id);
  return { entry, answer: answers[position], note: undefined };
}

function multiTurnView(input: ShowEntryInput, result: PyValue, log: PyValue | undefined, match: DatasetMatch, context: SimContext): MultiTurnView {
  const { entry, answer } = match;
  let conversation: EntryConversation | undefined = conversationFromLog(log, entry);
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
    groundTruthTurns: multiTurn && Array.isArray(groundTruth) ? (groundTruth as string[][]) : undefined,
    expectedAnswer: isAgentic(input.id) && Array.isArray(groundTruth) ? groundTruth.map(String) : undefined,
  };
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

/** Build the report of one entry; a missing result line is a usage error. */
export function buildEntryReport(input: ShowEntryInput, context: SimContext): EntryReport {
  const content = readResultFile(input.resultFile);
  const line = content.entries.find((e) => e.id === input.id);
  if (line === undefined) {
    const malformed = content.malformed.find((m) => m.id === input.id);
    const why = malformed === undefined ? 'no such id' : `line ${malformed.line} is unreadable: ${malformed.problem}`;
    throw new UsageError(`No result for ${input.id} in ${input.resultFile} (${why}).`);
  }
  const match = findInDataset(input.dataset, input.id);
  const notes = match.note === undefined ? [] : [match.note];
  const result = line.result;
  if (typeof result === 'string' && result.startsWith('Error during inference')) notes.push('the inference failed for this entry');
  const view = containMultiTurnInteraction(input.id)
    ? multiTurnView(input, result, line.line.get('inference_log'), match, context)
    : singleTurnView(input, result, match);
  return {
    id: input.id,
    category: extractTestCategoryFromId(input.id),
    model: input.model,
    resultFile: input.resultFile,
    verdict: lookUpVerdict(input.scoreFile, input.id),
    notes,
    view,
  };
}

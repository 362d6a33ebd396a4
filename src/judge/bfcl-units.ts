/**
 * The units a judge is asked about in a BFCL run (spec §4): one per single-turn entry, one per turn
 * of a multi-turn entry, each with the judge's three inputs and the deterministic BFCL verdict it is
 * compared with. Verdicts come from evaluate's own checker run in memory (the score files are
 * neither read nor written); the multi-turn checker names the turn an entry failed at.
 */

import type { BfclDataset } from '../data/dataset.js';
import { listResultFiles } from '../data/result-files.js';
import { isFunctionCallingFormatOutput } from '../evaluate/ast/ast-checker.js';
import { evaluateCategory, type CategoryEvaluationInput } from '../evaluate/evaluate-category.js';
import { isEmptyExecuteResponse, modelDecoder, type ModelDecoder } from '../evaluate/model-decoder.js';
import { checkMultiTurn } from '../evaluate/multi-turn/multi-turn-checker.js';
import { readResultFile } from '../evaluate/read-results.js';
import type { ModelEvaluationSettings } from '../evaluate/run-evaluate.js';
import type { ResultEntry } from '../evaluate/runners/category-input.js';
import { decodeMultiTurnResult } from '../evaluate/runners/multi-turn-runner.js';
import { isEmptyOutput } from '../evaluate/runners/relevance-runner.js';
import { DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC } from '../models/prompts/default-prompts.js';
import { jsonDumps } from '../py/json.js';
import { pyIterate } from '../py/ops.js';
import { pyStr } from '../py/repr.js';
import type { PyDict, PyValue } from '../py/value.js';
import {
  isAgentic,
  isFormatSensitivity,
  isJava,
  isJs,
  isMultiTurn,
  isRelevanceOrIrrelevance,
  sortKey,
  compareSortKeys,
  type Category,
  type SortKey,
} from '../spec/categories.js';
import type { Message, TestEntry } from '../spec/schemas.js';
import type { JudgeInputs } from './judge-template.js';
import { callsOfDecoded, joinCallTexts, renderCall, renderToolCalls } from './tool-call-text.js';

/** BFCL's verdict on a unit; `valid` null when BFCL has none (spec §4.3). */
export interface BfclVerdict {
  readonly valid: boolean | null;
  /** The checker's error type when invalid (`value_error:string`, `multi_turn:instance_state_mismatch`...). */
  readonly errorType: string | null;
  /** The checker's first message when invalid. */
  readonly error: string | null;
}

/** One judgement to make (or a unit recorded as skipped). */
export interface JudgeUnit {
  readonly id: string;
  readonly category: string;
  /** 0-based turn of a multi-turn entry; null for single-turn units and whole skipped entries. */
  readonly turn: number | null;
  /** The judge's inputs; null when the unit is skipped. */
  readonly inputs: JudgeInputs | null;
  readonly skipReason: string | null;
  /** BFCL's verdict on the unit (the turn, for a multi-turn turn). */
  readonly bfcl: BfclVerdict;
  /** Multi-turn: BFCL's verdict on the whole entry. */
  readonly entryBfcl: BfclVerdict | null;
  /** Multi-turn: whether the turn's ground truth has calls (only those turns make the entry's judge label). */
  readonly groundTruthCalls: boolean | null;
  /** What BFCL expected, for reading disagreements (possible answer, ground-truth calls, or no call). */
  readonly expected: string | null;
  /** Names of the functions offered. */
  readonly toolNames: readonly string[];
}

/** Where a BFCL run's units come from. */
export interface BfclUnitSource {
  readonly dataset: BfclDataset;
  readonly resultDir: string;
  /** The model's result directory name (registry name with `/` → `_`). */
  readonly modelDir: string;
  readonly categories: readonly Category[];
  readonly settings: ModelEvaluationSettings;
  /** The simulated APIs' long-context data (as evaluate takes it). */
  readonly context: CategoryEvaluationInput['context'];
}

/** The units of a run and what could not be judged. */
export interface CollectedUnits {
  readonly units: JudgeUnit[];
  /** Categories judged (with a result file). */
  readonly categories: Category[];
  /** Selected categories without a result file. */
  readonly missingResultFiles: Category[];
  /** Selected categories the judge does not grade (agentic: a final text answer; format_sensitivity: non-scoring). */
  readonly notJudged: Category[];
  /** Things the user should know (malformed lines without an id, ids not in the dataset). */
  readonly notes: string[];
}

/** Whether the judge grades a category (spec §4: AST, relevance and multi-turn categories). */
export function isJudgedCategory(category: string): boolean {
  return !isAgentic(category) && !isFormatSensitivity(category);
}

/** Every unit of the selected categories of one model's results, in BFCL's order. */
export function collectBfclUnits(source: BfclUnitSource): CollectedUnits {
  const files = listResultFiles(source.resultDir).filter((f) => f.model === source.modelDir);
  const units: JudgeUnit[] = [];
  const categories: Category[] = [];
  const missingResultFiles: Category[] = [];
  const notJudged: Category[] = [];
  const notes: string[] = [];
  for (const category of source.categories) {
    if (!isJudgedCategory(category)) {
      notJudged.push(category);
      continue;
    }
    const file = files.find((f) => f.category === category);
    if (file === undefined) {
      missingResultFiles.push(category);
      continue;
    }
    categories.push(category);
    units.push(...categoryUnits(source, category, file.file, notes));
  }
  return { units, categories, missingResultFiles, notJudged, notes };
}

const CHECKER_ERROR_TYPES = new Set(['multi_turn:empty_turn_model_response', 'multi_turn:instance_state_mismatch', 'multi_turn:execution_response_mismatch']);

/**
 * One string per distinct text: most units share their tool definitions (a multi-turn entry's
 * turns, single-turn entries with the same docs), and a real run's 6,000 units hold 100 MB of them
 * of which 14 MB are distinct.
 */
class TextPool {
  private readonly texts = new Map<string, string>();

  intern(text: string): string {
    const known = this.texts.get(text);
    if (known !== undefined) return known;
    this.texts.set(text, text);
    return text;
  }
}

function categoryUnits(source: BfclUnitSource, category: Category, file: string, notes: string[]): JudgeUnit[] {
  const decoder = modelDecoder(source.settings.decoderMode);
  const pool = new TextPool();
  const content = readResultFile(file, { inferenceLogAsText: true });
  const evaluation = evaluateCategory({
    category,
    modelName: source.modelDir,
    entries: content.entries,
    malformed: content.malformed,
    dataset: source.dataset,
    decoder,
    underscoreToDot: source.settings.underscoreToDot,
    context: source.context,
    // Not partial: a malformed line's entry then has its failure record (bfcl_ts:malformed_result_line).
    partial: false,
  });
  const failures = new Map(evaluation.failures.map((f) => [f.get('id') as string, f]));
  const prompts = new Map(source.dataset.loadTestEntries(category).map((entry) => [entry.id, entry]));
  const answers = isRelevanceOrIrrelevance(category)
    ? undefined
    : new Map(source.dataset.loadPossibleAnswers(category).map((answer) => [answer.id, answer.groundTruth]));

  const units: JudgeUnit[] = [];
  const seen = new Set<string>();
  for (const line of content.malformed) {
    const where = `${line.file}:${line.line}`;
    if (line.id === undefined || !prompts.has(line.id)) {
      notes.push(`${where}: malformed result line skipped (${line.problem})`);
      continue;
    }
    seen.add(line.id);
    units.push(skippedUnit(line.id, category, `malformed result line ${where}: ${line.problem}`, verdictOf(failures.get(line.id), true)));
  }
  const unknown: string[] = [];
  for (const entry of content.entries) {
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    const prompt = prompts.get(entry.id);
    if (prompt === undefined) {
      unknown.push(entry.id);
      continue;
    }
    const failure = failures.get(entry.id);
    if (isMultiTurn(category)) {
      const groundTruth = answers!.get(entry.id) as string[][];
      units.push(...multiTurnUnits(source, decoder, category, entry, prompt, groundTruth, failure, pool));
    } else if (isRelevanceOrIrrelevance(category)) {
      units.push(relevanceUnit(decoder, category, entry, prompt, failure, pool));
    } else {
      units.push(astUnit(decoder, category, entry, prompt, answers!.get(entry.id) ?? null, failure, pool));
    }
  }
  if (unknown.length > 0) notes.push(`${file}: ${unknown.length} result ids not in the dataset skipped (different dataset version?), e.g. ${unknown[0]}`);
  return sortUnits(units);
}

/** Units in BFCL's order: category, `sort_key`, turn. */
export function sortUnits<T extends { readonly id: string; readonly turn: number | null }>(units: readonly T[]): T[] {
  const keyed = units.map((unit) => ({ unit, key: safeSortKey(unit.id) }));
  keyed.sort((a, b) => compareSortKeys(a.key, b.key) || (a.unit.turn ?? -1) - (b.unit.turn ?? -1));
  return keyed.map((k) => k.unit);
}

function safeSortKey(id: string): SortKey {
  try {
    return sortKey(id);
  } catch {
    return [9, id, 0];
  }
}

// ---------------------------------------------------------------------------------------------

function isInferenceError(entry: ResultEntry): boolean {
  return (typeof entry.result === 'string' && entry.result.startsWith('Error during inference')) || entry.line.has('traceback');
}

function inferenceErrorReason(entry: ResultEntry): string {
  const text = typeof entry.result === 'string' ? entry.result : 'traceback in the result line';
  return `inference error: ${text.split('\n', 1)[0]!.slice(0, 300)}`;
}

/** BFCL's verdict from the entry's failure record (none: valid). */
function verdictOf(failure: PyDict | undefined, hasVerdict = true): BfclVerdict {
  if (!hasVerdict) return { valid: null, errorType: null, error: null };
  if (failure === undefined) return { valid: true, errorType: null, error: null };
  const error = failure.get('error');
  const errorType = failure.get('error_type') ?? (error instanceof Map ? error.get('error_type') : undefined);
  return { valid: false, errorType: typeof errorType === 'string' ? errorType : null, error: firstMessage(error ?? null) };
}

/** The first message of a failure record's `error` (a list of strings, or a dict with `error_message`). */
function firstMessage(error: PyValue): string | null {
  if (typeof error === 'string') return error;
  if (Array.isArray(error)) return error.length === 0 ? null : pyStr(error[0]!);
  if (error instanceof Map) return firstMessage(error.get('error_message') ?? null);
  return null;
}

function skippedUnit(id: string, category: string, reason: string, bfcl: BfclVerdict, entryBfcl: BfclVerdict | null = null): JudgeUnit {
  return { id, category, turn: null, inputs: null, skipReason: reason, bfcl, entryBfcl, groundTruthCalls: null, expected: null, toolNames: [] };
}

/** `question[0]`: one user message as its text, else `<role>: <content>` lines (spec §4.2). */
export function singleTurnQuestion(messages: readonly Message[]): string {
  if (messages.length === 1 && messages[0]!.role === 'user') return messages[0]!.content;
  return messages.map((m) => `${m.role}: ${m.content}`).join('\n');
}

/** Python `json.dumps(docs, indent=4)`: BFCL's tool block, byte for byte (spec §4.1). */
export function toolDefinitionsText(docs: readonly PyValue[]): string {
  return jsonDumps([...docs], { indent: 4 });
}

function docNamesOf(docs: readonly PyValue[]): string[] {
  return docs.flatMap((doc) => {
    const name = doc instanceof Map ? doc.get('name') : undefined;
    return typeof name === 'string' ? [name] : [];
  });
}

function astUnit(decoder: ModelDecoder, category: string, entry: ResultEntry, prompt: TestEntry, groundTruth: PyValue, failure: PyDict | undefined, pool: TextPool): JudgeUnit {
  const bfcl = verdictOf(failure);
  if (isInferenceError(entry)) return skippedUnit(entry.id, category, inferenceErrorReason(entry), bfcl);
  const format = isJava(category) ? 'java' : isJs(category) ? 'javascript' : 'python';
  const decoded = decoder.decodeAst(entry.result, format, false);
  const calls = decoded.ok && isFunctionCallingFormatOutput(decoded.value) ? callsOfDecoded(decoded.value) : [];
  return singleTurnUnit(category, entry, prompt, calls, bfcl, groundTruth === null ? null : jsonDumps(groundTruth, { ensureAscii: false }), pool);
}

function relevanceUnit(decoder: ModelDecoder, category: string, entry: ResultEntry, prompt: TestEntry, failure: PyDict | undefined, pool: TextPool): JudgeUnit {
  const bfcl = verdictOf(failure);
  if (isInferenceError(entry)) return skippedUnit(entry.id, category, inferenceErrorReason(entry), bfcl);
  // BFCL's relevance runner view: a call is there iff Python decoding works and is not empty.
  const decoded = decoder.decodeAst(entry.result, 'python', false);
  const calls = decoded.ok && !isEmptyOutput(decoded.value) ? callsOfDecoded(decoded.value) : [];
  return singleTurnUnit(category, entry, prompt, calls, bfcl, category.includes('irrelevance') ? 'No tool used' : 'a tool call', pool);
}

/** The unit of a single-turn entry: its question, the decoded calls and the tool definitions. */
function singleTurnUnit(
  category: string,
  entry: ResultEntry,
  prompt: TestEntry,
  calls: Parameters<typeof renderToolCalls>[0],
  bfcl: ReturnType<typeof verdictOf>,
  expected: string | null,
  pool: TextPool,
): JudgeUnit {
  const docNames = docNamesOf(prompt.functionDocs);
  return {
    id: entry.id,
    category,
    turn: null,
    inputs: {
      question: singleTurnQuestion(prompt.question[0] ?? []),
      tool_call: renderToolCalls(calls, docNames),
      tool_definitions: pool.intern(toolDefinitionsText(prompt.functionDocs)),
    },
    skipReason: null,
    bfcl,
    entryBfcl: null,
    groundTruthCalls: null,
    expected,
    toolNames: docNames,
  };
}

function multiTurnUnits(
  source: BfclUnitSource,
  decoder: ModelDecoder,
  category: string,
  entry: ResultEntry,
  prompt: TestEntry,
  groundTruth: readonly (readonly string[])[],
  failure: PyDict | undefined,
  pool: TextPool,
): JudgeUnit[] {
  const entryBfcl = verdictOf(failure);
  const result = entry.result;
  if (isInferenceError(entry) || !Array.isArray(result)) {
    const reason = isInferenceError(entry) ? inferenceErrorReason(entry) : 'the result is not a list of turns';
    return [skippedUnit(entry.id, category, reason, entryBfcl, entryBfcl)];
  }
  const forceTerminated = result.length !== groundTruth.length;
  let failingTurn: number | undefined;
  if (!forceTerminated && entryBfcl.valid === false && entryBfcl.errorType !== null && CHECKER_ERROR_TYPES.has(entryBfcl.errorType)) {
    // The score file does not name the turn of a state mismatch: ask the checker again.
    const check = checkMultiTurn({
      entryId: entry.id,
      initialConfig: prompt.initialConfig ?? new Map(),
      involvedClasses: prompt.involvedClasses ?? [],
      modelName: source.modelDir,
      decodedTurns: decodeMultiTurnResult(result, decoder),
      groundTruthTurns: groundTruth,
      context: source.context,
    });
    if (!check.valid) failingTurn = check.turn;
  }
  const units: JudgeUnit[] = [];
  let lastQuestion = '';
  // The docs change only at hold-out turns: one text per stage.
  const definitions = new Map<number, { docs: PyValue[]; text: string }>();
  for (let turn = 0; turn < result.length; turn++) {
    const messages = prompt.question[turn] ?? [];
    const userText = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
    // A miss_func hold-out turn has no message of its own; BFCL sends its replacement sentence.
    const question = messages.length === 0 ? `${lastQuestion}\n${DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC}` : userText;
    if (messages.length > 0) lastQuestion = userText;
    const stage = heldOutStage(prompt, turn);
    let defs = definitions.get(stage);
    if (defs === undefined) {
      const docs = turnDocs(prompt, turn);
      defs = { docs, text: pool.intern(toolDefinitionsText(docs)) };
      definitions.set(stage, defs);
    }
    const docNames = docNamesOf(defs.docs);
    const gtCalls = groundTruth[turn] ?? [];
    const hasGroundTruthCalls = gtCalls.length > 0;
    units.push({
      id: entry.id,
      category,
      turn,
      inputs: { question, tool_call: joinCallTexts(turnCallTexts(result[turn]!, decoder, docNames)), tool_definitions: defs.text },
      skipReason: null,
      bfcl: turnVerdict(entryBfcl, turn, forceTerminated, hasGroundTruthCalls, failingTurn),
      entryBfcl,
      groundTruthCalls: hasGroundTruthCalls,
      expected: joinCallTexts(gtCalls),
      toolNames: docNames,
    });
  }
  return units;
}

/** Spec §4.3: turns before the failing one valid, the failing one invalid, later ones and empty-ground-truth turns none. */
function turnVerdict(entry: BfclVerdict, turn: number, forceTerminated: boolean, hasGroundTruthCalls: boolean, failingTurn: number | undefined): BfclVerdict {
  const none: BfclVerdict = { valid: null, errorType: null, error: null };
  if (forceTerminated || !hasGroundTruthCalls) return none;
  if (entry.valid === true) return entry;
  if (failingTurn === undefined || turn > failingTurn) return none;
  if (turn < failingTurn) return { valid: true, errorType: null, error: null };
  return entry;
}

/** How many hold-out turns are at or before `turn` (the docs differ only between stages). */
function heldOutStage(prompt: TestEntry, turn: number): number {
  let stage = 0;
  for (const k of prompt.missedFunction?.keys() ?? []) if (Number(k) <= turn) stage++;
  return stage;
}

/** The docs offered in `turn`: the entry's (hold-outs removed, with the hint), then each hold-out of turns up to it, in turn order. */
function turnDocs(prompt: TestEntry, turn: number): PyValue[] {
  const docs: PyValue[] = [...prompt.functionDocs];
  const heldOut = prompt.missedFunction;
  if (heldOut === undefined) return docs;
  for (const k of [...heldOut.keys()].map(Number).sort((a, b) => a - b)) {
    if (k <= turn) docs.push(...heldOut.get(String(k))!);
  }
  return docs;
}

/**
 * The calls of a turn: the steps BFCL executes (`decode_execute` works and is not empty), each
 * rendered from `decode_ast`, or from its `decode_execute` strings when only that works.
 */
function turnCallTexts(turn: PyValue, decoder: ModelDecoder, docNames: readonly string[]): string[] {
  const steps = iterable(turn);
  const texts: string[] = [];
  for (const step of steps) {
    const executed = decoder.decodeExecute(step, false);
    if (!executed.ok || isEmptyExecuteResponse(executed.value)) continue;
    const decoded = decoder.decodeAst(step, 'python', false);
    if (decoded.ok && isFunctionCallingFormatOutput(decoded.value)) {
      texts.push(...callsOfDecoded(decoded.value).map((call) => renderCall(call, docNames)));
    } else {
      texts.push(...executed.value);
    }
  }
  return texts;
}

function iterable(value: PyValue): readonly PyValue[] {
  try {
    return pyIterate(value);
  } catch {
    return [];
  }
}

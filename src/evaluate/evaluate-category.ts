import type { BfclDataset } from '../data/dataset.js';
import { pyDict, type PyDict } from '../py/value.js';
import type { SimContext } from '../sim/simulated-api.js';
import {
  isAgentic,
  isFormatSensitivity,
  isMultiTurn,
  isRelevanceOrIrrelevance,
  sortById,
  type Category,
} from '../spec/categories.js';
import type { PossibleAnswer, TestEntry } from '../spec/schemas.js';
import type { ModelDecoder } from './model-decoder.js';
import { pairPossibleAnswers } from './possible-answers.js';
import { isInferenceErrorEntry, type MalformedResultLine } from './read-results.js';
import { runAgenticCategory } from './runners/agentic-runner.js';
import { runAstCategory } from './runners/ast-runner.js';
import { record, type CategoryRunInput, type CategoryRunOutput, type ResultEntry } from './runners/category-input.js';
import { runFormatSensitivityCategory } from './runners/format-sensitivity-runner.js';
import { runMultiTurnCategory } from './runners/multi-turn-runner.js';
import { runRelevanceCategory } from './runners/relevance-runner.js';

/** Our error types for entries the reference would have crashed on (never replacing its types). */
export const MISSING_RESULT = 'bfcl_ts:missing_result';
export const MALFORMED_RESULT_LINE = 'bfcl_ts:malformed_result_line';

/** One category of one model, ready to evaluate. */
export interface CategoryEvaluationInput {
  readonly category: Category;
  readonly modelName: string;
  readonly entries: readonly ResultEntry[];
  readonly malformed: readonly MalformedResultLine[];
  readonly dataset: BfclDataset;
  readonly decoder: ModelDecoder;
  readonly underscoreToDot: boolean;
  readonly context: SimContext;
  /** Only evaluate the dataset entries present in the results (`--partial-eval`). */
  readonly partial: boolean;
}

/** Verdicts of one category plus what did not line up with the dataset. */
export interface CategoryEvaluation extends CategoryRunOutput {
  readonly header: PyDict;
  /** Result ids that are not in the dataset (a different dataset version?). */
  readonly unknownIds: string[];
  /**
   * Dataset ids without any result line, failed as `bfcl_ts:missing_result` (empty with `--partial-eval`,
   * which scores only the entries present).
   */
  readonly missingIds: string[];
  /**
   * Dataset ids whose only line is unreadable (its id still legible), failed as
   * `bfcl_ts:malformed_result_line` (empty with `--partial-eval`).
   */
  readonly malformedIds: string[];
  /** Entries whose result is an inference error (`Error during inference: ...`). */
  readonly inferenceErrorIds: string[];
}

function runnerFor(category: string): (input: CategoryRunInput) => CategoryRunOutput {
  if (isRelevanceOrIrrelevance(category)) return runRelevanceCategory;
  if (isFormatSensitivity(category)) return runFormatSensitivityCategory;
  if (isMultiTurn(category)) return runMultiTurnCategory;
  if (isAgentic(category)) return runAgenticCategory;
  return runAstCategory;
}

function missingRecord(input: CategoryEvaluationInput, id: string, malformed: MalformedResultLine | undefined): PyDict {
  const problem =
    malformed === undefined
      ? 'No result for this entry in the result file.'
      : `Unreadable result line ${malformed.file}:${malformed.line}: ${malformed.problem}`;
  return record([
    ['id', id],
    ['model_name', input.modelName],
    ['test_category', input.category],
    ['valid', false],
    ['error', [problem]],
    ['error_type', malformed === undefined ? MISSING_RESULT : MALFORMED_RESULT_LINE],
  ]);
}

/**
 * Evaluate one result file against the dataset. Results are paired with dataset entries by id
 * (the reference pairs by position after sorting, which agrees whenever the file is complete).
 */
export function evaluateCategory(input: CategoryEvaluationInput): CategoryEvaluation {
  const { category, dataset } = input;
  const prompts = dataset.loadTestEntries(category, { includePrereq: false, includeLanguageHint: false });
  const answers = isRelevanceOrIrrelevance(category) ? undefined : pairPossibleAnswers(dataset, category, prompts);
  const byId = new Map<string, ResultEntry>();
  for (const entry of input.entries) if (!byId.has(entry.id)) byId.set(entry.id, entry);

  const pairedPrompts: TestEntry[] = [];
  const pairedAnswers: PossibleAnswer[] = [];
  const pairedResults: ResultEntry[] = [];
  const missingIds: string[] = [];
  const datasetIds = new Set<string>();
  prompts.forEach((prompt, i) => {
    datasetIds.add(prompt.id);
    const result = byId.get(prompt.id);
    if (result === undefined) {
      missingIds.push(prompt.id);
      return;
    }
    pairedPrompts.push(prompt);
    if (answers !== undefined) pairedAnswers.push(answers[i]!);
    pairedResults.push(result);
  });
  const unknownIds = [...byId.keys()].filter((id) => !datasetIds.has(id));

  // Evaluate in the order the reference does: results sorted by id.
  const order = sortById(pairedResults.map((r, i) => ({ id: r.id, i })));
  const output = runnerFor(category)({
    category,
    modelName: input.modelName,
    results: order.map(({ i }) => pairedResults[i]!),
    prompts: order.map(({ i }) => pairedPrompts[i]!),
    answers: answers === undefined ? undefined : order.map(({ i }) => pairedAnswers[i]!),
    decoder: input.decoder,
    underscoreToDot: input.underscoreToDot,
    context: input.context,
  });

  let failures = output.failures;
  let total = output.total;
  const malformedById = new Map<string, MalformedResultLine>();
  for (const m of input.malformed) if (m.id !== undefined && !malformedById.has(m.id)) malformedById.set(m.id, m);
  const unscored = input.partial ? [] : missingIds;
  if (unscored.length > 0) {
    const extra = unscored.map((id) => ({ id, failure: missingRecord(input, id, malformedById.get(id)) }));
    failures = sortById([...failures.map((f) => ({ id: f.get('id') as string, failure: f })), ...extra]).map((x) => x.failure);
    total += unscored.length;
  }
  const header = pyDict({
    accuracy: total === 0 ? 0 : output.correct / total,
    correct_count: BigInt(output.correct),
    total_count: BigInt(total),
  });
  if (output.extraHeader !== undefined) for (const [k, v] of output.extraHeader) header.set(k, v);
  return {
    ...output,
    failures,
    total,
    header,
    unknownIds,
    missingIds: unscored.filter((id) => !malformedById.has(id)),
    malformedIds: unscored.filter((id) => malformedById.has(id)),
    inferenceErrorIds: pairedResults.filter(isInferenceErrorEntry).map((r) => r.id),
  };
}

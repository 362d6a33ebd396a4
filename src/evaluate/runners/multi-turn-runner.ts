import type { PyDict, PyValue } from '../../py/value.js';
import { checkMultiTurn } from '../multi-turn/multi-turn-checker.js';
import { isEmptyExecuteResponse, type ModelDecoder } from '../model-decoder.js';
import {
  failureHead,
  iterateOrUndefined,
  record,
  tallyEntries,
  withInferenceLog,
  withoutFunctionDocs,
  type CategoryRunInput,
  type CategoryRunOutput,
  type ResultEntry,
} from './category-input.js';

/**
 * Decode every step of every turn with `decode_execute`, dropping steps that fail to decode or
 * decode to nothing (the reference ignores chat text between calls).
 */
export function decodeMultiTurnResult(turns: readonly PyValue[], decoder: ModelDecoder): string[][][] {
  return turns.map((turn) => {
    const steps = iterateOrUndefined(turn) ?? [];
    const decodedSteps: string[][] = [];
    for (const step of steps) {
      const decoded = decoder.decodeExecute(step, false);
      if (decoded.ok && !isEmptyExecuteResponse(decoded.value)) decodedSteps.push(decoded.value);
    }
    return decodedSteps;
  });
}

function inferenceErrorRecord(
  input: CategoryRunInput,
  id: string,
  prompt: PyDict,
  result: PyValue,
  groundTruth: PyValue,
  message: string,
  errorType: string,
): PyDict {
  return record([
    ...failureHead(id, input.modelName, input.category),
    ['error', record([['error_message', [message]], ['error_type', errorType]])],
    ['prompt', prompt],
    ['model_result', result],
    ['possible_answer', groundTruth],
  ]);
}

/** The reference's `multi_turn_runner` / `_evaluate_single_multi_turn_entry`. */
export function runMultiTurnCategory(input: CategoryRunInput): CategoryRunOutput {
  return tallyEntries(input.results, (entry, i) => withInferenceLog(checkEntry(input, entry, i), entry));
}

function checkEntry(input: CategoryRunInput, entry: ResultEntry, i: number): PyDict | undefined {
  const promptEntry = input.prompts[i]!;
  const prompt = withoutFunctionDocs(promptEntry.raw);
  const groundTruth = input.answers![i]!.groundTruth;
  const gtTurns = groundTruth as string[][];
  const result = entry.result;
  if (!Array.isArray(result)) {
    return inferenceErrorRecord(
      input, entry.id, prompt, result, groundTruth,
      'Error during inference phase. Model did not output a list of model responses.',
      'multi_turn:inference_error',
    );
  }
  if (result.length !== gtTurns.length) {
    return inferenceErrorRecord(
      input, entry.id, prompt, result, groundTruth,
      `Model was force-terminated during inference phase. The length of the model result turns (${result.length}) does not match the length of the ground truth turns (${gtTurns.length}).`,
      'multi_turn:force_terminated',
    );
  }
  const decoded = decodeMultiTurnResult(result, input.decoder);
  const check = checkMultiTurn({
    entryId: entry.id,
    initialConfig: promptEntry.initialConfig ?? new Map(),
    involvedClasses: promptEntry.involvedClasses ?? [],
    modelName: input.modelName,
    decodedTurns: decoded,
    groundTruthTurns: gtTurns,
    context: input.context,
  });
  if (check.valid) return undefined;
  return record([
    ...failureHead(entry.id, input.modelName, input.category),
    ['error', check.error],
    ['prompt', prompt],
    ['model_result_raw', result],
    ['model_result_decoded', decoded],
    ['possible_answer', groundTruth],
  ]);
}

import type { PyDict, PyValue } from '../../py/value.js';
import { checkMultiTurn } from '../multi-turn/multi-turn-checker.js';
import { isEmptyExecuteResponse, type ModelDecoder } from '../model-decoder.js';
import { pyIterate, record, withoutFunctionDocs, type CategoryRunInput, type CategoryRunOutput } from './category-input.js';

/**
 * Decode every step of every turn with `decode_execute`, dropping steps that fail to decode or
 * decode to nothing (the reference ignores chat text between calls).
 */
export function decodeMultiTurnResult(turns: readonly PyValue[], decoder: ModelDecoder): string[][][] {
  return turns.map((turn) => {
    const steps = pyIterate(turn) ?? [];
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
    ['id', id],
    ['model_name', input.modelName],
    ['test_category', input.category],
    ['valid', false],
    ['error', record([['error_message', [message]], ['error_type', errorType]])],
    ['prompt', prompt],
    ['model_result', result],
    ['possible_answer', groundTruth],
  ]);
}

/** The reference's `multi_turn_runner` / `_evaluate_single_multi_turn_entry`. */
export function runMultiTurnCategory(input: CategoryRunInput): CategoryRunOutput {
  const failures: PyDict[] = [];
  let correct = 0;
  input.results.forEach((entry, i) => {
    const promptEntry = input.prompts[i]!;
    const prompt = withoutFunctionDocs(promptEntry.raw);
    const groundTruth = input.answers![i]!.groundTruth;
    const gtTurns = groundTruth as string[][];
    const result = entry.result;
    let failure: PyDict | undefined;
    if (!Array.isArray(result)) {
      failure = inferenceErrorRecord(
        input, entry.id, prompt, result, groundTruth,
        'Error during inference phase. Model did not output a list of model responses.',
        'multi_turn:inference_error',
      );
    } else if (result.length !== gtTurns.length) {
      failure = inferenceErrorRecord(
        input, entry.id, prompt, result, groundTruth,
        `Model was force-terminated during inference phase. The length of the model result turns (${result.length}) does not match the length of the ground truth turns (${gtTurns.length}).`,
        'multi_turn:force_terminated',
      );
    } else {
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
      if (!check.valid) {
        failure = record([
          ['id', entry.id],
          ['model_name', input.modelName],
          ['test_category', input.category],
          ['valid', false],
          ['error', check.error],
          ['prompt', prompt],
          ['model_result_raw', result],
          ['model_result_decoded', decoded],
          ['possible_answer', groundTruth],
        ]);
      }
    }
    if (failure === undefined) {
      correct++;
    } else {
      failure.set('inference_log', entry.line.get('inference_log') ?? '');
      failures.push(failure);
    }
  });
  return { correct, total: input.results.length, failures };
}

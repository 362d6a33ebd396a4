/**
 * One entry through the right loop, with the reference's error capture
 * (_llm_response_generation.py::multi_threaded_inference): a failed entry is written as an error
 * line, never dropped.
 */

import type { PyDict, PyValue } from '../py/value.js';
import { containMultiTurnInteraction } from '../spec/categories.js';
import type { Model } from '../spec/model.js';
import type { TestEntry } from '../spec/schemas.js';
import { ProviderError } from '../util/errors.js';
import { INFERENCE_ERROR_PREFIX } from './inference-log.js';
import type { LoopOptions } from './loop-options.js';
import { inferMultiTurn } from './multi-turn.js';
import { inferSingleTurn } from './single-turn.js';

/** What became of one entry. */
export type EntryOutcome =
  | { readonly kind: 'done'; readonly line: PyDict }
  /** `unreachable`: every attempt of the failed call failed to connect to the server at all. */
  | { readonly kind: 'error'; readonly line: PyDict; readonly message: string; readonly unreachable: boolean }
  /** The run was interrupted while the entry ran: nothing is written, the next run redoes it. */
  | { readonly kind: 'interrupted' };

/** Run the entry through the multi-turn loop (multi-turn and agentic ids) or the single-turn one. */
export async function inferEntry(model: Model, entry: TestEntry, options: LoopOptions): Promise<EntryOutcome> {
  try {
    const line = containMultiTurnInteraction(entry.id)
      ? await inferMultiTurn(model, entry, options)
      : await inferSingleTurn(model, entry, options);
    return { kind: 'done', line };
  } catch (error) {
    // Whatever failed once the run was interrupted failed because of the interruption.
    if (options.signal?.aborted === true) return { kind: 'interrupted' };
    const message = errorMessage(error);
    return { kind: 'error', line: errorLine(entry.id, message, errorTrace(error)), message, unreachable: error instanceof ProviderError && error.serverUnreachable };
  }
}

/** `{"id", "result": "Error during inference: <message>", "traceback"}`. */
export function errorLine(id: string, message: string, traceback: string): PyDict {
  return new Map<string, PyValue>([
    ['id', id],
    ['result', `${INFERENCE_ERROR_PREFIX}${message}`],
    ['traceback', traceback],
  ]);
}

/** Whether a result line records a failed inference (such entries are generated again on the next run). */
export function isInferenceErrorLine(line: PyValue): boolean {
  if (!(line instanceof Map)) return false;
  const result = line.get('result');
  return typeof result === 'string' && result.startsWith(INFERENCE_ERROR_PREFIX);
}

/** Python's `str(e)` for what the loop may throw. */
function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The reference stores `traceback.format_exc()`; ours is the JS stack (with its cause, if any). */
function errorTrace(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const trace = error.stack ?? `${error.name}: ${error.message}`;
  return error.cause instanceof Error ? `${trace}\nCaused by: ${error.cause.stack ?? error.cause.message}` : trace;
}

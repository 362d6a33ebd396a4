/**
 * One entry through the right loop, with the reference's error capture
 * (_llm_response_generation.py::multi_threaded_inference): a failed entry is written as an error
 * line, never dropped.
 */

import type { PyDict, PyValue } from '../py/value.js';
import { containMultiTurnInteraction } from '../spec/categories.js';
import { type FailureCause, type Model, queryFailureOf } from '../spec/model.js';
import type { TestEntry } from '../spec/schemas.js';
import { DatasetError } from '../util/errors.js';
import { stopsTheRun } from './agentic-errors.js';
import { INFERENCE_ERROR_PREFIX } from './inference-log.js';
import { type MultiTurnOptions, inferMultiTurn } from './multi-turn.js';
import { inferSingleTurn } from './single-turn.js';

/** The key that marks an error line as permanent (its value: the cause, e.g. `HTTP 400`); our addition to the reference's error lines. */
export const PERMANENT_ERROR_KEY = 'permanent_error';

/** What became of one entry. */
export type EntryOutcome =
  | { readonly kind: 'done'; readonly line: PyDict }
  /**
   * The entry failed and is written as an error line. `permanent`: the request was refused for good
   * (HTTP 400, 413, 422), so later runs skip it unless told to retry errors.
   */
  | { readonly kind: 'error'; readonly line: PyDict; readonly message: string; readonly cause: FailureCause; readonly permanent: boolean }
  /** The run was interrupted while the entry ran: nothing is written, the next run redoes it. */
  | { readonly kind: 'interrupted' };

/** Run the entry through the multi-turn loop (multi-turn and agentic ids) or the single-turn one. */
export async function inferEntry(model: Model, entry: TestEntry, options: MultiTurnOptions): Promise<EntryOutcome> {
  try {
    const line = containMultiTurnInteraction(entry.id)
      ? await inferMultiTurn(model, entry, options)
      : await inferSingleTurn(model, entry, options);
    return { kind: 'done', line };
  } catch (error) {
    // Whatever failed once the run was interrupted failed because of the interruption.
    if (options.signal?.aborted === true) return { kind: 'interrupted' };
    // A dataset file that is missing or broken (e.g. long_context.json, read when the first
    // long-context entry needs it) fails every such entry alike: the run stops and names it.
    if (error instanceof DatasetError) throw error;
    // So does a search service or an embedder that cannot serve any entry (see agentic-errors.ts).
    if (stopsTheRun(error)) throw error;
    const message = errorMessage(error);
    const failure = queryFailureOf(error);
    const cause = failure?.failureCause ?? OTHER_FAILURE;
    const permanent = failure?.permanent === true;
    const line = errorLine(entry.id, message, errorTrace(error));
    if (permanent) line.set(PERMANENT_ERROR_KEY, cause.label);
    return { kind: 'error', line, message, cause, permanent };
  }
}

/** The cause of a failure that is not a classified provider failure (a harness or library error). */
const OTHER_FAILURE: FailureCause = { kind: 'other', label: 'other error' };

/** `{"id", "result": "Error during inference: <message>", "traceback"}`. */
export function errorLine(id: string, message: string, traceback: string): PyDict {
  return new Map<string, PyValue>([
    ['id', id],
    ['result', `${INFERENCE_ERROR_PREFIX}${message}`],
    ['traceback', traceback],
  ]);
}

/**
 * Whether a result line records a failed inference (such entries are generated again on the next
 * run, unless the error is permanent: see `permanentErrorCause`).
 */
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

/** The cause recorded on a permanent error line (`HTTP 400`...); undefined for any other line. */
export function permanentErrorCause(line: PyValue): string | undefined {
  if (!isInferenceErrorLine(line)) return undefined;
  const cause = (line as PyDict).get(PERMANENT_ERROR_KEY);
  return typeof cause === 'string' ? cause : undefined;
}

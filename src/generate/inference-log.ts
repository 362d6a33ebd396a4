/**
 * The fixed texts and record shapes of the inference log (`inference_log` in result files), as the
 * reference's `BaseHandler` writes them. LOG_GUIDE.md explains how to read them.
 */

import type { PyDict, PyValue } from '../py/value.js';
import type { Message } from '../spec/schemas.js';

/** BFCL parity: constants/default_prompts.py::MAXIMUM_STEP_LIMIT — steps per turn before a force quit. */
export const MAXIMUM_STEP_LIMIT = 20;

/** The user message of a hold-out turn for FC models (`DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC`). */
export const ADDITIONAL_FUNCTION_PROMPT_FC = 'I have updated some more functions you can choose from. What about now?';

/**
 * The user message of a hold-out turn for prompting models: `str(held_out_docs)` on a line of its
 * own, then the FC sentence (`DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_PROMPTING`).
 */
export function additionalFunctionPromptPrompting(heldOutDocsRepr: string): string {
  return `${heldOutDocsRepr}\n${ADDITIONAL_FUNCTION_PROMPT_FC}`;
}

/** `content` of the four `handler_log` records. */
export const HANDLER_LOG = {
  decodeSuccess: 'Successfully decoded model response.',
  emptyResponse: 'Empty response from the model. Proceed to next turn.',
  decodeFailure: 'Error decoding the model response. Proceed to next turn.',
  forceQuit: `Model has been forced to quit after ${MAXIMUM_STEP_LIMIT} steps.`,
} as const;

/** Prefix of the `result` of an entry whose inference failed. */
export const INFERENCE_ERROR_PREFIX = 'Error during inference: ';

/** A log record: a dict whose first key is `role`. */
export function logRecord(role: string, fields: readonly (readonly [string, PyValue])[]): PyDict {
  return new Map<string, PyValue>([['role', role], ...fields]);
}

/** A question message as the log shows it (`{"role", "content"}`). */
export function messageRecord(message: Message): PyDict {
  return new Map<string, PyValue>([
    ['role', message.role],
    ['content', message.content],
  ]);
}

/** The reference's `is_empty_execute_response`: no call, or one empty call string. */
export function isEmptyExecuteResponse(calls: readonly string[]): boolean {
  return calls.length === 0 || (calls.length === 1 && calls[0]!.length === 0);
}

/** A token count as the result file stores it: a Python int when integral (providers report integers). */
export function tokenCount(n: number): PyValue {
  return Number.isSafeInteger(n) ? BigInt(n) : n;
}

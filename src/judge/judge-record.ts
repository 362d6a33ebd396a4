/**
 * The judge run record (spec §5.1): one JSON line per judged unit, written as each answer arrives.
 * Phoenix's label and status strings are kept verbatim; `SKIPPED` (no judge call: an inference
 * error, a malformed result line) and `MISSING INPUT` (a trace without a field) are ours / Phoenix's.
 */

/** `execution_status` values. */
export type JudgeStatus = 'COMPLETED' | 'COMPLETED WITH RETRIES' | 'FAILED' | 'MISSING INPUT' | 'SKIPPED';

/** One line of a judge record file. Field names are the file format (snake_case). */
export interface JudgeRecord {
  readonly id: string;
  readonly category: string;
  /** 0-based turn of a multi-turn entry; null otherwise. */
  readonly turn: number | null;
  /** `tool_calling@2.13.0`, `tool_calling_with_explanation@2.13.0`, `tool_selection@3.5.0`, `file:<name>#<sha>`. */
  readonly judge_template: string;
  /** `fc` or `text`. */
  readonly judge_mode: string;
  /** The `--judge` name. */
  readonly judge_model: string;
  /** `correct`, `incorrect`, `NOT_PARSABLE`; null without an answer (failed, skipped). */
  readonly label: string | null;
  readonly explanation: string | null;
  /** 1 for correct, 0 for incorrect and NOT_PARSABLE (Phoenix's `ClassificationTemplate.score`), null without a label. */
  readonly score: number | null;
  readonly execution_status: JudgeStatus;
  /** Every failed attempt and unreadable reply of the unit, in order. */
  readonly exceptions: readonly string[];
  readonly attempts: number;
  readonly execution_seconds: number;
  readonly prompt_tokens: number | null;
  readonly completion_tokens: number | null;
  readonly total_tokens: number | null;
  /** Latency of the answered attempt, seconds. */
  readonly latency_s: number | null;
  /** SHA-256 of the request (provider + body): an answer recorded under the same key is reused. */
  readonly cache_key: string | null;
  /** The answer was taken from an earlier record of this run's folder, not asked again. */
  readonly cache_hit: boolean;
  /** The raw reply text the label was read from ('' without an answer). */
  readonly response: string;
  /** BFCL's verdict on the unit (null: none, e.g. later turns of a failed entry, or a trace). */
  readonly bfcl_valid: boolean | null;
  readonly bfcl_error_type: string | null;
  /** Multi-turn: BFCL's verdict on the whole entry. */
  readonly bfcl_entry_valid?: boolean | null;
  /** Multi-turn: whether the turn's ground truth has calls. */
  readonly ground_truth_calls?: boolean | null;
  /** Why no judge call was made (SKIPPED, MISSING INPUT). */
  readonly skip_reason?: string;
  /** The rendered prompt (`--include-prompt`). */
  readonly prompt?: string;
}

/** Whether a record holds an answer that can be reused (a later run does not ask again). */
export function isAnswered(record: JudgeRecord): boolean {
  return record.execution_status === 'COMPLETED' || record.execution_status === 'COMPLETED WITH RETRIES';
}

/** The record's line (no newline). */
export function recordLine(record: JudgeRecord): string {
  return JSON.stringify(record);
}

/** A record line as read back; undefined when it is not one (a torn last line, say). */
export function parseRecordLine(text: string): JudgeRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Partial<Record<keyof JudgeRecord, unknown>>;
  if (typeof record.id !== 'string' || typeof record.execution_status !== 'string' || typeof record.response !== 'string') return undefined;
  if (record.turn !== null && typeof record.turn !== 'number') return undefined;
  return value as JudgeRecord;
}

/** `id` or `id#turn`: one record per unit. */
export function unitKey(unit: { readonly id: string; readonly turn: number | null }): string {
  return unit.turn === null ? unit.id : `${unit.id}#${unit.turn}`;
}

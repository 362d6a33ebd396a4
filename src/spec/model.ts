/**
 * The contract between the inference loops (`src/generate/`) and the model adapters
 * (`src/models/`). It mirrors the hooks of the reference's `BaseHandler` so that the loops can
 * be written once, exactly as `inference_single_turn_*` / `inference_multi_turn_*` are, while
 * each provider keeps its own message history format.
 *
 * The loop never sees a provider's wire format: it hands messages and execution results to a
 * `Conversation`, asks it to `query()`, and records what comes back.
 */

import type { PyValue } from '../py/value.js';
import type { Message } from './schemas.js';

/** FC: tools are sent natively; prompting: functions are described in a system prompt. */
export type InferenceMode = 'fc' | 'prompting';

/** One model answer (the reference's `model_response_data` plus the measured latency). */
export interface ModelStep {
  /**
   * What the result file stores for this step (`model_responses`): for FC, a list of
   * `{name: "<arguments JSON>"}` dicts, or the text when no tool was called; for prompting, the text.
   */
  readonly responses: PyValue;
  /** Token counts; integral values are written to result files as Python ints. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Seconds, as measured around the API call. */
  readonly latency: number;
  /** Reasoning text the provider returned ('' when none). */
  readonly reasoningContent: string;
  /** Provider data the conversation needs to continue (tool call ids, raw output items...). */
  readonly providerData?: unknown;
}

/**
 * What kind of failure a request met, for summaries, retry lines and the circuit breaker:
 * - `http`: the server answered with an error status;
 * - `timeout`: no (complete) answer within the request's time limit;
 * - `connection`: refused, reset or dropped connections, unknown hosts;
 * - `malformed`: a 2xx answer that cannot be used (cut off, empty, not JSON, `choices: []`);
 * - `other`: anything else (a bug, an unexpected library error).
 */
export type FailureKind = 'http' | 'timeout' | 'connection' | 'malformed' | 'other';

/** A classified failure of one request attempt. */
export interface FailureCause {
  readonly kind: FailureKind;
  /** HTTP status (`http` only). */
  readonly status?: number;
  /** Network error code, e.g. `ECONNRESET` (`connection` and some `timeout`s). */
  readonly code?: string;
  /** What summaries count by: `HTTP 429`, `timeout`, `connection reset`, `connection refused`, `malformed answer`... */
  readonly label: string;
}

/** A failed attempt that the retry policy is about to repeat (for progress and log output). */
export interface RetryNotice {
  /** 1 for the first failed attempt. */
  readonly attempt: number;
  /** How long the policy waits before the next attempt, in milliseconds. */
  readonly delayMs: number;
  /** What went wrong, e.g. `429 Too Many Requests` or `ECONNRESET`. */
  readonly reason: string;
  /** The failure, classified. */
  readonly cause: FailureCause;
}

/** How one attempt of a request ended. */
export type AttemptOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly cause: FailureCause; readonly willRetry: boolean; readonly message: string };

/** Per-query controls the loop hands to `Conversation.query`. All optional. */
export interface QueryOptions {
  /**
   * Fired when the run is interrupted (Ctrl-C): stop waiting, abandon retries and reject (any
   * error will do; the loop discards the entry and does not write it).
   */
  readonly signal?: AbortSignal;
  /** Called before each retry wait, so the CLI can say why an entry is slow. */
  readonly onRetry?: (notice: RetryNotice) => void;
  /** Called when an attempt is sent (1-based attempt number): the run watches requests in flight. */
  readonly onAttemptStart?: (attempt: number) => void;
  /** Called when an attempt ended, however it ended (before any retry wait). */
  readonly onAttemptEnd?: (outcome: AttemptOutcome) => void;
}

/**
 * What a query's final error tells about its failure, when the model layer classified it
 * (a provider call that failed after its retries).
 */
export interface QueryFailure {
  readonly failureCause: FailureCause;
  /**
   * The request itself was refused for good (HTTP 400, 413, 422: e.g. a prompt beyond the context
   * length): asking again gives the same answer, so later runs do not retry it unless told to.
   */
  readonly permanent: boolean;
}

/** The classified failure carried by a query's error, if any. */
export function queryFailureOf(error: unknown): QueryFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { failureCause, permanent } = error as Partial<Record<keyof QueryFailure, unknown>>;
  if (typeof failureCause !== 'object' || failureCause === null || typeof permanent !== 'boolean') return undefined;
  const { kind, label } = failureCause as Partial<Record<keyof FailureCause, unknown>>;
  if (typeof kind !== 'string' || typeof label !== 'string') return undefined;
  return { failureCause: failureCause as FailureCause, permanent };
}

/** One test entry's conversation with a model: the handler's `inference_data` and its hooks. */
export interface Conversation {
  /** `add_first_turn_message_*`. */
  addFirstTurnMessages(messages: readonly Message[]): void;
  /** `_add_next_turn_user_message_*`. */
  addNextTurnMessages(messages: readonly Message[]): void;
  /**
   * `_query_*` then `_parse_query_response_*`. Rejects only after the retry policy gave up (the
   * loop then writes the entry as `Error during inference: <message>`), or when `options.signal`
   * fired.
   */
  query(options?: QueryOptions): Promise<ModelStep>;
  /** `_add_assistant_message_*`. */
  addAssistantMessage(step: ModelStep): void;
  /** `_add_execution_results_*`: one result string per decoded call of `step`. */
  addExecutionResults(results: readonly string[], decodedCalls: readonly string[], step: ModelStep): void;
  /** FC hold-out turns: the entry's functions grew, recompile the tools (`_compile_tools`). */
  setFunctions(functions: readonly PyValue[]): void;
  /** What `--include-input-log` records for the last query (`inference_input_log`). */
  inferenceInputLog(): PyValue;
}

/** What a conversation starts from. */
export interface ConversationStart {
  readonly entryId: string;
  /** The entry's function docs (with the language hint), as PyValues. */
  readonly functions: readonly PyValue[];
  /**
   * The entry's questions; for prompting models `startConversation` returns them with the
   * system prompt inserted into the first turn (`_pre_query_processing_prompting`).
   */
  readonly question: readonly (readonly Message[])[];
  /** True for multi-turn and agentic entries (e.g. Anthropic prompt caching depends on it). */
  readonly multiTurn: boolean;
}

/** A model as the inference loops see it; built by `src/models/` from the registry. */
export interface Model {
  /** Registry name (the `--model` value). */
  readonly registryName: string;
  /** Result directory name (registry name with `/` → `_`). */
  readonly resultDirName: string;
  /** The reference's `model_name_underline_replaced`: instance names embed it during generation. */
  readonly instanceModelName: string;
  readonly mode: InferenceMode;
  /**
   * Concurrent entries when `--num-threads` is not given. BFCL parity: _llm_response_generation.py
   * — 1 for API handlers, 100 (`LOCAL_SERVER_MAX_CONCURRENT_REQUEST`) for locally served models.
   * Undefined means 1.
   */
  readonly defaultNumThreads?: number;
  /** Start an entry's conversation; returns the (possibly system-prompted) question turns. */
  startConversation(start: ConversationStart): { conversation: Conversation; question: Message[][] };
  /** The handler's `decode_execute` (has_tool_call_tag false), used by the multi-turn loop. */
  decodeExecute(responses: PyValue): { ok: true; value: string[] } | { ok: false; error: string };
}

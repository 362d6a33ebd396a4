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

/** A failed attempt that the retry policy is about to repeat (for progress and log output). */
export interface RetryNotice {
  /** 1 for the first failed attempt. */
  readonly attempt: number;
  /** How long the policy waits before the next attempt, in milliseconds. */
  readonly delayMs: number;
  /** What went wrong, e.g. `429 Too Many Requests` or `ECONNRESET`. */
  readonly reason: string;
}

/** Per-query controls the loop hands to `Conversation.query`. All optional. */
export interface QueryOptions {
  /**
   * Fired when the run is interrupted (Ctrl-C): stop waiting, abandon retries and reject (any
   * error will do; the loop discards the entry and does not write it).
   */
  readonly signal?: AbortSignal;
  /** Called before each retry wait, so the CLI can say why an entry is slow. */
  readonly onRetry?: (notice: RetryNotice) => void;
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

/**
 * What every provider adapter shares: the `Model` facts derived from the registry entry, the
 * handler's decoder, and the message helpers of the reference's base handler and utils.
 */

import { pyDeepCopy } from '../../py/operators.js';
import { pyRepr } from '../../py/repr.js';
import type { PyDict, PyValue } from '../../py/value.js';
import type { Conversation, ConversationStart, InferenceMode, Model, ModelStep } from '../../spec/model.js';
import type { Message } from '../../spec/schemas.js';
import { decodeExecuteFC, decodeExecutePrompting } from '../../exec/decode/index.js';
import { InternalError } from '../../util/errors.js';
import type { ModelConfig } from '../model-registry.js';
import { addSystemPromptForEntry } from '../prompts/system-prompt.js';
import type { ProviderTransport } from './transport.js';

/** BFCL parity: constants/eval_config.py::LOCAL_SERVER_MAX_CONCURRENT_REQUEST. */
export const LOCAL_SERVER_MAX_CONCURRENT_REQUEST = 100;

/** What an adapter needs besides its registry entry. */
export interface AdapterSettings {
  readonly config: ModelConfig;
  readonly mode: InferenceMode;
  /** `--temperature` (the reference's CLI default is 0.001). */
  readonly temperature: number;
  readonly transport: ProviderTransport;
  /** Per-attempt request timeout. */
  readonly requestTimeoutMs: number;
  /** `--max-tokens`, `--top-p`, `--seed`, `--extra-body`: sent only when given. */
  readonly request: RequestParameters;
}

/**
 * Sampling and request fields the user adds to every request (none by default, so the requests
 * stay the reference's). Each adapter names them as its API does.
 */
export interface RequestParameters {
  readonly maxTokens?: number;
  readonly topP?: number;
  readonly seed?: number;
  /** Merged into the JSON body last (a key already there is replaced in place), e.g. vLLM's `chat_template_kwargs`. */
  readonly extraBody?: PyDict;
}

/** The body field names of the request parameters in one API; a missing name means the API has no such field. */
export interface RequestParameterNames {
  readonly maxTokens: string;
  readonly topP: string;
  readonly seed?: string;
}

/**
 * `body` with the given request parameters: named fields set (in place when the body has them,
 * else appended in the order max tokens, top p, seed), then the extra body merged key by key.
 */
export function applyRequestParameters(body: PyDict, request: RequestParameters, names: RequestParameterNames): PyDict {
  if (request.maxTokens !== undefined) body.set(names.maxTokens, BigInt(request.maxTokens));
  if (request.topP !== undefined) body.set(names.topP, request.topP);
  if (request.seed !== undefined && names.seed !== undefined) body.set(names.seed, BigInt(request.seed));
  for (const [key, value] of request.extraBody ?? []) body.set(key, value);
  return body;
}

/**
 * The reference's `model_name_underline_replaced`: the API model name with `/`, `-` and `.` replaced
 * by `_` (it names the simulated instances during generation).
 */
export function underlineReplacedModelName(modelName: string): string {
  return modelName.replaceAll('/', '_').replaceAll('-', '_').replaceAll('.', '_');
}

/** Base of the provider models: registry facts and `decode_execute`. */
export abstract class ProviderModel implements Model {
  readonly registryName: string;
  readonly resultDirName: string;
  readonly instanceModelName: string;
  readonly mode: InferenceMode;
  /** BFCL parity: _llm_response_generation.py — 100 concurrent requests for local servers, else 1. */
  readonly defaultNumThreads: number;

  protected constructor(protected readonly settings: AdapterSettings) {
    this.defaultNumThreads = settings.config.family === 'oss' ? LOCAL_SERVER_MAX_CONCURRENT_REQUEST : 1;
    this.registryName = settings.config.registryName;
    this.resultDirName = settings.config.resultDirName;
    this.instanceModelName = underlineReplacedModelName(settings.config.modelName);
    this.mode = settings.mode;
  }

  abstract startConversation(start: ConversationStart): { conversation: Conversation; question: Message[][] };

  /**
   * The question turns a conversation starts from: in prompting mode with the system prompt in the
   * first turn (`_pre_query_processing_prompting`), in FC mode an unchanged copy.
   */
  protected initialQuestion(start: ConversationStart): Message[][] {
    return this.mode === 'prompting' ? withPromptingSystemPrompt(start) : copyQuestion(start.question);
  }

  /**
   * The handler's `decode_execute(result, has_tool_call_tag=False)`: `convert_to_function_call` for FC,
   * `default_decode_execute_prompting` for prompting.
   */
  decodeExecute(responses: PyValue): { ok: true; value: string[] } | { ok: false; error: string } {
    const decoded = this.mode === 'fc' ? decodeExecuteFC(responses) : decodeExecutePrompting(responses, false);
    return decoded.ok ? { ok: true, value: decoded.value } : { ok: false, error: decoded.error };
  }
}

/** A copy of the question turns that the adapter may change (the loop keeps the original). */
export function copyQuestion(question: readonly (readonly Message[])[]): Message[][] {
  return question.map((turn) => turn.map((message) => ({ ...message })));
}

/**
 * `_pre_query_processing_prompting` of the chat handlers: the system prompt goes into the first
 * turn (`system_prompt_pre_processing_chat_model`).
 */
export function withPromptingSystemPrompt(start: ConversationStart): Message[][] {
  const question = copyQuestion(start.question);
  question[0] = addSystemPromptForEntry(start.entryId, question[0] ?? [], start.functions);
  return question;
}

/**
 * `format_execution_results_prompting`: one text holding `repr()` of the tool results, each
 * `{"role": "tool", "name": <decoded call>, "content": <result>}` (results and calls zipped, so the
 * shorter list wins as in Python's `zip`).
 */
export function formatExecutionResultsPrompting(results: readonly string[], decodedCalls: readonly string[]): string {
  const entries: PyValue[] = [];
  const count = Math.min(results.length, decodedCalls.length);
  for (let i = 0; i < count; i++) {
    entries.push(
      new Map<string, PyValue>([
        ['role', 'tool'],
        ['name', decodedCalls[i]!],
        ['content', results[i]!],
      ]),
    );
  }
  return pyRepr(entries);
}

/** The adapter-specific data of a step, checked when the loop hands the step back. */
export function stepData<T>(step: ModelStep, type: new (...args: never[]) => T): T {
  if (step.providerData instanceof type) return step.providerData;
  throw new InternalError(`a ${type.name} step was expected; the step comes from another model`);
}

/** A deep copy of a Python value for logs, so later history changes do not show in them. */
export function snapshot(value: PyValue): PyValue {
  return pyDeepCopy(value);
}

/** A request body in the handler's key order; `undefined` values are left out. */
export function requestBody(entries: readonly (readonly [string, PyValue | undefined])[]): PyDict {
  const body: PyDict = new Map();
  for (const [key, value] of entries) if (value !== undefined) body.set(key, value);
  return body;
}

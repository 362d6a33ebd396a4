/**
 * OpenAI chat-completions adapter (the reference's `OpenAICompletionsHandler`), in FC and prompting
 * mode. It is also the path for any OpenAI-compatible server (vLLM, sglang, ollama, llama.cpp).
 */

import type { PyDict, PyValue } from '../../py/value.js';
import type { Conversation, ConversationStart, ModelStep, QueryOptions } from '../../spec/model.js';
import type { Message } from '../../spec/schemas.js';
import { ModelStyle } from '../tools/model-style.js';
import { OpenAIConversation } from './openai-conversation.js';
import { ProviderModel, applyRequestParameters, requestBody, stepData, type AdapterSettings } from './provider-model.js';

export const CHAT_COMPLETIONS_PATH = '/chat/completions';

/** How chat completions name the request parameters. */
const CHAT_PARAMETER_NAMES = { maxTokens: 'max_tokens', topP: 'top_p', seed: 'seed' } as const;

/** What a chat step keeps for the history: the assistant message as received, and the call ids. */
class ChatStep {
  constructor(
    readonly message: PyValue,
    readonly toolCallIds: readonly PyValue[],
  ) {}
}

export class OpenAICompletionsModel extends ProviderModel {
  constructor(settings: AdapterSettings) {
    super(settings);
  }

  startConversation(start: ConversationStart): { conversation: Conversation; question: Message[][] } {
    return { conversation: new ChatConversation(this.settings, start.functions), question: this.initialQuestion(start) };
  }
}

class ChatConversation extends OpenAIConversation {
  constructor(settings: AdapterSettings, functions: readonly PyValue[]) {
    super(settings, functions, ModelStyle.OPENAI_COMPLETIONS, 'OpenAI chat completions');
  }

  async query(options: QueryOptions = {}): Promise<ModelStep> {
    this.recordInputLog();
    const body = requestBody([
      ['messages', this.history],
      ['model', this.settings.config.modelName],
      ['temperature', this.settings.temperature],
      ['store', false],
      ['tools', this.requestTools()],
    ]);
    applyRequestParameters(body, this.settings.request, CHAT_PARAMETER_NAMES);
    return this.settings.transport.post(CHAT_COMPLETIONS_PATH, body, this.settings.requestTimeoutMs, options, (json, latency) =>
      this.parse(json, latency),
    );
  }

  private parse(response: PyDict, latency: number): ModelStep {
    const choices = this.reader.list(this.reader.get(response, 'choices', 'response'), 'response.choices');
    if (choices.length === 0) throw this.reader.error('response.choices is empty');
    const message = this.reader.get(choices[0], 'message', 'choices[0]');
    const content = this.reader.optional(message, 'content') ?? null;
    let responses: PyValue = content;
    let toolCallIds: PyValue[] = [];
    if (this.settings.mode === 'fc') {
      const calls = this.toolCalls(message);
      if (calls !== undefined) {
        responses = calls.responses;
        toolCallIds = calls.ids;
      }
    }
    return {
      responses,
      inputTokens: this.reader.tokens(response, 'prompt_tokens'),
      outputTokens: this.reader.tokens(response, 'completion_tokens'),
      latency,
      reasoningContent: this.reasoningContent(message),
      providerData: new ChatStep(message, toolCallIds),
    };
  }

  /**
   * The reasoning text an OpenAI-compatible server returns beside the answer (vLLM, sglang,
   * DeepSeek: `reasoning_content`; newer vLLM: `reasoning`), kept for the result line as the
   * reference's handlers for such models do (`_add_reasoning_content_if_available_*`). The message
   * goes back into the history as received, as the reference's base handler sends it.
   */
  private reasoningContent(message: PyValue): string {
    for (const key of ['reasoning_content', 'reasoning']) {
      const text = this.reader.optional(message, key);
      if (typeof text === 'string') return text;
    }
    return '';
  }

  /**
   * `{name: arguments}` per tool call, or undefined when the message has none.
   * BFCL parity: openai_completion.py::_parse_query_response_FC — any failure while reading the tool
   * calls (no `tool_calls`, `null`, a malformed call) falls back to the text content; an empty list
   * (vLLM's `tool_calls: []`) gives `[]`.
   */
  private toolCalls(message: PyValue): { responses: PyValue[]; ids: PyValue[] } | undefined {
    const toolCalls = this.reader.optional(message, 'tool_calls');
    if (!Array.isArray(toolCalls)) return undefined;
    const responses: PyValue[] = [];
    const ids: PyValue[] = [];
    for (const call of toolCalls) {
      const fn = this.reader.optional(call, 'function');
      const name = this.reader.optional(fn, 'name');
      const args = this.reader.optional(fn, 'arguments');
      const id = this.reader.optional(call, 'id');
      if (typeof name !== 'string' || args === undefined || id === undefined) return undefined;
      responses.push(new Map([[name, args]]));
      ids.push(id);
    }
    return { responses, ids };
  }

  /** The assistant message goes back into the history as it came. */
  addAssistantMessage(step: ModelStep): void {
    this.history.push(stepData(step, ChatStep).message);
  }

  protected callIds(step: ModelStep): readonly PyValue[] {
    return stepData(step, ChatStep).toolCallIds;
  }

  protected toolResult(callId: PyValue, result: string): PyDict {
    return new Map<string, PyValue>([
      ['role', 'tool'],
      ['content', result],
      ['tool_call_id', callId],
    ]);
  }
}

/**
 * OpenAI Responses API adapter (the reference's `OpenAIResponsesHandler`, used by every OpenAI
 * registry entry), in FC and prompting mode.
 */

import type { PyDict, PyValue } from '../../py/value.js';
import type { Conversation, ConversationStart, ModelStep, QueryOptions } from '../../spec/model.js';
import type { Message } from '../../spec/schemas.js';
import { ModelStyle } from '../tools/model-style.js';
import { OpenAIConversation } from './openai-conversation.js';
import { ProviderModel, applyRequestParameters, requestBody, stepData, type AdapterSettings, type RequestParameterNames } from './provider-model.js';
import { messageToPy } from './wire.js';

export const RESPONSES_PATH = '/responses';

/** How the Responses API names the request parameters (it has no seed). */
export const RESPONSES_PARAMETER_NAMES: RequestParameterNames = { maxTokens: 'max_output_tokens', topP: 'top_p' };

/**
 * BFCL parity: openai_response.py::_query_FC — models whose name contains one of these are
 * reasoning models: no `temperature`, but `reasoning: {"summary": "auto"}` and
 * `include: ["reasoning.encrypted_content"]`.
 */
const REASONING_MODEL_MARKERS = ['o3', 'o4-mini', 'gpt-5'] as const;

export function isOpenAIReasoningModel(modelName: string): boolean {
  return REASONING_MODEL_MARKERS.some((marker) => modelName.includes(marker));
}

/** What a Responses step keeps for the history: the output items and the call ids. */
class ResponsesStep {
  constructor(
    readonly outputItems: readonly PyValue[],
    readonly callIds: readonly PyValue[],
  ) {}
}

export class OpenAIResponsesModel extends ProviderModel {
  constructor(settings: AdapterSettings) {
    super(settings);
  }

  startConversation(start: ConversationStart): { conversation: Conversation; question: Message[][] } {
    // BFCL parity: _pre_query_processing_* — the system prompt (prompting) goes into turn 0 first;
    // the `system` → `developer` renaming happens as messages enter the history.
    return { conversation: new ResponsesConversation(this.settings, start.functions), question: this.initialQuestion(start) };
  }
}

class ResponsesConversation extends OpenAIConversation {
  constructor(settings: AdapterSettings, functions: readonly PyValue[]) {
    super(settings, functions, ModelStyle.OPENAI_RESPONSES, 'OpenAI Responses');
  }

  /**
   * BFCL parity: openai_response.py::_substitute_prompt_role — OpenAI reserves `system` for its own
   * messages, so the reference sends every `system` message as `developer`.
   */
  protected override historyMessage(message: Message): PyDict {
    const dict = messageToPy(message);
    if (dict.get('role') === 'system') dict.set('role', 'developer');
    return dict;
  }

  async query(options: QueryOptions = {}): Promise<ModelStep> {
    const modelName = this.settings.config.modelName;
    const reasoning = isOpenAIReasoningModel(modelName);
    this.recordInputLog();
    const body = requestBody([
      ['input', this.history],
      ['model', modelName],
      ['store', false],
      ['include', reasoning ? ['reasoning.encrypted_content'] : undefined],
      ['reasoning', reasoning ? new Map([['summary', 'auto']]) : undefined],
      ['temperature', reasoning ? undefined : this.settings.temperature],
      ['tools', this.requestTools()],
    ]);
    applyRequestParameters(body, this.settings.request, RESPONSES_PARAMETER_NAMES);
    return this.settings.transport.post(RESPONSES_PATH, body, this.settings.requestTimeoutMs, options, (json, latency) =>
      this.parse(json, latency),
    );
  }

  /** `_parse_query_response_FC` / `_parse_query_response_prompting`. */
  private parse(response: PyDict, latency: number): ModelStep {
    const output = this.reader.list(this.reader.get(response, 'output', 'response'), 'response.output');
    const calls: PyValue[] = [];
    const callIds: PyValue[] = [];
    if (this.settings.mode === 'fc') {
      for (const item of output) {
        if (this.reader.optional(item, 'type') !== 'function_call') continue;
        const name = this.reader.get(item, 'name', 'function_call');
        const args = this.reader.get(item, 'arguments', 'function_call');
        calls.push(new Map([[this.reader.text(name, 'function_call.name'), args]]));
        callIds.push(this.reader.get(item, 'call_id', 'function_call'));
      }
    }
    return {
      responses: calls.length > 0 ? calls : this.outputText(output),
      inputTokens: this.reader.tokens(response, 'input_tokens'),
      outputTokens: this.reader.tokens(response, 'output_tokens'),
      latency,
      reasoningContent: this.reasoningSummary(output),
      providerData: new ResponsesStep(output, callIds),
    };
  }

  /** The SDK's `response.output_text`: every `output_text` part of every message item, joined. */
  private outputText(output: readonly PyValue[]): string {
    let text = '';
    for (const item of output) {
      if (this.reader.optional(item, 'type') !== 'message') continue;
      const content = this.reader.optional(item, 'content');
      if (!Array.isArray(content)) continue;
      for (const part of content) {
        if (this.reader.optional(part, 'type') === 'output_text') {
          text += this.reader.text(this.reader.get(part, 'text', 'output_text'), 'output_text.text');
        }
      }
    }
    return text;
  }

  /** BFCL parity: the reasoning summary texts, each followed by "\n". */
  private reasoningSummary(output: readonly PyValue[]): string {
    let text = '';
    for (const item of output) {
      if (this.reader.optional(item, 'type') !== 'reasoning') continue;
      const summary = this.reader.optional(item, 'summary');
      if (!Array.isArray(summary)) continue;
      for (const part of summary) text += this.reader.text(this.reader.get(part, 'text', 'summary'), 'summary.text') + '\n';
    }
    return text;
  }

  /** The response's output items go back into the input as they came. */
  addAssistantMessage(step: ModelStep): void {
    this.history.push(...stepData(step, ResponsesStep).outputItems);
  }

  protected callIds(step: ModelStep): readonly PyValue[] {
    return stepData(step, ResponsesStep).callIds;
  }

  protected toolResult(callId: PyValue, result: string): PyDict {
    return new Map<string, PyValue>([
      ['type', 'function_call_output'],
      ['call_id', callId],
      ['output', result],
    ]);
  }
}

/**
 * Locally served models behind the raw completions endpoint (the reference's `OSSHandler` path):
 * the adapter renders the chat template itself and always works in prompting mode, with tool results
 * sent back as `tool` messages that the template renders.
 */

import type { PyDict, PyValue } from '../../py/value.js';
import type { Conversation, ConversationStart, ModelStep, QueryOptions } from '../../spec/model.js';
import type { Message } from '../../spec/schemas.js';
import { utf8Length } from '../../py/builtins.js';
import type { ChatTemplate } from './oss/chat-template.js';
import {
  ProviderModel,
  applyRequestParameters,
  requestBody,
  stepData,
  withPromptingSystemPrompt,
  type AdapterSettings,
} from './provider-model.js';
import { ResponseReader, messageToPy } from './wire.js';

export const COMPLETIONS_PATH = '/completions';

/** How the completions endpoint names the request parameters. */
const OSS_PARAMETER_NAMES = { maxTokens: 'max_tokens', topP: 'top_p', seed: 'seed' } as const;

/** BFCL parity: base_oss_handler.py::_query_prompting — generation is capped at 4096 tokens. */
export const OSS_MAX_NEW_TOKENS = 4096;
/** Requested when the prompt already fills the context (the server will refuse it anyway). */
const OSS_OVERFLOW_MAX_TOKENS = 1000;
/** The `timeout` (seconds) the reference passes to avoid timeouts on slow local servers. */
export const OSS_REFERENCE_TIMEOUT_MS = 72_000_000;

/** What the OSS path needs besides the common settings. */
export interface OssSettings {
  readonly template: ChatTemplate;
  /** The `model` field: the Hugging Face id, or `--local-model-path` when given. */
  readonly modelPathOrId: string;
  /**
   * The model's context length. The reference reads it from the model config and counts prompt tokens
   * with the real tokenizer; without a tokenizer this port bounds the token count by the prompt's
   * UTF-8 length, which never asks for more than fits. Undefined: always 4096 (what the reference asks
   * for whenever the prompt leaves room).
   */
  readonly maxContextLength: number | undefined;
}

/** `max_tokens` of a request (see `OssSettings.maxContextLength`). */
export function ossMaxTokens(prompt: string, maxContextLength: number | undefined): number {
  if (maxContextLength === undefined) return OSS_MAX_NEW_TOKENS;
  const promptTokensBound = utf8Length(prompt);
  if (maxContextLength < promptTokensBound + 2) return OSS_OVERFLOW_MAX_TOKENS;
  return Math.min(OSS_MAX_NEW_TOKENS, maxContextLength - promptTokensBound - 2);
}

class OssStep {
  constructor(readonly message: PyDict) {}
}

export class OssCompletionsModel extends ProviderModel {
  constructor(
    settings: AdapterSettings,
    private readonly oss: OssSettings,
  ) {
    super(settings);
  }

  /** BFCL parity: base_oss_handler.py::inference — OSS models always take the prompting path. */
  startConversation(start: ConversationStart): { conversation: Conversation; question: Message[][] } {
    const question = withPromptingSystemPrompt(start);
    return { conversation: new OssConversation(this.settings, this.oss, start.functions), question };
  }
}

class OssConversation implements Conversation {
  private readonly messages: PyDict[] = [];
  private lastInputLog: PyValue = '';
  private readonly reader = new ResponseReader('completions');

  constructor(
    private readonly settings: AdapterSettings,
    private readonly oss: OssSettings,
    private readonly functions: readonly PyValue[],
  ) {}

  addFirstTurnMessages(messages: readonly Message[]): void {
    for (const message of messages) this.messages.push(messageToPy(message));
  }

  addNextTurnMessages(messages: readonly Message[]): void {
    this.addFirstTurnMessages(messages);
  }

  /** The prompting path never recompiles tools; the template keeps the functions it started with. */
  setFunctions(): void {}

  async query(options: QueryOptions = {}): Promise<ModelStep> {
    const prompt = this.oss.template.formatPrompt(this.messages, this.functions);
    this.lastInputLog = new Map([['formatted_prompt', prompt]]);
    const body = requestBody([
      ['model', this.oss.modelPathOrId],
      ['temperature', this.settings.temperature],
      ['prompt', prompt],
      ['max_tokens', BigInt(ossMaxTokens(prompt, this.oss.maxContextLength))],
    ]);
    // `extra_body` fields go into the JSON body, after the named ones.
    for (const [key, value] of this.oss.template.extraBody ?? []) body.set(key, value);
    applyRequestParameters(body, this.settings.request, OSS_PARAMETER_NAMES);
    return this.settings.transport.post(COMPLETIONS_PATH, body, this.settings.requestTimeoutMs, options, (json, latency) =>
      this.parse(json, latency),
    );
  }

  private parse(json: PyDict, latency: number): ModelStep {
    const choices = this.reader.list(this.reader.get(json, 'choices', 'response'), 'response.choices');
    if (choices.length === 0) throw this.reader.error('response.choices is empty');
    const text = this.reader.text(this.reader.get(choices[0], 'text', 'choices[0]'), 'choices[0].text');
    const { answer, reasoningContent } = this.oss.template.parseAnswer(text);
    return {
      responses: answer,
      inputTokens: this.reader.tokens(json, 'prompt_tokens'),
      outputTokens: this.reader.tokens(json, 'completion_tokens'),
      latency,
      reasoningContent,
      providerData: new OssStep(this.oss.template.assistantMessage(answer, reasoningContent)),
    };
  }

  addAssistantMessage(step: ModelStep): void {
    this.messages.push(stepData(step, OssStep).message);
  }

  /** One `{"role": "tool", "name": <decoded call>, "content": <result>}` message per executed call. */
  addExecutionResults(results: readonly string[], decodedCalls: readonly string[]): void {
    const count = Math.min(results.length, decodedCalls.length);
    for (let i = 0; i < count; i++) {
      this.messages.push(
        new Map<string, PyValue>([
          ['role', 'tool'],
          ['name', decodedCalls[i]!],
          ['content', results[i]!],
        ]),
      );
    }
  }

  inferenceInputLog(): PyValue {
    return this.lastInputLog;
  }
}

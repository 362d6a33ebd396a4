/**
 * Anthropic Messages API adapter (the reference's `ClaudeHandler`), in FC and prompting mode:
 * system prompt in its own field, consecutive user messages merged, text blocks everywhere,
 * prompt caching for multi-turn entries.
 */

import { jsonDumps } from '../../py/json.js';
import { pyRepr } from '../../py/repr.js';
import type { PyDict, PyValue } from '../../py/value.js';
import { containMultiTurnInteraction } from '../../spec/categories.js';
import type { Conversation, ConversationStart, ModelStep, QueryOptions } from '../../spec/model.js';
import type { Message } from '../../spec/schemas.js';
import { ModelStyle } from '../tools/model-style.js';
import { convertToTool } from '../tools/convert-to-tool.js';
import {
  ProviderModel,
  applyRequestParameters,
  formatExecutionResultsPrompting,
  requestBody,
  snapshot,
  stepData,
  type AdapterSettings,
  type RequestParameterNames,
} from './provider-model.js';
import { ResponseReader, chatMessage, freezeForWire, messageToPy } from './wire.js';

export const MESSAGES_PATH = '/v1/messages';

/** How the Messages API names the request parameters (it has no seed; `max_tokens` replaces the reference's). */
export const ANTHROPIC_PARAMETER_NAMES: RequestParameterNames = { maxTokens: 'max_tokens', topP: 'top_p' };

/**
 * BFCL parity: claude.py::_get_max_tokens — `max_tokens` is required; the reference sets each
 * supported model's maximum and refuses any other model.
 */
const MAX_TOKENS_BY_MODEL: readonly (readonly [string, number])[] = [
  ['claude-opus-4-5-20251101', 64000],
  ['claude-sonnet-4-5-20250929', 64000],
  ['claude-haiku-4-5-20251001', 64000],
];

/** The reference's `max_tokens` for a Claude model name, or undefined when it does not support it. */
export function claudeMaxTokens(modelName: string): number | undefined {
  return MAX_TOKENS_BY_MODEL.find(([marker]) => modelName.includes(marker))?.[1];
}

/** The `timeout` (seconds) the reference passes with every request, to allow long generations. */
export const CLAUDE_REFERENCE_TIMEOUT_MS = 1_200_000;

/**
 * BFCL parity: claude.py::_query_FC — `self.model_name.strip("-FC")` strips the characters `-`, `F`
 * and `C` from both ends, not the suffix.
 */
export function stripFcChars(modelName: string): string {
  const chars = new Set(['-', 'F', 'C']);
  let start = 0;
  let end = modelName.length;
  while (start < end && chars.has(modelName[start]!)) start++;
  while (end > start && chars.has(modelName[end - 1]!)) end--;
  return modelName.slice(start, end);
}

const EPHEMERAL = (): PyDict => new Map([['type', 'ephemeral']]);

/** What a Claude step keeps: the content blocks as received and the tool-use ids. */
class ClaudeStep {
  constructor(
    readonly content: PyValue,
    readonly toolUseIds: readonly PyValue[],
  ) {}
}

export class AnthropicModel extends ProviderModel {
  constructor(
    settings: AdapterSettings,
    private readonly maxTokens: number,
  ) {
    super(settings);
  }

  /**
   * BFCL parity: claude.py::_pre_query_processing_* — the first system message of turn 0 leaves the
   * messages for the `system` field, and consecutive user messages of each turn are merged.
   */
  startConversation(start: ConversationStart): { conversation: Conversation; question: Message[][] } {
    const question = this.initialQuestion(start);
    const systemText = extractSystemPrompt(question[0] ?? []);
    const merged = question.map(combineConsecutiveUserPrompts);
    // BFCL parity: caching is decided on `id.rsplit("_", 1)[0]`, i.e. multi-turn and agentic entries.
    const caching = containMultiTurnInteraction(rsplitCategory(start.entryId));
    const conversation = new ClaudeConversation(this.settings, this.maxTokens, start.functions, systemText, caching);
    return { conversation, question: merged };
  }
}

/** `extract_system_prompt`: removes the first system message from `messages` and returns its text. */
function extractSystemPrompt(messages: Message[]): string | undefined {
  const index = messages.findIndex((m) => m.role === 'system');
  if (index < 0) return undefined;
  const [system] = messages.splice(index, 1);
  return system!.content;
}

/** `combine_consecutive_user_prompts`: a user message following a user message is appended to it. */
function combineConsecutiveUserPrompts(messages: readonly Message[]): Message[] {
  const combined: Message[] = [];
  for (const message of messages) {
    const last = combined.at(-1);
    if (message.role === 'user' && last !== undefined && last.role === 'user') {
      combined[combined.length - 1] = { ...last, content: last.content + '\n\n' + message.content };
    } else {
      combined.push({ ...message });
    }
  }
  return combined;
}

function rsplitCategory(id: string): string {
  const index = id.lastIndexOf('_');
  return index < 0 ? id : id.slice(0, index);
}

/** `[{"type": "text", "text": text}]`. */
function textBlocks(text: PyValue): PyValue[] {
  return [
    new Map<string, PyValue>([
      ['type', 'text'],
      ['text', text],
    ]),
  ];
}

class ClaudeConversation implements Conversation {
  private readonly messages: PyDict[] = [];
  private tools: PyValue[] = [];
  /** `[{"type": "text", "text": ...}]`, or undefined when the entry has no system prompt (FC only). */
  private readonly system: PyValue[] | undefined;
  private lastInputLog: PyValue = '';
  private readonly reader = new ResponseReader('Anthropic messages');

  constructor(
    private readonly settings: AdapterSettings,
    private readonly maxTokens: number,
    functions: readonly PyValue[],
    systemText: string | undefined,
    private readonly caching: boolean,
  ) {
    this.system = systemText === undefined ? undefined : textBlocks(systemText);
    if (settings.mode === 'fc') this.setFunctions(functions);
  }

  /** Every message's content becomes `[{"type": "text", "text": content}]`. */
  addFirstTurnMessages(messages: readonly Message[]): void {
    for (const message of messages) {
      const dict = messageToPy(message);
      dict.set('content', textBlocks(message.content));
      this.messages.push(dict);
    }
  }

  addNextTurnMessages(messages: readonly Message[]): void {
    this.addFirstTurnMessages(messages);
  }

  /** BFCL parity: claude.py::_compile_tools — with caching, the last tool is marked for caching. */
  setFunctions(functions: readonly PyValue[]): void {
    const tools = convertToTool(functions, ModelStyle.ANTHROPIC);
    const last = tools.at(-1);
    if (this.caching && last instanceof Map) last.set('cache_control', EPHEMERAL());
    this.tools = freezeForWire(tools);
  }

  async query(options: QueryOptions = {}): Promise<ModelStep> {
    const fc = this.settings.mode === 'fc';
    // The message text is taken before this query's cache marks, as the reference logs it.
    this.lastInputLog = new Map<string, PyValue>([
      ['message', pyRepr(this.messages)],
      ...(fc ? ([['tools', this.tools]] as const) : []),
      ['system_prompt', this.system === undefined ? [] : snapshot(this.system)],
    ]);
    if (this.caching) this.markCacheBreakpoints();
    const modelName = this.settings.config.modelName;
    const body = requestBody([
      ['model', fc ? stripFcChars(modelName) : modelName],
      ['max_tokens', BigInt(this.maxTokens)],
      ['temperature', this.settings.temperature],
      ['tools', fc ? this.tools : undefined],
      ['messages', this.messages],
      ['system', this.system],
    ]);
    applyRequestParameters(body, this.settings.request, ANTHROPIC_PARAMETER_NAMES);
    return this.settings.transport.post(MESSAGES_PATH, body, this.settings.requestTimeoutMs, options, (json, latency) =>
      this.parse(json, latency),
    );
  }

  /**
   * BFCL parity: claude.py::_query_* — the system prompt and the first block of the last two user
   * messages carry `cache_control`; older user messages lose theirs. The marks stay in the history,
   * as the reference changes its message dicts in place.
   */
  private markCacheBreakpoints(): void {
    const systemBlock = this.system?.[0];
    if (systemBlock instanceof Map) systemBlock.set('cache_control', EPHEMERAL());
    let count = 0;
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const message = this.messages[i]!;
      if (message.get('role') !== 'user') continue;
      const content = message.get('content');
      const first = Array.isArray(content) ? content[0] : undefined;
      if (first instanceof Map) {
        if (count < 2) first.set('cache_control', EPHEMERAL());
        else first.delete('cache_control');
      }
      count++;
    }
  }

  private parse(response: PyDict, latency: number): ModelStep {
    const content = this.reader.list(this.reader.get(response, 'content', 'response'), 'response.content');
    const inputTokens = this.reader.tokens(response, 'input_tokens');
    const outputTokens = this.reader.tokens(response, 'output_tokens');
    if (this.settings.mode === 'prompting') {
      // BFCL parity: claude.py::_parse_query_response_prompting — `content[0].text`.
      if (content.length === 0) throw this.reader.error('response.content is empty');
      const text = this.reader.text(this.reader.get(content[0], 'text', 'content[0]'), 'content[0].text');
      return { responses: text, inputTokens, outputTokens, latency, reasoningContent: '', providerData: new ClaudeStep(text, []) };
    }
    const texts: PyValue[] = [];
    const calls: PyValue[] = [];
    const ids: PyValue[] = [];
    for (const block of content) {
      const type = this.reader.optional(block, 'type');
      if (type === 'text') {
        texts.push(this.reader.get(block, 'text', 'text block'));
      } else if (type === 'tool_use') {
        const name = this.reader.text(this.reader.get(block, 'name', 'tool_use'), 'tool_use.name');
        // BFCL parity: the arguments are stored as Python's `json.dumps(input)` (default separators, ASCII).
        calls.push(new Map([[name, jsonDumps(this.reader.get(block, 'input', 'tool_use'))]]));
        ids.push(this.reader.get(block, 'id', 'tool_use'));
      }
    }
    return {
      responses: calls.length > 0 ? calls : texts,
      inputTokens,
      outputTokens,
      latency,
      reasoningContent: '',
      providerData: new ClaudeStep(content, ids),
    };
  }

  /** FC: the content blocks as received; prompting: the text (a plain string content). */
  addAssistantMessage(step: ModelStep): void {
    this.messages.push(chatMessage('assistant', stepData(step, ClaudeStep).content));
  }

  addExecutionResults(results: readonly string[], decodedCalls: readonly string[], step: ModelStep): void {
    if (this.settings.mode === 'prompting') {
      this.messages.push(chatMessage('user', textBlocks(formatExecutionResultsPrompting(results, decodedCalls))));
      return;
    }
    // Claude has no tool role: the results go back as one user message of tool_result blocks.
    const { toolUseIds } = stepData(step, ClaudeStep);
    const blocks: PyValue[] = [];
    const count = Math.min(results.length, toolUseIds.length);
    for (let i = 0; i < count; i++) {
      blocks.push(
        new Map<string, PyValue>([
          ['type', 'tool_result'],
          ['content', results[i]!],
          ['tool_use_id', toolUseIds[i]!],
        ]),
      );
    }
    this.messages.push(chatMessage('user', blocks));
  }

  inferenceInputLog(): PyValue {
    return this.lastInputLog;
  }
}

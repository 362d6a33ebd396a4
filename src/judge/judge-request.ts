/**
 * The HTTP request of one judgement (spec §3.1 step 8, §3.2, §3.6, §3.7): Chat Completions for
 * OpenAI and OpenAI-compatible judges, Messages for Claude. Pure: the same prompt and settings give
 * the same body text, whose SHA-256 (with the provider) is the unit's cache key.
 */

import { sha256Hex } from '../util/hash.js';
import type { TemplateKind } from './judge-template.js';

/** Whose API the judge speaks. */
export type JudgeProvider = 'openai' | 'anthropic';

/** `fc`: the label comes back as function arguments (or structured output); `text`: as plain text. */
export type JudgeMode = 'fc' | 'text';

/** How a classification prompt asks OpenAI for structured output (Phoenix tries the schema first, then a tool). */
export type StructuredOutput = 'json_schema' | 'tool';

/** Everything about a judge request but the prompt. */
export interface JudgeRequestSettings {
  readonly provider: JudgeProvider;
  /** The API model id. */
  readonly model: string;
  readonly kind: TemplateKind;
  readonly mode: JudgeMode;
  readonly explain: boolean;
  readonly rails: readonly string[];
  /** Role of the prompt message (Phoenix's rules: `defaultPromptRole`). */
  readonly role: string;
  /** Sampling temperature; undefined sends none (OpenAI reasoning models take none). */
  readonly temperature: number | undefined;
  /** Max output tokens; undefined sends none (OpenAI) or Phoenix's 1024 (Claude, which requires one). */
  readonly maxTokens?: number;
  /** Classification prompts on OpenAI: structured output by JSON schema (default) or by a forced tool call. */
  readonly structuredOutput?: StructuredOutput;
}

/** A request ready to send. */
export interface JudgeRequest {
  /** Below the client's base URL. */
  readonly path: string;
  /** The JSON body as sent, UTF-8 (bytes, so that the text is not kept on the heap while the request is out). */
  readonly body: Buffer;
  /** Whether the body asks for structured output by JSON schema (which a server may refuse with HTTP 400). */
  readonly jsonSchemaOutput: boolean;
  /** SHA-256 of provider and body: same key, same question to the same judge. */
  readonly cacheKey: string;
}

/** OpenAI's Chat Completions, below the client's base URL. */
export const CHAT_COMPLETIONS_PATH = '/chat/completions';
/** Anthropic's Messages API. */
export const MESSAGES_PATH = '/v1/messages';

/** The function Phoenix's `llm_classify` makes the judge call in function-calling mode. */
export const RECORD_RESPONSE = 'record_response';
/** The tool of Phoenix's classification evaluators when the JSON-schema response format is refused. */
export const EXTRACT_STRUCTURED_DATA = 'extract_structured_data';

/** Phoenix's AnthropicModel default (Claude requires a max_tokens). */
const CLAUDE_MAX_TOKENS = 1024;

/** `record_response` (legacy/utils.py::openai_function_call_kwargs): explanation first when asked for. */
export function recordResponseFunction(rails: readonly string[], explain: boolean): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  if (explain) properties['explanation'] = { type: 'string', description: 'Explanation of the reasoning for your response.' };
  properties['response'] = { type: 'string', description: 'Your response.', enum: [...rails] };
  return {
    name: RECORD_RESPONSE,
    description: 'A function to record your response.',
    parameters: { type: 'object', properties, required: explain ? ['explanation', 'response'] : ['response'] },
  };
}

/** The output schema of Phoenix's ClassificationEvaluator (spec §3.7), strict-mode ready. */
export function classificationSchema(labels: readonly string[], explain: boolean): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  if (explain) properties['explanation'] = { type: 'string', description: 'A brief explanation of your reasoning.' };
  properties['label'] = { type: 'string', enum: [...labels] };
  return { type: 'object', properties, required: explain ? ['explanation', 'label'] : ['label'], additionalProperties: false };
}

/**
 * Phoenix's role for the prompt message (spec §3.1 step 8): OpenAI models get `system` when the
 * name contains `gpt`, `user` for o1-mini / o1-preview, `developer` for other o1 / o3 names, else
 * `system`; Claude gets `user`.
 */
export function defaultPromptRole(provider: JudgeProvider, model: string): string {
  if (provider === 'anthropic') return 'user';
  if (model.includes('gpt')) return 'system';
  if (model.includes('o1-mini') || model.includes('o1-preview')) return 'user';
  if (model.includes('o1') || model.includes('o3')) return 'developer';
  return 'system';
}

/** Phoenix's temperature: 0, but none for OpenAI names starting `o1` / `o3` (they refuse one). */
export function defaultTemperature(provider: JudgeProvider, model: string): number | undefined {
  return provider === 'openai' && (model.startsWith('o1') || model.startsWith('o3')) ? undefined : 0;
}

/**
 * Phoenix's choice of output mode (spec §3.2): function calling for OpenAI models except names
 * starting `o1` and `gpt-3.5-turbo-instruct` (legacy completions); text for every other provider.
 */
export function defaultJudgeMode(provider: JudgeProvider, model: string): JudgeMode {
  if (provider !== 'openai') return 'text';
  return model.startsWith('o1') || model.startsWith('gpt-3.5-turbo-instruct') ? 'text' : 'fc';
}

/** The request for `prompt`. */
export function buildJudgeRequest(prompt: string, settings: JudgeRequestSettings): JudgeRequest {
  const body = settings.provider === 'openai' ? openAIBody(prompt, settings) : anthropicBody(prompt, settings);
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  return {
    path: settings.provider === 'openai' ? CHAT_COMPLETIONS_PATH : MESSAGES_PATH,
    body: bytes,
    jsonSchemaOutput: body['response_format'] !== undefined,
    cacheKey: sha256Hex(settings.provider, '\n', bytes),
  };
}

function openAIBody(prompt: string, s: JudgeRequestSettings): Record<string, unknown> {
  // OpenAIModel's parameters (legacy/models/openai.py); no max tokens unless asked for.
  const body: Record<string, unknown> = {
    model: s.model,
    messages: [{ role: s.role, content: prompt }],
    frequency_penalty: 0,
    presence_penalty: 0,
    top_p: 1,
    n: 1,
  };
  if (s.temperature !== undefined) body['temperature'] = s.temperature;
  if (s.maxTokens !== undefined) body['max_completion_tokens'] = s.maxTokens;
  if (s.mode === 'text') return body;
  if (s.kind === 'legacy') {
    // The `tools` form of Phoenix's `functions` + `function_call` (equivalent, and the one OpenAI-compatible servers take).
    body['tools'] = [{ type: 'function', function: recordResponseFunction(s.rails, s.explain) }];
    body['tool_choice'] = { type: 'function', function: { name: RECORD_RESPONSE } };
    return body;
  }
  const schema = classificationSchema(s.rails, s.explain);
  if ((s.structuredOutput ?? 'json_schema') === 'json_schema') {
    body['response_format'] = { type: 'json_schema', json_schema: { name: EXTRACT_STRUCTURED_DATA, schema, strict: true } };
  } else {
    body['tools'] = [{ type: 'function', function: { name: EXTRACT_STRUCTURED_DATA, description: 'Extract structured data according to the provided schema', parameters: schema } }];
    body['tool_choice'] = { type: 'function', function: { name: EXTRACT_STRUCTURED_DATA } };
  }
  return body;
}

function anthropicBody(prompt: string, s: JudgeRequestSettings): Record<string, unknown> {
  // AnthropicModel's parameters, without top_p=1 and top_k=256: current Claude models refuse
  // temperature together with top_p, and both are no-ops at these values.
  const body: Record<string, unknown> = {
    model: s.model,
    max_tokens: s.maxTokens ?? CLAUDE_MAX_TOKENS,
    messages: [{ role: s.role, content: prompt }],
  };
  if (s.temperature !== undefined) body['temperature'] = s.temperature;
  if (s.mode === 'text') return body;
  const tool =
    s.kind === 'legacy'
      ? (() => {
          const f = recordResponseFunction(s.rails, s.explain);
          return { name: f['name'], description: f['description'], input_schema: f['parameters'] };
        })()
      : { name: EXTRACT_STRUCTURED_DATA, description: 'Extract structured data according to the provided schema', input_schema: classificationSchema(s.rails, s.explain) };
  body['tools'] = [tool];
  body['tool_choice'] = { type: 'tool', name: tool.name };
  return body;
}

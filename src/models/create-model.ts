/**
 * Builds the `Model` of a registry entry: picks the provider adapter, resolves the endpoint and API
 * key from the environment (the reference's variable names), and creates the SDK client with our
 * retry policy in charge. A missing key fails here, before any entry runs.
 */

import type { Model } from '../spec/model.js';
import { UsageError } from '../util/errors.js';
import { usesFcInference, type ModelConfig } from './model-registry.js';
import { ANTHROPIC_PARAMETER_NAMES, AnthropicModel, CLAUDE_REFERENCE_TIMEOUT_MS, claudeMaxTokens } from './providers/anthropic-messages.js';
import { OpenAICompletionsModel } from './providers/openai-completions.js';
import { OpenAIResponsesModel, RESPONSES_PARAMETER_NAMES } from './providers/openai-responses.js';
import { OSS_REFERENCE_TIMEOUT_MS, OssCompletionsModel } from './providers/oss-completions.js';
import { CHATML_TEMPLATE } from './providers/oss/chatml-template.js';
import type { ChatTemplate } from './providers/oss/chat-template.js';
import { QWEN_TEMPLATE } from './providers/oss/qwen-template.js';
import type { AdapterSettings, RequestParameterNames, RequestParameters } from './providers/provider-model.js';
import { resolveProviderEndpoint, sdkRawPost, type Environment } from './providers/sdk-endpoint.js';
import { ProviderTransport, type TransportSettings } from './providers/transport.js';

/** The reference's CLI default temperature. */
export const DEFAULT_TEMPERATURE = 0.001;
/** The OpenAI SDK's default request timeout (the reference keeps it). */
const OPENAI_DEFAULT_TIMEOUT_MS = 600_000;

export type { Environment } from './providers/sdk-endpoint.js';

export interface CreateModelOptions extends TransportSettings {
  /** `--temperature` (default 0.001). */
  readonly temperature?: number;
  /** Where keys and endpoints are read from (default `process.env`). */
  readonly env?: Environment;
  /** `--base-url`: the endpoint of an OpenAI-compatible server (or of the provider), overriding the environment. */
  readonly baseUrl?: string;
  /** Per-attempt request timeout; default the reference's (OpenAI 10 min, Claude 20 min, OSS 20 h). */
  readonly requestTimeoutMs?: number;
  /** The `fetch` the SDK clients use (tests and the conformance check serve canned answers through it); default undici's, see `sdkNetwork`. */
  readonly fetch?: typeof globalThis.fetch;
  /** OSS path: `--local-model-path`, sent as the `model` field instead of the Hugging Face id. */
  readonly localModelPath?: string;
  /** OSS path: the model's context length, to shorten `max_tokens` for long prompts. */
  readonly maxContextLength?: number;
  /** `--max-tokens`, `--top-p`, `--seed`, `--extra-body`; none by default (the reference's requests). */
  readonly requestParameters?: RequestParameters;
}

/**
 * The `Model` for `config`. Throws a `UsageError` when the handler is not implemented in this port or
 * when a required API key is missing (naming the variable).
 */
export function createModel(config: ModelConfig, options: CreateModelOptions = {}): Model {
  const env = options.env ?? process.env;
  const temperature = options.temperature ?? DEFAULT_TEMPERATURE;
  const mode = usesFcInference(config) ? 'fc' : 'prompting';
  const request = options.requestParameters ?? {};
  const settings = (transport: ProviderTransport, defaultTimeoutMs: number): AdapterSettings => ({
    config,
    mode,
    temperature,
    transport,
    requestTimeoutMs: options.requestTimeoutMs ?? defaultTimeoutMs,
    request,
  });

  switch (config.family) {
    case 'openai-responses': {
      requireSupported(config, request, RESPONSES_PARAMETER_NAMES, 'the OpenAI Responses API');
      const transport = new ProviderTransport('openai', sdkRawPost(resolveProviderEndpoint(config, env, options.baseUrl), options), options);
      return new OpenAIResponsesModel(settings(transport, OPENAI_DEFAULT_TIMEOUT_MS));
    }
    case 'openai-completions': {
      const transport = new ProviderTransport('openai', sdkRawPost(resolveProviderEndpoint(config, env, options.baseUrl), options), options);
      return new OpenAICompletionsModel(settings(transport, OPENAI_DEFAULT_TIMEOUT_MS));
    }
    case 'anthropic': {
      requireSupported(config, request, ANTHROPIC_PARAMETER_NAMES, 'the Anthropic Messages API');
      const maxTokens = claudeMaxTokens(config.modelName);
      if (maxTokens === undefined) {
        throw new UsageError(
          `Model ${config.registryName}: unsupported Claude model ${config.modelName} ` +
            '(the reference knows max_tokens only for claude-opus-4-5-20251101, claude-sonnet-4-5-20250929 and claude-haiku-4-5-20251001)',
        );
      }
      const transport = new ProviderTransport('anthropic', sdkRawPost(resolveProviderEndpoint(config, env, options.baseUrl), options), options);
      return new AnthropicModel(settings(transport, CLAUDE_REFERENCE_TIMEOUT_MS), maxTokens);
    }
    case 'oss': {
      const template = ossTemplate(config);
      const transport = new ProviderTransport('openai', sdkRawPost(resolveProviderEndpoint(config, env, options.baseUrl), options), options);
      return new OssCompletionsModel(settings(transport, OSS_REFERENCE_TIMEOUT_MS), {
        template,
        modelPathOrId: options.localModelPath ?? config.modelName,
        maxContextLength: options.maxContextLength,
      });
    }
    case 'other':
      throw new UsageError(
        `Model ${config.registryName} uses the reference's ${config.handler}, which this port does not implement. ` +
          `If it is served by an OpenAI-compatible server, run it as --model openai-compatible/${config.modelName} --base-url <url>.`,
      );
  }
}

/**
 * Chat templates of the OSS handlers. `QwenHandler` is the reference's template; the generic ChatML
 * template stands in for the other handlers whose decoders are the default prompting ones. Handlers
 * with their own output formats (and decoders) are not ported.
 */
const OSS_TEMPLATES: ReadonlyMap<string, ChatTemplate> = new Map([
  ['QwenHandler', QWEN_TEMPLATE],
  ['BielikHandler', CHATML_TEMPLATE],
  ['DeepseekReasoningHandler', CHATML_TEMPLATE],
  ['GemmaHandler', CHATML_TEMPLATE],
  ['LlamaHandler', CHATML_TEMPLATE],
  ['MiniCPMHandler', CHATML_TEMPLATE],
  ['QuickTestingOSSHandler', CHATML_TEMPLATE],
]);

function ossTemplate(config: ModelConfig): ChatTemplate {
  const template = OSS_TEMPLATES.get(config.handler);
  if (template !== undefined) return template;
  throw new UsageError(
    `Model ${config.registryName} uses the reference's ${config.handler}, whose chat template and output format ` +
      `this port does not implement. If it is served by vLLM or sglang, run it through the server's chat template: ` +
      `--model openai-compatible/${config.modelName} --base-url <url>.`,
  );
}

/** A `UsageError` for a request parameter the model's API has no field for (rather than dropping it silently). */
function requireSupported(config: ModelConfig, request: RequestParameters, names: RequestParameterNames, api: string): void {
  if (request.seed !== undefined && names.seed === undefined) {
    throw new UsageError(`--seed cannot be sent to ${config.registryName}: ${api} has no seed parameter.`);
  }
}

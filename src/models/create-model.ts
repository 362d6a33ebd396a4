/**
 * Builds the `Model` of a registry entry: picks the provider adapter, resolves the endpoint and API
 * key from the environment (the reference's variable names), and creates the SDK client with our
 * retry policy in charge. A missing key fails here, before any entry runs.
 */

import type { ClientOptions as AnthropicClientOptions } from '@anthropic-ai/sdk';
import type { ClientOptions as OpenAIClientOptions } from 'openai';

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
import { ProviderTransport, type RawPost, type TransportSettings } from './providers/transport.js';

/** The reference's CLI default temperature. */
export const DEFAULT_TEMPERATURE = 0.001;
/** The OpenAI SDK's default request timeout (the reference keeps it). */
const OPENAI_DEFAULT_TIMEOUT_MS = 600_000;
/** BFCL parity: constants/eval_config.py::LOCAL_SERVER_PORT. */
export const DEFAULT_LOCAL_SERVER_PORT = '1053';
const OPENAI_API_BASE_URL = 'https://api.openai.com/v1';
const ANTHROPIC_API_BASE_URL = 'https://api.anthropic.com';
/** The key sent to local servers that do not check one (the reference's `REMOTE_OPENAI_API_KEY` default). */
const NO_KEY = 'EMPTY';

export type Environment = Readonly<Record<string, string | undefined>>;

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
      const transport = new ProviderTransport('openai', openAIPost(openAIEndpoint(config, env, options), options), options);
      return new OpenAIResponsesModel(settings(transport, OPENAI_DEFAULT_TIMEOUT_MS));
    }
    case 'openai-completions': {
      const transport = new ProviderTransport('openai', openAIPost(openAIEndpoint(config, env, options), options), options);
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
      const transport = new ProviderTransport('anthropic', anthropicPost(config, env, options), options);
      return new AnthropicModel(settings(transport, CLAUDE_REFERENCE_TIMEOUT_MS), maxTokens);
    }
    case 'oss': {
      const template = ossTemplate(config);
      const endpoint = ossEndpoint(env, options);
      const transport = new ProviderTransport('openai', openAIPost(endpoint, options), options);
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

/** Where an OpenAI client connects, and with which key and headers. */
interface OpenAIEndpoint {
  readonly baseURL: string;
  readonly apiKey: string;
  readonly defaultHeaders: Record<string, string> | undefined;
}

/**
 * The endpoint of the OpenAI handlers:
 * - `--base-url`, else `OPENAI_BASE_URL` (the reference's client settings), else, for a model the
 *   registry does not know (`openai-compatible/<id>`), the reference's local-server settings
 *   (`REMOTE_OPENAI_BASE_URL`, else `http://$LOCAL_SERVER_ENDPOINT:$LOCAL_SERVER_PORT/v1`), else OpenAI;
 * - key: `OPENAI_API_KEY` for OpenAI itself (required); for other endpoints the key that goes with
 *   the endpoint's variable, or `EMPTY` (local servers usually check none).
 */
function openAIEndpoint(config: ModelConfig, env: Environment, options: CreateModelOptions): OpenAIEndpoint {
  const defaultHeaders = parseDefaultHeaders(env);
  const openAIKey = nonEmpty(env['OPENAI_API_KEY']);
  const remoteKey = nonEmpty(env['REMOTE_OPENAI_API_KEY']);
  if (options.baseUrl !== undefined) {
    return { baseURL: options.baseUrl, apiKey: remoteKey ?? openAIKey ?? NO_KEY, defaultHeaders };
  }
  const openAIBaseUrl = nonEmpty(env['OPENAI_BASE_URL']);
  if (openAIBaseUrl !== undefined) return { baseURL: openAIBaseUrl, apiKey: openAIKey ?? NO_KEY, defaultHeaders };
  if (!config.known) {
    const local = localServerEndpoint(env);
    return { baseURL: local.baseURL, apiKey: local.apiKey, defaultHeaders };
  }
  return { baseURL: OPENAI_API_BASE_URL, apiKey: requireKey(env, 'OPENAI_API_KEY', config), defaultHeaders };
}

/** BFCL parity: base_oss_handler.py::__init__ — `REMOTE_OPENAI_BASE_URL`, else the local server. */
function localServerEndpoint(env: Environment): { baseURL: string; apiKey: string } {
  const host = nonEmpty(env['LOCAL_SERVER_ENDPOINT']) ?? 'localhost';
  const port = nonEmpty(env['LOCAL_SERVER_PORT']) ?? DEFAULT_LOCAL_SERVER_PORT;
  return {
    baseURL: nonEmpty(env['REMOTE_OPENAI_BASE_URL']) ?? `http://${host}:${port}/v1`,
    apiKey: nonEmpty(env['REMOTE_OPENAI_API_KEY']) ?? NO_KEY,
  };
}

function ossEndpoint(env: Environment, options: CreateModelOptions): OpenAIEndpoint {
  const local = localServerEndpoint(env);
  return {
    baseURL: options.baseUrl ?? local.baseURL,
    apiKey: local.apiKey,
    defaultHeaders: undefined,
  };
}

/** `OPENAI_DEFAULT_HEADERS`: a JSON object of extra headers. */
function parseDefaultHeaders(env: Environment): Record<string, string> | undefined {
  const text = nonEmpty(env['OPENAI_DEFAULT_HEADERS']);
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`OPENAI_DEFAULT_HEADERS must be a JSON object of header names to values, got: ${text}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`OPENAI_DEFAULT_HEADERS must be a JSON object of header names to values, got: ${text}`);
  }
  return Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, String(value)]));
}

// The SDKs are imported when a model is created, not when the CLI starts: together they take about
// 250 ms to load, which every other command (evaluate, show, report) would pay for nothing.

/**
 * Every OpenAI-shaped request (OpenAI itself, any OpenAI-compatible server, the OSS handlers'
 * completions) goes through the `openai` SDK client.
 */
function openAIPost(endpoint: OpenAIEndpoint, options: CreateModelOptions): RawPost {
  const client = lazily(async () => {
    const { default: OpenAI } = await import('openai');
    return new OpenAI({
      apiKey: endpoint.apiKey,
      baseURL: endpoint.baseURL,
      defaultHeaders: endpoint.defaultHeaders,
      maxRetries: 0, // our retry policy is in charge (src/models/retry.ts)
      ...(await sdkNetwork<OpenAIClientOptions>(options)),
    });
  });
  return sdkPost(client, options);
}

function anthropicPost(config: ModelConfig, env: Environment, options: CreateModelOptions): RawPost {
  const apiKey = requireKey(env, 'ANTHROPIC_API_KEY', config);
  const client = lazily(async () => {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    return new Anthropic({
      apiKey,
      baseURL: options.baseUrl ?? nonEmpty(env['ANTHROPIC_BASE_URL']) ?? ANTHROPIC_API_BASE_URL,
      maxRetries: 0, // our retry policy is in charge (src/models/retry.ts)
      ...(await sdkNetwork<AnthropicClientOptions>(options)),
    });
  });
  return sdkPost(client, options);
}

/**
 * How an SDK client reaches the network: an injected `fetch` as it is; else undici's `fetch` with an
 * `Agent` of our own, passed through the SDKs' documented `fetch` and `fetchOptions.dispatcher`.
 * The agent keeps connections alive between a run's requests, and its header and body timeouts are
 * off: the per-request timeout the SDK is given (up to the reference's 20 h for local servers) is
 * the only limit, where node's default agent would cut any answer that takes over 300 s.
 */
async function sdkNetwork<Options extends OpenAIClientOptions | AnthropicClientOptions>(
  options: CreateModelOptions,
): Promise<Pick<Options, 'fetch' | 'fetchOptions'>> {
  if (options.fetch !== undefined) return { fetch: options.fetch };
  const { Agent, fetch } = await import('undici');
  const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
  // Each SDK types these with its own copy of the fetch types; undici's are the same at run time.
  return { fetch, fetchOptions: { dispatcher } } as unknown as Pick<Options, 'fetch' | 'fetchOptions'>;
}

/** What the two SDK clients share: a raw `post` whose answer can be had as the HTTP response. */
interface PostingClient {
  post(
    path: string,
    options: { body: unknown; headers: typeof JSON_HEADERS; timeout: number; signal: AbortSignal | undefined; maxRetries: 0 },
  ): { asResponse(): Promise<Response> };
}

/** A `RawPost` through an SDK client created on first use; our retry policy is in charge, so the SDK retries nothing. */
function sdkPost(client: () => Promise<PostingClient>, options: CreateModelOptions): RawPost {
  return async (path, body, { timeoutMs, signal }) =>
    (await client())
      .post(path, { body: sdkBody(body, options), headers: JSON_HEADERS, timeout: timeoutMs, signal, maxRetries: 0 })
      .asResponse();
}

/**
 * The body as the SDK is given it: our UTF-8 bytes as they are for undici (the SDKs pass byte bodies
 * through untouched); as text for an injected fetch, which tests and the conformance check read as a string.
 */
function sdkBody(body: Buffer, options: CreateModelOptions): Buffer | string {
  return options.fetch === undefined ? body : body.toString('utf8');
}

/**
 * The body is sent as the JSON text we serialised (so key order and Python number forms survive);
 * the SDKs pass a string body through only when the content type is given.
 */
const JSON_HEADERS = { 'Content-Type': 'application/json' } as const;

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

/** `create()` run once, on first use; every caller shares its promise. */
function lazily<T>(create: () => Promise<T>): () => Promise<T> {
  let created: Promise<T> | undefined;
  return () => (created ??= create());
}

/** A `UsageError` for a request parameter the model's API has no field for (rather than dropping it silently). */
function requireSupported(config: ModelConfig, request: RequestParameters, names: RequestParameterNames, api: string): void {
  if (request.seed !== undefined && names.seed === undefined) {
    throw new UsageError(`--seed cannot be sent to ${config.registryName}: ${api} has no seed parameter.`);
  }
}

function requireKey(env: Environment, name: string, config: ModelConfig): string {
  const key = nonEmpty(env[name]);
  if (key === undefined) {
    throw new UsageError(`Model ${config.registryName} needs an API key: set ${name} (in the environment or in .env)`);
  }
  return key;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

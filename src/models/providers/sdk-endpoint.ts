/**
 * Where a model is reached and through which SDK client: the one place that resolves endpoints and
 * keys from the environment (the reference's variable names) and builds the `openai` and
 * `@anthropic-ai/sdk` clients. `bfcl generate` (create-model.ts) and `bfcl judge` both go through it.
 */

import type { ClientOptions as AnthropicClientOptions } from '@anthropic-ai/sdk';
import type { ClientOptions as OpenAIClientOptions } from 'openai';

import { UsageError } from '../../util/errors.js';
import type { ModelConfig } from '../model-registry.js';
import type { RawPost } from './transport.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** BFCL parity: constants/eval_config.py::LOCAL_SERVER_PORT. */
export const DEFAULT_LOCAL_SERVER_PORT = '1053';
const OPENAI_API_BASE_URL = 'https://api.openai.com/v1';
const ANTHROPIC_API_BASE_URL = 'https://api.anthropic.com';
/** The key sent to local servers that do not check one (the reference's `REMOTE_OPENAI_API_KEY` default). */
const NO_KEY = 'EMPTY';

/** Which SDK a model is asked through, where it connects, and with which key and headers. */
export interface ProviderEndpoint {
  readonly provider: 'openai' | 'anthropic';
  readonly baseURL: string;
  readonly apiKey: string;
  readonly defaultHeaders: Record<string, string> | undefined;
}

/**
 * The endpoint of `config` (a registry model, or `openai-compatible/<id>`), with `baseUrl` the
 * command's `--base-url`. Throws a `UsageError` for a missing key or a handler this port does not
 * implement.
 * - OpenAI handlers: `--base-url`, else `OPENAI_BASE_URL` (the reference's client settings), else,
 *   for a model the registry does not know, the reference's local-server settings
 *   (`REMOTE_OPENAI_BASE_URL`, else `http://$LOCAL_SERVER_ENDPOINT:$LOCAL_SERVER_PORT/v1`), else
 *   OpenAI; key: `OPENAI_API_KEY` for OpenAI itself (required), for other endpoints the key that goes
 *   with the endpoint's variable, or `EMPTY` (local servers usually check none).
 * - Claude: `--base-url`, else `ANTHROPIC_BASE_URL`, else Anthropic; `ANTHROPIC_API_KEY` required.
 * - OSS handlers: `--base-url`, else the local server (BFCL parity: base_oss_handler.py::__init__).
 */
export function resolveProviderEndpoint(config: ModelConfig, env: Environment, baseUrl: string | undefined): ProviderEndpoint {
  switch (config.family) {
    case 'openai-responses':
    case 'openai-completions':
      return { provider: 'openai', ...openAIEndpoint(config, env, baseUrl) };
    case 'anthropic':
      return {
        provider: 'anthropic',
        baseURL: baseUrl ?? nonEmpty(env['ANTHROPIC_BASE_URL']) ?? ANTHROPIC_API_BASE_URL,
        apiKey: requireKey(env, 'ANTHROPIC_API_KEY', config),
        defaultHeaders: undefined,
      };
    case 'oss': {
      const local = localServerEndpoint(env);
      return { provider: 'openai', baseURL: baseUrl ?? local.baseURL, apiKey: local.apiKey, defaultHeaders: undefined };
    }
    case 'other':
      throw new UsageError(
        `Model ${config.registryName} uses the reference's ${config.handler}, which this port does not implement. ` +
          `If it is served by an OpenAI-compatible server, run it as --model openai-compatible/${config.modelName} --base-url <url>.`,
      );
  }
}

function openAIEndpoint(config: ModelConfig, env: Environment, baseUrl: string | undefined): Omit<ProviderEndpoint, 'provider'> {
  const defaultHeaders = parseDefaultHeaders(env);
  const openAIKey = nonEmpty(env['OPENAI_API_KEY']);
  const remoteKey = nonEmpty(env['REMOTE_OPENAI_API_KEY']);
  if (baseUrl !== undefined) return { baseURL: baseUrl, apiKey: remoteKey ?? openAIKey ?? NO_KEY, defaultHeaders };
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

/** `OPENAI_DEFAULT_HEADERS`: a JSON object of extra headers. */
function parseDefaultHeaders(env: Environment): Record<string, string> | undefined {
  const text = nonEmpty(env['OPENAI_DEFAULT_HEADERS']);
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`OPENAI_DEFAULT_HEADERS must be a JSON object of header names to values, got: ${text}`);
  }
  return Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, String(value)]));
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

// The SDKs are imported when a client is first used, not when the CLI starts: together they take
// about 250 ms to load, which every other command (evaluate, show, report) would pay for nothing.

/** Options of `sdkRawPost`. */
export interface SdkPostOptions {
  /** Injected for tests and the conformance check (body as text); default undici's, see `sdkNetwork`. */
  readonly fetch?: typeof globalThis.fetch | undefined;
}

/**
 * A `RawPost` through the endpoint's SDK client, created on first use, with the SDK's own retries
 * off (our policy, src/models/retry.ts, is in charge).
 */
export function sdkRawPost(endpoint: ProviderEndpoint, options: SdkPostOptions = {}): RawPost {
  let client: Promise<PostingClient> | undefined;
  const create = async (): Promise<PostingClient> => {
    if (endpoint.provider === 'anthropic') {
      const { default: Anthropic } = await import('@anthropic-ai/sdk');
      return new Anthropic({ apiKey: endpoint.apiKey, baseURL: endpoint.baseURL, maxRetries: 0, ...(await sdkNetwork<AnthropicClientOptions>(options)) });
    }
    const { default: OpenAI } = await import('openai');
    return new OpenAI({
      apiKey: endpoint.apiKey,
      baseURL: endpoint.baseURL,
      defaultHeaders: endpoint.defaultHeaders,
      maxRetries: 0,
      ...(await sdkNetwork<OpenAIClientOptions>(options)),
    });
  };
  return async (path, body, { timeoutMs, signal }) => {
    client ??= create();
    // Our UTF-8 bytes go to undici as they are; an injected fetch (tests) gets the text.
    const sent = options.fetch === undefined ? body : body.toString('utf8');
    return (await client).post(path, { body: sent, headers: JSON_HEADERS, timeout: timeoutMs, signal, maxRetries: 0 }).asResponse();
  };
}

/**
 * How an SDK client reaches the network: an injected `fetch` as it is; else undici's `fetch` with an
 * `Agent` of our own, passed through the SDKs' documented `fetch` and `fetchOptions.dispatcher`.
 * The agent keeps connections alive between a run's requests, and its header and body timeouts are
 * off: the per-request timeout the SDK is given (up to the reference's 20 h for local servers) is
 * the only limit, where node's default agent would cut any answer that takes over 300 s.
 */
async function sdkNetwork<Options extends OpenAIClientOptions | AnthropicClientOptions>(
  options: SdkPostOptions,
): Promise<Pick<Options, 'fetch' | 'fetchOptions'>> {
  if (options.fetch !== undefined) return { fetch: options.fetch } as Pick<Options, 'fetch' | 'fetchOptions'>;
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

/**
 * The body is sent as the JSON text we serialised (so key order and Python number forms survive);
 * the SDKs pass a string body through only when the content type is given.
 */
const JSON_HEADERS = { 'Content-Type': 'application/json' } as const;

/**
 * Which API a `--judge` name is asked through, with which model id, key and base URL: the rules of
 * `bfcl generate` (src/models/create-model.ts) for the registry's OpenAI and Claude models, locally
 * served registry models and `openai-compatible/<id>`, with `--judge-base-url` in place of `--base-url`.
 */

import { findModel, OPENAI_COMPATIBLE_PREFIX, type ModelConfig } from '../models/model-registry.js';
import { UsageError } from '../util/errors.js';
import type { JudgeProvider } from './judge-request.js';

/** Where and how a judge is reached. */
export interface JudgeEndpoint {
  readonly provider: JudgeProvider;
  /** The `--judge` name as given. */
  readonly name: string;
  /** The API model id sent in requests. */
  readonly model: string;
  readonly baseURL: string;
  readonly apiKey: string;
  readonly defaultHeaders: Readonly<Record<string, string>> | undefined;
  /** USD per million input / output tokens from the registry, when it has them. */
  readonly inputPrice: number | null;
  readonly outputPrice: number | null;
}

type Environment = Readonly<Record<string, string | undefined>>;

const OPENAI_API_BASE_URL = 'https://api.openai.com/v1';
const ANTHROPIC_API_BASE_URL = 'https://api.anthropic.com';
/** BFCL parity: constants/eval_config.py::LOCAL_SERVER_PORT (as create-model.ts). */
const DEFAULT_LOCAL_SERVER_PORT = '1053';
const NO_KEY = 'EMPTY';

/** Resolve `--judge`; throws a `UsageError` for unknown names, unported handlers and missing keys. */
export function resolveJudgeEndpoint(name: string, env: Environment, baseUrl?: string): JudgeEndpoint {
  const known = findModel(name);
  if (known === undefined && !name.startsWith(OPENAI_COMPATIBLE_PREFIX)) {
    throw new UsageError(`Unknown judge '${name}': give a registry name (bfcl models) or ${OPENAI_COMPATIBLE_PREFIX}<model id> with --judge-base-url.`);
  }
  const headers = parseDefaultHeaders(env);
  const prices = { inputPrice: known?.inputPrice ?? null, outputPrice: known?.outputPrice ?? null };
  if (known === undefined) {
    const model = name.slice(OPENAI_COMPATIBLE_PREFIX.length);
    if (model === '') throw new UsageError(`--judge ${name}: give the model id after ${OPENAI_COMPATIBLE_PREFIX}`);
    const local = localServer(env);
    const url = baseUrl ?? nonEmpty(env['OPENAI_BASE_URL']) ?? local.baseURL;
    const apiKey = baseUrl !== undefined ? (nonEmpty(env['REMOTE_OPENAI_API_KEY']) ?? nonEmpty(env['OPENAI_API_KEY']) ?? NO_KEY) : nonEmpty(env['OPENAI_BASE_URL']) !== undefined ? (nonEmpty(env['OPENAI_API_KEY']) ?? NO_KEY) : local.apiKey;
    return { provider: 'openai', name, model, baseURL: url, apiKey, defaultHeaders: headers, ...prices };
  }
  switch (known.family) {
    case 'openai-responses':
    case 'openai-completions': {
      if (baseUrl !== undefined) {
        return { provider: 'openai', name, model: known.modelName, baseURL: baseUrl, apiKey: nonEmpty(env['REMOTE_OPENAI_API_KEY']) ?? nonEmpty(env['OPENAI_API_KEY']) ?? NO_KEY, defaultHeaders: headers, ...prices };
      }
      const openAIBaseUrl = nonEmpty(env['OPENAI_BASE_URL']);
      if (openAIBaseUrl !== undefined) {
        return { provider: 'openai', name, model: known.modelName, baseURL: openAIBaseUrl, apiKey: nonEmpty(env['OPENAI_API_KEY']) ?? NO_KEY, defaultHeaders: headers, ...prices };
      }
      return { provider: 'openai', name, model: known.modelName, baseURL: OPENAI_API_BASE_URL, apiKey: requireKey(env, 'OPENAI_API_KEY', known), defaultHeaders: headers, ...prices };
    }
    case 'anthropic':
      return {
        provider: 'anthropic',
        name,
        model: known.modelName,
        baseURL: baseUrl ?? nonEmpty(env['ANTHROPIC_BASE_URL']) ?? ANTHROPIC_API_BASE_URL,
        apiKey: requireKey(env, 'ANTHROPIC_API_KEY', known),
        defaultHeaders: undefined,
        ...prices,
      };
    case 'oss': {
      // A locally served model is asked through its server's chat template (Chat Completions).
      const local = localServer(env);
      return { provider: 'openai', name, model: known.modelName, baseURL: baseUrl ?? local.baseURL, apiKey: local.apiKey, defaultHeaders: undefined, ...prices };
    }
    case 'other':
      throw new UsageError(
        `--judge ${name} uses the reference's ${known.handler}, which this port does not implement. ` +
          `If it is served by an OpenAI-compatible server, use --judge openai-compatible/${known.modelName} --judge-base-url <url>.`,
      );
  }
}

/** BFCL parity: base_oss_handler.py::__init__ — `REMOTE_OPENAI_BASE_URL`, else the local server. */
function localServer(env: Environment): { baseURL: string; apiKey: string } {
  const host = nonEmpty(env['LOCAL_SERVER_ENDPOINT']) ?? 'localhost';
  const port = nonEmpty(env['LOCAL_SERVER_PORT']) ?? DEFAULT_LOCAL_SERVER_PORT;
  return { baseURL: nonEmpty(env['REMOTE_OPENAI_BASE_URL']) ?? `http://${host}:${port}/v1`, apiKey: nonEmpty(env['REMOTE_OPENAI_API_KEY']) ?? NO_KEY };
}

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
  return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]));
}

function requireKey(env: Environment, variable: string, config: ModelConfig): string {
  const key = nonEmpty(env[variable]);
  if (key === undefined) throw new UsageError(`Judge ${config.registryName} needs an API key: set ${variable} (in the environment or in .env)`);
  return key;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

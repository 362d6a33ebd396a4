/**
 * Which API a `--judge` name is asked through, with which model id, key and base URL: the rules of
 * `bfcl generate` (src/models/providers/sdk-endpoint.ts) for the registry's OpenAI and Claude models,
 * locally served registry models and `openai-compatible/<id>`, with `--judge-base-url` in place of `--base-url`.
 */

import { fallbackModelConfig, findModel, OPENAI_COMPATIBLE_PREFIX } from '../models/model-registry.js';
import { resolveProviderEndpoint, type Environment, type ProviderEndpoint } from '../models/providers/sdk-endpoint.js';
import { UsageError } from '../util/errors.js';

/** Where and how a judge is reached. */
export interface JudgeEndpoint extends ProviderEndpoint {
  /** The `--judge` name as given. */
  readonly name: string;
  /** The API model id sent in requests. */
  readonly model: string;
  /** USD per million input / output tokens from the registry, when it has them. */
  readonly inputPrice: number | null;
  readonly outputPrice: number | null;
}

/** Resolve `--judge`; throws a `UsageError` for unknown names, unported handlers and missing keys. */
export function resolveJudgeEndpoint(name: string, env: Environment, baseUrl?: string): JudgeEndpoint {
  const known = findModel(name);
  if (known === undefined && !name.startsWith(OPENAI_COMPATIBLE_PREFIX)) {
    throw new UsageError(`Unknown judge '${name}': give a registry name (bfcl models) or ${OPENAI_COMPATIBLE_PREFIX}<model id> with --judge-base-url.`);
  }
  if (known === undefined && name === OPENAI_COMPATIBLE_PREFIX) throw new UsageError(`--judge ${name}: give the model id after ${OPENAI_COMPATIBLE_PREFIX}`);
  if (known?.family === 'other') {
    throw new UsageError(
      `--judge ${name} uses the reference's ${known.handler}, which this port does not implement. ` +
        `If it is served by an OpenAI-compatible server, use --judge openai-compatible/${known.modelName} --judge-base-url <url>.`,
    );
  }
  // The same endpoint and key rules as `bfcl generate` (one place: sdk-endpoint.ts); a locally
  // served registry model is asked through its server's chat template (Chat Completions).
  const config = known ?? fallbackModelConfig(name);
  const endpoint = resolveProviderEndpoint(config, env, baseUrl);
  return { ...endpoint, name, model: config.modelName, inputPrice: known?.inputPrice ?? null, outputPrice: known?.outputPrice ?? null };
}

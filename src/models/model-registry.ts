/**
 * The model registry: every registry name of the reference's `MODEL_CONFIG_MAPPING`, with what the
 * harness needs to run it (handler family, tool style) and to report it (display name, prices...),
 * plus the rule for models the registry does not know.
 */

import { InternalError } from '../util/errors.js';
import { MODEL_RECORDS, type ModelRecord } from './model-registry-data.js';
import { ModelStyle } from './tools/model-style.js';

export type { ModelRecord } from './model-registry-data.js';

/**
 * Which request/response protocol a model speaks, as far as this port implements it:
 * - `openai-responses`: OpenAI Responses API (`OpenAIResponsesHandler`);
 * - `openai-completions`: OpenAI chat completions, also any OpenAI-compatible server (`OpenAICompletionsHandler`);
 * - `anthropic`: Anthropic Messages API (`ClaudeHandler`);
 * - `oss`: a locally served model behind the raw completions endpoint, with a handler-specific chat template
 *   (`OSSHandler` subclasses; always prompting);
 * - `other`: a vendor handler with its own client or quirks that this port does not implement.
 */
export type HandlerFamily = 'openai-responses' | 'openai-completions' | 'anthropic' | 'oss' | 'other';

/** The reference base class a handler derives from. */
export type HandlerBase = 'BaseHandler' | 'OpenAICompletionsHandler' | 'OSSHandler';

interface HandlerInfo {
  readonly family: HandlerFamily;
  readonly base: HandlerBase;
  readonly style: ModelStyle;
}

const OSS: HandlerInfo = { family: 'oss', base: 'OSSHandler', style: ModelStyle.OSSMODEL };
/** A vendor subclass of `OpenAICompletionsHandler` (own endpoint, key or parsing). */
const OPENAI_SUBCLASS: HandlerInfo = {
  family: 'other',
  base: 'OpenAICompletionsHandler',
  style: ModelStyle.OPENAI_COMPLETIONS,
};

/** Every handler class of the reference, with the `model_style` its constructor sets (or inherits). */
const HANDLERS: ReadonlyMap<string, HandlerInfo> = new Map<string, HandlerInfo>([
  ['OpenAIResponsesHandler', { family: 'openai-responses', base: 'BaseHandler', style: ModelStyle.OPENAI_RESPONSES }],
  [
    'OpenAICompletionsHandler',
    { family: 'openai-completions', base: 'BaseHandler', style: ModelStyle.OPENAI_COMPLETIONS },
  ],
  ['ClaudeHandler', { family: 'anthropic', base: 'BaseHandler', style: ModelStyle.ANTHROPIC }],
  // Other API vendors with their own SDK or protocol.
  ['CohereHandler', { family: 'other', base: 'BaseHandler', style: ModelStyle.COHERE }],
  ['GeminiHandler', { family: 'other', base: 'BaseHandler', style: ModelStyle.GOOGLE }],
  ['GorillaHandler', { family: 'other', base: 'BaseHandler', style: ModelStyle.GORILLA }],
  ['MistralHandler', { family: 'other', base: 'BaseHandler', style: ModelStyle.MISTRAL }],
  ['NexusHandler', { family: 'other', base: 'BaseHandler', style: ModelStyle.NEXUS }],
  ['NovaHandler', { family: 'other', base: 'BaseHandler', style: ModelStyle.AMAZON }],
  // OpenAI-compatible vendors (subclasses of OpenAICompletionsHandler).
  ['DeepSeekAPIHandler', OPENAI_SUBCLASS],
  ['DMCitoHandler', OPENAI_SUBCLASS],
  ['FunctionaryHandler', OPENAI_SUBCLASS],
  ['GLMAPIHandler', OPENAI_SUBCLASS],
  ['GoGoAgentHandler', OPENAI_SUBCLASS],
  ['GrokHandler', OPENAI_SUBCLASS],
  ['KimiHandler', OPENAI_SUBCLASS],
  ['LingAPIHandler', OPENAI_SUBCLASS],
  ['MiningHandler', OPENAI_SUBCLASS],
  ['NanbeigeAPIHandler', OPENAI_SUBCLASS],
  ['NemotronHandler', OPENAI_SUBCLASS],
  ['NvidiaHandler', OPENAI_SUBCLASS],
  ['QwenAPIHandler', OPENAI_SUBCLASS],
  ['QwenAgentThinkHandler', OPENAI_SUBCLASS],
  ['QwenAgentNoThinkHandler', OPENAI_SUBCLASS],
  ['FireworksHandler', { ...OPENAI_SUBCLASS, style: ModelStyle.FIREWORK_AI }],
  ['NovitaHandler', { ...OPENAI_SUBCLASS, style: ModelStyle.NOVITA_AI }],
  ['WriterHandler', { ...OPENAI_SUBCLASS, style: ModelStyle.WRITER }],
  // Locally served models (subclasses of OSSHandler); each has its own chat template.
  ['ArchHandler', OSS],
  ['BielikHandler', OSS],
  ['BitAgentHandler', OSS],
  ['DeepseekReasoningHandler', OSS],
  ['Falcon3FCHandler', OSS],
  ['FunctionGemmaHandler', OSS],
  ['GemmaHandler', OSS],
  ['GLMHandler', OSS],
  ['GraniteFunctionCallingHandler', OSS],
  ['Granite3FCHandler', OSS],
  ['Granite4FCHandler', OSS],
  ['HammerHandler', OSS],
  ['LlamaHandler', OSS],
  ['LlamaHandler_3_1', OSS],
  ['MiniCPMHandler', OSS],
  ['MiniCPMFCHandler', OSS],
  ['MistralFCHandler', OSS],
  ['NanbeigeFCHandler', OSS],
  ['PelicanVLFCHandler', OSS],
  ['PhiHandler', OSS],
  ['PhiFCHandler', OSS],
  ['QuickTestingOSSHandler', OSS],
  ['QwenHandler', OSS],
  ['QwenFCHandler', OSS],
  ['SalesforceLlamaHandler', OSS],
  ['SalesforceQwenHandler', OSS],
  ['ThinkAgentHandler', OSS],
]);

/** A registry entry with what follows from its handler. */
export interface ModelConfig extends ModelRecord {
  readonly family: HandlerFamily;
  readonly handlerBase: HandlerBase;
  /** Tool compilation style of the handler (`self.model_style`). */
  readonly modelStyle: ModelStyle;
  /** Result and score directory name: the registry name with every `/` replaced by `_`. */
  readonly resultDirName: string;
  /** False for a configuration made up by `resolveModel` for a name the registry does not know. */
  readonly known: boolean;
}

/** Result/score directory name of a registry name (`registry_name.replace("/", "_")`). */
export function modelResultDirName(registryName: string): string {
  return registryName.replaceAll('/', '_');
}

/** Completes a record with its handler facts; throws for a handler class the table does not know. */
export function buildModelConfig(record: ModelRecord, known = true): ModelConfig {
  const info = HANDLERS.get(record.handler);
  if (info === undefined) {
    throw new InternalError(`Unknown handler class "${record.handler}" for model ${record.registryName}`);
  }
  return {
    ...record,
    family: info.family,
    handlerBase: info.base,
    modelStyle: info.style,
    resultDirName: modelResultDirName(record.registryName),
    known,
  };
}

/** A registry: registry name → configuration, in registration order. */
export type ModelRegistry = ReadonlyMap<string, ModelConfig>;

/** The reference's `MODEL_CONFIG_MAPPING` (175 registry names). */
export const MODEL_REGISTRY: ModelRegistry = new Map(MODEL_RECORDS.map((r) => [r.registryName, buildModelConfig(r)]));

/** A registry with extra (or replacing) entries, e.g. a locally served model registered by the user. */
export function extendRegistry(records: Iterable<ModelRecord>, base: ModelRegistry = MODEL_REGISTRY): ModelRegistry {
  const registry = new Map(base);
  for (const record of records) registry.set(record.registryName, buildModelConfig(record));
  return registry;
}

/**
 * The configuration of a registry name or of a result directory name (`/` written as `_`);
 * undefined when neither is registered.
 */
export function findModel(name: string, registry: ModelRegistry = MODEL_REGISTRY): ModelConfig | undefined {
  const exact = registry.get(name);
  if (exact !== undefined) return exact;
  // BFCL parity: __main__.py::display_name / eval_runner_helper — a directory name maps back by `_` → `/`.
  // Registry names contain no `_`, so matching the directory form of every name is the same lookup.
  for (const config of registry.values()) if (config.resultDirName === name) return config;
  return undefined;
}

/** Prefix of a model served by any OpenAI-compatible endpoint: `openai-compatible/<model id>`. */
export const OPENAI_COMPATIBLE_PREFIX = 'openai-compatible/';

/** What the caller knows about a model that is not in the registry. */
export interface FallbackModelOptions {
  /** Function-calling mode (default true). */
  readonly isFcModel?: boolean;
  /** Default: same as `isFcModel`, because tool compilation turns `.` into `_` for FC models. */
  readonly underscoreToDot?: boolean;
}

/**
 * A configuration for a name the registry does not know, so that any OpenAI-compatible model can be
 * run and any result directory evaluated. The rule:
 * - handler `OpenAICompletionsHandler` (family `openai-completions`, style OPENAI_COMPLETIONS);
 * - API model name = the name without a leading `openai-compatible/`, else the name itself;
 * - display name = the name as given; url, org and license are empty; prices are null (so reports use the
 *   reference's GPU-time cost formula);
 * - FC mode unless `isFcModel: false`; `underscoreToDot` defaults to the FC flag, since an FC model only
 *   ever sees `_` in place of `.` (the tools are compiled that way);
 * - `known: false`.
 */
export function fallbackModelConfig(name: string, options: FallbackModelOptions = {}): ModelConfig {
  const isFcModel = options.isFcModel ?? true;
  const modelName = name.startsWith(OPENAI_COMPATIBLE_PREFIX) ? name.slice(OPENAI_COMPATIBLE_PREFIX.length) : name;
  return buildModelConfig(
    {
      registryName: name,
      modelName,
      displayName: name,
      url: '',
      org: '',
      license: '',
      handler: 'OpenAICompletionsHandler',
      inputPrice: null,
      outputPrice: null,
      isFcModel,
      underscoreToDot: options.underscoreToDot ?? isFcModel,
    },
    false,
  );
}

/** `findModel`, or the fallback configuration of `fallbackModelConfig` for an unknown name. */
export function resolveModel(
  name: string,
  options: FallbackModelOptions = {},
  registry: ModelRegistry = MODEL_REGISTRY,
): ModelConfig {
  return findModel(name, registry) ?? fallbackModelConfig(name, options);
}

/**
 * Whether generation takes the FC path. BFCL parity: base_handler.py::inference — `"FC" in registry_name
 * or is_fc_model`; OSS handlers override `inference` and always prompt.
 */
export function usesFcInference(config: ModelConfig): boolean {
  if (config.family === 'oss') return false;
  return config.registryName.includes('FC') || config.isFcModel;
}

/** The message for an unknown `--model`: the reference's first line, then pointers that exist in bfcl-ts (the reference names SUPPORTED_MODELS.md and CONTRIBUTING.md). */
export function unknownModelMessage(name: string): string {
  return (
    `Unknown model_name '${name}'.\n` +
    '• Run `bfcl models` for the models of the registry.\n' +
    '• Any model behind an OpenAI-compatible server (vLLM, sglang, ollama): --model openai-compatible/<model id> --base-url <url>.'
  );
}

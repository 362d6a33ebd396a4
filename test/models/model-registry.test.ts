/** The model registry: the reference's MODEL_CONFIG_MAPPING, lookups and the rule for unknown models. */
import { describe, expect, it } from 'vitest';

import { MODEL_RECORDS } from '../../src/models/model-registry-data.js';
import {
  MODEL_REGISTRY,
  buildModelConfig,
  extendRegistry,
  fallbackModelConfig,
  findModel,
  modelResultDirName,
  resolveModel,
  unknownModelMessage,
  usesFcInference,
  type HandlerFamily,
} from '../../src/models/model-registry.js';
import { ModelStyle } from '../../src/models/tools/model-style.js';
import { InternalError } from '../../src/util/errors.js';

describe('MODEL_REGISTRY', () => {
  it('has the 175 keys of MODEL_CONFIG_MAPPING, none with "_"', () => {
    expect(MODEL_RECORDS).toHaveLength(175);
    expect(MODEL_REGISTRY.size).toBe(175);
    for (const name of MODEL_REGISTRY.keys()) expect(name).not.toContain('_');
  });

  it('keeps the reference order (API models first, third-party hosts last)', () => {
    const names = [...MODEL_REGISTRY.keys()];
    expect(names[0]).toBe('gorilla-openfunctions-v2');
    expect(names.at(-1)).toBe('qwen3-4b-nothink-FC');
  });

  it('knows every handler it uses', () => {
    for (const record of MODEL_RECORDS) expect(() => buildModelConfig(record)).not.toThrow();
    const families = new Map<HandlerFamily, number>();
    for (const config of MODEL_REGISTRY.values()) families.set(config.family, (families.get(config.family) ?? 0) + 1);
    expect(Object.fromEntries(families)).toEqual({ other: 73, 'openai-responses': 20, anthropic: 6, oss: 75, 'openai-completions': 1 });
  });

  it('gpt-4o-2024-11-20-FC', () => {
    expect(findModel('gpt-4o-2024-11-20-FC')).toEqual({
      registryName: 'gpt-4o-2024-11-20-FC',
      modelName: 'gpt-4o-2024-11-20',
      displayName: 'GPT-4o-2024-11-20 (FC)',
      url: 'https://openai.com/index/hello-gpt-4o/',
      org: 'OpenAI',
      license: 'Proprietary',
      handler: 'OpenAIResponsesHandler',
      inputPrice: 2.5,
      outputPrice: 10,
      isFcModel: true,
      underscoreToDot: true,
      family: 'openai-responses',
      handlerBase: 'BaseHandler',
      modelStyle: ModelStyle.OPENAI_RESPONSES,
      resultDirName: 'gpt-4o-2024-11-20-FC',
      known: true,
    });
  });

  it('gpt-4o-2024-11-20 (prompting twin)', () => {
    const config = findModel('gpt-4o-2024-11-20')!;
    expect(config.displayName).toBe('GPT-4o-2024-11-20 (Prompt)');
    expect(config.isFcModel).toBe(false);
    expect(config.underscoreToDot).toBe(false);
    expect(usesFcInference(config)).toBe(false);
  });

  it('claude-sonnet-4-5-20250929-FC', () => {
    expect(findModel('claude-sonnet-4-5-20250929-FC')).toMatchObject({
      modelName: 'claude-sonnet-4-5-20250929',
      displayName: 'Claude-Sonnet-4-5-20250929 (FC)',
      url: 'https://www.anthropic.com/news/claude-sonnet-4-5',
      org: 'Anthropic',
      license: 'Proprietary',
      handler: 'ClaudeHandler',
      inputPrice: 3,
      outputPrice: 15,
      isFcModel: true,
      underscoreToDot: true,
      family: 'anthropic',
      modelStyle: ModelStyle.ANTHROPIC,
    });
  });

  it('o4-mini-2025-04-16-FC prices', () => {
    expect(findModel('o4-mini-2025-04-16-FC')).toMatchObject({ inputPrice: 1.1, outputPrice: 4.4 });
  });

  it('an OSS model: Qwen/Qwen3-8B and its FC twin', () => {
    const prompt = findModel('Qwen/Qwen3-8B')!;
    expect(prompt).toMatchObject({
      modelName: 'Qwen/Qwen3-8B',
      displayName: 'Qwen3-8B (Prompt)',
      url: 'https://huggingface.co/Qwen/Qwen3-8B',
      org: 'Qwen',
      license: 'apache-2.0',
      handler: 'QwenHandler',
      inputPrice: null,
      outputPrice: null,
      isFcModel: false,
      underscoreToDot: false,
      family: 'oss',
      handlerBase: 'OSSHandler',
      modelStyle: ModelStyle.OSSMODEL,
      resultDirName: 'Qwen_Qwen3-8B',
    });
    const fc = findModel('Qwen/Qwen3-8B-FC')!;
    expect(fc).toMatchObject({ handler: 'QwenFCHandler', isFcModel: true, underscoreToDot: false, family: 'oss' });
    // OSS handlers always take the prompting path, whatever the name or flag says.
    expect(usesFcInference(fc)).toBe(false);
  });

  it('a third-party OpenAI-compatible vendor: qwen/qwq-32b-FC-novita', () => {
    expect(findModel('qwen/qwq-32b-FC-novita')).toMatchObject({
      modelName: 'qwen/qwq-32b',
      displayName: 'Qwen/QwQ-32B (FC) (Novita)',
      handler: 'NovitaHandler',
      inputPrice: 0.18,
      outputPrice: 0.2,
      family: 'other',
      handlerBase: 'OpenAICompletionsHandler',
      modelStyle: ModelStyle.NOVITA_AI,
    });
  });

  it('the one plain OpenAICompletionsHandler entry', () => {
    expect(findModel('openbmb/MiniCPM-SALA-FC')).toMatchObject({ family: 'openai-completions', modelStyle: ModelStyle.OPENAI_COMPLETIONS });
  });
});

describe('findModel', () => {
  it('accepts the result-directory form of a name', () => {
    expect(findModel('Qwen_Qwen3-8B')?.registryName).toBe('Qwen/Qwen3-8B');
    expect(findModel('meta-llama_Llama-3.1-8B-Instruct')?.registryName).toBe('meta-llama/Llama-3.1-8B-Instruct');
  });

  it('is undefined for an unknown name', () => {
    expect(findModel('no-such-model')).toBeUndefined();
    expect(findModel('gpt-4o-2024-11-20-fc')).toBeUndefined(); // case matters
  });

  it('modelResultDirName replaces every "/"', () => {
    expect(modelResultDirName('a/b/c')).toBe('a_b_c');
  });
});

describe('unknown models', () => {
  it('openai-compatible/<model id> runs that id on the chat-completions handler, in FC mode', () => {
    expect(resolveModel('openai-compatible/llama-3.3-70b')).toEqual({
      registryName: 'openai-compatible/llama-3.3-70b',
      modelName: 'llama-3.3-70b',
      displayName: 'openai-compatible/llama-3.3-70b',
      url: '',
      org: '',
      license: '',
      handler: 'OpenAICompletionsHandler',
      inputPrice: null,
      outputPrice: null,
      isFcModel: true,
      underscoreToDot: true,
      family: 'openai-completions',
      handlerBase: 'BaseHandler',
      modelStyle: ModelStyle.OPENAI_COMPLETIONS,
      resultDirName: 'openai-compatible_llama-3.3-70b',
      known: false,
    });
  });

  it('any other name is used as the model id; prompting when asked', () => {
    const config = resolveModel('openai/gpt-oss-20b-prompting', { isFcModel: false });
    expect(config).toMatchObject({ modelName: 'openai/gpt-oss-20b-prompting', isFcModel: false, underscoreToDot: false, known: false });
    expect(usesFcInference(config)).toBe(false);
  });

  it('underscoreToDot can be set explicitly', () => {
    expect(fallbackModelConfig('synthetic-fc-a', { underscoreToDot: false })).toMatchObject({ isFcModel: true, underscoreToDot: false });
  });

  it('a known name never falls back', () => {
    expect(resolveModel('gpt-4o-2024-11-20', { isFcModel: true }).isFcModel).toBe(false);
  });

  it('extendRegistry registers extra models (e.g. the conformance run of gpt-oss-20b)', () => {
    const registry = extendRegistry([
      {
        registryName: 'openai/gpt-oss-20b',
        modelName: 'openai/gpt-oss-20b',
        displayName: 'openai/gpt-oss-20b (FC) (vLLM)',
        url: 'https://huggingface.co/openai/gpt-oss-20b',
        org: 'OpenAI',
        license: 'apache-2.0',
        handler: 'OpenAICompletionsHandler',
        inputPrice: null,
        outputPrice: null,
        isFcModel: true,
        underscoreToDot: true,
      },
    ]);
    expect(registry.size).toBe(176);
    expect(MODEL_REGISTRY.size).toBe(175);
    expect(findModel('openai_gpt-oss-20b', registry)).toMatchObject({ displayName: 'openai/gpt-oss-20b (FC) (vLLM)', known: true });
  });

  it('an unknown handler class is a bug', () => {
    expect(() => buildModelConfig({ ...MODEL_RECORDS[0]!, handler: 'NoSuchHandler' })).toThrow(InternalError);
  });

  it('the reference message for an unknown --model', () => {
    expect(unknownModelMessage('x')).toBe(
      "Unknown model_name 'x'.\n• Run `bfcl models` for the models of the registry.\n• Any model behind an OpenAI-compatible server (vLLM, sglang, ollama): --model openai-compatible/<model id> --base-url <url>.",
    );
  });
});

describe('usesFcInference', () => {
  it('FC when the registry name contains "FC" or the model is an FC model', () => {
    expect(usesFcInference(findModel('gpt-4o-2024-11-20-FC')!)).toBe(true);
    expect(usesFcInference(findModel('claude-sonnet-4-5-20250929')!)).toBe(false);
    expect(usesFcInference(fallbackModelConfig('my-FC-model', { isFcModel: false }))).toBe(true);
  });
});

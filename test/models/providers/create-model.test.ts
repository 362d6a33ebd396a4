/** `createModel`: adapter choice, API keys checked at construction, endpoints, unsupported handlers. */
import { describe, expect, it } from 'vitest';

import { createModel } from '../../../src/models/create-model.js';
import { buildModelConfig, resolveModel } from '../../../src/models/model-registry.js';
import { AnthropicModel } from '../../../src/models/providers/anthropic-messages.js';
import { OpenAICompletionsModel } from '../../../src/models/providers/openai-completions.js';
import { OpenAIResponsesModel } from '../../../src/models/providers/openai-responses.js';
import { OssCompletionsModel } from '../../../src/models/providers/oss-completions.js';
import { UsageError } from '../../../src/util/errors.js';
import { registered } from './helpers.js';

const usageError = (fn: () => unknown): UsageError => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('no error thrown');
};

describe('createModel', () => {
  it('picks the adapter of the handler family', () => {
    const env = { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' };
    expect(createModel(registered('gpt-4o-2024-11-20-FC'), { env })).toBeInstanceOf(OpenAIResponsesModel);
    expect(createModel(registered('openbmb/MiniCPM-SALA-FC'), { env })).toBeInstanceOf(OpenAICompletionsModel);
    expect(createModel(resolveModel('openai-compatible/x'), { env: {} })).toBeInstanceOf(OpenAICompletionsModel);
    expect(createModel(registered('claude-haiku-4-5-20251001-FC'), { env })).toBeInstanceOf(AnthropicModel);
    expect(createModel(registered('Qwen/Qwen3-8B'), { env: {} })).toBeInstanceOf(OssCompletionsModel);
  });

  it('names OPENAI_API_KEY when an OpenAI model has no key', () => {
    const error = usageError(() => createModel(registered('gpt-4o-2024-11-20-FC'), { env: {} }));
    expect(error.message).toBe('Model gpt-4o-2024-11-20-FC needs an API key: set OPENAI_API_KEY (in the environment or in .env)');
    expect(error.exitCode).toBe(2);
    // An empty value counts as missing.
    usageError(() => createModel(registered('gpt-4o-2024-11-20'), { env: { OPENAI_API_KEY: ' ' } }));
  });

  it('names ANTHROPIC_API_KEY when a Claude model has no key', () => {
    const error = usageError(() => createModel(registered('claude-sonnet-4-5-20250929'), { env: { OPENAI_API_KEY: 'k' } }));
    expect(error.message).toContain('set ANTHROPIC_API_KEY');
  });

  it('needs no OpenAI key for another endpoint', () => {
    expect(() => createModel(registered('gpt-4o-2024-11-20-FC'), { env: { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' } })).not.toThrow();
    expect(() => createModel(registered('gpt-4o-2024-11-20-FC'), { env: {}, baseUrl: 'http://127.0.0.1:1/v1' })).not.toThrow();
  });

  it('refuses handlers this port does not implement, pointing to openai-compatible/', () => {
    const gemini = usageError(() => createModel(registered('gemini-2.5-flash-FC'), { env: {} }));
    expect(gemini.message).toContain('GeminiHandler');
    expect(gemini.message).toContain('--model openai-compatible/');
    const qwenFc = usageError(() => createModel(registered('Qwen/Qwen3-8B-FC'), { env: {} }));
    expect(qwenFc.message).toContain('QwenFCHandler');
  });

  it('refuses a Claude model without a known max_tokens', () => {
    const config = buildModelConfig({ ...registered('claude-sonnet-4-5-20250929'), registryName: 'claude-x', modelName: 'claude-x' });
    expect(usageError(() => createModel(config, { env: { ANTHROPIC_API_KEY: 'k' } })).message).toContain('unsupported Claude model claude-x');
  });

  it('rejects OPENAI_DEFAULT_HEADERS that are not a JSON object', () => {
    const error = usageError(() =>
      createModel(registered('gpt-4o-2024-11-20-FC'), { env: { OPENAI_API_KEY: 'k', OPENAI_DEFAULT_HEADERS: '[1]' } }),
    );
    expect(error.message).toContain('OPENAI_DEFAULT_HEADERS');
  });

  it('derives the mode as the reference does ("FC" in the name or is_fc_model; OSS always prompts)', () => {
    const env = { OPENAI_API_KEY: 'k' };
    expect(createModel(registered('gpt-4o-2024-11-20-FC'), { env }).mode).toBe('fc');
    expect(createModel(registered('gpt-4o-2024-11-20'), { env }).mode).toBe('prompting');
    expect(createModel(resolveModel('openai-compatible/x', { isFcModel: false }), { env }).mode).toBe('prompting');
    expect(createModel(registered('Qwen/Qwen3-8B'), { env }).instanceModelName).toBe('Qwen_Qwen3_8B');
  });
});

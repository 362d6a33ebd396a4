import { describe, expect, it } from 'vitest';

import { createEmbedder, embedderOptionsFromEnv } from '../../../src/agentic/memory/create-embedder.js';
import { EmbeddingsUnavailableError } from '../../../src/agentic/memory/embedder.js';
import { OpenAiCompatibleEmbedder } from '../../../src/agentic/memory/openai-compatible-embedder.js';

describe('embedderOptionsFromEnv', () => {
  it('reads BFCL_EMBEDDINGS_*, ignoring blank values', () => {
    expect(
      embedderOptionsFromEnv({
        BFCL_EMBEDDINGS_BASE_URL: ' http://127.0.0.1:8080/v1 ',
        BFCL_EMBEDDINGS_MODEL: 'all-minilm',
        BFCL_EMBEDDINGS_API_KEY: '',
        BFCL_EMBEDDINGS_MODEL_DIR: '/models/all-MiniLM-L6-v2',
        OTHER: 'x',
      }),
    ).toEqual({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'all-minilm', apiKey: undefined, modelDir: '/models/all-MiniLM-L6-v2' });
    expect(embedderOptionsFromEnv({})).toEqual({ baseUrl: undefined, model: undefined, apiKey: undefined, modelDir: undefined });
  });
});

describe('createEmbedder', () => {
  it('uses the server when a base URL is given, with the default model name', async () => {
    const bodies: unknown[] = [];
    const fakeFetch: typeof fetch = (_input, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      return Promise.resolve(new Response('{"data": [{"embedding": [1, 0]}]}'));
    };
    const embedder = createEmbedder({ baseUrl: 'http://embeddings.test/v1', fetch: fakeFetch });
    expect(embedder).toBeInstanceOf(OpenAiCompatibleEmbedder);
    await embedder.embed(['x']);
    expect(bodies).toEqual([{ model: 'sentence-transformers/all-MiniLM-L6-v2', input: ['x'], encoding_format: 'float' }]);
  });

  it('otherwise loads all-MiniLM-L6-v2 in process, lazily', async () => {
    let imports = 0;
    const embedder = createEmbedder({
      importTransformers: () => {
        imports++;
        return Promise.reject(new Error('missing'));
      },
    });
    expect(imports).toBe(0);
    await expect(embedder.embed(['x'])).rejects.toThrow(EmbeddingsUnavailableError);
    expect(imports).toBe(1);
  });
});

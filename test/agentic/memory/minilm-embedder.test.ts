import { join, sep } from 'node:path';

import { describe, expect, it } from 'vitest';

import { EmbeddingsUnavailableError } from '../../../src/agentic/memory/embedder.js';
import { MINILM_MAX_SEQ_LENGTH, createMiniLmEmbedder, loadMiniLmEmbedder } from '../../../src/agentic/memory/minilm-embedder.js';

/** Captured by the stand-in module. */
interface Seen {
  pretrained: [string, Record<string, unknown>][];
  tokenizerOptions: unknown[];
  batches: string[][];
  env: Record<string, unknown>;
}

/**
 * A stand-in for @huggingface/transformers: text i of a batch has `len(text)` tokens (padded to the
 * batch's longest); token t's hidden state is [t + 1, 1, 0], so mean pooling is checkable by hand.
 */
function fakeTransformers(seen: Seen, failLoad?: Error): unknown {
  const tensor = (data: ArrayLike<number | bigint>, dims: number[]) => ({ data, dims });
  const tokenizer = (texts: string[], options: unknown) => {
    seen.tokenizerOptions.push(options);
    seen.batches.push(texts);
    const tokens = Math.max(...texts.map((t) => t.length));
    const mask = new BigInt64Array(texts.length * tokens);
    texts.forEach((text, b) => {
      for (let t = 0; t < text.length; t++) mask[b * tokens + t] = 1n;
    });
    return { input_ids: tensor(new BigInt64Array(mask.length), [texts.length, tokens]), attention_mask: tensor(mask, [texts.length, tokens]) };
  };
  const model = (inputs: { attention_mask: { dims: number[] } }) => {
    const [batch, tokens] = inputs.attention_mask.dims as [number, number];
    const hidden = new Float32Array(batch * tokens * 3);
    for (let b = 0; b < batch; b++) {
      for (let t = 0; t < tokens; t++) hidden.set([t + 1, 1, 0], (b * tokens + t) * 3);
    }
    return Promise.resolve({ last_hidden_state: tensor(hidden, [batch, tokens, 3]) });
  };
  const loader = (result: unknown) => ({
    from_pretrained: (id: string, options: Record<string, unknown>) => {
      seen.pretrained.push([id, options]);
      return failLoad === undefined ? Promise.resolve(result) : Promise.reject(failLoad);
    },
  });
  return { AutoTokenizer: loader(tokenizer), AutoModel: loader(model), env: seen.env };
}

const newSeen = (): Seen => ({ pretrained: [], tokenizerOptions: [], batches: [], env: {} });

function expectTwoWays(error: unknown): void {
  expect(error).toBeInstanceOf(EmbeddingsUnavailableError);
  const message = (error as Error).message;
  expect(message).toContain('npm install @huggingface/transformers');
  expect(message).toContain('BFCL_EMBEDDINGS_MODEL_DIR');
  expect(message).toContain('--embeddings-base-url or BFCL_EMBEDDINGS_BASE_URL');
  expect(message).toContain('OpenAI-compatible /v1/embeddings server');
}

describe('MiniLM embedder: loading', () => {
  it('reports the missing optional package with the two ways to get embeddings (real dynamic import)', async () => {
    const error = await createMiniLmEmbedder().embed(['hello']).catch((e: unknown) => e);
    expectTwoWays(error);
    expect((error as Error).message).toMatch(/^The optional package @huggingface\/transformers could not be loaded \(.+\)\.\n/);
  });

  it('imports nothing until the first embedding, then once (a failure is kept)', async () => {
    let imports = 0;
    const embedder = createMiniLmEmbedder({
      importTransformers: () => {
        imports++;
        return Promise.reject(new Error("Cannot find package '@huggingface/transformers'"));
      },
    });
    expect(imports).toBe(0);
    await expect(embedder.embed(['a'])).rejects.toThrow(EmbeddingsUnavailableError);
    await expect(embedder.embed(['b'])).rejects.toThrow("could not be loaded (Cannot find package '@huggingface/transformers')");
    expect(imports).toBe(1);
  });

  it('refuses a package without the expected exports', async () => {
    const error = await loadMiniLmEmbedder({ importTransformers: () => Promise.resolve({ pipeline: () => undefined }) }).catch((e: unknown) => e);
    expectTwoWays(error);
    expect((error as Error).message).toMatch(/^@huggingface\/transformers does not export AutoTokenizer, AutoModel and env/);
  });

  it('reports weights that cannot be loaded, naming where they were looked for', async () => {
    const seen = newSeen();
    const error = await loadMiniLmEmbedder({ importTransformers: () => Promise.resolve(fakeTransformers(seen, new Error('Could not locate file'))) }).catch(
      (e: unknown) => e,
    );
    expectTwoWays(error);
    expect((error as Error).message).toMatch(/^all-MiniLM-L6-v2 could not be loaded from the Hugging Face hub as Xenova\/all-MiniLM-L6-v2 \(Could not locate file\)\./);
  });

  it('loads fp32 weights on the CPU from the hub by default', async () => {
    const seen = newSeen();
    await loadMiniLmEmbedder({ importTransformers: () => Promise.resolve(fakeTransformers(seen)), cacheDir: '/cache/models' });
    expect(seen.pretrained).toEqual([
      ['Xenova/all-MiniLM-L6-v2', { dtype: 'fp32', device: 'cpu' }],
      ['Xenova/all-MiniLM-L6-v2', { dtype: 'fp32', device: 'cpu' }],
    ]);
    expect(seen.env).toEqual({ cacheDir: '/cache/models' });
  });

  it('loads a local model folder without the network', async () => {
    const seen = newSeen();
    const modelDir = join('/models', 'all-MiniLM-L6-v2');
    await loadMiniLmEmbedder({ importTransformers: () => Promise.resolve({ default: fakeTransformers(seen) }), modelDir });
    expect(seen.env).toEqual({ localModelPath: `/models${sep}`, allowLocalModels: true, allowRemoteModels: false });
    expect(seen.pretrained[0]).toEqual(['all-MiniLM-L6-v2', { dtype: 'fp32', device: 'cpu', local_files_only: true }]);
  });
});

describe('MiniLM embedder: pooling', () => {
  it('truncates at 256 tokens with padding, mean-pools over the mask and normalises', async () => {
    const seen = newSeen();
    const embedder = await loadMiniLmEmbedder({ importTransformers: () => Promise.resolve(fakeTransformers(seen)) });
    const [one, three] = await embedder.embed(['a', 'abc']);
    expect(seen.tokenizerOptions).toEqual([{ padding: true, truncation: true, max_length: MINILM_MAX_SEQ_LENGTH }]);
    // 'a': one token [1, 1, 0]; 'abc': mean of [1,1,0], [2,1,0], [3,1,0] = [2, 1, 0] (padding ignored).
    expect([...one!]).toEqual([Math.fround(Math.SQRT1_2), Math.fround(Math.SQRT1_2), 0]);
    expect(Math.abs(three![0]! - 2 / Math.sqrt(5))).toBeLessThan(1e-7);
    expect(Math.abs(three![1]! - 1 / Math.sqrt(5))).toBeLessThan(1e-7);
  });

  it('runs batches of 32 texts, keeping the order', async () => {
    const seen = newSeen();
    const embedder = await loadMiniLmEmbedder({ importTransformers: () => Promise.resolve(fakeTransformers(seen)) });
    const texts = Array.from({ length: 33 }, (_, i) => 'x'.repeat(i + 1));
    const vectors = await embedder.embed(texts);
    expect(seen.batches.map((batch) => batch.length)).toEqual([32, 1]);
    expect(vectors).toHaveLength(33);
    // Longer texts pool larger first components: the order is kept.
    expect(vectors[32]![0]).toBeGreaterThan(vectors[0]![0]!);
  });
});

import { describe, expect, it } from 'vitest';

import { EMBEDDING_DIMENSION, isSyncEmbedder, l2Normalize } from '../../../src/agentic/memory/embedder.js';
import { HashEmbedder } from '../../../src/agentic/memory/hash-embedder.js';
import { innerProduct } from '../../../src/agentic/memory/top-k-inner-product.js';

describe('HashEmbedder', () => {
  const embedder = new HashEmbedder();
  const [a, b, c, d, e] = embedder.embedSync(['The cat sat', 'the CAT  sat', 'the cat ran', 'quantum physics', '']);

  it('gives 384 float32 components, L2-normalised', () => {
    expect(a).toBeInstanceOf(Float32Array);
    expect(a!.length).toBe(EMBEDDING_DIMENSION);
    expect(Math.abs(innerProduct(a!, a!) - 1)).toBeLessThan(1e-6);
  });

  it('is deterministic and ignores case and whitespace runs', () => {
    expect(b).toEqual(a);
    expect(new HashEmbedder().embedSync(['The cat sat'])[0]).toEqual(a);
  });

  it('ranks lexical overlap higher', () => {
    expect(innerProduct(a!, c!)).toBeGreaterThan(innerProduct(a!, d!));
  });

  it('leaves a text without tokens at zero', () => {
    expect(e!.every((x) => x === 0)).toBe(true);
  });

  it('answers synchronously and asynchronously alike', async () => {
    expect(isSyncEmbedder(embedder)).toBe(true);
    expect(await embedder.embed(['The cat sat'])).toEqual([a]);
  });
});

describe('l2Normalize', () => {
  it('divides by the norm and rounds to float32', () => {
    expect([...l2Normalize([3, 4])]).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect([...l2Normalize([0, 0])]).toEqual([0, 0]);
  });
});

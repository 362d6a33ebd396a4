import { describe, expect, it } from 'vitest';

import type { Embedder } from '../../../src/agentic/memory/embedder.js';
import { HashEmbedder } from '../../../src/agentic/memory/hash-embedder.js';
import { PreparedEmbeddings } from '../../../src/agentic/memory/prepared-embeddings.js';
import { InternalError } from '../../../src/util/errors.js';

const fixed = (vectors: number[][]): Embedder => ({ embed: () => Promise.resolve(vectors.map((v) => new Float32Array(v))) });

describe('PreparedEmbeddings', () => {
  it('embeds each distinct missing text once, in first-occurrence order', async () => {
    const asked: string[][] = [];
    const inner = new HashEmbedder();
    const prepared = new PreparedEmbeddings({ embed: (texts) => (asked.push([...texts]), inner.embed(texts)) });
    await prepared.prepare(['a', 'b', 'a']);
    await prepared.prepare(['b', 'c']);
    await prepared.prepare([]);
    expect(asked).toEqual([['a', 'b'], ['c']]);
    expect(prepared.get(['c', 'a'])).toEqual(inner.embedSync(['c', 'a']));
    expect(prepared.has('b') && !prepared.has('d')).toBe(true);
  });

  it('fills misses itself with a synchronous embedder', () => {
    const prepared = new PreparedEmbeddings(new HashEmbedder());
    expect(prepared.get(['x', 'x'])).toHaveLength(2);
  });

  it('throws an InternalError on a miss with an asynchronous embedder', () => {
    expect(() => new PreparedEmbeddings(fixed([[1]])).get(['x'])).toThrow(InternalError);
  });

  it.each([
    [[[1, 0]], 'The embedder returned 1 vectors for 2 texts'],
    [
      [
        [1, 0],
        [1, 0, 0],
      ],
      'The embedder returned vectors of 3 and 2 dimensions',
    ],
  ])('refuses an embedder answer of the wrong shape: %o', async (vectors, message) => {
    await expect(new PreparedEmbeddings(fixed(vectors)).prepare(['a', 'b'])).rejects.toThrow(message);
  });
});

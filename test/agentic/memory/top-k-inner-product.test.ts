import { describe, expect, it } from 'vitest';

import { innerProduct, topKPositions } from '../../../src/agentic/memory/top-k-inner-product.js';

describe('topKPositions (FAISS 1.11 IndexFlatIP order)', () => {
  it.each([
    // The spec's vectors (§10.3).
    [[0.5, 0.9, 0.5, 0.5, 0.7], 3, [1, 4, 2]],
    [[0.5, 0.5, 0.5], 3, [2, 1, 0]],
    [[0.5, 0.5, 0.5], 2, [1, 0]],
    [[0.5, 0.5, 0.5], 1, [0]],
    [[0.5, 0.5, 0.5, 0.9], 2, [3, 1]],
    // k = 1 keeps the first strict maximum.
    [[0.2, 0.9, 0.9, 0.1], 1, [1]],
    // Unfilled slots are -1 (the reference skips them).
    [[0.3], 3, [0, -1, -1]],
    [[], 1, [-1]],
    [[0.1, 0.4], 2, [1, 0]],
    [[-0.5, -0.2, -0.2], 3, [2, 1, 0]],
  ])('scores %o, k %i -> positions %o', (scores, k, positions) => {
    expect(topKPositions(scores, k)).toEqual(positions);
  });
});

describe('innerProduct', () => {
  it('rounds the sum to float32', () => {
    const a = new Float32Array([Math.SQRT1_2, Math.SQRT1_2]);
    expect(innerProduct(a, new Float32Array([1, 0]))).toBe(Math.fround(Math.SQRT1_2));
    expect(innerProduct(a, a)).toBe(Math.fround(a[0]! * a[0]! + a[1]! * a[1]!));
  });
});

import { pySplitWhitespace } from '../../py/builtins.js';
import { EMBEDDING_DIMENSION, l2Normalize, type SyncEmbedder } from './embedder.js';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const encoder = new TextEncoder();

/** FNV-1a, 32 bits, over the UTF-8 bytes of `token`. */
function fnv1a(token: string): number {
  let hash = FNV_OFFSET;
  for (const byte of encoder.encode(token)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash;
}

/**
 * A deterministic stand-in for all-MiniLM-L6-v2 (tests, offline runs): each lower-cased whitespace
 * token adds ±1 to the bucket its FNV-1a hash picks (the sign from the hash's top bit), and the sum
 * is L2-normalised to float32. Equal texts, and texts with the same tokens, get identical vectors,
 * so ties between them are exact; shared tokens raise the cosine.
 */
export class HashEmbedder implements SyncEmbedder {
  constructor(readonly dimension: number = EMBEDDING_DIMENSION) {}

  embedSync(texts: readonly string[]): Float32Array[] {
    return texts.map((text) => this.embedOne(text));
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return Promise.resolve(this.embedSync(texts));
  }

  private embedOne(text: string): Float32Array {
    const sums = new Float64Array(this.dimension);
    for (const token of pySplitWhitespace(text.toLowerCase())) {
      const hash = fnv1a(token);
      sums[hash % this.dimension]! += hash >= 0x80000000 ? -1 : 1;
    }
    return l2Normalize(sums);
  }
}

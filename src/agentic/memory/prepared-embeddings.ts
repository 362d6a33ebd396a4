import { InternalError } from '../../util/errors.js';
import { isSyncEmbedder, type Embedder } from './embedder.js';

/**
 * The vectors one memory instance has obtained, by text: filled ahead of a call by `prepare` (async,
 * any embedder) and read during the call by `get` (sync), because the executor runs simulated
 * methods synchronously. A synchronous embedder fills misses itself; with any other embedder a
 * miss means the caller skipped `prepare`, which is a bug.
 */
export class PreparedEmbeddings {
  private readonly vectors = new Map<string, Float32Array>();
  private dimension: number | undefined;

  constructor(private readonly embedder: Embedder) {}

  /** Whether the vector of `text` is at hand. */
  has(text: string): boolean {
    return this.vectors.has(text);
  }

  /** Embed the texts not at hand yet, in one request, first occurrence order. */
  async prepare(texts: readonly string[]): Promise<void> {
    const missing = [...new Set(texts)].filter((text) => !this.vectors.has(text));
    if (missing.length === 0) return;
    this.store(missing, await this.embedder.embed(missing));
  }

  /** The vectors of `texts`, in order; misses are embedded now by a synchronous embedder. */
  get(texts: readonly string[]): Float32Array[] {
    const missing = [...new Set(texts)].filter((text) => !this.vectors.has(text));
    if (missing.length > 0) {
      if (!isSyncEmbedder(this.embedder)) {
        throw new InternalError(
          `memory_vector: ${missing.length} text(s) were not embedded before the call ` +
            `(await _prepareCall(method, args) before executing a call with an asynchronous embedder): ${JSON.stringify(missing[0]!.slice(0, 80))}`,
        );
      }
      this.store(missing, this.embedder.embedSync(missing));
    }
    return texts.map((text) => this.vectors.get(text)!);
  }

  private store(texts: readonly string[], vectors: readonly Float32Array[]): void {
    if (vectors.length !== texts.length) {
      throw new InternalError(`The embedder returned ${vectors.length} vectors for ${texts.length} texts`);
    }
    texts.forEach((text, i) => {
      const vector = vectors[i]!;
      this.dimension ??= vector.length;
      if (vector.length !== this.dimension) {
        throw new InternalError(`The embedder returned vectors of ${vector.length} and ${this.dimension} dimensions`);
      }
      this.vectors.set(text, vector);
    });
  }
}

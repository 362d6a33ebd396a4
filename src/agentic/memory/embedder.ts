/**
 * Sentence embeddings for the vector memory backend (reference §10.2): the contract every source of
 * embeddings implements, and the helpers they share.
 */
import { UsageError } from '../../util/errors.js';

/** Width of all-MiniLM-L6-v2's sentence embeddings (the reference's `ENCODER_DIM`). */
export const EMBEDDING_DIMENSION = 384;

/** Turns texts into L2-normalised float32 vectors, one per text, in order. */
export interface Embedder {
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** An embedder that can also answer at once (in-process and deterministic, e.g. the hash embedder). */
export interface SyncEmbedder extends Embedder {
  embedSync(texts: readonly string[]): Float32Array[];
}

/** Whether `embedder` can embed synchronously. */
export function isSyncEmbedder(embedder: Embedder): embedder is SyncEmbedder {
  return typeof (embedder as Partial<SyncEmbedder>).embedSync === 'function';
}

/** Environment variable with the base URL (up to `/v1`) of an OpenAI-compatible embeddings server. */
export const EMBEDDINGS_BASE_URL_ENV = 'BFCL_EMBEDDINGS_BASE_URL';
/** Command-line flag meant to carry the same base URL (the CLI defines it). */
export const EMBEDDINGS_BASE_URL_FLAG = '--embeddings-base-url';
/** Environment variable with a local folder holding an ONNX export of all-MiniLM-L6-v2. */
export const EMBEDDINGS_MODEL_DIR_ENV = 'BFCL_EMBEDDINGS_MODEL_DIR';
/** The optional peer package that runs all-MiniLM-L6-v2 in process. */
export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';

/** No embeddings can be had: names the two ways to get them. */
export class EmbeddingsUnavailableError extends UsageError {
  constructor(problem: string, options?: { cause?: unknown }) {
    super(
      `${problem}\n` +
        'The memory_vector backend needs all-MiniLM-L6-v2 sentence embeddings. Two ways to provide them:\n' +
        `  1. install the optional package: npm install ${TRANSFORMERS_PACKAGE} — the model then comes from the ` +
        `Hugging Face hub cache, or from a local folder with an ONNX export of all-MiniLM-L6-v2 named by ${EMBEDDINGS_MODEL_DIR_ENV};\n` +
        '  2. serve all-MiniLM-L6-v2 from an OpenAI-compatible /v1/embeddings server and give its base URL with ' +
        `${EMBEDDINGS_BASE_URL_FLAG} or ${EMBEDDINGS_BASE_URL_ENV} (e.g. http://127.0.0.1:8080/v1).`,
      options,
    );
  }
}

/**
 * `v / max(‖v‖, 1e-12)` rounded to float32, as `torch.nn.functional.normalize` does (a zero vector
 * stays zero). The norm is taken in double precision: float32 accumulation would differ in the last bit only.
 */
export function l2Normalize(v: ArrayLike<number>): Float32Array {
  let sumSquares = 0;
  for (let i = 0; i < v.length; i++) sumSquares += v[i]! * v[i]!;
  const norm = Math.max(Math.sqrt(sumSquares), 1e-12);
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / norm;
  return out;
}

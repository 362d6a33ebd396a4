/**
 * Choosing the source of sentence embeddings for `memory_vector`: an OpenAI-compatible server when a
 * base URL is given, else all-MiniLM-L6-v2 in process through the optional peer package.
 */
import { EMBEDDINGS_BASE_URL_ENV, EMBEDDINGS_MODEL_DIR_ENV, type Embedder } from './embedder.js';
import { createMiniLmEmbedder } from './minilm-embedder.js';
import { OpenAiCompatibleEmbedder } from './openai-compatible-embedder.js';

/** Environment variable with the `model` sent to the embeddings server. */
export const EMBEDDINGS_MODEL_ENV = 'BFCL_EMBEDDINGS_MODEL';
/** Environment variable with the embeddings server's API key. */
export const EMBEDDINGS_API_KEY_ENV = 'BFCL_EMBEDDINGS_API_KEY';
/** The `model` sent to a server when none is configured. */
export const DEFAULT_SERVER_EMBEDDING_MODEL = 'sentence-transformers/all-MiniLM-L6-v2';

/** Where embeddings come from (CLI flags and environment merged by the caller). */
export interface EmbedderOptions {
  /** Base URL (up to `/v1`) of an OpenAI-compatible embeddings server; when set, the server is used. */
  readonly baseUrl?: string;
  /** `model` of the server requests (default `sentence-transformers/all-MiniLM-L6-v2`). */
  readonly model?: string;
  readonly apiKey?: string;
  /** Local folder with an ONNX export of all-MiniLM-L6-v2, for the in-process model. */
  readonly modelDir?: string;
  /** Model cache folder of the in-process model. */
  readonly cacheDir?: string;
  readonly fetch?: typeof fetch;
  readonly importTransformers?: () => Promise<unknown>;
}

/** The embedder options an environment gives (`BFCL_EMBEDDINGS_*`); the caller passes `process.env`. */
export function embedderOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): EmbedderOptions {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  return {
    baseUrl: read(EMBEDDINGS_BASE_URL_ENV),
    model: read(EMBEDDINGS_MODEL_ENV),
    apiKey: read(EMBEDDINGS_API_KEY_ENV),
    modelDir: read(EMBEDDINGS_MODEL_DIR_ENV),
  };
}

/** The embedder for the options; nothing is loaded or contacted before the first `embed`. */
export function createEmbedder(options: EmbedderOptions = {}): Embedder {
  if (options.baseUrl !== undefined) {
    return new OpenAiCompatibleEmbedder({
      baseUrl: options.baseUrl,
      model: options.model ?? DEFAULT_SERVER_EMBEDDING_MODEL,
      apiKey: options.apiKey,
      fetch: options.fetch,
    });
  }
  return createMiniLmEmbedder({ modelDir: options.modelDir, cacheDir: options.cacheDir, importTransformers: options.importTransformers });
}

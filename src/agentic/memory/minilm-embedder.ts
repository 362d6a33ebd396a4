/**
 * all-MiniLM-L6-v2 in process through the optional peer package `@huggingface/transformers`, as the
 * reference's `SentenceTransformer("all-MiniLM-L6-v2")` computes it (spec §10.2): fp32 ONNX weights,
 * WordPiece truncated at 256 tokens, mean pooling over the attention mask, L2 normalisation.
 *
 * The package is heavy (ONNX Runtime binaries) and not a dependency: it is imported dynamically on
 * the first embedding, and its absence is reported with the two ways to get embeddings.
 */
import { basename, dirname, sep } from 'node:path';

import { EmbeddingsUnavailableError, TRANSFORMERS_PACKAGE, l2Normalize, type Embedder } from './embedder.js';

/** Where the model comes from. */
export interface MiniLmEmbedderOptions {
  /** Hub id of an ONNX export (default `Xenova/all-MiniLM-L6-v2`). */
  readonly modelId?: string;
  /** A local folder holding the export (`config.json`, `tokenizer.json`, `tokenizer_config.json`, `onnx/model.onnx`); no download then. */
  readonly modelDir?: string;
  /** The package's model cache folder (its `env.cacheDir`). */
  readonly cacheDir?: string;
  /** Texts per forward pass (default 32, as sentence-transformers). */
  readonly batchSize?: number;
  /** How the package is imported (tests inject a stand-in); default: a dynamic `import()`. */
  readonly importTransformers?: () => Promise<unknown>;
}

/** The hub id used without `modelDir`. */
export const DEFAULT_MINILM_MODEL_ID = 'Xenova/all-MiniLM-L6-v2';
/** The model's `max_seq_length` from its `sentence_bert_config.json` (not the tokenizer's 512). */
export const MINILM_MAX_SEQ_LENGTH = 256;
const DEFAULT_BATCH_SIZE = 32;

/** A tensor as the package returns it. */
interface TensorLike {
  readonly data: ArrayLike<number | bigint>;
  readonly dims: readonly number[];
}

type Tokenizer = (texts: string[], options: { padding: boolean; truncation: boolean; max_length: number }) => Record<string, unknown>;
type Model = (inputs: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** The parts of the package used here. */
interface TransformersModule {
  readonly AutoTokenizer: { from_pretrained(id: string, options?: Record<string, unknown>): Promise<unknown> };
  readonly AutoModel: { from_pretrained(id: string, options?: Record<string, unknown>): Promise<unknown> };
  readonly env: Record<string, unknown>;
}

/** The package, imported by a specifier TypeScript and bundlers leave alone (it is not installed at build time). */
function importPackage(): Promise<unknown> {
  const specifier: string = TRANSFORMERS_PACKAGE;
  return import(specifier) as Promise<unknown>;
}

/** An embedder that loads the package and the model on its first use (once; a failure is kept and rethrown). */
export function createMiniLmEmbedder(options: MiniLmEmbedderOptions = {}): Embedder {
  let loaded: Promise<Embedder> | undefined;
  return {
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      loaded ??= loadMiniLmEmbedder(options);
      return (await loaded).embed(texts);
    },
  };
}

/** Load the package and the model now; throws `EmbeddingsUnavailableError` when either is missing. */
export async function loadMiniLmEmbedder(options: MiniLmEmbedderOptions = {}): Promise<Embedder> {
  let imported: unknown;
  try {
    imported = await (options.importTransformers ?? importPackage)();
  } catch (error) {
    throw new EmbeddingsUnavailableError(`The optional package ${TRANSFORMERS_PACKAGE} could not be loaded (${messageOf(error)}).`, {
      cause: error,
    });
  }
  const transformers = asTransformersModule(imported);
  if (transformers === undefined) {
    throw new EmbeddingsUnavailableError(`${TRANSFORMERS_PACKAGE} does not export AutoTokenizer, AutoModel and env (version 3 or later is needed).`);
  }

  let modelId = options.modelId ?? DEFAULT_MINILM_MODEL_ID;
  const loadOptions: Record<string, unknown> = { dtype: 'fp32', device: 'cpu' };
  if (options.cacheDir !== undefined) transformers.env.cacheDir = options.cacheDir;
  if (options.modelDir !== undefined) {
    // The package resolves a local model as <localModelPath>/<id>.
    transformers.env.localModelPath = dirname(options.modelDir) + sep;
    transformers.env.allowLocalModels = true;
    transformers.env.allowRemoteModels = false;
    modelId = basename(options.modelDir);
    loadOptions.local_files_only = true;
  }
  const where = options.modelDir !== undefined ? `the folder ${options.modelDir}` : `the Hugging Face hub as ${modelId}`;
  let tokenizer: unknown;
  let model: unknown;
  try {
    tokenizer = await transformers.AutoTokenizer.from_pretrained(modelId, loadOptions);
    model = await transformers.AutoModel.from_pretrained(modelId, loadOptions);
  } catch (error) {
    throw new EmbeddingsUnavailableError(`all-MiniLM-L6-v2 could not be loaded from ${where} (${messageOf(error)}).`, { cause: error });
  }
  if (typeof tokenizer !== 'function' || typeof model !== 'function') {
    throw new EmbeddingsUnavailableError(`${TRANSFORMERS_PACKAGE} returned a tokenizer or model that cannot be called.`);
  }
  return new MiniLmEmbedder(tokenizer as Tokenizer, model as Model, options.batchSize ?? DEFAULT_BATCH_SIZE);
}

/** Sentence embeddings from a loaded tokenizer and model. */
class MiniLmEmbedder implements Embedder {
  constructor(
    private readonly tokenizer: Tokenizer,
    private readonly model: Model,
    private readonly batchSize: number,
  ) {}

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      vectors.push(...(await this.embedBatch(texts.slice(start, start + this.batchSize))));
    }
    return vectors;
  }

  private async embedBatch(texts: string[]): Promise<Float32Array[]> {
    const inputs = this.tokenizer(texts, { padding: true, truncation: true, max_length: MINILM_MAX_SEQ_LENGTH });
    const outputs = await this.model(inputs);
    const hidden = tensorOf(outputs.last_hidden_state, 'last_hidden_state', 3);
    const mask = tensorOf(inputs.attention_mask, 'attention_mask', 2);
    const [batch, tokens, width] = hidden.dims as [number, number, number];
    if (batch !== texts.length || mask.dims[0] !== batch || mask.dims[1] !== tokens) {
      throw new Error(`all-MiniLM-L6-v2 returned shapes [${hidden.dims.join(', ')}] and [${mask.dims.join(', ')}] for ${texts.length} texts`);
    }
    const vectors: Float32Array[] = [];
    for (let b = 0; b < batch; b++) {
      // Mean pooling: the average of the token embeddings the attention mask keeps (sentence-transformers' Pooling).
      const sum = new Float64Array(width);
      let count = 0;
      for (let t = 0; t < tokens; t++) {
        const m = Number(mask.data[b * tokens + t]!);
        if (m === 0) continue;
        count += m;
        const offset = (b * tokens + t) * width;
        for (let i = 0; i < width; i++) sum[i] = sum[i]! + Number(hidden.data[offset + i]!) * m;
      }
      const mean = new Float32Array(width);
      for (let i = 0; i < width; i++) mean[i] = sum[i]! / Math.max(count, 1e-9);
      // The model's Normalize module, then encode(normalize_embeddings=True) normalises again.
      vectors.push(l2Normalize(l2Normalize(mean)));
    }
    return vectors;
  }
}

function tensorOf(value: unknown, name: string, rank: number): TensorLike {
  const tensor = value as Partial<TensorLike> | undefined;
  if (tensor?.data === undefined || !Array.isArray(tensor.dims) || tensor.dims.length !== rank) {
    throw new Error(`all-MiniLM-L6-v2 returned no ${rank}-dimensional '${name}' tensor`);
  }
  return tensor as TensorLike;
}

/** The module's exports (or its default export's, for a CommonJS build), when they have the expected shape. */
function asTransformersModule(imported: unknown): TransformersModule | undefined {
  for (const candidate of [imported, (imported as { default?: unknown } | null)?.default]) {
    const module = candidate as Partial<TransformersModule> | null | undefined;
    if (
      typeof module?.AutoTokenizer?.from_pretrained === 'function' &&
      typeof module.AutoModel?.from_pretrained === 'function' &&
      typeof module.env === 'object' &&
      module.env !== null
    ) {
      return module as TransformersModule;
    }
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

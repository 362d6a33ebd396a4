/**
 * Embeddings from any server speaking OpenAI's `POST /v1/embeddings` (text-embeddings-inference,
 * infinity, llama.cpp, vLLM, Ollama...) serving all-MiniLM-L6-v2: plain `fetch`, batched requests.
 */
import { z } from 'zod';

import { ProviderError } from '../../util/errors.js';
import { l2Normalize, type Embedder } from './embedder.js';

/** How to reach the server. */
export interface OpenAiCompatibleEmbedderOptions {
  /** Base URL up to and including `/v1` (as for OpenAI clients), e.g. `http://127.0.0.1:8080/v1`. */
  readonly baseUrl: string;
  /** The `model` field of the requests. */
  readonly model: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  readonly apiKey?: string;
  /** Texts per request (default 64). */
  readonly batchSize?: number;
  /** Deadline of each request in milliseconds (default 60000). */
  readonly timeoutMs?: number;
  /** The fetch implementation (default: the global one). */
  readonly fetch?: typeof fetch;
}

const DEFAULT_BATCH_SIZE = 64;
const DEFAULT_TIMEOUT_MS = 60_000;
const SHOWN_BODY_CHARS = 300;

/** The fields of the response that are read. */
const responseSchema = z.looseObject({
  data: z.array(
    z.looseObject({
      embedding: z.array(z.number()),
      index: z.number().int().nonnegative().optional(),
    }),
  ),
});

/** Embeds through an OpenAI-compatible `/embeddings` endpoint; vectors are L2-normalised here (idempotent if the server did it). */
export class OpenAiCompatibleEmbedder implements Embedder {
  private readonly url: string;
  private readonly batchSize: number;
  private readonly timeoutMs: number;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: OpenAiCompatibleEmbedderOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
    if (!isHttpUrl(this.url)) {
      throw new ProviderError(`Invalid embeddings base URL: ${JSON.stringify(options.baseUrl)} (expected e.g. http://127.0.0.1:8080/v1)`);
    }
    this.batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetchFn = options.fetch ?? fetch;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      vectors.push(...(await this.embedBatch(texts.slice(start, start + this.batchSize))));
    }
    return vectors;
  }

  private async embedBatch(texts: readonly string[]): Promise<Float32Array[]> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey !== undefined && this.options.apiKey !== '') headers.authorization = `Bearer ${this.options.apiKey}`;
    let response: Response;
    try {
      response = await this.fetchFn(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.options.model, input: texts, encoding_format: 'float' }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      throw new ProviderError(`Embeddings request to ${this.url} failed: ${cause}`, { retriable: true, serverUnreachable: true }, { cause: error });
    }
    const body = await response.text();
    if (!response.ok) {
      throw new ProviderError(
        `Embeddings request to ${this.url} failed: HTTP ${response.status} ${response.statusText}: ${truncate(body)}`,
        { status: response.status, retriable: response.status === 429 || response.status >= 500 },
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new ProviderError(`Embeddings response from ${this.url} is not JSON: ${truncate(body)}`, { status: response.status });
    }
    const parsed = responseSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ProviderError(
        `Embeddings response from ${this.url} is not an OpenAI embeddings response ` +
          `(${issue === undefined ? 'invalid' : `${issue.path.join('.') || '<root>'}: ${issue.message}`}): ${truncate(body)}`,
        { status: response.status },
      );
    }
    const items = parsed.data.data;
    if (items.length !== texts.length) {
      throw new ProviderError(`Embeddings response from ${this.url} has ${items.length} embeddings for ${texts.length} inputs`, {
        status: response.status,
      });
    }
    // Servers may answer out of order; `index` says which input each embedding belongs to.
    const ordered = items.every((item) => item.index !== undefined) ? [...items].sort((a, b) => a.index! - b.index!) : items;
    if (ordered.some((item, i) => item.index !== undefined && item.index !== i)) {
      throw new ProviderError(`Embeddings response from ${this.url} has indexes other than 0..${texts.length - 1}`, { status: response.status });
    }
    return ordered.map((item) => l2Normalize(item.embedding));
  }
}

function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}

function truncate(text: string): string {
  return text.length <= SHOWN_BODY_CHARS ? text : `${text.slice(0, SHOWN_BODY_CHARS)}… (${text.length} chars)`;
}

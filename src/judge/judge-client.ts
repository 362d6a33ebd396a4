/**
 * The judge's one network call, and the asking of one unit around it. Requests go through the
 * `openai` / `@anthropic-ai/sdk` clients over undici, as `bfcl generate`'s do (SDK retries off, our
 * retry policy in charge: HTTP 408/409/429/5xx, timeouts and dropped connections with backoff,
 * `Retry-After` honoured; other 4xx not retried). A reply that cannot be read (not JSON, a label
 * Phoenix would reject) is asked again at once, as Phoenix's executor requeues a failed row.
 */

import type { ClientOptions as AnthropicClientOptions } from '@anthropic-ai/sdk';
import type { ClientOptions as OpenAIClientOptions } from 'openai';

import { ProviderCallError, withRetry, type AttemptFailure, type RetryPolicy } from '../models/retry.js';
import { linkSignals } from '../util/abort-signals.js';
import type { JudgeEndpoint } from './judge-endpoint.js';
import { MalformedReplyError, readLabel, readReplyText, type JudgeUsage } from './judge-reply.js';
import type { JudgeMode, JudgeRequest } from './judge-request.js';
import type { JudgeTemplate } from './judge-template.js';

/** How the judge is called. */
export interface JudgeClientOptions {
  /** Per-attempt request timeout (default 120 s, Phoenix's per-task limit). */
  readonly timeoutMs?: number;
  /** Retries of one unit (default 10, Phoenix's `max_retries`), reply problems included. */
  readonly maxRetries?: number;
  /** Backoff settings (tests shorten them). */
  readonly retry?: Partial<Omit<RetryPolicy, 'maxAttempts'>>;
  /** Aborts requests in flight and waits between attempts (Ctrl-C). */
  readonly signal?: AbortSignal;
  /** Injected for tests: the `fetch` the SDK uses (default undici's, with keep-alive). */
  readonly fetch?: typeof globalThis.fetch;
  /** Injected for tests: the wait between attempts. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The outcome of asking the judge about one unit (Phoenix's row columns, spec §1 and §5.1). */
export interface JudgeAnswer {
  /** Phoenix's `execution_status`. */
  readonly status: 'COMPLETED' | 'COMPLETED WITH RETRIES' | 'FAILED';
  /** Snapped label (`correct`, `incorrect`, `NOT_PARSABLE`), null when failed. */
  readonly label: string | null;
  readonly explanation: string | null;
  /** The raw reply text of the answer read ('' when none). */
  readonly response: string;
  /** One line per failed attempt or unreadable reply, in order. */
  readonly exceptions: string[];
  /** HTTP attempts made. */
  readonly attempts: number;
  /** Wall time of all attempts. */
  readonly executionSeconds: number;
  /** Latency of the attempt whose answer was read (null when failed). */
  readonly latencyS: number | null;
  readonly usage: JudgeUsage | null;
  readonly finishReason: string | null;
  /** HTTP status of the last failed attempt, when the run failed on one (400: the request was refused). */
  readonly httpStatus?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_RETRIES = 10;

/** A raw POST: resolves with the body of a 2xx answer, rejects with the SDK's error otherwise. */
export type JudgePost = (path: string, body: Buffer, options: { readonly timeoutMs: number; readonly signal: AbortSignal | undefined }) => Promise<string>;

/** Asks one judge; one instance per run (it keeps the SDK client and its connections). */
export class JudgeClient {
  private readonly post: JudgePost;

  constructor(
    readonly endpoint: JudgeEndpoint,
    private readonly options: JudgeClientOptions = {},
    post?: JudgePost,
  ) {
    this.post = post ?? sdkPost(endpoint, options);
  }

  /** Ask about one unit: the request, then its reply read under `template` and `mode`. Rejects only when the run is interrupted. */
  async ask(request: JudgeRequest, template: JudgeTemplate, mode: JudgeMode): Promise<JudgeAnswer> {
    // A signal of the unit's own: the SDKs never remove the listener they add per request.
    const linked = linkSignals(this.options.signal);
    try {
      return await this.askOnce(request, template, mode, linked.signal);
    } finally {
      linked.dispose();
    }
  }

  private async askOnce(request: JudgeRequest, template: JudgeTemplate, mode: JudgeMode, signal: AbortSignal | undefined): Promise<JudgeAnswer> {
    const budget = (this.options.maxRetries ?? DEFAULT_MAX_RETRIES) + 1;
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const exceptions: string[] = [];
    const started = performance.now();
    let attempts = 0;
    const seconds = (): number => (performance.now() - started) / 1000;
    const failed = (httpStatus?: number): JudgeAnswer => ({
      status: 'FAILED',
      label: null,
      explanation: null,
      response: '',
      exceptions,
      attempts,
      executionSeconds: seconds(),
      latencyS: null,
      usage: null,
      finishReason: null,
      ...(httpStatus !== undefined && { httpStatus }),
    });
    while (attempts < budget) {
      let answer: { text: string; latency: number };
      try {
        answer = await withRetry(
          async () => {
            attempts++;
            const sent = performance.now();
            const text = await this.post(request.path, request.body, { timeoutMs, signal });
            return { text, latency: (performance.now() - sent) / 1000 };
          },
          {
            label: `${this.endpoint.provider} POST ${request.path}`,
            policy: { ...this.options.retry, maxAttempts: budget - attempts },
            onFailure: (failure: AttemptFailure) => exceptions.push(failure.message),
            ...(signal !== undefined && { signal }),
            ...(this.options.sleep !== undefined && { sleep: this.options.sleep }),
          },
        );
      } catch (error) {
        if (signal?.aborted === true) throw error;
        return failed(error instanceof ProviderCallError ? error.status : undefined);
      }
      let reply;
      try {
        reply = readReplyText(this.endpoint.provider, answer.text);
      } catch (error) {
        if (!(error instanceof MalformedReplyError)) throw error;
        exceptions.push(`malformed answer: ${error.message}`);
        continue;
      }
      const reading = readLabel(reply.text, template, mode);
      if (!reading.ok) {
        exceptions.push(reading.error);
        continue;
      }
      return {
        status: attempts === 1 ? 'COMPLETED' : 'COMPLETED WITH RETRIES',
        label: reading.label,
        explanation: reading.explanation,
        response: reply.text,
        exceptions,
        attempts,
        executionSeconds: seconds(),
        latencyS: answer.latency,
        usage: reply.usage,
        finishReason: reply.finishReason,
      };
    }
    return failed();
  }
}

/** POSTs through the provider's SDK client, created on first use. */
function sdkPost(endpoint: JudgeEndpoint, options: JudgeClientOptions): JudgePost {
  let client: Promise<PostingClient> | undefined;
  const create = async (): Promise<PostingClient> => {
    const network = await sdkNetwork(options);
    if (endpoint.provider === 'anthropic') {
      const { default: Anthropic } = await import('@anthropic-ai/sdk');
      return new Anthropic({ apiKey: endpoint.apiKey, baseURL: endpoint.baseURL, maxRetries: 0, ...(network as Pick<AnthropicClientOptions, 'fetch' | 'fetchOptions'>) });
    }
    const { default: OpenAI } = await import('openai');
    return new OpenAI({
      apiKey: endpoint.apiKey,
      baseURL: endpoint.baseURL,
      defaultHeaders: endpoint.defaultHeaders,
      maxRetries: 0, // our retry policy is in charge (src/models/retry.ts)
      ...(network as Pick<OpenAIClientOptions, 'fetch' | 'fetchOptions'>),
    });
  };
  return async (path, body, { timeoutMs, signal }) => {
    client ??= create();
    // Bytes go to undici as they are; an injected fetch (tests) gets the text.
    const sent = options.fetch === undefined ? body : body.toString('utf8');
    const response = await (await client).post(path, { body: sent, headers: JSON_HEADERS, timeout: timeoutMs, signal, maxRetries: 0 }).asResponse();
    return response.text();
  };
}

/** What the two SDK clients share: a raw `post` whose answer can be had as the HTTP response. */
interface PostingClient {
  post(
    path: string,
    options: { body: unknown; headers: typeof JSON_HEADERS; timeout: number; signal: AbortSignal | undefined; maxRetries: 0 },
  ): { asResponse(): Promise<Response> };
}

/** The SDKs pass a string body through as it is only when the content type is given. */
const JSON_HEADERS = { 'Content-Type': 'application/json' } as const;

/**
 * An injected `fetch` as it is; else undici's with an agent of our own (keep-alive, no header or
 * body timeouts of its own: the per-request timeout is the limit), as create-model.ts does.
 */
async function sdkNetwork(options: JudgeClientOptions): Promise<{ fetch: unknown; fetchOptions?: unknown }> {
  if (options.fetch !== undefined) return { fetch: options.fetch };
  const { Agent, fetch } = await import('undici');
  return { fetch, fetchOptions: { dispatcher: new Agent({ headersTimeout: 0, bodyTimeout: 0 }) } };
}

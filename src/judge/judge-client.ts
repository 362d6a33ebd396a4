/**
 * The judge's one network call, and the asking of one unit around it. Requests go through the
 * `openai` / `@anthropic-ai/sdk` clients over undici, as `bfcl generate`'s do (SDK retries off, our
 * retry policy in charge: HTTP 408/409/429/5xx, timeouts and dropped connections with backoff,
 * `Retry-After` honoured; other 4xx not retried). A reply that cannot be read (not JSON, a label
 * Phoenix would reject) is asked again at once, as Phoenix's executor requeues a failed row.
 */

import { sdkRawPost } from '../models/providers/sdk-endpoint.js';
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

/** POSTs through the provider's SDK client (the one builder, src/models/providers/sdk-endpoint.ts), answering the body text. */
function sdkPost(endpoint: JudgeEndpoint, options: JudgeClientOptions): JudgePost {
  const post = sdkRawPost(endpoint, { fetch: options.fetch });
  return async (path, body, request) => (await post(path, body, request)).text();
}

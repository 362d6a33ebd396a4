/**
 * The one network call of every adapter: POST a JSON body through the provider's SDK client, with
 * our retry policy around it, and read the answer losslessly. The SDK clients are built with
 * `maxRetries: 0` so that only our policy retries.
 */

import { setMaxListeners } from 'node:events';

import type { PyDict } from '../../py/value.js';
import type { QueryOptions } from '../../spec/model.js';
import { linkSignals } from '../../util/abort-signals.js';
import { withRetry, type AttemptFailure, type RetryPolicy } from '../retry.js';
import { decodeBody, encodeBody } from './wire.js';

/** A request as it leaves the adapter (for observers such as the conformance check). */
export interface OutgoingRequest {
  /** `openai`, `anthropic`... */
  readonly provider: string;
  /** Path below the client's base URL, e.g. `/responses`. */
  readonly path: string;
  /** The JSON body exactly as sent. */
  readonly bodyText: string;
  /** The per-attempt timeout the SDK was given. */
  readonly timeoutMs: number;
}

/** What a successful POST answers with: its body, read once (a `Response` is one). */
export interface RawAnswer {
  text(): Promise<string>;
}

/**
 * One POST of a UTF-8 JSON body through an SDK client; resolves with the answer of a 2xx status,
 * rejects otherwise.
 */
export type RawPost = (
  path: string,
  body: Buffer,
  options: { readonly timeoutMs: number; readonly signal: AbortSignal | undefined },
) => Promise<RawAnswer>;

/** What the caller of `createModel` can tune or observe about the network calls. */
export interface TransportSettings {
  readonly retry?: Partial<RetryPolicy>;
  /** Every failed attempt (retried or final). */
  readonly onAttemptFailure?: (failure: AttemptFailure) => void;
  /** Called once per request before the first attempt. */
  readonly onRequest?: (request: OutgoingRequest) => void;
  /** Aborts requests in flight and waits between attempts. */
  readonly signal?: AbortSignal;
  /** Injected for tests: the wait between attempts. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injected for tests: jitter source. */
  readonly random?: () => number;
}

export class ProviderTransport {
  constructor(
    private readonly provider: string,
    private readonly rawPost: RawPost,
    private readonly settings: TransportSettings = {},
  ) {
    // Every request in flight links its own signal to this long-lived one (one listener each, removed
    // when the request ends): with more than 10 threads node would warn of a leak that is not one.
    if (settings.signal !== undefined) setMaxListeners(0, settings.signal);
  }

  /**
   * Sends `body` (serialised now, so later changes to the history do not leak into it) and reads
   * the answer with `read`, inside the retry loop: an answer that is cut off, empty or lacks what
   * `read` needs (a `MalformedAnswerError`) is asked for again like a server error.
   * BFCL parity: the reference times one `create` call inside its retry wrapper, so the latency is
   * that of the attempt that succeeded (the HTTP exchange, not the reading).
   */
  async post<T>(
    path: string,
    body: PyDict,
    timeoutMs: number,
    query: QueryOptions,
    read: (json: PyDict, latency: number) => T,
  ): Promise<T> {
    const bodyBytes = encodeBody(body);
    const label = `${this.provider} POST ${path}`;
    if (this.settings.onRequest !== undefined) {
      this.settings.onRequest({ provider: this.provider, path, bodyText: bodyBytes.toString('utf8'), timeoutMs });
    }
    const combined = linkSignals(this.settings.signal, query.signal);
    const signal = combined.signal;
    const onFailure = (failure: AttemptFailure): void => {
      this.settings.onAttemptFailure?.(failure);
      query.onAttemptEnd?.({ ok: false, cause: failure.cause, willRetry: failure.delayMs !== undefined, message: failure.message });
      if (failure.delayMs !== undefined) {
        query.onRetry?.({
          attempt: failure.attempt,
          delayMs: failure.delayMs,
          reason: failure.code === undefined ? failure.message : `${failure.code}: ${failure.message}`,
          cause: failure.cause,
        });
      }
    };
    try {
      return await withRetry(
        async () => {
          const started = performance.now();
          const response = await this.rawPost(path, bodyBytes, { timeoutMs, signal });
          const text = await response.text();
          const latency = (performance.now() - started) / 1000;
          return read(decodeBody(text, label), latency);
        },
        {
          label,
          policy: this.settings.retry,
          onFailure,
          ...(query.onAttemptStart !== undefined && { onAttempt: query.onAttemptStart }),
          ...(query.onAttemptEnd !== undefined && { onSuccess: () => query.onAttemptEnd!({ ok: true }) }),
          signal,
          sleep: this.settings.sleep,
          random: this.settings.random,
        },
      );
    } finally {
      combined.dispose();
    }
  }
}

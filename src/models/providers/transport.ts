/**
 * The one network call of every adapter: POST a JSON body through the provider's SDK client, with
 * our retry policy around it, and read the answer losslessly. The SDK clients are built with
 * `maxRetries: 0` so that only our policy retries.
 */

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

/** A provider answer: the JSON body and the latency of the successful attempt, in seconds. */
export interface ProviderAnswer {
  readonly json: PyDict;
  readonly latency: number;
}

export class ProviderTransport {
  constructor(
    private readonly provider: string,
    private readonly rawPost: RawPost,
    private readonly settings: TransportSettings = {},
  ) {}

  /**
   * Sends `body` (serialised now, so later changes to the history do not leak into it).
   * BFCL parity: the reference times one `create` call inside its retry wrapper, so the latency is
   * that of the attempt that succeeded.
   */
  async post(path: string, body: PyDict, timeoutMs: number, query: QueryOptions = {}): Promise<ProviderAnswer> {
    const bodyBytes = encodeBody(body);
    const label = `${this.provider} POST ${path}`;
    if (this.settings.onRequest !== undefined) {
      this.settings.onRequest({ provider: this.provider, path, bodyText: bodyBytes.toString('utf8'), timeoutMs });
    }
    const combined = linkSignals(this.settings.signal, query.signal);
    const signal = combined.signal;
    const onFailure = (failure: AttemptFailure): void => {
      this.settings.onAttemptFailure?.(failure);
      if (failure.delayMs !== undefined) {
        query.onRetry?.({ attempt: failure.attempt, delayMs: failure.delayMs, reason: failure.code === undefined ? failure.message : `${failure.code}: ${failure.message}` });
      }
    };
    try {
      return await this.postWithRetry(path, bodyBytes, timeoutMs, label, signal, onFailure);
    } finally {
      combined.dispose();
    }
  }

  private async postWithRetry(
    path: string,
    body: Buffer,
    timeoutMs: number,
    label: string,
    signal: AbortSignal | undefined,
    onFailure: (failure: AttemptFailure) => void,
  ): Promise<ProviderAnswer> {
    const { text, latency } = await withRetry(
      async () => {
        const started = performance.now();
        const response = await this.rawPost(path, body, { timeoutMs, signal });
        const responseText = await response.text();
        return { text: responseText, latency: (performance.now() - started) / 1000 };
      },
      {
        label,
        policy: this.settings.retry,
        onFailure,
        signal,
        sleep: this.settings.sleep,
        random: this.settings.random,
      },
    );
    return { json: decodeBody(text, label), latency };
  }
}

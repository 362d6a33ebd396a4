/**
 * How long and how often a rate-limited search is retried. The reference retries SerpAPI's 429s
 * forever (2 s doubling to 120 s, plus up to as much again of jitter); a port bounds the attempts
 * so that a dead key cannot stall a run, and injects clock and randomness so tests do not wait.
 */

/** One wait before a retry, for the run log. */
export interface RetryNotice {
  /** The attempt that was rate-limited (1-based). */
  readonly attempt: number;
  readonly waitMs: number;
  /** Why it is retried (the 429 text or status). */
  readonly reason: string;
}

/** Retry limits and the injected clock and randomness. */
export interface RetryPolicy {
  /** Attempts in all, the first included (at least 1). */
  readonly maxAttempts: number;
  /** Backoff before the first retry (the reference: 2 s). */
  readonly initialBackoffMs: number;
  /** Cap of the doubling backoff (the reference: 120 s); the wait adds up to as much again of jitter. */
  readonly maxBackoffMs: number;
  /** A uniform draw in [0, 1). */
  readonly random: () => number;
  /** Wait `ms`; rejects with the signal's reason when it aborts. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called before each wait (the reference prints a banner there). */
  readonly onRetry?: (notice: RetryNotice) => void;
}

/** Options of `createRetryPolicy`; every field has the default noted. */
export interface RetryPolicyOptions {
  /** Default 8 (waits of about 2, 4, 8, 16, 32, 64, 120 s, each plus jitter). */
  readonly maxAttempts?: number;
  /** Default 2000. */
  readonly initialBackoffMs?: number;
  /** Default 120000. */
  readonly maxBackoffMs?: number;
  readonly random?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly onRetry?: (notice: RetryNotice) => void;
}

/** A retry policy with the reference's backoff constants and a bounded number of attempts. */
export function createRetryPolicy(options: RetryPolicyOptions = {}): RetryPolicy {
  const maxAttempts = options.maxAttempts ?? 8;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`retry maxAttempts must be a positive integer, got ${maxAttempts}`);
  return {
    maxAttempts,
    initialBackoffMs: options.initialBackoffMs ?? 2000,
    maxBackoffMs: options.maxBackoffMs ?? 120_000,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? sleep,
    ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
  };
}

/** The wait before retry number `retry` (1-based): backoff doubled per retry and capped, plus jitter. */
export function retryWaitMs(policy: RetryPolicy, retry: number): number {
  // BFCL parity: web_search.py search_engine_query — wait = backoff + uniform(0, backoff), then
  // backoff = min(2 * backoff, cap).
  let backoff = policy.initialBackoffMs;
  for (let i = 1; i < retry; i++) backoff = Math.min(backoff * 2, policy.maxBackoffMs);
  return backoff + policy.random() * backoff;
}

/** `setTimeout` as a promise that an abort signal cancels. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

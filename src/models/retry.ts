/**
 * Retries of provider calls: exponential backoff with full jitter on the failures that may pass
 * on their own (HTTP 408/409/429/5xx, timeouts, dropped connections, 2xx answers that are cut off
 * or empty), honouring a server's `Retry-After` (plus jitter, so that a crowd of waiting requests
 * does not return in one burst), with a bounded number of attempts. Failures are classified by
 * HTTP status, error code and error class, never by message text. Every attempt is reported to an
 * observer so the caller can log it; the final failure rejects with a `ProviderCallError`.
 *
 * The reference retries rate limits only, forever, with tenacity's `wait_random_exponential(6, 120)`
 * (`model_handler/utils.py::retry_with_backoff`); a bounded policy that also covers transient
 * server and network failures is a deliberate improvement.
 */

import type { FailureCause } from '../spec/model.js';
import { ProviderError } from '../util/errors.js';

/** How often and how long to retry. */
export interface RetryPolicy {
  /** Attempts in total, the first included (≥ 1), not counting retries after rate limits (429). */
  readonly maxAttempts: number;
  /**
   * Retries after rate limits (HTTP 429), counted apart: a rate limit says the server is healthy and
   * asks us to slow down, so it must not use up the budget meant for failures.
   */
  readonly maxRateLimitRetries: number;
  /** Ceiling of the first retry's random wait; doubles on every further retry. */
  readonly baseDelayMs: number;
  /** Upper bound of the exponential ceiling. */
  readonly maxDelayMs: number;
  /** Upper bound on a server-requested wait (`Retry-After`); longer requests are shortened to this. */
  readonly maxRetryAfterMs: number;
}

/** Rate-limit retries allowed per retry of other failures (`--max-retries n` gives 4n). */
export const RATE_LIMIT_RETRIES_PER_RETRY = 4;

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 8,
  maxRateLimitRetries: 7 * RATE_LIMIT_RETRIES_PER_RETRY,
  baseDelayMs: 2_000,
  maxDelayMs: 120_000,
  maxRetryAfterMs: 600_000,
};

/** HTTP statuses worth another try: timeout, conflict (e.g. a lock), rate limit, and every 5xx. */
const RETRIABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 429]);

/** Node / undici error codes of dropped or refused connections and of network timeouts. */
const RETRIABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Codes of a connection that could not be made at all: the server was never reached. */
const CANNOT_CONNECT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Codes of a network time limit (the rest of the retriable codes are connection failures). */
const TIMEOUT_CODES: ReadonlySet<string> = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Summary labels of connection failures by code; other codes are `connection (<code>)`. */
const CONNECTION_LABELS: ReadonlyMap<string, string> = new Map([
  ['ECONNRESET', 'connection reset'],
  ['UND_ERR_SOCKET', 'connection reset'],
  ['UND_ERR_CLOSED', 'connection reset'],
  ['ECONNABORTED', 'connection reset'],
  ['EPIPE', 'connection reset'],
  ['ECONNREFUSED', 'connection refused'],
  ['ENOTFOUND', 'unknown host'],
  ['EAI_AGAIN', 'unknown host'],
]);

/** Statuses that refuse this one request for good (bad or too large input): no run will do better. */
const PERMANENT_STATUSES: ReadonlySet<number> = new Set([400, 413, 422]);

/** The rate-limit status, whose retries are counted apart. */
const RATE_LIMITED = 429;

/**
 * A 2xx answer that cannot be used: cut off (invalid JSON), empty, not an object, or without the
 * fields every answer has (`choices: []`). Retried like a server error.
 */
export class MalformedAnswerError extends ProviderError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { retriable: true }, options);
  }
}

/**
 * SDK error classes that carry no status: a timed-out request and a failed connection. Both SDKs
 * (openai, @anthropic-ai/sdk) name them alike; matching the class name keeps this module free of
 * SDK imports.
 */
const RETRIABLE_ERROR_NAMES: ReadonlySet<string> = new Set(['APIConnectionTimeoutError', 'APIConnectionError']);

/** What a failure means for the retry decision. */
export interface FailureInfo {
  readonly retriable: boolean;
  /** The failure, classified for summaries. */
  readonly cause: FailureCause;
  /** HTTP status, when the server answered. */
  readonly status?: number;
  /** Network error code found on the error or its causes (`ECONNRESET`...). */
  readonly code?: string;
  /** The server's requested wait (`retry-after-ms` / `Retry-After`), when it gave one. */
  readonly retryAfterMs?: number;
  /** A one-line description for logs. */
  readonly message: string;
}

/** One failed attempt, as reported to `onFailure`. */
export interface AttemptFailure extends FailureInfo {
  /** 1-based attempt number. */
  readonly attempt: number;
  /** The wait before the next attempt; undefined when no further attempt follows. */
  readonly delayMs: number | undefined;
  /** What the call was (e.g. `openai POST /responses`). */
  readonly label: string;
  readonly error: unknown;
}

/** The final failure of a retried call, with every attempt's failure. */
export class ProviderCallError extends ProviderError {
  readonly failures: readonly AttemptFailure[];
  /** The last attempt's failure, classified (read by the loops through `queryFailureOf`). */
  readonly failureCause: FailureCause;
  /** The request was refused for good (HTTP 400, 413, 422). */
  readonly permanent: boolean;

  constructor(message: string, last: FailureInfo, failures: readonly AttemptFailure[], cause: unknown) {
    // Every attempt failed to connect at all (refused, unknown host, no route).
    const serverUnreachable =
      failures.length > 0 && failures.every((f) => f.status === undefined && f.code !== undefined && CANNOT_CONNECT_CODES.has(f.code));
    const details: { status?: number; retriable: boolean; serverUnreachable: boolean } = { retriable: last.retriable, serverUnreachable };
    if (last.status !== undefined) details.status = last.status;
    super(message, details, { cause });
    this.failures = failures;
    this.failureCause = last.cause;
    this.permanent = last.status !== undefined && PERMANENT_STATUSES.has(last.status);
  }
}

export interface RetryOptions {
  readonly policy?: Partial<RetryPolicy>;
  /** Called after every failed attempt (also the last one). */
  readonly onFailure?: (failure: AttemptFailure) => void;
  /** Called before every attempt (1-based). */
  readonly onAttempt?: (attempt: number) => void;
  /** Called after every successful attempt. */
  readonly onSuccess?: () => void;
  /** Aborts the pending attempt's wait; the call then rejects at once. */
  readonly signal?: AbortSignal;
  /** Names the call in messages. */
  readonly label?: string;
  /** Injected for tests: random number in [0, 1). */
  readonly random?: () => number;
  /** Injected for tests: the wait between attempts. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injected for tests: the clock, in ms since the epoch (for HTTP-date `Retry-After`). */
  readonly now?: () => number;
}

/**
 * Runs `operation` until it succeeds, a failure is not retriable, or the attempts are used up.
 * `operation` receives the 1-based attempt number.
 */
export async function withRetry<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.policy };
  const maxAttempts = Math.max(1, Math.floor(policy.maxAttempts));
  const label = options.label ?? 'provider call';
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  const failures: AttemptFailure[] = [];
  // Retries after rate limits use their own budget; `budgetUsed` counts the attempts that use maxAttempts'.
  let rateLimitRetries = 0;
  let budgetUsed = 0;

  for (let attempt = 1; ; attempt++) {
    options.onAttempt?.(attempt);
    try {
      const result = await operation(attempt);
      options.onSuccess?.();
      return result;
    } catch (error) {
      const aborted = options.signal?.aborted === true;
      const info: FailureInfo = aborted ? abortedInfo() : classifyFailure(error, now());
      const rateLimited = info.status === RATE_LIMITED;
      if (!rateLimited) budgetUsed++;
      const budgetLeft = rateLimited ? rateLimitRetries < Math.max(0, policy.maxRateLimitRetries) : budgetUsed < maxAttempts;
      const willRetry = info.retriable && budgetLeft;
      if (willRetry && rateLimited) rateLimitRetries++;
      // The backoff grows with failures of the same kind: rate limits do not inflate the wait after a 5xx.
      const delayMs = willRetry ? retryDelayMs(rateLimited ? rateLimitRetries : budgetUsed, info, policy, random) : undefined;
      const failure: AttemptFailure = { ...info, attempt, delayMs, label, error };
      failures.push(failure);
      options.onFailure?.(failure);
      if (!willRetry) throw finalError(label, info, failures, error);
      try {
        await sleep(delayMs!, options.signal);
      } catch (sleepError) {
        throw finalError(label, abortedInfo(), failures, sleepError);
      }
    }
  }
}

function abortedInfo(): FailureInfo {
  return { retriable: false, cause: { kind: 'other', label: 'aborted' }, message: 'aborted' };
}

function finalError(label: string, info: FailureInfo, failures: readonly AttemptFailure[], cause: unknown): ProviderCallError {
  const attempts = failures.length === 1 ? '' : ` (${failures.length} attempts)`;
  return new ProviderCallError(`${label} failed${attempts}: ${info.message}`, info, failures, cause);
}

/**
 * The wait after the `attempt`-th failure: full jitter, uniform in
 * [0, min(maxDelay, base · 2^(attempt-1))); with a server's `Retry-After`, that wait plus up to half
 * of it again (at least 250 ms of spread), so that requests told the same wait do not all come back
 * at the same instant. Capped by `maxRetryAfterMs` (by `--max-backoff` when given).
 */
export function retryDelayMs(
  attempt: number,
  info: Pick<FailureInfo, 'retryAfterMs'>,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (info.retryAfterMs !== undefined) {
    const asked = Math.max(0, info.retryAfterMs);
    const spread = Math.max(asked / 2, RETRY_AFTER_MIN_SPREAD_MS);
    return Math.floor(Math.min(asked + random() * spread, policy.maxRetryAfterMs));
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/** The least spread added to a `Retry-After` wait (a `Retry-After: 0` storm would otherwise return at once). */
const RETRY_AFTER_MIN_SPREAD_MS = 250;

/** Classifies an error thrown by an SDK call (or by `fetch` under it). */
export function classifyFailure(error: unknown, nowMs: number = Date.now()): FailureInfo {
  const status = numberField(error, 'status');
  const message = describeError(error);
  if (status !== undefined) {
    // OpenAI answers an exhausted quota with 429 too; waiting does not refill it.
    const quota = status === RATE_LIMITED && errorCodeOfBody(error) === 'insufficient_quota';
    const retriable = !quota && (RETRIABLE_STATUSES.has(status) || status >= 500);
    const cause: FailureCause = { kind: 'http', status, label: quota ? `HTTP ${status} (insufficient_quota)` : `HTTP ${status}` };
    const retryAfterMs = retriable ? parseRetryAfter(headersOf(error), nowMs) : undefined;
    return retryAfterMs === undefined ? { retriable, cause, status, message } : { retriable, cause, status, retryAfterMs, message };
  }
  if (error instanceof MalformedAnswerError) return { retriable: true, cause: { kind: 'malformed', label: 'malformed answer' }, message };
  const code = findErrorCode(error);
  if (code !== undefined) {
    const cause: FailureCause = TIMEOUT_CODES.has(code)
      ? { kind: 'timeout', code, label: 'timeout' }
      : { kind: 'connection', code, label: CONNECTION_LABELS.get(code) ?? `connection (${code})` };
    return { retriable: RETRIABLE_CODES.has(code), cause, code, message };
  }
  const name = error instanceof Error ? error.constructor.name : '';
  if (name === 'APIConnectionTimeoutError' || (error instanceof Error && error.name === 'TimeoutError')) {
    return { retriable: true, cause: { kind: 'timeout', label: 'timeout' }, message };
  }
  if (RETRIABLE_ERROR_NAMES.has(name)) return { retriable: true, cause: { kind: 'connection', label: 'connection failed' }, message };
  return { retriable: false, cause: { kind: 'other', label: 'other error' }, message };
}

/** `error.code` of an SDK APIError (from the answer's JSON `error` object), when it is a string. */
function errorCodeOfBody(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The wait a server asked for: `retry-after-ms` (milliseconds, OpenAI's header), else `Retry-After`
 * as delay-seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: HeaderSource | undefined, nowMs: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null || value === undefined || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** The part of `Headers` this module reads. */
export interface HeaderSource {
  get(name: string): string | null | undefined;
}

function headersOf(error: unknown): HeaderSource | undefined {
  if (typeof error !== 'object' || error === null || !('headers' in error)) return undefined;
  const headers = (error as { headers: unknown }).headers;
  if (typeof headers === 'object' && headers !== null && typeof (headers as HeaderSource).get === 'function') {
    return headers as HeaderSource;
  }
  return undefined;
}

function numberField(value: unknown, key: string): number | undefined {
  if (typeof value !== 'object' || value === null || !(key in value)) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'number' ? field : undefined;
}

/** The first string `code` on the error or along its `cause` chain (fetch wraps socket errors twice). */
function findErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `Name: message`, plus the innermost cause's message when it says more. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let text = error.message === '' ? error.constructor.name : error.message;
  let cause: unknown = error.cause;
  let innermost: Error | undefined;
  for (let depth = 0; depth < 8 && cause instanceof Error; depth++) {
    innermost = cause;
    cause = cause.cause;
  }
  if (innermost !== undefined && innermost.message !== '' && !text.includes(innermost.message)) {
    text += ` (${innermost.message})`;
  }
  return text;
}

/** `setTimeout` as a promise that rejects when `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

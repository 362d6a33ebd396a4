/** The retry policy: classification by status and code, Retry-After, jittered backoff, bounded attempts. */
import { describe, expect, it } from 'vitest';

import {
  DEFAULT_RETRY_POLICY,
  MalformedAnswerError,
  ProviderCallError,
  abortableSleep,
  classifyFailure,
  parseRetryAfter,
  retryDelayMs,
  withRetry,
  type AttemptFailure,
} from '../../../src/models/retry.js';
import { ProviderError } from '../../../src/util/errors.js';

/** An error shaped like the SDKs' APIError. */
function statusError(status: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`${status} status code`), { status, headers: new Headers(headers) });
}

function networkError(code: string): Error {
  const socket = Object.assign(new Error('other side closed'), { code });
  return new Error('Connection error.', { cause: new TypeError('fetch failed', { cause: socket }) });
}

class APIConnectionTimeoutError extends Error {}

describe('classifyFailure', () => {
  it.each([408, 409, 429, 500, 502, 503, 504, 529])('retries HTTP %i', (status) => {
    expect(classifyFailure(statusError(status))).toMatchObject({ retriable: true, status });
  });

  it.each([400, 401, 403, 404, 422])('does not retry HTTP %i', (status) => {
    expect(classifyFailure(statusError(status))).toMatchObject({ retriable: false, status });
  });

  it('classifies by status, not by message text', () => {
    const error = Object.assign(new Error('Rate limit exceeded, please retry'), { status: 400 });
    expect(classifyFailure(error).retriable).toBe(false);
  });

  it('reads Retry-After of retriable answers only', () => {
    expect(classifyFailure(statusError(429, { 'retry-after': '3' }))).toMatchObject({ retryAfterMs: 3000 });
    expect(classifyFailure(statusError(400, { 'retry-after': '3' })).retryAfterMs).toBeUndefined();
  });

  it('retries resets, refusals and network timeouts found along the cause chain', () => {
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'UND_ERR_SOCKET', 'ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT']) {
      expect(classifyFailure(networkError(code))).toMatchObject({ retriable: true, code });
    }
    expect(classifyFailure(networkError('ENOTFOUND'))).toMatchObject({ retriable: false, code: 'ENOTFOUND' });
  });

  it('labels failures by cause for summaries', () => {
    expect(classifyFailure(statusError(503)).cause).toEqual({ kind: 'http', status: 503, label: 'HTTP 503' });
    expect(classifyFailure(networkError('ECONNRESET')).cause).toEqual({ kind: 'connection', code: 'ECONNRESET', label: 'connection reset' });
    expect(classifyFailure(networkError('UND_ERR_SOCKET')).cause.label).toBe('connection reset');
    expect(classifyFailure(networkError('ECONNREFUSED')).cause.label).toBe('connection refused');
    expect(classifyFailure(networkError('ENOTFOUND')).cause.label).toBe('unknown host');
    expect(classifyFailure(networkError('UND_ERR_HEADERS_TIMEOUT')).cause).toMatchObject({ kind: 'timeout', label: 'timeout' });
    expect(classifyFailure(new APIConnectionTimeoutError('Request timed out.')).cause).toEqual({ kind: 'timeout', label: 'timeout' });
    expect(classifyFailure(new MalformedAnswerError('cut off'))).toMatchObject({ retriable: true, cause: { kind: 'malformed', label: 'malformed answer' } });
  });

  it("does not retry OpenAI's 429 for an exhausted quota", () => {
    const quota = Object.assign(statusError(429, { 'retry-after': '1' }), { code: 'insufficient_quota' });
    expect(classifyFailure(quota)).toMatchObject({ retriable: false, cause: { label: 'HTTP 429 (insufficient_quota)' } });
  });

  it('retries the SDK timeout error and describes the innermost cause', () => {
    expect(classifyFailure(new APIConnectionTimeoutError('Request timed out.')).retriable).toBe(true);
    expect(classifyFailure(networkError('ECONNRESET')).message).toBe('Connection error. (other side closed)');
  });

  it('does not retry other errors', () => {
    expect(classifyFailure(new TypeError('x is not a function')).retriable).toBe(false);
    expect(classifyFailure('boom')).toEqual({ retriable: false, cause: { kind: 'other', label: 'other error' }, message: 'boom' });
  });
});

describe('parseRetryAfter', () => {
  const headers = (h: Record<string, string>): Headers => new Headers(h);

  it('reads delay-seconds, fractions and retry-after-ms', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
  });

  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT' }), now)).toBe(30_000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 21 Oct 2015 07:27:00 GMT' }), now)).toBe(0);
  });

  it('ignores missing and unreadable values', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };

  it('is full jitter under an exponential ceiling', () => {
    expect(retryDelayMs(1, {}, policy, () => 0.999)).toBe(99);
    expect(retryDelayMs(3, {}, policy, () => 0.5)).toBe(200);
    expect(retryDelayMs(10, {}, policy, () => 0.5)).toBe(500);
    expect(retryDelayMs(2, {}, policy, () => 0)).toBe(0);
  });

  it('honours Retry-After with up to half of it again as jitter (at least 250 ms), capped', () => {
    expect(retryDelayMs(1, { retryAfterMs: 3000 }, policy, () => 0)).toBe(3000);
    expect(retryDelayMs(1, { retryAfterMs: 3000 }, policy, () => 0.999)).toBe(4498);
    expect(retryDelayMs(1, { retryAfterMs: 0 }, policy, () => 0.5)).toBe(125);
    expect(retryDelayMs(1, { retryAfterMs: 60_000 }, policy, () => 0)).toBe(5000);
  });
});

describe('withRetry', () => {
  const fastPolicy = { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 10 };

  it('returns the first success and reports each failure with its wait', async () => {
    const waits: number[] = [];
    const failures: AttemptFailure[] = [];
    let calls = 0;
    const result = await withRetry(
      async (attempt) => {
        calls++;
        if (attempt === 1) throw statusError(429, { 'retry-after': '1' });
        if (attempt === 2) throw statusError(503);
        return 'ok';
      },
      {
        policy: fastPolicy,
        label: 'test call',
        onFailure: (f) => failures.push(f),
        sleep: async (ms) => {
          waits.push(ms);
        },
        random: () => 0.5,
      },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    // Retry-After 1 s plus half of the spread (random 0.5 of max(500 ms, 250 ms)).
    expect(waits).toEqual([1250, 5]);
    expect(failures.map((f) => [f.attempt, f.status, f.delayMs, f.label])).toEqual([
      [1, 429, 1250, 'test call'],
      [2, 503, 5, 'test call'],
    ]);
  });

  it('gives up after maxAttempts with a ProviderCallError holding every failure', async () => {
    const failures: AttemptFailure[] = [];
    const promise = withRetry(
      async () => {
        throw statusError(500);
      },
      { policy: fastPolicy, label: 'openai POST /responses', onFailure: (f) => failures.push(f), sleep: async () => undefined },
    );
    await expect(promise).rejects.toBeInstanceOf(ProviderCallError);
    const error = (await promise.catch((e: unknown) => e)) as ProviderCallError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toBe('openai POST /responses failed (4 attempts): 500 status code');
    expect(error.status).toBe(500);
    expect(error.retriable).toBe(true);
    expect(error.failures).toHaveLength(4);
    expect(failures.at(-1)!.delayMs).toBeUndefined();
  });

  it('counts rate-limit retries apart from the attempts budget', async () => {
    const statuses = [429, 429, 429, 500, 429, 500];
    let calls = 0;
    const error = (await withRetry(
      async (attempt) => {
        calls++;
        throw statusError(statuses[attempt - 1] ?? 500);
      },
      { policy: { maxAttempts: 3, maxRateLimitRetries: 4, baseDelayMs: 1, maxDelayMs: 1 }, sleep: async () => undefined },
    ).catch((e: unknown) => e)) as ProviderCallError;
    // Four 429s fit the rate-limit budget; the three 500s use up the three attempts.
    expect(calls).toBe(7);
    expect(error.failures.map((f) => f.status)).toEqual([429, 429, 429, 500, 429, 500, 500]);
    expect(error.failureCause.label).toBe('HTTP 500');
    expect(error.permanent).toBe(false);
  });

  it('grows the backoff with failures of one kind: rate limits do not lengthen the wait after a 5xx', async () => {
    const statuses = [429, 429, 429, 429, 500, 500];
    const waits: number[] = [];
    await withRetry(
      async (attempt) => {
        if (attempt <= statuses.length) throw statusError(statuses[attempt - 1]!);
        return 'ok';
      },
      { policy: { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 60_000 }, random: () => 0.999, sleep: async (ms) => void waits.push(ms) },
    );
    // 429s without Retry-After: 1, 2, 4, 8 s ceilings; then the first 500 starts again at 1 s.
    expect(waits).toEqual([999, 1998, 3996, 7992, 999, 1998]);
  });

  it('stops retrying 429s once their own budget is used up', async () => {
    let calls = 0;
    const error = (await withRetry(
      async () => {
        calls++;
        throw statusError(429);
      },
      { policy: { maxAttempts: 3, maxRateLimitRetries: 2, baseDelayMs: 1, maxDelayMs: 1 }, sleep: async () => undefined },
    ).catch((e: unknown) => e)) as ProviderCallError;
    expect(calls).toBe(3);
    expect(error.failureCause.label).toBe('HTTP 429');
  });

  it('fails at once on a non-retriable error', async () => {
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls++;
        throw statusError(401);
      },
      { policy: fastPolicy, sleep: async () => undefined },
    ).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(error).toMatchObject({ status: 401, retriable: false, message: 'provider call failed: 401 status code' });
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const promise = withRetry(
      async () => {
        throw statusError(503);
      },
      { policy: { maxAttempts: 5, baseDelayMs: 60_000, maxDelayMs: 60_000 }, random: () => 0.9, signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 20);
    const error = (await promise.catch((e: unknown) => e)) as ProviderCallError;
    expect(error).toBeInstanceOf(ProviderCallError);
    expect(error.message).toContain('aborted');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('abortableSleep resolves after the delay', async () => {
    const started = performance.now();
    await abortableSleep(20);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });
});

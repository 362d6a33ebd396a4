/**
 * Watches every request attempt of a generation run: which entries have a request in flight (and
 * since when), which wait to retry, how many requests succeeded (per entry and in total), retries by
 * cause, and when the run must stop by itself: a first request refused in a way no retry can fix
 * (HTTP 401/403/404, an unknown host) stops it at once with advice; a server that keeps failing
 * trips the circuit breaker.
 */

import type { AttemptOutcome, FailureCause, QueryOptions, RetryNotice } from '../spec/model.js';
import { CircuitBreaker, type BreakerTrip, type CircuitBreakerOptions } from './circuit-breaker.js';
import { formatDuration } from './progress.js';

/** Why a run stopped by itself. */
export interface StopRequest {
  /** `fail-fast`: the first requests were refused for good; `circuit-breaker`: the server kept failing. */
  readonly kind: 'fail-fast' | 'circuit-breaker';
  readonly message: string;
}

/** What the fail-fast advice can name. */
export interface EndpointContext {
  /** The endpoint requests go to, when known. */
  readonly baseUrl?: string;
  /** The model id sent to the API, when known. */
  readonly modelId?: string;
}

export interface RequestMonitorOptions {
  readonly breaker: CircuitBreakerOptions;
  /** Called once, when the run must stop. */
  readonly onStop: (stop: StopRequest) => void;
  /** Every retry notice, with its entry. */
  readonly onRetry?: (entryId: string, notice: RetryNotice) => void;
  readonly endpoint?: EndpointContext;
  readonly now?: () => number;
}

/** Requests of the run at one moment. */
export interface InFlightSnapshot {
  /** Entries with a request on the wire. */
  readonly inFlight: number;
  /** The longest-running of them. */
  readonly oldest?: { readonly entryId: string; readonly ms: number; readonly attempt: number };
  /** Entries waiting before a retry. */
  readonly waiting: number;
}

/** Statuses a first request can get that no retry and no other entry will change. */
const FAIL_FAST_STATUSES: ReadonlySet<number> = new Set([401, 403, 404]);

export class RequestMonitor {
  private readonly now: () => number;
  private readonly breaker: CircuitBreaker;
  private succeeded = 0;
  private stopped = false;
  private readonly inFlight = new Map<string, { startedAt: number; attempt: number }>();
  private readonly waiting = new Set<string>();
  private readonly succeededByEntry = new Map<string, number>();
  /** Retries (failed attempts followed by another) by cause label. */
  readonly retriesByCause = new Map<string, number>();

  constructor(private readonly options: RequestMonitorOptions) {
    this.now = options.now ?? (() => performance.now());
    this.breaker = new CircuitBreaker({ ...options.breaker, now: this.now });
  }

  /** The hooks an entry's queries get. */
  hooksFor(entryId: string): Pick<QueryOptions, 'onRetry' | 'onAttemptStart' | 'onAttemptEnd'> {
    return {
      onAttemptStart: (attempt) => {
        this.waiting.delete(entryId);
        this.inFlight.set(entryId, { startedAt: this.now(), attempt });
      },
      onAttemptEnd: (outcome) => this.attemptEnded(entryId, outcome),
      onRetry: (notice) => {
        this.retriesByCause.set(notice.cause.label, (this.retriesByCause.get(notice.cause.label) ?? 0) + 1);
        this.options.onRetry?.(entryId, notice);
      },
    };
  }

  /** The entry is over (written, failed or abandoned): it has nothing in flight any more. */
  entryEnded(entryId: string): void {
    this.inFlight.delete(entryId);
    this.waiting.delete(entryId);
  }

  /** Successful requests of the whole run. */
  successfulRequests(): number {
    return this.succeeded;
  }

  /** Successful requests of one entry (its model steps so far). */
  requestsOf(entryId: string): number {
    return this.succeededByEntry.get(entryId) ?? 0;
  }

  snapshot(): InFlightSnapshot {
    let oldest: InFlightSnapshot['oldest'];
    const now = this.now();
    for (const [entryId, { startedAt, attempt }] of this.inFlight) {
      const ms = now - startedAt;
      if (oldest === undefined || ms > oldest.ms) oldest = { entryId, ms, attempt };
    }
    return { inFlight: this.inFlight.size, waiting: this.waiting.size, ...(oldest !== undefined && { oldest }) };
  }

  private attemptEnded(entryId: string, outcome: AttemptOutcome): void {
    this.inFlight.delete(entryId);
    if (outcome.ok) {
      this.succeeded++;
      this.succeededByEntry.set(entryId, (this.succeededByEntry.get(entryId) ?? 0) + 1);
    } else if (outcome.willRetry) {
      this.waiting.add(entryId);
    }
    if (this.stopped) return;
    if (!outcome.ok && this.succeeded === 0) {
      const advice = failFastAdvice(outcome.cause, this.options.endpoint ?? {});
      if (advice !== undefined) {
        this.stop({ kind: 'fail-fast', message: `the first request failed with ${outcome.cause.label} (${outcome.message}). ${advice}` });
        return;
      }
    }
    const trip = this.breaker.record(outcome);
    if (trip !== undefined) this.stop({ kind: 'circuit-breaker', message: breakerMessage(trip) });
  }

  private stop(request: StopRequest): void {
    this.stopped = true;
    this.options.onStop(request);
  }
}

/** What to check after a first request that no retry can fix; undefined when retrying may help. */
export function failFastAdvice(cause: FailureCause, endpoint: EndpointContext): string | undefined {
  const url = endpoint.baseUrl === undefined ? 'the base URL (--base-url)' : `the base URL (${endpoint.baseUrl})`;
  const model = endpoint.modelId === undefined ? 'the model id' : `the model id (${endpoint.modelId})`;
  if (cause.kind === 'connection' && cause.label === 'unknown host') return `Check ${url}: its host name does not resolve.`;
  if (cause.kind !== 'http' || cause.status === undefined || !FAIL_FAST_STATUSES.has(cause.status)) return undefined;
  switch (cause.status) {
    case 401:
      return 'Check the API key (OPENAI_API_KEY, REMOTE_OPENAI_API_KEY or ANTHROPIC_API_KEY, as the model uses; a .env file in the working directory is read).';
    case 403:
      return `Check that the API key may use ${model}.`;
    default:
      return `Check ${url}: an OpenAI-compatible server's usually ends in /v1 (e.g. http://localhost:8000/v1); and check ${model}: it must be one the server serves.`;
  }
}

function breakerMessage(trip: BreakerTrip): string {
  const causes = [...trip.byCause].map(([label, count]) => `${label} x${count}`).join(', ');
  return (
    `the last ${trip.failures} requests failed (${causes}) and none succeeded for ${formatDuration(trip.outageMs / 1000)}; ` +
    `last: ${trip.lastMessage}. Check that the server is up and answering (and --base-url), then run the same command again.`
  );
}

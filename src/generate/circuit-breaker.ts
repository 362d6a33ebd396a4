/**
 * The circuit breaker of a generation run: it watches every request attempt and trips when the
 * server looks down or broken, so a run stops instead of spending every remaining entry's retries
 * (minutes each) on the same failure. It trips after `maxConsecutiveFailures` failed attempts of a
 * server or transport kind in a row (5xx, 401/403/404, 408, timeouts, refused or reset connections,
 * malformed answers) once no attempt has succeeded for `minOutageMs` either. The second condition
 * keeps a short outage (a server restarting, which fails every request in flight at once) from
 * stopping a long run; a server that stays down trips it after the outage window.
 *
 * Rate limits (429) and refusals of one request (400, 413, 422) say the server is up: they neither
 * count nor break a streak. Pure apart from the injected clock.
 */

import type { AttemptOutcome, FailureCause } from '../spec/model.js';

/** Statuses that say something is wrong with the server or the run's settings, not with one request. */
const SERVER_STATUSES: ReadonlySet<number> = new Set([401, 403, 404, 408]);

/** Whether a failure counts toward the breaker. */
export function countsTowardBreaker(cause: FailureCause): boolean {
  switch (cause.kind) {
    case 'http':
      return cause.status !== undefined && (cause.status >= 500 || SERVER_STATUSES.has(cause.status));
    case 'timeout':
    case 'connection':
    case 'malformed':
      return true;
    case 'other':
      return false;
  }
}

export interface CircuitBreakerOptions {
  /** Failed attempts in a row that trip the breaker (≥ 1). */
  readonly maxConsecutiveFailures: number;
  /** How long no attempt may have succeeded before the breaker can trip, in ms. */
  readonly minOutageMs: number;
  /** Clock in ms (tests inject one). */
  readonly now?: () => number;
}

/** Why the breaker tripped. */
export interface BreakerTrip {
  readonly failures: number;
  /** Milliseconds since the last successful attempt (or since the run started). */
  readonly outageMs: number;
  /** The last failure's cause and message. */
  readonly lastCause: FailureCause;
  readonly lastMessage: string;
  /** The streak's failures by cause label. */
  readonly byCause: ReadonlyMap<string, number>;
}

export class CircuitBreaker {
  private readonly now: () => number;
  private lastSuccessAt: number;
  private streak = 0;
  private streakByCause = new Map<string, number>();

  constructor(private readonly options: CircuitBreakerOptions) {
    this.now = options.now ?? (() => performance.now());
    this.lastSuccessAt = this.now();
  }

  /** Records one attempt's outcome; returns the trip when this attempt tripped the breaker. */
  record(outcome: AttemptOutcome): BreakerTrip | undefined {
    if (outcome.ok) {
      this.lastSuccessAt = this.now();
      this.streak = 0;
      this.streakByCause = new Map();
      return undefined;
    }
    if (!countsTowardBreaker(outcome.cause)) return undefined;
    this.streak++;
    this.streakByCause.set(outcome.cause.label, (this.streakByCause.get(outcome.cause.label) ?? 0) + 1);
    const outageMs = this.now() - this.lastSuccessAt;
    if (this.streak < Math.max(1, this.options.maxConsecutiveFailures) || outageMs < this.options.minOutageMs) return undefined;
    return { failures: this.streak, outageMs, lastCause: outcome.cause, lastMessage: outcome.message, byCause: new Map(this.streakByCause) };
  }
}

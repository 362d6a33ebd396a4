/**
 * Lines that can come by the thousand (retries in a rate-limit storm, entries failing alike), one
 * per kind per interval: the first line of a kind in an interval is printed at once (with its entry
 * and reason, which says what is wrong), the others of that interval are counted and printed as one
 * line when the interval ends, e.g. `37 more retries after HTTP 429 in the last 10s (waits 0.3-1.4s)`.
 */

/** One kind's lines held back in the current interval. */
interface HeldBack {
  count: number;
  minWaitMs: number;
  maxWaitMs: number;
}

export class IntervalLog {
  private readonly now: () => number;
  private intervalStart: number;
  /** Kinds seen in the current interval, with the lines not printed yet. */
  private readonly seen = new Map<string, HeldBack>();

  constructor(
    private readonly write: (line: string) => void,
    private readonly intervalMs = 10_000,
    now?: () => number,
  ) {
    this.now = now ?? (() => performance.now());
    this.intervalStart = this.now();
  }

  /**
   * One event of `kind` (`retries after HTTP 429`, `entries failed with HTTP 400`): `line` is
   * printed when it is the first of its kind in the interval. `waitMs`: the retry wait, shown as a range.
   */
  record(kind: string, line: string, waitMs?: number): void {
    this.flushIfDue();
    const held = this.seen.get(kind);
    if (held === undefined) {
      this.seen.set(kind, { count: 0, minWaitMs: Infinity, maxWaitMs: -Infinity });
      this.write(line);
      return;
    }
    held.count++;
    if (waitMs !== undefined) {
      held.minWaitMs = Math.min(held.minWaitMs, waitMs);
      held.maxWaitMs = Math.max(held.maxWaitMs, waitMs);
    }
  }

  /** Prints the held-back counts when the interval is over (call it now and then). */
  flushIfDue(): void {
    if (this.now() - this.intervalStart >= this.intervalMs) this.flush();
  }

  /** Prints the held-back counts and starts a new interval. */
  flush(): void {
    const elapsed = Math.max(1, Math.round((this.now() - this.intervalStart) / 1000));
    for (const [kind, held] of this.seen) {
      if (held.count === 0) continue;
      let waits = '';
      if (held.maxWaitMs >= 0) {
        const range = held.minWaitMs === held.maxWaitMs ? seconds(held.minWaitMs) : `${seconds(held.minWaitMs)}-${seconds(held.maxWaitMs)}`;
        waits = ` (waits ${range}s)`;
      }
      this.write(`${held.count} more ${kind} in the last ${elapsed}s${waits}`);
    }
    this.seen.clear();
    this.intervalStart = this.now();
  }
}

/** `1.2` for 1234 ms. */
export function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

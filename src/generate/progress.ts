/**
 * Progress of a generation run on stderr: a redrawn bar on a terminal, plain lines otherwise (every
 * `everyEntries` entries or `everyMs` milliseconds, whichever comes first).
 */

/** Where progress goes. */
export interface ProgressSink {
  readonly write: (text: string) => void;
  /** A terminal: the bar is redrawn in place. */
  readonly isTTY: boolean;
}

export interface ProgressOptions {
  /** Plain mode: a line at least every this many entries (default: a tenth of the total, at least 1). */
  readonly everyEntries?: number;
  /** Plain mode: a line when this much time passed since the last one (default 15 s). */
  readonly everyMs?: number;
  /** Clock in milliseconds (tests inject one). */
  readonly now?: () => number;
  /**
   * The run's work in expected requests, done and in all, for the time-left estimate: entries
   * differ (a multi-turn conversation costs tens of requests, a single-turn entry one), so an
   * estimate by entries is far off while the long ones run first. Default (and when it gives
   * undefined): entries.
   */
  readonly work?: () => WorkEstimate | undefined;
}

/** Work of a run in requests: made so far, and expected in all. */
export interface WorkEstimate {
  readonly done: number;
  readonly total: number;
}

const BAR_WIDTH = 30;
/** The bar is redrawn at most this often. */
const REDRAW_MS = 100;

/** Counts finished entries and reports them. */
export class ProgressReporter {
  private done = 0;
  private failed = 0;
  private readonly startedAt: number;
  private lastPrintAt: number;
  private lastPrintDone = 0;
  private barShown = false;
  private readonly everyEntries: number;
  private readonly everyMs: number;
  private readonly now: () => number;
  private readonly work: (() => WorkEstimate | undefined) | undefined;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly sink: ProgressSink,
    options: ProgressOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.work = options.work;
    this.everyEntries = options.everyEntries ?? Math.max(1, Math.ceil(total / 10));
    this.everyMs = options.everyMs ?? 15_000;
    this.startedAt = this.now();
    this.lastPrintAt = this.startedAt;
    if (sink.isTTY) this.drawBar();
  }

  /** One entry finished (`failed`: written as an inference error). */
  tick(failed = false): void {
    this.done++;
    if (failed) this.failed++;
    const now = this.now();
    if (this.sink.isTTY) {
      if (now - this.lastPrintAt >= REDRAW_MS || this.done === this.total) {
        this.lastPrintAt = now;
        this.drawBar();
      }
      return;
    }
    if (this.done - this.lastPrintDone >= this.everyEntries || now - this.lastPrintAt >= this.everyMs || this.done === this.total) {
      this.lastPrintAt = now;
      this.lastPrintDone = this.done;
      this.sink.write(`${this.label}: ${this.status(now)}\n`);
    }
  }

  /** A message between progress updates (the bar is cleared first and redrawn after). */
  message(text: string): void {
    if (this.sink.isTTY && this.barShown) this.sink.write('\r\x1b[2K');
    this.sink.write(text.endsWith('\n') ? text : `${text}\n`);
    if (this.sink.isTTY) this.drawBar();
  }

  /** Leave the bar's line (terminal mode). */
  finish(): void {
    if (this.sink.isTTY && this.barShown) {
      this.drawBar();
      this.sink.write('\n');
      this.barShown = false;
    }
  }

  /** Seconds since the start. */
  elapsedSeconds(): number {
    return (this.now() - this.startedAt) / 1000;
  }

  private drawBar(): void {
    const fraction = this.total === 0 ? 1 : this.done / this.total;
    const filled = Math.round(fraction * BAR_WIDTH);
    const bar = `${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}`;
    this.sink.write(`\r\x1b[2K${this.label} [${bar}] ${this.status(this.now())}`);
    this.barShown = true;
  }

  private status(now: number): string {
    const seconds = (now - this.startedAt) / 1000;
    const percent = this.total === 0 ? 100 : Math.floor((100 * this.done) / this.total);
    const rate = seconds > 0 ? this.done / seconds : 0;
    const errors = this.failed > 0 ? `, ${this.failed} errors` : '';
    const remaining = this.done < this.total ? this.timeLeft(seconds) : '';
    return `${this.done}/${this.total} (${percent}%${errors}) ${formatDuration(seconds)}, ${rate.toFixed(1)} entries/s${remaining}`;
  }

  /** `, ~3m05s left`, from the work done so far; empty until there is a rate to go by. */
  private timeLeft(seconds: number): string {
    const work = this.work?.() ?? { done: this.done, total: this.total };
    if (seconds <= 0 || work.done <= 0) return '';
    const left = (Math.max(0, work.total - work.done) * seconds) / work.done;
    return `, ~${formatDuration(left)} left`;
  }
}

/** `42s`, `3m05s`, `1h02m`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

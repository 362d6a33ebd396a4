/**
 * `BFCL_DEBUG_TIMING=1`: where a run's time goes, one line per step on stderr, stamped with the
 * milliseconds since the process started and the thread that did it. Written straight to the file
 * descriptor: a worker's `process.stderr` goes through the main thread, which would hold the line
 * (and the worker) until it is free. Off, it costs one environment lookup per step.
 */

import { writeSync } from 'node:fs';


export function timingReportsOn(): boolean {
  return process.env['BFCL_DEBUG_TIMING'] === '1';
}

/** Milliseconds since the process started (the same clock in every thread). */
export function processMs(): number {
  return process.uptime() * 1000;
}

/** Report `step` when timing reports are on. */
export function reportTiming(step: string): void {
  if (!timingReportsOn()) return;
  writeSync(2, `bfcl timing: ${processMs().toFixed(0)} ms: ${step}\n`);
}

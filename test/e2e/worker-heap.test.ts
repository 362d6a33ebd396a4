/**
 * `tuneV8ForBatchWork` starts the heaps of worker threads made after it with a larger old generation
 * (V8 flags are per process, so this runs in a node process of its own, on the built module).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { PACKAGE_ROOT, ensureBuilt } from './built-cli.js';

beforeAll(() => ensureBuilt(), 300_000);

/** Full (mark-compact) GCs of a worker that keeps about 40 MB, made after tuning or not. */
function majorGcsOfWorker(tune: boolean): number {
  const tuning = pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', 'util', 'v8-tuning.js')).href;
  const worker = `
    const { PerformanceObserver, constants } = require('node:perf_hooks');
    let major = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
    }).observe({ entryTypes: ['gc'] });
    const kept = [];
    for (let i = 0; i < 100; i++) kept.push(Array.from({ length: 10000 }, (_, j) => ({ i, j })));
    setTimeout(() => require('node:worker_threads').parentPort.postMessage(major), 20);
  `;
  const main = `
    const { Worker } = require('node:worker_threads');
    import(${JSON.stringify(tuning)}).then(({ tuneV8ForBatchWork }) => {
      if (${tune}) tuneV8ForBatchWork([]);
      new Worker(${JSON.stringify(worker)}, { eval: true }).on('message', (major) => console.log(major));
    });
  `;
  return Number(execFileSync(process.execPath, ['-e', main], { encoding: 'utf8' }).trim());
}

describe('tuneV8ForBatchWork and worker threads', () => {
  it("lets a worker's heap grow to about 40 MB without a full GC (V8's default heap has one)", () => {
    expect(majorGcsOfWorker(false)).toBeGreaterThan(0);
    expect(majorGcsOfWorker(true)).toBe(0);
  }, 60_000);
});

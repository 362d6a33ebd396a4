/**
 * What `tuneV8ForBatchWork` does to V8's garbage collection, seen through node's GC performance
 * entries. V8 flags are per process, so each case runs in a node process of its own, on the built
 * module.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { PACKAGE_ROOT, ensureBuilt } from './built-cli.js';

beforeAll(() => ensureBuilt(), 300_000);

/** Counts GC performance entries by kind, keeps about KEPT_MB megabytes, and reports the counts a little later. */
const KEEP_AND_COUNT_GCS = `
  const { PerformanceObserver } = require('node:perf_hooks');
  const gcs = {};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcs[entry.detail.kind] = (gcs[entry.detail.kind] ?? 0) + 1;
  }).observe({ entryTypes: ['gc'] });
  const kept = [];
  for (let i = 0; i < KEPT_MB * 2.5; i++) kept.push(Array.from({ length: 10000 }, (_, j) => ({ i, j })));
  const report = (counts) => setTimeout(() => REPORT(counts), 100);
`;

/** GC entry counts by kind (node's `constants.NODE_PERFORMANCE_GC_*`) of that work, in this thread or a worker. */
function gcKinds(where: 'main thread' | 'worker', keptMb: number, tune: boolean): Record<string, number> {
  const tuning = pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', 'util', 'v8-tuning.js')).href;
  const work = (report: string): string => `${KEEP_AND_COUNT_GCS.replace('KEPT_MB', String(keptMb)).replace('REPORT(counts)', report)} report(gcs);`;
  const run =
    where === 'main thread'
      ? work('console.log(JSON.stringify(counts))')
      : `new (require('node:worker_threads').Worker)(${JSON.stringify(work("require('node:worker_threads').parentPort.postMessage(counts)"))}, { eval: true })
           .on('message', (counts) => console.log(JSON.stringify(counts)));`;
  const main = `import(${JSON.stringify(tuning)}).then(({ tuneV8ForBatchWork }) => { if (${tune}) tuneV8ForBatchWork([]); ${run} });`;
  return JSON.parse(execFileSync(process.execPath, ['-e', main], { encoding: 'utf8' })) as Record<string, number>;
}

const MINOR = '1'; // NODE_PERFORMANCE_GC_MINOR
const MAJOR = '4'; // NODE_PERFORMANCE_GC_MAJOR
const INCREMENTAL = '8'; // NODE_PERFORMANCE_GC_INCREMENTAL

describe('tuneV8ForBatchWork and garbage collection', () => {
  it("lets a worker thread's heap grow to about 40 MB without a full GC (V8's default heap has one)", () => {
    expect(gcKinds('worker', 40, false)[MAJOR]).toBeGreaterThan(0);
    expect(gcKinds('worker', 40, true)[MAJOR]).toBeUndefined();
  }, 60_000);

  it('makes full GCs in one pause, without incremental marking steps while the program runs, and fewer young-generation GCs', () => {
    const untuned = gcKinds('main thread', 80, false);
    expect(untuned[MAJOR]).toBeGreaterThan(0);
    expect(untuned[INCREMENTAL]).toBeGreaterThan(0);
    const tuned = gcKinds('main thread', 80, true);
    expect(tuned[MAJOR]).toBeGreaterThan(0);
    expect(tuned[INCREMENTAL]).toBeUndefined();
    // The young generation reaches its full size sooner (this work: 11 young-generation GCs, tuned 8).
    expect(tuned[MINOR]!).toBeLessThan(untuned[MINOR]!);
  }, 60_000);
});

/**
 * The entry of a worker thread of `bfcl evaluate --num-threads` (bundled alone to
 * `dist/bin/evaluate-worker-launcher.cjs`): runs the worker bundle (`dist/bin/evaluate-worker.cjs`)
 * with V8's code cache, as the `bfcl` launcher runs the program. Compiling the worker bundle afresh
 * cost each worker about 70 ms of CPU. `BFCL_DEBUG_STARTUP=1` reports what became of the cache.
 */

import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';

import { keepCodeCacheOfSuccessfulRun, loadBundle } from '../util/code-cache.js';
import type { LaneTask } from './parallel-evaluation.js';

/** The program bundles' content stamp, which the bundle script writes in at build time. */
declare const __BFCL_PROGRAM_STAMP__: string | undefined;

const worker = loadBundle({
  bundle: fileURLToPath(new URL('./evaluate-worker.cjs', import.meta.url)),
  // The dataset's cache folder is the command's cache folder (see cacheDirOf).
  cacheDir: (workerData as LaneTask).cacheDir,
  variant: 'evaluate worker',
  stamp: typeof __BFCL_PROGRAM_STAMP__ === 'string' ? __BFCL_PROGRAM_STAMP__ : undefined,
});
// The worker's jobs ran as the bundle loaded; a worker that did its work stores what it compiled.
keepCodeCacheOfSuccessfulRun(worker, 'worker code cache');

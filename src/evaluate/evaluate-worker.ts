/** A worker thread of `runEvaluationInParallel`: evaluates its lane's jobs and reports each one. */

import { parentPort, workerData } from 'node:worker_threads';

import { BfclDataset } from '../data/dataset.js';
import { parsedFileCache } from '../data/parsed-file-cache.js';
import { lazySimContext } from '../sim/simulated-api.js';
import type { LaneMessage, LaneTask } from './parallel-evaluation.js';
import { runEvaluationJob } from './run-evaluate.js';

const task = workerData as LaneTask;
const dataset = new BfclDataset(task.dataDir, { validate: task.validate, cache: parsedFileCache(task.cacheDir) });
const context = lazySimContext(() => dataset.longContext());
for (const { index, job } of task.jobs) {
  let message: LaneMessage;
  try {
    message = { index, result: runEvaluationJob(job, dataset, context, task.scoreDir, task.partial) };
  } catch {
    message = { index, failed: true };
  }
  parentPort!.postMessage(message);
}

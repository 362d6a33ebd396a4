/**
 * The evaluation worker thread of `runEvaluationInParallel`: evaluates its share of result files
 * and writes their score files, then sends the summaries back. Values that cannot cross threads
 * with their class (simulated files in state reports...) travel as their `str()`, as in score files.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BfclDataset } from '../data/dataset.js';
import { isJsonSerializable } from '../py/json.js';
import { pyStr } from '../py/repr.js';
import { PyTuple, type PyDict, type PyValue } from '../py/value.js';
import type { SimContext } from '../sim/simulated-api.js';
import { runEvaluationJob, type EvaluatedCategory, type EvaluationWorkerRequest } from './run-evaluate.js';

/** Dicts, lists and scalars cross as they are; tuples become lists; anything else its `str()`. */
function cloneable(v: PyValue): PyValue {
  if (v instanceof Map) {
    const out: PyDict = new Map();
    for (const [k, val] of v) out.set(k instanceof PyTuple ? pyStr(k) : k, cloneable(val));
    return out;
  }
  if (Array.isArray(v)) return v.map(cloneable);
  if (v instanceof PyTuple) return v.items.map(cloneable);
  return v === null || typeof v !== 'object' || isJsonSerializable(v) ? v : pyStr(v);
}

const request = workerData as EvaluationWorkerRequest;
const dataset = new BfclDataset(request.dataDir);
const context: SimContext = { longContext: dataset.longContext() };
const results: EvaluatedCategory[] = request.jobs.map((job) => {
  const result = runEvaluationJob(job, dataset, context, request.scoreDir, request.partial);
  const evaluation = {
    ...result.evaluation,
    failures: result.evaluation.failures.map((f) => cloneable(f) as PyDict),
  };
  return { ...result, evaluation };
});
parentPort!.postMessage(results);

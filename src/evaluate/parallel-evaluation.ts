/**
 * `bfcl evaluate` on several threads: the result files of a run are spread over worker threads,
 * each with its own dataset reader; this thread evaluates its share too. Categories are
 * independent, so the score files are the same as a single-threaded run's; progress is reported
 * in the plan's order whatever order the work finishes in.
 */

import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import { lazySimContext } from '../sim/simulated-api.js';
import { getCategoryInfo } from '../spec/categories.js';
import {
  planEvaluation,
  runEvaluationJob,
  type EvaluateRunOptions,
  type EvaluateRunSummary,
  type EvaluatedCategory,
  type EvaluationJob,
} from './run-evaluate.js';
import { planLanes, workKindOf, type LaneCostModel, type WorkGroup } from './lane-plan.js';

export interface ParallelEvaluateOptions extends EvaluateRunOptions {
  /** Threads to evaluate on, this one included; 1 evaluates everything here. */
  readonly threads: number;
  /** The lane plan's cost estimates (default: measured on the 2-vCPU machine class). */
  readonly laneCosts?: LaneCostModel;
}

/** What a worker is given: its jobs (by plan index) and how to open the dataset. */
export interface LaneTask {
  readonly dataDir: string;
  readonly validate: boolean;
  /** The dataset's parse cache folder, if it has one. */
  readonly cacheDir: string | undefined;
  readonly scoreDir: string;
  readonly partial: boolean;
  readonly jobs: readonly { readonly index: number; readonly job: EvaluationJob }[];
}

/** A worker's report on one job; a failed job is run again here, so that its error surfaces as it would single-threaded. */
export type LaneMessage = { readonly index: number; readonly result: EvaluatedCategory } | { readonly index: number; readonly failed: true };

/** The worker script beside this module (bundled or compiled); undefined when not built (tests on sources). */
function workerScript(): URL | undefined {
  const url = new URL(import.meta.url.endsWith('.cjs') ? './evaluate-worker.cjs' : './evaluate-worker.js', import.meta.url);
  return existsSync(fileURLToPath(url)) ? url : undefined;
}

const fileSize = (file: string): number => statSync(file, { throwIfNoEntry: false })?.size ?? 0;

/** The jobs of one category (indices into the plan) as one unit of the lane plan. */
export interface CategoryGroup extends WorkGroup {
  readonly jobs: number[];
  bytes: number;
}

/**
 * The jobs grouped by category, each group with its kind and bytes for the lane plan: all models of
 * a category go to one lane, which reads that category's dataset files once; the bytes are those
 * of the category's dataset file and of its result files.
 */
export function groupByCategory(jobs: readonly EvaluationJob[], dataDir: string): CategoryGroup[] {
  const groups = new Map<string, CategoryGroup>();
  jobs.forEach((job, index) => {
    let group = groups.get(job.category);
    if (group === undefined) {
      group = { jobs: [], kind: workKindOf(job.category), bytes: fileSize(join(dataDir, getCategoryInfo(job.category).dataFile)) };
      groups.set(job.category, group);
    }
    group.jobs.push(index);
    group.bytes += fileSize(job.resultFile);
  });
  return [...groups.values()];
}

/** Run the evaluation with up to `threads` threads (see the module comment). */
export async function runEvaluationInParallel(options: ParallelEvaluateOptions): Promise<EvaluateRunSummary> {
  const plan = planEvaluation(options);
  const context = lazySimContext(() => options.dataset.longContext());
  const results: (EvaluatedCategory | undefined)[] = new Array(plan.jobs.length).fill(undefined);
  let reported = 0;
  const finish = (index: number, result: EvaluatedCategory): void => {
    results[index] = result;
    for (; reported < results.length && results[reported] !== undefined; reported++) {
      const done = results[reported]!;
      options.onCategory?.(done.model, done.category, done.evaluation);
    }
  };
  const runHere = (index: number): void =>
    finish(index, runEvaluationJob(plan.jobs[index]!, options.dataset, context, options.scoreDir, options.partial));

  const script = options.threads > 1 ? workerScript() : undefined;
  const lanes = script === undefined ? [plan.jobs.map((_, index) => index)] : jobLanes(plan.jobs, options);

  const workers = lanes.slice(1).filter((lane) => lane.length > 0).map((lane) =>
    runLane(
      script!,
      {
        dataDir: options.dataset.dir,
        validate: options.dataset.validate,
        cacheDir: options.dataset.cache.dir,
        scoreDir: options.scoreDir,
        partial: options.partial,
        jobs: lane.map((index) => ({ index, job: plan.jobs[index]! })),
      },
      finish,
    ),
  );
  for (const index of lanes[0]!) runHere(index);
  await Promise.all(workers);
  // Jobs a worker could not finish run here: their error (a broken dataset file...) is thrown as usual.
  for (let index = 0; index < results.length; index++) if (results[index] === undefined) runHere(index);
  return { evaluated: results as EvaluatedCategory[], missingResultFiles: plan.missingResultFiles, models: plan.models };
}

/** Job indices per lane (lane 0 is this thread): whole categories, as `planLanes` spreads them. */
function jobLanes(jobs: readonly EvaluationJob[], options: ParallelEvaluateOptions): number[][] {
  const groups = groupByCategory(jobs, options.dataset.dir);
  const lanes = planLanes(groups, Math.min(options.threads, groups.length), options.laneCosts);
  return lanes.map((lane) => lane.flatMap((group) => groups[group]!.jobs).sort((a, b) => a - b));
}

/**
 * Run one worker to its end, handing each finished job to `onResult` as it arrives. A failed job or
 * a crash just leaves jobs undone; the caller runs those itself.
 */
function runLane(script: URL, task: LaneTask, onResult: (index: number, result: EvaluatedCategory) => void): Promise<void> {
  return new Promise((resolve) => {
    const worker = new Worker(script, { workerData: task });
    worker.on('message', (message: LaneMessage) => {
      if ('result' in message) onResult(message.index, message.result);
    });
    worker.on('error', () => undefined);
    worker.on('exit', () => resolve());
  });
}

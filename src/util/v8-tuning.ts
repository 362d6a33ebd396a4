import { setFlagsFromString } from 'node:v8';

import { lazyWorkerThreads } from './lazy-builtins.js';

/**
 * V8's interrupt budget (bytes of bytecode a function runs between checks for optimization) for
 * short batch work: 576 KB instead of V8's default of 66 KB.
 */
export const BATCH_INTERRUPT_BUDGET = 576 * 1024;

/** How much the young generation grows at a time (V8's default: 2; see `tuneV8ForBatchWork`). */
export const SEMI_SPACE_GROWTH_FACTOR = 8;

/** Where the old generation of a worker thread's heap starts, in MB (see `tuneV8ForBatchWork`). */
export const WORKER_INITIAL_OLD_SPACE_MB = 64;

/**
 * Tune V8 for work that runs once over many inputs for about a second (`bfcl evaluate`,
 * `ground-truth`, `show`...): optimize only the code that stays hot. With V8's default budget,
 * optimizing compiles took about a third of the CPU time of evaluating a full run, on a thread that
 * shares the two cores with the work (bench: evaluate-real-run, 1.24 s → 0.94 s median wall, CPU
 * 1.97 s → 1.22 s; `ground-truth` of all multi-turn entries CPU 1.08 → 0.65 s). Long work (`bfcl
 * generate`) gets slower with it, so it is not set for the whole program. Affects functions made
 * after the call, in every thread (V8 flags are per process); an `--interrupt-budget` given to node
 * is left alone.
 */
export function tuneV8ForBatchWork(execArgv: readonly string[] = process.execArgv): void {
  if (!execArgv.some((arg) => arg.startsWith('--interrupt-budget'))) setFlagsFromString(`--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`);
  // Regular expressions compiled to machine code at once, instead of interpreted on their first use
  // and compiled on the next: a run uses each one many times (real run: 0.5-0.7% fewer instructions).
  if (!execArgv.some((arg) => arg.includes('regexp-tier-up'))) setFlagsFromString('--no-regexp-tier-up');
  // Heaps made from now on (worker threads'; this thread's is made) start with a larger old
  // generation. V8 started a worker's at 25 MB, so the worker of a real run's `evaluate` marked
  // and compacted once mid-run: with 64 MB it did not, and the run took 10-19 ms less (paired
  // medians of three sets of 20-25 interleaved runs; 48 MB: 6.5 ms, 128 MB: 18.5). Set with the others:
  // V8 hashes its flags into every code cache.
  if (!execArgv.some((arg) => arg.startsWith('--initial-old-space-size') || arg.startsWith('--initial-heap-size'))) {
    setFlagsFromString(`--initial-old-space-size=${WORKER_INITIAL_OLD_SPACE_MB}`);
  }
  // Full GCs in one pause instead of marking in steps as the program runs, which slows every
  // pointer write while it lasts: batch work wants throughput, not short pauses. The real run's
  // main thread then had its one full GC near its end (or none), and the run took 6-10 ms less
  // (paired medians of two sets of 30); the whole official set 29 ms less.
  if (!execArgv.some((arg) => arg.includes('incremental-marking'))) setFlagsFromString('--no-incremental-marking');
  // The young generation grows to its full size in fewer steps (x8 instead of x2 each time): fewer
  // young-generation GCs copy the same survivors (real run: 17 → 12-13 on the main thread, 14 → 11
  // in the worker; 6-6.5 ms less, paired medians of 20 and 30 runs).
  if (!execArgv.some((arg) => arg.startsWith('--semi-space-growth-factor'))) setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`);
}

/**
 * Load the node built-ins a batch command will need before `tuneV8ForBatchWork` changes V8's flags:
 * node's built-ins carry a code cache that V8 takes only under the flags it was made with, so one
 * loaded after tuning is compiled from its source. `process.stdout` on a pipe took 3.5 ms instead
 * of 1.7, `node:worker_threads` 1.9 ms instead of 0.55 (`bfcl evaluate` starts its lanes with it).
 */
export function loadBuiltinsBeforeTuning(command: string): void {
  void process.stdout;
  if (command === 'evaluate') lazyWorkerThreads();
}

/** Whether a command is batch work that `tuneV8ForBatchWork` suits: every command but generate. */
export function isBatchCommand(name: string): boolean {
  return name !== 'generate';
}

/**
 * Scavenge (V8's young-generation GC) on the thread that needs it, without helper threads, when
 * `lanes` busy JS threads fill the machine's `cpus`: the helpers then only compete with the other
 * lanes, and the scavenging thread waits for the slowest of them (`bfcl evaluate` of a real run on
 * 2 vCPUs with 2 lanes: 20-25 ms less wall time, paired medians of 24 and 30 runs). V8 reads the
 * flag at each scavenge, in every thread; a node option about it is left alone.
 */
export function scavengeWithoutHelpersWhenLanesFillCpus(lanes: number, cpus: number, execArgv: readonly string[] = process.execArgv): boolean {
  if (lanes < 2 || lanes < cpus) return false;
  if (execArgv.some((arg) => arg.includes('parallel-scavenge') || arg.includes('single-threaded'))) return false;
  setFlagsFromString('--no-parallel-scavenge');
  return true;
}

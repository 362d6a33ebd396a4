/**
 * How `bfcl evaluate` spreads categories over threads ("lanes"; lane 0 is the main thread).
 *
 * A lane pays for more than its bytes: the first category of a kind costs the JIT warm-up of that
 * kind's code (multi-turn runs the simulated APIs, the other runners share the decoders and AST
 * checkers), and a worker first has to boot. Spreading by bytes alone split the three multi-turn
 * categories of a real run over two lanes, so both lanes warmed up the multi-turn code and two
 * threads were slower than one; keeping each kind on one lane where that balances is what pays.
 */

import { isMultiTurn } from '../spec/categories.js';

/** The code path a category's evaluation runs through (and warms up). */
export type WorkKind = 'multi-turn' | 'single-turn';

export const workKindOf = (category: string): WorkKind => (isMultiTurn(category) ? 'multi-turn' : 'single-turn');

/** Estimated costs, in milliseconds of one thread. */
export interface LaneCostModel {
  /** Per megabyte of a category's dataset file and result files. */
  readonly msPerMb: Readonly<Record<WorkKind, number>>;
  /**
   * What a lane spends warming up a kind's code: its first work of that kind runs `coldFactor`
   * times slower, until this much extra time has been spent (a small run never gets warm).
   */
  readonly warmUpMs: Readonly<Record<WorkKind, number>>;
  readonly coldFactor: Readonly<Record<WorkKind, number>>;
  /** From creating a worker to its first job (booting, loading the code and the dataset index). */
  readonly workerStartMs: number;
}

/**
 * Measured on the 2-vCPU machine class with the real run (gpt-oss-20b, 16 categories), cache
 * folder filled, each kind alone in a process, about 20 ms of each run fixed: multi-turn 1/2/3
 * categories of 2.8 MB took 0.21/0.27/0.34 s; single-turn 4.1 MB took 0.13 s and 6.4 MB 0.16 s. A
 * worker reached its first job 87–120 ms after it was created while the main thread worked.
 */
export const MEASURED_LANE_COSTS: LaneCostModel = {
  msPerMb: { 'multi-turn': 23, 'single-turn': 14 },
  warmUpMs: { 'multi-turn': 130, 'single-turn': 50 },
  coldFactor: { 'multi-turn': 3, 'single-turn': 2 },
  workerStartMs: 100,
};

/** A unit of work that stays on one lane: the jobs of one category (its dataset is read once). */
export interface WorkGroup {
  readonly kind: WorkKind;
  /** Dataset file plus result files, in bytes. */
  readonly bytes: number;
}

/**
 * Assign groups to at most `lanes` lanes so that the last lane finishes as early as the cost model
 * can tell: whole kinds first (largest first onto the lane that would finish first), then single
 * groups moved off the lane that finishes last while that makes it finish earlier. The lane with
 * the most work becomes lane 0, which starts at once. Returns the group indices of each lane, in
 * order; lanes without work are empty.
 */
export function planLanes(groups: readonly WorkGroup[], lanes: number, costs: LaneCostModel = MEASURED_LANE_COSTS): number[][] {
  const plan: number[][] = Array.from({ length: Math.max(1, lanes) }, () => []);
  const workOf = (indices: readonly number[]): number => laneWork(groups, indices, costs);
  const finishWith = (lane: number, indices: readonly number[]): number => laneFinish(lane, workOf(indices), costs);

  const byKind = new Map<WorkKind, number[]>();
  groups.forEach((g, i) => {
    const indices = byKind.get(g.kind);
    if (indices === undefined) byKind.set(g.kind, [i]);
    else indices.push(i);
  });
  for (const indices of [...byKind.values()].sort((a, b) => workOf(b) - workOf(a))) {
    plan[bestLane(plan.length, (lane) => finishWith(lane, [...plan[lane]!, ...indices]))]!.push(...indices);
  }

  // Move single groups off the lane that finishes last while that brings its finish forward.
  for (let moves = 0; moves < groups.length * plan.length; moves++) {
    const finishes = plan.map((indices, lane) => finishWith(lane, indices));
    const last = finishes.indexOf(Math.max(...finishes));
    let best: { group: number; to: number; makespan: number } | undefined;
    for (const group of plan[last]!) {
      const from = finishWith(last, plan[last]!.filter((g) => g !== group));
      plan.forEach((indices, to) => {
        if (to === last) return;
        const makespan = Math.max(from, finishWith(to, [...indices, group]));
        if (makespan < finishes[last]! && (best === undefined || makespan < best.makespan)) best = { group, to, makespan };
      });
    }
    if (best === undefined) break;
    const { group, to } = best;
    plan[last] = plan[last]!.filter((g) => g !== group);
    plan[to]!.push(group);
  }

  // The most work goes to this thread, which does not wait for a worker to boot.
  const work = new Map(plan.map((indices) => [indices, workOf(indices)]));
  plan.sort((a, b) => work.get(b)! - work.get(a)!);
  return plan.map((indices) => indices.sort((a, b) => a - b));
}

/** The estimated work of one lane running `indices` of `groups`, warm-up included (ms). */
export function laneWork(groups: readonly WorkGroup[], indices: readonly number[], costs: LaneCostModel = MEASURED_LANE_COSTS): number {
  const warmMs = new Map<WorkKind, number>();
  for (const i of indices) {
    const { kind, bytes } = groups[i]!;
    warmMs.set(kind, (warmMs.get(kind) ?? 0) + (costs.msPerMb[kind] * bytes) / 1e6);
  }
  let work = 0;
  for (const [kind, ms] of warmMs) work += Math.min(ms * costs.coldFactor[kind], ms + costs.warmUpMs[kind]);
  return work;
}

/** When lane `lane` finishes `work`: a worker lane boots first; lane 0 (this thread) does not. */
export function laneFinish(lane: number, work: number, costs: LaneCostModel = MEASURED_LANE_COSTS): number {
  return lane > 0 && work > 0 ? costs.workerStartMs + work : work;
}

/** The lane of `lanes` for which `finishOf` is smallest (the first such). */
function bestLane(lanes: number, finishOf: (lane: number) => number): number {
  let best = 0;
  for (let lane = 1; lane < lanes; lane++) if (finishOf(lane) < finishOf(best)) best = lane;
  return best;
}

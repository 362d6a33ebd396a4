import { describe, expect, it } from 'vitest';

import { laneFinish, laneWork, MEASURED_LANE_COSTS, planLanes, type WorkGroup, type WorkKind } from '../../src/evaluate/lane-plan.js';
import { seededRandom } from '../helpers/random.js';

const MB = 1_000_000;
const group = (kind: WorkKind, mb: number): WorkGroup => ({ kind, bytes: mb * MB });

/** The real run's 16 categories (gpt-oss-20b): dataset file plus result file, in MB. */
const REAL_RUN: WorkGroup[] = [
  group('multi-turn', 2.72),
  group('multi-turn', 2.82),
  group('multi-turn', 2.98),
  ...[4.14, 2.35, 0.37, 0.36, 0.39, 0.21, 0.32, 0.19, 0.11, 0.06, 0.09, 0.05, 0.02].map((mb) => group('single-turn', mb)),
];

/** When the last lane of `plan` finishes, by the cost model. */
function makespan(groups: readonly WorkGroup[], plan: readonly (readonly number[])[]): number {
  return Math.max(...plan.map((lane, i) => laneFinish(i, laneWork(groups, lane))));
}

describe('planLanes', () => {
  it('keeps the multi-turn categories of a real run together on this thread and the rest on one worker', () => {
    // Spreading by bytes alone put multi-turn categories on both lanes, and both warmed up that code.
    expect(planLanes(REAL_RUN, 2)).toEqual([[0, 1, 2], [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]);
  });

  it('starts no worker for a small run', () => {
    const small = REAL_RUN.map((g) => ({ ...g, bytes: g.bytes / 100 }));
    expect(planLanes(small, 4)).toEqual([small.map((_, i) => i), [], [], []]);
  });

  it('splits a kind over lanes once its work outweighs another warm-up', () => {
    const fiveModels = REAL_RUN.map((g) => ({ ...g, bytes: g.kind === 'multi-turn' ? g.bytes * 5 : g.bytes }));
    const plan = planLanes(fiveModels, 2);
    const lanesWithMultiTurn = plan.filter((lane) => lane.some((i) => i < 3));
    expect(lanesWithMultiTurn).toHaveLength(2);
    expect(makespan(fiveModels, plan)).toBeLessThan(makespan(fiveModels, [[0, 1, 2], [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]));
  });

  it('with one lane runs everything here', () => {
    expect(planLanes(REAL_RUN, 1)).toEqual([REAL_RUN.map((_, i) => i)]);
  });

  it('on random runs: every group once, the most work on this thread, never later than one thread', () => {
    const random = seededRandom(7);
    for (let run = 0; run < 300; run++) {
      const groups = Array.from({ length: 1 + random(20) }, () =>
        group(random(3) === 0 ? 'multi-turn' : 'single-turn', random(8000) / 1000),
      );
      const lanes = 1 + random(6);
      const plan = planLanes(groups, lanes);
      expect(plan).toHaveLength(lanes);
      expect(plan.flat().sort((a, b) => a - b)).toEqual(groups.map((_, i) => i));
      const work = plan.map((lane) => laneWork(groups, lane));
      expect(Math.max(...work)).toBe(work[0]);
      expect(makespan(groups, plan)).toBeLessThanOrEqual(makespan(groups, [groups.map((_, i) => i)]) + 1e-9);
    }
  });

  it('estimates a kind cold until its warm-up is spent', () => {
    const costs = MEASURED_LANE_COSTS;
    const mt = costs.msPerMb['multi-turn'];
    // A small amount of multi-turn work runs entirely cold ...
    expect(laneWork([group('multi-turn', 0.1)], [0])).toBeCloseTo(0.1 * mt * costs.coldFactor['multi-turn']);
    // ... a big one pays the warm-up once, however many categories share the lane.
    expect(laneWork([group('multi-turn', 3), group('multi-turn', 3)], [0, 1])).toBeCloseTo(6 * mt + costs.warmUpMs['multi-turn']);
    expect(laneFinish(1, 100)).toBe(100 + costs.workerStartMs);
    expect(laneFinish(0, 100)).toBe(100);
    expect(laneFinish(1, 0)).toBe(0);
  });
});

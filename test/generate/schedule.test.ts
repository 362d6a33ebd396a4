import { describe, expect, it } from 'vitest';

import { orderLongestFirst, runScheduled } from '../../src/generate/schedule.js';

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('runScheduled', () => {
  it('runs at most `concurrency` tasks at once, starting them in order', async () => {
    let running = 0;
    let peak = 0;
    const started: string[] = [];
    const entries = Array.from({ length: 10 }, (_, i) => ({ id: `e_${i}` }));
    const result = await runScheduled(entries, 3, async (entry) => {
      started.push(entry.id);
      running++;
      peak = Math.max(peak, running);
      await wait(5);
      running--;
    });
    expect(peak).toBe(3);
    expect(started).toEqual(entries.map((e) => e.id));
    expect(result).toEqual({ finished: 10, notStarted: 0 });
  });

  it('starts an entry only after the entries it depends on have finished', async () => {
    const log: string[] = [];
    const entries = [
      { id: 'prereq_0', dependsOn: [] },
      { id: 'prereq_1', dependsOn: ['prereq_0'] },
      { id: 'main_0', dependsOn: ['prereq_0', 'prereq_1', 'not_in_this_run'] },
      { id: 'other_0' },
    ];
    await runScheduled(entries, 4, async (entry) => {
      log.push(`start ${entry.id}`);
      await wait(entry.id === 'prereq_0' ? 20 : 5);
      log.push(`end ${entry.id}`);
    });
    expect(log.indexOf('start prereq_1')).toBeGreaterThan(log.indexOf('end prereq_0'));
    expect(log.indexOf('start main_0')).toBeGreaterThan(log.indexOf('end prereq_1'));
    // Independent entries do not wait.
    expect(log.indexOf('start other_0')).toBeLessThan(log.indexOf('end prereq_0'));
  });

  it('starts nothing new once the signal fired', async () => {
    const controller = new AbortController();
    const started: string[] = [];
    const entries = Array.from({ length: 6 }, (_, i) => ({ id: `e_${i}` }));
    const result = await runScheduled(
      entries,
      2,
      async (entry) => {
        started.push(entry.id);
        if (entry.id === 'e_1') controller.abort();
        await wait(2);
      },
      controller.signal,
    );
    expect(started).toEqual(['e_0', 'e_1']);
    expect(result).toEqual({ finished: 2, notStarted: 4 });
  });

  it('passes a task failure on after the other tasks settled', async () => {
    const finished: string[] = [];
    const entries = [{ id: 'a_0' }, { id: 'b_0' }];
    await expect(
      runScheduled(entries, 2, async (entry) => {
        if (entry.id === 'a_0') throw new Error('disk full');
        await wait(5);
        finished.push(entry.id);
      }),
    ).rejects.toThrow('disk full');
    expect(finished).toEqual(['b_0']);
  });
});

describe('orderLongestFirst', () => {
  const entry = (id: string, turns: number, dependsOn?: string[]) => ({ id, turns, dependsOn });
  const ids = (entries: readonly { id: string }[]): string[] => entries.map((e) => e.id);

  it('puts the costliest entries first, keeping the given order among equal costs', () => {
    const entries = [entry('a', 1), entry('b', 3), entry('c', 1), entry('d', 5), entry('e', 3)];
    expect(ids(orderLongestFirst(entries, (e) => e.turns))).toEqual(['d', 'b', 'e', 'a', 'c']);
  });

  it('starts dependency chains first, in their given order, whatever their links cost', () => {
    const entries = [entry('q', 9), entry('p0', 2), entry('p1', 9, ['p0']), entry('p2', 1, ['p0', 'p1']), entry('m', 1, ['p0', 'p1', 'p2']), entry('z', 4)];
    expect(ids(orderLongestFirst(entries, (e) => e.turns))).toEqual(['p0', 'p1', 'p2', 'm', 'q', 'z']);
  });

  it('keeps every entry exactly once', () => {
    const entries = Array.from({ length: 30 }, (_, i) => entry(`e${i}`, (i * 7) % 5, i % 6 === 5 ? [`e${i - 1}`] : undefined));
    expect(ids(orderLongestFirst(entries, (e) => e.turns)).sort()).toEqual(ids(entries).sort());
  });
});


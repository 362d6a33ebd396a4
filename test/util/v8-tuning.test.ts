import { beforeEach, describe, expect, it, vi } from 'vitest';

const setFlagsFromString = vi.fn();
vi.mock('node:v8', async (importOriginal) => ({ ...(await importOriginal<typeof import('node:v8')>()), setFlagsFromString }));

const {
  BATCH_INTERRUPT_BUDGET,
  SEMI_SPACE_GROWTH_FACTOR,
  WORKER_INITIAL_OLD_SPACE_MB,
  scavengeWithoutHelpersWhenLanesFillCpus,
  tuneV8ForBatchWork,
} = await import('../../src/util/v8-tuning.js');

describe('tuneV8ForBatchWork', () => {
  beforeEach(() => setFlagsFromString.mockClear());

  it("raises the interrupt budget, compiles regular expressions at once and starts workers' heaps larger", () => {
    tuneV8ForBatchWork([]);
    expect(setFlagsFromString.mock.calls).toEqual([
      [`--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`],
      ['--no-regexp-tier-up'],
      [`--initial-old-space-size=${WORKER_INITIAL_OLD_SPACE_MB}`],
      ['--no-incremental-marking'],
      [`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`],
    ]);
  });

  it('leaves what node was told alone', () => {
    tuneV8ForBatchWork(['--max-old-space-size=4096', '--interrupt-budget=100000']);
    expect(setFlagsFromString.mock.calls).toEqual([
      ['--no-regexp-tier-up'],
      [`--initial-old-space-size=${WORKER_INITIAL_OLD_SPACE_MB}`],
      ['--no-incremental-marking'],
      [`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`],
    ]);
    setFlagsFromString.mockClear();
    const told = ['--interrupt-budget=100000', '--regexp-tier-up', '--semi-space-growth-factor=2'];
    tuneV8ForBatchWork([...told, '--initial-old-space-size=16', '--incremental-marking']);
    expect(setFlagsFromString).not.toHaveBeenCalled();
    tuneV8ForBatchWork([...told, '--initial-heap-size=100', '--no-incremental-marking']);
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});

describe('scavengeWithoutHelpersWhenLanesFillCpus', () => {
  beforeEach(() => setFlagsFromString.mockClear());

  it('turns off parallel scavenging when the lanes keep every CPU busy', () => {
    expect(scavengeWithoutHelpersWhenLanesFillCpus(2, 2, [])).toBe(true);
    expect(scavengeWithoutHelpersWhenLanesFillCpus(8, 4, [])).toBe(true);
    expect(setFlagsFromString.mock.calls).toEqual([['--no-parallel-scavenge'], ['--no-parallel-scavenge']]);
  });

  it('keeps the helpers while a CPU is left over, for a single lane, and when node was told about it', () => {
    expect(scavengeWithoutHelpersWhenLanesFillCpus(2, 4, [])).toBe(false);
    expect(scavengeWithoutHelpersWhenLanesFillCpus(1, 1, [])).toBe(false);
    expect(scavengeWithoutHelpersWhenLanesFillCpus(2, 2, ['--parallel-scavenge'])).toBe(false);
    expect(scavengeWithoutHelpersWhenLanesFillCpus(2, 2, ['--single-threaded-gc'])).toBe(false);
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});

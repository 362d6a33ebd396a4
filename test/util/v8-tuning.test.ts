import { beforeEach, describe, expect, it, vi } from 'vitest';

const setFlagsFromString = vi.fn();
vi.mock('node:v8', async (importOriginal) => ({ ...(await importOriginal<typeof import('node:v8')>()), setFlagsFromString }));

const { BATCH_INTERRUPT_BUDGET, tuneV8ForBatchWork } = await import('../../src/util/v8-tuning.js');

describe('tuneV8ForBatchWork', () => {
  beforeEach(() => setFlagsFromString.mockClear());

  it('raises the interrupt budget', () => {
    tuneV8ForBatchWork([]);
    expect(setFlagsFromString).toHaveBeenCalledWith(`--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`);
  });

  it('leaves a budget given to node alone', () => {
    tuneV8ForBatchWork(['--max-old-space-size=4096', '--interrupt-budget=100000']);
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});

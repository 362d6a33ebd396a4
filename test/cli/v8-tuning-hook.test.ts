import { describe, expect, it, vi } from 'vitest';

const tuneV8ForBatchWork = vi.fn();
vi.mock('../../src/util/v8-tuning.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/util/v8-tuning.js')>()),
  tuneV8ForBatchWork,
}));

const { runCli } = await import('../../src/cli/main.js');

async function run(argv: string[]): Promise<number> {
  tuneV8ForBatchWork.mockClear();
  const io = { stdout: () => {}, stderr: () => {}, env: {}, cwd: '/work/project' };
  return runCli(argv, io, { runGenerate: async () => 0, runEvaluate: async () => 0 });
}

describe('V8 tuning per command', () => {
  it('tunes V8 for batch work before evaluate', async () => {
    expect(await run(['evaluate', '--model', 'm'])).toBe(0);
    expect(tuneV8ForBatchWork).toHaveBeenCalledTimes(1);
  });

  it('leaves V8 alone for generate, which the tuning slows down', async () => {
    expect(await run(['generate', '--model', 'oracle', '--test-category', 'simple_python'])).toBe(0);
    expect(tuneV8ForBatchWork).not.toHaveBeenCalled();
  });
});

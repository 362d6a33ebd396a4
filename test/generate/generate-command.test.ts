import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { INTERRUPTED_EXIT_CODE, STOPPED_EXIT_CODE, runGenerateCommand } from '../../src/cli/generate-command.js';
import { createModel } from '../../src/models/create-model.js';
import { fallbackModelConfig } from '../../src/models/model-registry.js';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { generateOptions } from '../helpers/generate-options.js';

interface Captured {
  io: CliIo;
  out: { stdout: string; stderr: string };
}

function capture(env: Record<string, string> = {}): Captured & { cwd: string } {
  const cwd = mkdtempSync(join(tmpdir(), 'bfcl-cli-gen-'));
  const out = { stdout: '', stderr: '' };
  const io: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env, cwd };
  return { io, out, cwd };
}

describe('bfcl generate', () => {
  it('generates with the oracle, then finds nothing left to do', async () => {
    const { io, out, cwd } = capture();
    expect(await runCli(['generate', '--model', 'oracle', '--test-category', 'simple_python,multi_turn_base'], io)).toBe(0);
    expect(out.stderr).toContain('Running full test cases for categories: multi_turn_base, simple_python.');
    expect(out.stderr).toMatch(/oracle: 10 of 10 entries written in \d+s/);
    const file = join(cwd, 'result', 'oracle', 'non_live', 'BFCL_v4_simple_python_result.json');
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(6);

    out.stderr = '';
    expect(await runCli(['generate', '--model', 'oracle', '--test-category', 'simple_python,multi_turn_base'], io)).toBe(0);
    expect(out.stderr).toContain('All 10 selected test cases have been previously generated for oracle.');
  });

  it("rejects an unknown model with the reference's message", async () => {
    const { io, out } = capture();
    expect(await runCli(['generate', '--model', 'no-such-model', '--test-category', 'simple_python'], io)).toBe(2);
    expect(out.stderr).toContain("Unknown model_name 'no-such-model'.");
  });

  it('fails on a missing API key before any entry of any model runs', async () => {
    const { io, out, cwd } = capture();
    const code = await runCli(['generate', '--model', 'oracle,gpt-4o-2024-11-20-FC', '--test-category', 'simple_python'], io);
    expect(code).toBe(2);
    expect(out.stderr).toContain('OPENAI_API_KEY');
    expect(existsSync(join(cwd, 'result'))).toBe(false);
  });

  it('explains what --run-ids needs when the id file is missing', async () => {
    const { io, out, cwd } = capture();
    expect(await runCli(['generate', '--model', 'oracle', '--run-ids'], io)).toBe(2);
    expect(out.stderr).toContain(join(cwd, 'test_case_ids_to_generate.json'));
  });

  it(`stops with exit code ${STOPPED_EXIT_CODE} when the server cannot be reached, after 3 entries, not 6`, async () => {
    const { io, out, cwd } = capture();
    // A port nothing listens on: open one, then close it.
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((ok) => probe.close(() => ok()));
    const options = generateOptions(cwd, { models: ['openai-compatible/down'], numThreads: 1 });
    const buildModel = (name: string) =>
      createModel(fallbackModelConfig(name), { baseUrl: `http://127.0.0.1:${port}/v1`, env: {}, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    expect(await runGenerateCommand(options, io, { buildModel })).toBe(STOPPED_EXIT_CODE);
    expect(out.stderr).toMatch(/Stopped: the last 3 entries failed without ever reaching the server \(.*ECONNREFUSED.*\)/);
    expect(out.stderr).toContain('3 entries were not finished (stopped).');
    const file = join(cwd, 'result', 'openai-compatible_down', 'non_live', 'BFCL_v4_simple_python_result.json');
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
  });

  it(`stops with exit code ${INTERRUPTED_EXIT_CODE} when interrupted`, async () => {
    const { io, out, cwd } = capture();
    const controller = new AbortController();
    controller.abort();
    const options = generateOptions(cwd);
    expect(await runGenerateCommand(options, io, { signal: controller.signal })).toBe(INTERRUPTED_EXIT_CODE);
    expect(out.stderr).toContain('Interrupted. Everything finished so far is saved');
    expect(out.stderr).toContain('6 entries were not finished (interrupted).');
  });
});

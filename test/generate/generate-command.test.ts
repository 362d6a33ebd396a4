import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ENTRY_ERRORS_EXIT_CODE, INTERRUPTED_EXIT_CODE, STOPPED_EXIT_CODE, runGenerateCommand } from '../../src/cli/generate-command.js';
import { packageDataDir } from '../../src/data/data-dir.js';
import { LOCK_DIR_NAME, LOCK_OWNER_FILE } from '../../src/generate/result-folder-lock.js';
import { createModel } from '../../src/models/create-model.js';
import { fallbackModelConfig } from '../../src/models/model-registry.js';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { generateOptions } from '../helpers/generate-options.js';
import { CAUSES, type Script, ScriptedModel, fcCall } from './scripted-model.js';

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

  it(`stops with exit code ${STOPPED_EXIT_CODE} when the server stays unreachable (circuit breaker), keeping what finished`, async () => {
    const { io, out, cwd } = capture();
    // A port nothing listens on: open one, then close it.
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((ok) => probe.close(() => ok()));
    const options = generateOptions(cwd, { models: ['openai-compatible/down'], numThreads: 1, maxConsecutiveFailures: 3 });
    const buildModel = (name: string) =>
      createModel(fallbackModelConfig(name), { baseUrl: `http://127.0.0.1:${port}/v1`, env: {}, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    expect(await runGenerateCommand(options, io, { buildModel, breakerMinOutageMs: 0 })).toBe(STOPPED_EXIT_CODE);
    expect(out.stderr).toMatch(/Stopped: the last 3 requests failed \(connection refused x3\) and none succeeded for \d+s; last: .*ECONNREFUSED/);
    expect(out.stderr).toContain('5 entries were not finished (stopped).');
    expect(out.stderr).toContain('The next run with the same arguments will generate 6 entries (1 errors, 5 not finished).');
    // Two attempts of the first entry, then the first of the second tripped the breaker: one error line.
    const file = join(cwd, 'result', 'openai-compatible_down', 'non_live', 'BFCL_v4_simple_python_result.json');
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
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

  it(`exits ${ENTRY_ERRORS_EXIT_CODE} when entries ended as errors, with the summary by cause (and --json on stdout)`, async () => {
    const { io, out, cwd } = capture();
    const script: Script = ({ entryId }) =>
      entryId === 'simple_python_1'
        ? { failCause: CAUSES.http(400), permanent: true, fail: new Error('prompt too long') }
        : entryId === 'simple_python_4'
          ? { failCause: CAUSES.timeout }
          : { responses: [fcCall('f')], retries: entryId === 'simple_python_0' ? [CAUSES.http(429), CAUSES.reset] : [] };
    const buildModel = (name: string) => new ScriptedModel('fc', script, name);
    const options = generateOptions(cwd, { models: ['m'], json: true });
    expect(await runGenerateCommand(options, io, { buildModel })).toBe(ENTRY_ERRORS_EXIT_CODE);
    expect(out.stderr).toContain('  4 with a result, 2 written as errors ("Error during inference: ..."): HTTP 400 x1, timeout x1.');
    expect(out.stderr).toContain('  1 of the errors are permanent');
    expect(out.stderr).toContain('  2 retries: HTTP 429 x1, connection reset x1.');
    expect(out.stderr).toContain('  The next run with the same arguments will generate 1 entries (1 errors).');
    const report = JSON.parse(out.stdout) as Record<string, unknown> & { models: Record<string, unknown>[] };
    expect(report).toMatchObject({ status: 'errors', exit_code: ENTRY_ERRORS_EXIT_CODE, interrupted_by: null, models_not_run: [] });
    expect(report.models[0]).toMatchObject({
      model: 'm',
      written: 6,
      ok: 4,
      errors: 2,
      permanent_errors: 1,
      errors_by_cause: { 'HTTP 400': 1, timeout: 1 },
      retries: 2,
      retries_by_cause: { 'HTTP 429': 1, 'connection reset': 1 },
      next_run_redoes: 1,
      stopped: null,
    });

    // The next run redoes the timeout only; the permanent error stays an error, so the exit code stays 4.
    out.stderr = '';
    out.stdout = '';
    const fixed = (name: string) => new ScriptedModel('fc', () => ({ responses: [fcCall('f')] }), name);
    expect(await runGenerateCommand(options, io, { buildModel: fixed })).toBe(ENTRY_ERRORS_EXIT_CODE);
    expect(out.stderr).toContain('1 entries failed before with a permanent error (HTTP 400 x1) and were not retried; --retry-errors generates them again.');
    expect(JSON.parse(out.stdout)).toMatchObject({ models: [{ to_generate: 1, skipped_permanent_errors: { 'HTTP 400': 1 } }] });
    // --retry-errors: everything has a result now.
    expect(await runGenerateCommand({ ...options, retryErrors: true, json: false }, io, { buildModel: fixed })).toBe(0);
  });

  it('stops at once with exit code 5 when the first request is answered 404, naming the base URL', async () => {
    const { io, out, cwd } = capture();
    const buildModel = (name: string) => new ScriptedModel('fc', () => ({ failCause: CAUSES.http(404), fail: new Error('404 page not found') }), name);
    const options = generateOptions(cwd, { models: ['openai-compatible/qwen'], baseUrl: 'http://127.0.0.1:8900' });
    expect(await runGenerateCommand(options, io, { buildModel })).toBe(STOPPED_EXIT_CODE);
    expect(out.stderr).toContain('Stopped: the first request failed with HTTP 404 (404 page not found). Check the base URL (http://127.0.0.1:8900)');
    expect(out.stderr).toContain('and check the model id (qwen)');
  });

  it('exits 2 naming the unknown ids of --run-ids instead of claiming all 0 were generated (#24 item 11)', async () => {
    const { io, out, cwd } = capture();
    writeFileSync(join(cwd, 'test_case_ids_to_generate.json'), JSON.stringify({ simple_python: ['simple_python_1', 'simple_python_99'], multiple: ['multiple_x'] }));
    expect(await runCli(['generate', '--model', 'oracle', '--run-ids'], io)).toBe(2);
    expect(out.stderr).toContain('lists 2 ids that are not in the dataset');
    expect(out.stderr).toContain('simple_python_99, multiple_x');
    expect(out.stderr).not.toContain('previously generated');
  });

  it('exits 2 naming the categories when no selected entry can be generated by this build', async () => {
    const { io, out, cwd } = capture();
    // The oracle is an FC model: format sensitivity is for prompting models only.
    expect(await runCli(['generate', '--model', 'oracle', '--test-category', 'format_sensitivity'], io)).toBe(2);
    expect(out.stderr).toMatch(/This build cannot generate any selected entry \(categories: format_sensitivity\)/);
    expect(out.stderr).toContain('Format sensitivity test cases are only supported for prompting');
    expect(out.stderr).not.toContain('previously generated');
    expect(existsSync(join(cwd, 'result'))).toBe(false);
  });

  it('runs simple_python from a data folder that has nothing else, and names long_context.json only when an entry needs it (#24 item 8)', async () => {
    const { io, out, cwd } = capture();
    const data = join(cwd, 'only-simple');
    mkdirSync(data);
    copyFileSync(join(packageDataDir(), 'BFCL_v4_simple_python.json'), join(data, 'BFCL_v4_simple_python.json'));
    const buildModel = (name: string) => new ScriptedModel('fc', () => ({ responses: [fcCall('f')] }), name);
    expect(await runGenerateCommand(generateOptions(cwd, { models: ['m'], dataDir: data }), io, { buildModel })).toBe(0);
    expect(out.stderr).toContain('m: 6 of 6 entries written');

    const noFiller = join(cwd, 'no-filler');
    cpSync(packageDataDir(), noFiller, { recursive: true });
    rmSync(join(noFiller, 'long_context.json'));
    const multi = generateOptions(cwd, { models: ['m'], dataDir: noFiller, testCategories: ['multi_turn_base'] });
    expect(await runGenerateCommand(multi, io, { buildModel })).toBe(0);
    out.stderr = '';
    const long = generateOptions(cwd, { models: ['m'], dataDir: noFiller, testCategories: ['multi_turn_long_context'] });
    await expect(runGenerateCommand(long, io, { buildModel })).rejects.toThrow(/long_context\.json/);
    expect(await runCli(['generate', '--model', 'oracle', '--test-category', 'multi_turn_long_context', '--data-dir', noFiller], io)).toBe(1);
    expect(out.stderr).toMatch(/bfcl: error: .*long_context\.json/);
  });

  it('fails at once when another live run holds the result folder, naming its pid and start time; takes over a stale lock', async () => {
    const { io, out, cwd } = capture();
    const modelDir = join(cwd, 'result', 'oracle');
    mkdirSync(join(modelDir, LOCK_DIR_NAME), { recursive: true });
    const holder = { pid: process.pid, hostname: hostname(), started_at: '2026-01-02T03:04:05.000Z', command: 'bfcl generate oracle' };
    writeFileSync(join(modelDir, LOCK_OWNER_FILE), JSON.stringify(holder));
    expect(await runCli(['generate', '--model', 'oracle', '--test-category', 'simple_python'], io)).toBe(1);
    expect(out.stderr).toContain(`is being written by bfcl generate pid ${process.pid} on ${hostname()}, started 2026-01-02T03:04:05.000Z`);
    expect(existsSync(join(modelDir, 'non_live'))).toBe(false);

    // The holder is gone (a pid that exited): the lock is stale and taken over.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(modelDir, LOCK_OWNER_FILE), JSON.stringify({ ...holder, pid: dead }));
    out.stderr = '';
    expect(await runCli(['generate', '--model', 'oracle', '--test-category', 'simple_python'], io)).toBe(0);
    expect(out.stderr).toContain(`Removed a stale lock of ${modelDir}: its holder (pid ${dead}, started 2026-01-02T03:04:05.000Z) is gone.`);
    // Released at the end: no lock directory, no owner file.
    expect(existsSync(join(modelDir, LOCK_DIR_NAME))).toBe(false);
    expect(existsSync(join(modelDir, LOCK_OWNER_FILE))).toBe(false);
  });

  it('checks the request flags: --extra-body must be a JSON object, --mode only for openai-compatible models, --seed only where the API has one', async () => {
    const { io, out } = capture({ OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' });
    expect(await runCli(['generate', '--model', 'oracle', '--extra-body', '[1]'], io)).toBe(2);
    expect(out.stderr).toContain('--extra-body must be a JSON object');
    expect(await runCli(['generate', '--model', 'oracle', '--top-p', '1.5'], io)).toBe(2);
    expect(await runCli(['generate', '--model', 'gpt-4o-2024-11-20-FC', '--mode', 'prompting', '--test-category', 'simple_python'], io)).toBe(2);
    expect(out.stderr).toContain('--mode applies to openai-compatible/<id> models only');
    expect(await runCli(['generate', '--model', 'claude-sonnet-4-5-20250929-FC', '--seed', '3', '--test-category', 'simple_python'], io)).toBe(2);
    expect(out.stderr).toContain('--seed cannot be sent to claude-sonnet-4-5-20250929-FC: the Anthropic Messages API has no seed parameter.');
  });
});

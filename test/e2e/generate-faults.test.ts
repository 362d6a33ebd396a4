/**
 * `generate` against faults, end to end (#24): the built binary against the local mock server
 * (404 without /v1, a fault storm of 429/500/resets/cut-off bodies, 32 threads), two concurrent runs
 * into one folder, SIGTERM and SIGHUP to a running CLI, closed stdout and stderr; and in-process runs
 * of the command over real HTTP for what needs shortened timings (hung server, heartbeat).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ORACLE_DELAY_ENV, SIGNAL_EXIT_CODES, STOPPED_EXIT_CODE, runGenerateCommand } from '../../src/cli/generate-command.js';
import type { CliIo } from '../../src/cli/io.js';
import { packageDataDir } from '../../src/data/data-dir.js';
import { LOCK_DIR_NAME, LOCK_OWNER_FILE } from '../../src/generate/result-folder-lock.js';
import { RUN_MANIFEST_FILE, type RunManifest } from '../../src/generate/run-manifest.js';
import { generateOptions } from '../helpers/generate-options.js';
import { MockLlmServer, chatReply, faultStorm, type MockReply, type RecordedRequest } from '../helpers/mock-llm-server.js';
import { seededRandom } from '../helpers/random.js';
import { ensureBuilt, runBuiltCli, startCli } from './built-cli.js';

const MODEL = 'openai-compatible/mock';
const MODEL_DIR = 'openai-compatible_mock';

interface ChatBody {
  messages: { role: string; content?: string | null }[];
  tools?: unknown[];
}

/** Calls a tool for a user turn, answers a tool result with text: every entry ends in one or two steps. */
function agent(request: RecordedRequest): MockReply {
  const body = request.json as ChatBody;
  const last = body.messages.at(-1)!;
  if (last.role === 'tool' || body.messages.filter((m) => m.role === 'assistant').length >= 1) return chatReply.text('Done.');
  return chatReply.calls([{ name: 'f', arguments: '{}' }]);
}

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

const idsOf = (file: string): string[] => lines(file).map((l) => (JSON.parse(l) as { id: string }).id);

async function until(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((ok) => setTimeout(ok, 25));
  }
}

/** A data folder with only simple_python: `count` entries made from our data's first one. */
function simplePythonData(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'bfcl-e2e-data-'));
  const first = readFileSync(join(packageDataDir(), 'BFCL_v4_simple_python.json'), 'utf8').split('\n')[0]!;
  const entries = Array.from({ length: count }, (_, i) => first.replace(/"simple_python_\d+"/, `"simple_python_${i}"`));
  writeFileSync(join(dir, 'BFCL_v4_simple_python.json'), `${entries.join('\n')}\n`);
  return dir;
}

let server: MockLlmServer;
beforeAll(async () => {
  ensureBuilt();
  server = await MockLlmServer.start();
}, 300_000);
afterAll(async () => {
  await server?.close();
});

describe('bfcl generate against a faulty server (built binary)', () => {
  it('stops at once with exit code 5 when the base URL lacks /v1 (404), writing nothing', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-404-'));
    server.requests.length = 0;
    server.setHandler((request) =>
      request.path.startsWith('/v1/') ? agent(request) : { kind: 'json', status: 404, body: { detail: 'Not Found' } },
    );
    const started = performance.now();
    const run = await runBuiltCli(['generate', '--model', MODEL, '--test-category', 'simple_python', '--base-url', server.url], cwd);
    expect(run.code, run.stderr).toBe(STOPPED_EXIT_CODE);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(run.stderr).toContain(`Stopped: the first request failed with HTTP 404`);
    expect(run.stderr).toContain(`Check the base URL (${server.url}): an OpenAI-compatible server's usually ends in /v1`);
    expect(run.stderr).toContain('and check the model id (mock)');
    expect(server.requests).toHaveLength(1);
    expect(existsSync(join(cwd, 'result', MODEL_DIR, 'non_live'))).toBe(false);
  });

  it('rides out a fault storm (429 with Retry-After, 500, resets, cut-off bodies) losing no entry, and says what it retried', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-storm-'));
    const random = seededRandom(7);
    const storm = faultStorm({ rateLimited: 0.3, serverError: 0.1, reset: 0.05, malformed: 0.05, retryAfter: '0' }, agent, () => random(1_000_000) / 1_000_000);
    server.setHandler(storm.handler);
    const args = ['generate', '--model', MODEL, '--test-category', 'simple_python,multi_turn_base', '--base-url', `${server.url}/v1`];
    args.push('--num-threads', '4', '--max-backoff', '0.05', '--max-retries', '10', '--json');
    const run = await runBuiltCli(args, cwd);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { status: string; models: { written: number; errors: number; retries_by_cause: Record<string, number> }[] };
    expect(report.status).toBe('completed');
    expect(report.models[0]).toMatchObject({ written: 10, errors: 0 });
    const retries = report.models[0]!.retries_by_cause;
    expect(retries['HTTP 429']).toBe(storm.sent.rateLimited);
    expect(retries['HTTP 500']).toBe(storm.sent.serverError);
    expect(retries['malformed answer']).toBe(storm.sent.malformed);
    expect(retries['connection reset']).toBe(storm.sent.reset);
    // One retry line per cause per interval, not one per attempt.
    expect(run.stderr.match(/attempt \d+ failed \(.*429/g) ?? []).toHaveLength(1);
    expect(idsOf(join(cwd, 'result', MODEL_DIR, 'non_live', 'BFCL_v4_simple_python_result.json'))).toHaveLength(6);
  });

  it('runs 32 threads without a MaxListenersExceededWarning, from a data folder with only simple_python (#24 items 7, 8)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-threads-'));
    const data = simplePythonData(48);
    server.setHandler(async () => {
      await new Promise((ok) => setTimeout(ok, 40));
      return chatReply.calls([{ name: 'f', arguments: '{}' }]);
    });
    const run = await runBuiltCli(['generate', '--model', MODEL, '--base-url', `${server.url}/v1`, '--num-threads', '32', '--data-dir', data, '--test-category', 'simple_python'], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('MaxListenersExceededWarning');
    expect(run.stderr).not.toContain('(node:');
    expect(idsOf(join(cwd, 'result', MODEL_DIR, 'non_live', 'BFCL_v4_simple_python_result.json'))).toHaveLength(48);
  });

  it('keeps running when its reader goes away (closed stdout and stderr), and finishes the results', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-epipe-'));
    const { child, done } = startCli(['generate', '--model', 'oracle', '--test-category', 'simple_python', '--num-threads', '1', '--json'], cwd, {
      [ORACLE_DELAY_ENV]: '60',
    });
    child.stdout!.destroy();
    child.stderr!.destroy();
    const run = await done;
    expect(run.code).toBe(0);
    expect(idsOf(join(cwd, 'result', 'oracle', 'non_live', 'BFCL_v4_simple_python_result.json'))).toHaveLength(6);
  });
});

describe('one result folder, two runs; signals (built binary)', () => {
  it('refuses a second run at once naming the holder; SIGTERM stops the first cleanly (exit 143, manifest, sorted file, lock released)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-lock-'));
    const modelDir = join(cwd, 'result', 'oracle');
    const file = join(modelDir, 'non_live', 'BFCL_v4_simple_python_result.json');
    const args = ['generate', '--model', 'oracle', '--test-category', 'simple_python', '--num-threads', '2'];
    const first = startCli(args, cwd, { [ORACLE_DELAY_ENV]: '400' });
    await until(() => existsSync(join(modelDir, LOCK_OWNER_FILE)));

    const started = performance.now();
    const second = await runBuiltCli(args, cwd);
    expect(second.code).toBe(1);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(second.stderr).toMatch(new RegExp(`is being written by bfcl generate pid ${first.child.pid} on .+, started \\d{4}-\\d\\d-\\d\\dT`));

    await until(() => lines(file).length >= 1);
    first.child.kill('SIGTERM');
    const stopped = await first.done;
    expect(stopped.code).toBe(SIGNAL_EXIT_CODES.SIGTERM);
    expect(stopped.stderr).toContain('Received SIGTERM: no new entries will start');
    expect(stopped.stderr).toContain('Interrupted by SIGTERM. Everything finished so far is saved');
    const kept = idsOf(file);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(6);
    expect(kept).toEqual([...kept].sort((a, b) => Number(a.split('_').pop()) - Number(b.split('_').pop())));
    const manifest = JSON.parse(readFileSync(join(modelDir, RUN_MANIFEST_FILE), 'utf8')) as RunManifest;
    expect(manifest.runs.at(-1)).toMatchObject({ status: 'interrupted', interrupted_by: 'SIGTERM', counts: { written: kept.length } });
    expect(existsSync(join(modelDir, LOCK_DIR_NAME))).toBe(false);
  }, 60_000);

  it('takes SIGHUP like Ctrl-C (exit 129)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-hup-'));
    const file = join(cwd, 'result', 'oracle', 'non_live', 'BFCL_v4_simple_python_result.json');
    const run = startCli(['generate', '--model', 'oracle', '--test-category', 'simple_python', '--num-threads', '1'], cwd, { [ORACLE_DELAY_ENV]: '300' });
    await until(() => lines(file).length >= 1);
    run.child.kill('SIGHUP');
    const stopped = await run.done;
    expect(stopped.code).toBe(SIGNAL_EXIT_CODES.SIGHUP);
    expect(stopped.stderr).toContain('Interrupted by SIGHUP');
  });

  it('with -o, an interrupted run leaves the old results in place and keeps the new ones aside (#24 item 4)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-overwrite-'));
    const file = join(cwd, 'result', 'oracle', 'non_live', 'BFCL_v4_simple_python_result.json');
    expect((await runBuiltCli(['generate', '--model', 'oracle', '--test-category', 'simple_python'], cwd)).code).toBe(0);
    const before = readFileSync(file, 'utf8');
    const run = startCli(['generate', '--model', 'oracle', '--test-category', 'simple_python', '--num-threads', '1', '-o'], cwd, { [ORACLE_DELAY_ENV]: '300' });
    await until(() => lines(`${file}.new`).length >= 1);
    run.child.kill('SIGINT');
    const stopped = await run.done;
    expect(stopped.code).toBe(SIGNAL_EXIT_CODES.SIGINT);
    expect(stopped.stderr).not.toContain('Everything finished so far is saved');
    expect(stopped.stderr).toContain(`the new results finished so far are saved in ${file}.new. Run the same command (with -o) again to continue from them.`);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});

describe('in-process runs over real HTTP (shortened timings)', () => {
  function capture(): { io: CliIo; out: { stdout: string; stderr: string }; cwd: string } {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-inproc-'));
    mkdirSync(cwd, { recursive: true });
    const out = { stdout: '', stderr: '' };
    return { io: { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env: {}, cwd }, out, cwd };
  }

  it('a hung server: --timeout cuts the request, a heartbeat says what is in flight, the retry succeeds', async () => {
    const { io, out, cwd } = capture();
    let hung = false;
    server.setHandler((request) => {
      if (!hung) {
        hung = true;
        return { kind: 'hang', maxMs: 3_000 };
      }
      return agent(request);
    });
    const options = generateOptions(cwd, { models: [MODEL], baseUrl: `${server.url}/v1`, numThreads: 1, timeoutSeconds: 0.6, maxBackoffSeconds: 0.05 });
    expect(await runGenerateCommand(options, io, { heartbeatMs: 250 })).toBe(0);
    expect(out.stderr).toMatch(/No entry finished in the last \ds: 1 request in flight \(oldest \ds: simple_python_\d, attempt 1\)\./);
    expect(out.stderr).toMatch(/attempt 1 failed \(.*\); retrying in 0\.0s/);
    expect(out.stderr).toContain('1 retries: timeout x1.');
  });

  it('--mode prompting runs an openai-compatible model with the system prompt and no tools', async () => {
    const { io, cwd } = capture();
    server.requests.length = 0;
    server.setHandler(() => chatReply.text('[f()]'));
    const options = generateOptions(cwd, { models: [MODEL], baseUrl: `${server.url}/v1`, mode: 'prompting', testCategories: ['simple_python'] });
    expect(await runGenerateCommand(options, io)).toBe(0);
    const body = server.requests[0]!.json as ChatBody;
    expect(body.tools).toBeUndefined();
    expect(body.messages[0]!.role).toBe('system');
    expect(body.messages[0]!.content).toContain('You are an expert in composing functions.');
    const line = JSON.parse(lines(join(cwd, 'result', MODEL_DIR, 'non_live', 'BFCL_v4_simple_python_result.json'))[0]!) as { result: unknown };
    expect(line.result).toBe('[f()]');
  });
});

/**
 * The `bfcl` binary is a launcher that runs the program bundle with V8's code cache of the
 * previous run of the same command (src/util/code-cache.ts); these tests run the built binary.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { CLI, PACKAGE_ROOT, ensureBuilt, runBuiltCli } from './built-cli.js';

beforeAll(() => ensureBuilt(), 300_000);

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'bfcl-launcher-'));

describe('the bfcl binary', () => {
  it('stores the compiled code on the first run of a command and starts from it on the next', async () => {
    const cwd = tempDir();
    const env = { BFCL_CACHE_DIR: join(cwd, 'cache'), BFCL_DEBUG_STARTUP: '1' };
    // A batch command: the launcher tunes V8 before compiling, or V8 would refuse the cache made under the tuned flags.
    const first = await runBuiltCli(['test-categories'], cwd, env);
    const second = await runBuiltCli(['test-categories'], cwd, env);
    const otherCommand = await runBuiltCli(['models'], cwd, env);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('bfcl: code cache: missing');
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('bfcl: code cache: used');
    expect(second.stdout).toBe(first.stdout);
    expect(second.stdout).toContain('simple_python');
    expect(otherCommand.stderr).toContain('bfcl: code cache: missing');
    const builds = readdirSync(join(cwd, 'cache', 'compiled-code'));
    expect(builds).toHaveLength(1);
    expect(readdirSync(join(cwd, 'cache', 'compiled-code', builds[0]!))).toHaveLength(2);
  }, 60_000);

  it('starts generate and evaluate from the code caches the build shipped, even with the cache folder off', async () => {
    const cwd = tempDir();
    const env = { BFCL_CACHE_DIR: 'off', BFCL_DEBUG_STARTUP: '1' };
    const generate = await runBuiltCli(['generate', '--model', 'oracle', '--test-category', 'simple_python'], cwd, env);
    const evaluate = await runBuiltCli(['evaluate', '--model', 'oracle', '--test-category', 'simple_python'], cwd, env);
    expect(generate.code).toBe(0);
    expect(generate.stderr).toContain('bfcl: code cache: shipped');
    expect(evaluate.code).toBe(0);
    expect(evaluate.stderr).toContain('bfcl: code cache: shipped');
    expect(evaluate.stderr).toMatch(/simple_python: 100\.00%/);
    expect(readdirSync(cwd).sort()).toEqual(['result', 'score']);
  }, 60_000);

  it('keeps its own code cache after a run that started from the shipped one, and starts from it next time', async () => {
    const cwd = tempDir();
    const env = { BFCL_CACHE_DIR: join(cwd, 'cache'), BFCL_DEBUG_STARTUP: '1' };
    expect((await runBuiltCli(['generate', '--model', 'oracle', '--test-category', 'simple_python'], cwd, env)).code).toBe(0);
    const first = await runBuiltCli(['evaluate', '--model', 'oracle', '--test-category', 'simple_python'], cwd, env);
    const second = await runBuiltCli(['evaluate', '--model', 'oracle', '--test-category', 'simple_python'], cwd, env);
    expect(first.stderr).toContain('bfcl: code cache: shipped');
    expect(second.stderr).toContain('bfcl: code cache: used');
    expect(second.stdout).toBe(first.stdout);
  }, 60_000);

  it("keys the parse cache by the build's content stamp (dist/bin/build-stamp), not by file times", async () => {
    const cwd = tempDir();
    const env = { BFCL_CACHE_DIR: join(cwd, 'cache') };
    expect((await runBuiltCli(['generate', '--model', 'oracle', '--test-category', 'simple_python'], cwd, env)).code).toBe(0);
    expect((await runBuiltCli(['evaluate', '--model', 'oracle', '--test-category', 'simple_python'], cwd, env)).code).toBe(0);
    const stamp = readFileSync(join(PACKAGE_ROOT, 'dist', 'bin', 'build-stamp'), 'utf8').trim();
    expect(stamp).toMatch(/^[0-9a-f]{16}$/);
    expect(readdirSync(join(cwd, 'cache', 'parsed-files'))).toEqual([stamp]);
  }, 60_000);

  it('stores nothing after a failed run, and keeps help apart from the command', async () => {
    const cwd = tempDir();
    const env = { BFCL_CACHE_DIR: join(cwd, 'cache'), BFCL_DEBUG_STARTUP: '1' };
    const usageError = await runBuiltCli(['test-categories', '--no-such-flag'], cwd, env);
    expect(usageError.code).toBe(2);
    expect(existsSync(join(cwd, 'cache', 'compiled-code'))).toBe(false);
    expect((await runBuiltCli(['test-categories', '--help'], cwd, env)).code).toBe(0);
    const afterHelp = await runBuiltCli(['test-categories'], cwd, env);
    expect(afterHelp.stderr).toContain('bfcl: code cache: missing');
  }, 60_000);

  it('compiles without a cache when BFCL_CACHE_DIR is off, and passes exit codes through', async () => {
    const cwd = tempDir();
    const run = await runBuiltCli(['no-such-command'], cwd, { BFCL_CACHE_DIR: 'off', BFCL_DEBUG_STARTUP: '1' });
    expect(run.stderr).toContain('bfcl: code cache: off');
    expect(run.code).toBe(2);
    expect(readdirSync(cwd)).toEqual([]);
  }, 60_000);

  it('says clearly when the program bundle beside it is missing (a broken install)', async () => {
    const dir = tempDir();
    copyFileSync(CLI, join(dir, 'bfcl.cjs'));
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(dir, 'bfcl.cjs'), 'version'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`bfcl: error: the program bundle ${join(dir, 'bfcl-main.cjs')} is missing; reinstall bfcl-ts or run \`npm run build\`\n`);
  }, 60_000);

  it("loads the built-ins evaluate needs before tuning V8, while node's code cache for them still applies", async () => {
    const cwd = tempDir();
    const builtinsFile = join(cwd, 'builtins-after-tuning.json');
    const env = {
      BFCL_CACHE_DIR: 'off',
      NODE_OPTIONS: `--require ${join(PACKAGE_ROOT, 'test', 'fixtures', 'builtins-after-tuning.cjs')}`,
      BFCL_TEST_BUILTINS_FILE: builtinsFile,
    };
    expect((await runBuiltCli(['generate', '--model', 'oracle', '--test-category', 'simple_python'], cwd, env)).code).toBe(0);
    const evaluate = await runBuiltCli(['evaluate', '--model', 'oracle', '--test-category', 'simple_python'], cwd, env);
    expect(evaluate.code).toBe(0);
    const afterTuning = JSON.parse(readFileSync(builtinsFile, 'utf8')) as string[];
    // Its worker threads, and the stream classes of a piped stdout (runBuiltCli pipes it).
    expect(afterTuning).not.toContain('NativeModule worker_threads');
    expect(afterTuning).not.toContain('NativeModule net');
    expect(afterTuning).not.toContain('NativeModule stream');
  }, 60_000);

  it("takes the cache folder from the working folder's .env", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, '.env'), 'BFCL_CACHE_DIR=from-dotenv\n');
    const run = await runBuiltCli(['version'], cwd, { BFCL_DEBUG_STARTUP: '1' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('bfcl-ts');
    expect(existsSync(join(cwd, 'from-dotenv', 'compiled-code'))).toBe(true);
  }, 60_000);
});

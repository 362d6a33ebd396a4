import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import type { CliIo } from '../../src/cli/io.js';
import { loadDotEnv, runCli } from '../../src/cli/main.js';
import { collectList, parsePositiveInt, parseTemperature } from '../../src/cli/option-parsers.js';
import type { CliRunners } from '../../src/cli/runners.js';
import { packageDataDir } from '../../src/data/data-dir.js';
import { ALL_CATEGORIES, TEST_COLLECTION_MAPPING } from '../../src/spec/categories.js';
import type { EvaluateOptions, GenerateOptions } from '../../src/spec/options.js';
import { DatasetError } from '../../src/util/errors.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mini-dataset', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  generate: GenerateOptions[];
  evaluate: EvaluateOptions[];
}

/** Run the CLI in-process with captured output and recording runners. */
async function run(argv: string[], env: Record<string, string> = {}, cwd = '/work/project', runners?: Partial<CliRunners>): Promise<Run> {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env, cwd };
  const generate: GenerateOptions[] = [];
  const evaluate: EvaluateOptions[] = [];
  const code = await runCli(argv, io, {
    runGenerate: async (o) => (generate.push(o), 0),
    runEvaluate: async (o) => (evaluate.push(o), 0),
    ...runners,
  });
  return { code, ...out, generate, evaluate };
}

describe('help and listings', () => {
  it('lists the commands in the reference order when run without arguments or with --help', async () => {
    for (const argv of [[], ['--help']]) {
      const r = await run(argv);
      expect(r.code).toBe(0);
      const commands = ['models', 'test-categories', 'generate', 'results', 'evaluate', 'scores', 'version'];
      const positions = commands.map((c) => r.stdout.indexOf(`\n  ${c}`));
      expect(positions.every((p) => p > 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    }
  });

  it('shows the flags of generate', async () => {
    const r = await run(['generate', '--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--model', '--test-category', '--temperature', '--include-input-log', '--exclude-state-log', '--num-threads', '--result-dir', '-o, --allow-overwrite', '--run-ids', '--data-dir']) {
      expect(r.stdout).toContain(flag);
    }
  });

  it('test-categories prints every category and every group with its expansion', async () => {
    const r = await run(['test-categories']);
    expect(r.code).toBe(0);
    for (const category of ALL_CATEGORIES) expect(r.stdout).toMatch(new RegExp(`^  ${category} `, 'm'));
    for (const [group, categories] of TEST_COLLECTION_MAPPING) {
      expect(r.stdout).toMatch(new RegExp(`^  ${group} +${categories.join(', ')}$`, 'm'));
    }
  });

  it('test-categories takes --data-dir (as the README says every dataset command does) and counts the entries there', async () => {
    const r = await run(['test-categories', '--data-dir', packageDataDir()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`Test categories (${ALL_CATEGORIES.length}), entries in ${packageDataDir()}:`);
    expect(r.stdout).toMatch(/^  simple_python +non_live +BFCL_v4_simple_python\.json +ground truth: yes +entries: 6$/m);
    expect(r.stdout).toMatch(/^  format_sensitivity +.* +ground truth: derived +entries: \d+$/m);
    // A category whose files are not in the data directory shows no count.
    const empty = mkdtempSync(join(tmpdir(), 'bfcl-cli-empty-data-'));
    expect((await run(['test-categories', '--data-dir', empty])).stdout).toMatch(/^  simple_python +.* +entries: -$/m);
    expect((await run(['test-categories'], { BFCL_DATA_DIR: empty })).stdout).toContain(`entries in ${empty}:`);
  });

  it('version prints the package version', async () => {
    const r = await run(['version']);
    expect(r).toMatchObject({ code: 0, stdout: 'bfcl-ts version 0.1.0 (Berkeley Function Calling Leaderboard v4)\n' });
    for (const flag of ['--version', '-V']) expect(await run([flag])).toEqual(r);
  });

  it('results lists the result files of the result directory', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bfcl-cli-'));
    mkdirSync(join(root, 'result', 'my-model', 'live'), { recursive: true });
    writeFileSync(join(root, 'result', 'my-model', 'live', 'BFCL_v4_live_simple_result.json'), '{"id": "live_simple_0-0-0"}\n');
    const r = await run(['results'], {}, root);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/my-model +live_simple +1 +live\/BFCL_v4_live_simple_result\.json/);
    expect((await run(['results', '--result-dir', 'elsewhere'], {}, root)).stdout).toBe(`No result files found in ${join(root, 'elsewhere')}\n`);
  });

  it('models lists the registry and scores shows the leaderboard of a score folder', async () => {
    const models = await run(['models']);
    expect(models.code).toBe(0);
    expect(models.stdout).toMatch(/^gpt-4o-2024-11-20-FC +FC +openai-responses +GPT-4o-2024-11-20 \(FC\)$/m);
    expect(models.stdout).toContain('175 models.');

    const root = mkdtempSync(join(tmpdir(), 'bfcl-scores-'));
    const missing = await run(['scores'], {}, root);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('run "bfcl evaluate" first');
    mkdirSync(join(root, 'score'));
    writeFileSync(
      join(root, 'score', 'data_overall.csv'),
      'Rank,Overall Acc,Model,Non-Live AST Acc,Live Acc,Multi Turn Acc,Relevance Detection,Irrelevance Detection\n1,50.00%,m1,60.00%,N/A,40.00%,100.00%,90.00%',
    );
    const scores = await run(['scores'], {}, root);
    expect(scores.code).toBe(0);
    expect(scores.stdout).toContain('| m1 ');
    expect(scores.stdout).toContain('50.00%');
  });
});

describe('generate options', () => {
  it('joins repeated and comma-separated lists and applies the defaults', async () => {
    const r = await run(['generate', '--model', 'gpt-4o-2024-11-20-FC, claude-x', '--model', 'm3,,', '--data-dir', FIXTURE]);
    expect(r.code).toBe(0);
    expect(r.generate).toEqual([
      {
        models: ['gpt-4o-2024-11-20-FC', 'claude-x', 'm3'],
        testCategories: [...ALL_CATEGORIES].sort(),
        temperature: 0.001,
        includeInputLog: false,
        excludeStateLog: false,
        numThreads: undefined,
        resultDir: '/work/project/result',
        allowOverwrite: false,
        runIds: false,
        dataDir: FIXTURE,
        projectRoot: '/work/project',
      },
    ]);
  });

  it('parses every flag', async () => {
    const r = await run(
      ['generate', '--model', 'm', '--test-category', 'non_python', '--test-category', 'live_simple,simple_java', '--temperature', '0.7', '--include-input-log', '--exclude-state-log', '--num-threads', '8', '--result-dir', 'out', '-o', '--run-ids'],
      { BFCL_DATA_DIR: FIXTURE, BFCL_PROJECT_ROOT: '/srv/bfcl' },
    );
    expect(r.code).toBe(0);
    expect(r.generate[0]).toEqual({
      models: ['m'],
      testCategories: ['live_simple', 'simple_java', 'simple_javascript'],
      temperature: 0.7,
      includeInputLog: true,
      excludeStateLog: true,
      numThreads: 8,
      resultDir: '/srv/bfcl/out',
      allowOverwrite: true,
      runIds: true,
      dataDir: FIXTURE,
      projectRoot: '/srv/bfcl',
    });
  });

  it('prefers --data-dir over BFCL_DATA_DIR and defaults to the package data', async () => {
    expect((await run(['generate', '--model', 'm', '--data-dir', FIXTURE], { BFCL_DATA_DIR: '/nope' })).generate[0]!.dataDir).toBe(FIXTURE);
    expect((await run(['generate', '--model', 'm'])).generate[0]!.dataDir).toBe(packageDataDir());
  });

  it.each([
    [['generate', '--test-category', 'simple'], /required option '--model <names>' not specified/],
    [['generate', '--model', 'm', '--temperature', 'warm'], /'--temperature <float>' argument 'warm' is invalid/],
    [['generate', '--model', 'm', '--temperature', '-1'], /argument '-1' is invalid/],
    [['generate', '--model', 'm', '--num-threads', '2.5'], /'--num-threads <n>' argument '2.5' is invalid/],
    [['generate', '--model', 'm', '--num-threads', '0'], /Expected a positive integer/],
    [['generate', '--model', 'm', '--no-such-flag'], /unknown option '--no-such-flag'/],
    [['generate', '--model', ','], /No model given/],
    [['generate', '--model', 'm', '--test-category', ' , '], /No test category given/],
    [['generate', '--model', 'm', '--data-dir', '/no/such/dir'], /Data directory not found: \/no\/such\/dir/],
    [['generat'], /unknown command 'generat'/],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.generate).toEqual([]);
  });

  it('rejects an unknown category and lists the valid categories and groups', async () => {
    const r = await run(['generate', '--model', 'm', '--test-category', 'simple_python,bogus_category']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Invalid test category name provided: bogus_category');
    for (const name of [...ALL_CATEGORIES, ...TEST_COLLECTION_MAPPING.keys()]) expect(r.stderr).toContain(name);
  });
});

describe('evaluate options', () => {
  it('defaults to every model and the default directories', async () => {
    const r = await run(['evaluate', '--data-dir', FIXTURE, '--test-category', 'multi_turn', '--partial-eval', '--score-dir', 's']);
    expect(r.code).toBe(0);
    expect(r.evaluate).toEqual([
      {
        models: undefined,
        testCategories: ['multi_turn_base', 'multi_turn_long_context', 'multi_turn_miss_func', 'multi_turn_miss_param'],
        resultDir: '/work/project/result',
        scoreDir: '/work/project/s',
        partialEval: true,
        dataDir: FIXTURE,
        projectRoot: '/work/project',
      },
    ]);
    expect((await run(['evaluate', '--model', 'a,b', '--result-dir', '/abs/r'])).evaluate[0]).toMatchObject({ models: ['a', 'b'], resultDir: '/abs/r' });
  });

  it('takes the decoding settings of models the registry does not know', async () => {
    const on = (await run(['evaluate', '--decoder', 'fc', '--underscore-to-dot'])).evaluate[0]!;
    expect([on.decoder, on.underscoreToDot]).toEqual(['fc', true]);
    const off = (await run(['evaluate', '--decoder', 'prompting', '--no-underscore-to-dot'])).evaluate[0]!;
    expect([off.decoder, off.underscoreToDot]).toEqual(['prompting', false]);
    const unset = (await run(['evaluate'])).evaluate[0]!;
    expect([unset.decoder, unset.underscoreToDot]).toEqual([undefined, undefined]);
    expect((await run(['evaluate', '--decoder', 'xml'])).code).toBe(2);
  });

  it('takes the number of evaluation threads (unset: one)', async () => {
    expect((await run(['evaluate', '--num-threads', '3'])).evaluate[0]!.numThreads).toBe(3);
    expect((await run(['evaluate'])).evaluate[0]!.numThreads).toBeUndefined();
    const zero = await run(['evaluate', '--num-threads', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/Expected a positive integer/);
  });
});

describe('exit codes', () => {
  it('passes the runner exit code through', async () => {
    const r = await run(['evaluate'], {}, '/work/project', { runEvaluate: async () => 3 });
    expect(r.code).toBe(3);
  });

  it('turns typed errors into their exit code and unexpected errors into 1', async () => {
    const dataset = await run(['generate', '--model', 'm'], {}, '/w', {
      runGenerate: async () => {
        throw new DatasetError({ file: '/d/BFCL_v4_x.json', line: 4, entryId: 'x_3' }, 'bad entry');
      },
    });
    expect(dataset).toMatchObject({ code: 1, stderr: 'bfcl: error: /d/BFCL_v4_x.json:4: entry x_3: bad entry\n' });
    const bug = await run(['generate', '--model', 'm'], {}, '/w', {
      runGenerate: async () => {
        throw new TypeError('boom');
      },
    });
    expect(bug.code).toBe(1);
    expect(bug.stderr).toMatch(/^bfcl: internal error: TypeError: boom/);
  });

  it('evaluate without result files says so and exits 1', async () => {
    const out = { stdout: '', stderr: '' };
    const root = mkdtempSync(join(tmpdir(), 'bfcl-eval-'));
    const io: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env: {}, cwd: root };
    expect(await runCli(['evaluate', '--test-category', 'simple_python'], io)).toBe(1);
    expect(out.stderr).toContain('no result files for the requested models and categories');
  });
});

describe('flag value parsers', () => {
  it('collects lists', () => {
    expect(collectList(' a, b ,,c', undefined)).toEqual(['a', 'b', 'c']);
    expect(collectList('d', ['a'])).toEqual(['a', 'd']);
  });

  it('parses numbers strictly', () => {
    expect(parseTemperature('0.001')).toBe(0.001);
    expect(parseTemperature('1e-3')).toBe(0.001);
    expect(parseTemperature('1')).toBe(1);
    for (const bad of ['', 'abc', '0x1', 'inf', 'NaN', '-0.5', '1,5']) expect(() => parseTemperature(bad)).toThrow();
    expect(parsePositiveInt('12')).toBe(12);
    for (const bad of ['0', '-2', '1.0', '1e3', 'x', '']) expect(() => parsePositiveInt(bad)).toThrow();
  });
});

describe('.env loading', () => {
  it('reads <cwd>/.env without overriding variables that are set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bfcl-env-'));
    writeFileSync(join(dir, '.env'), 'OPENAI_API_KEY=from-file\nBFCL_DATA_DIR=/from/file\n');
    const env: Record<string, string | undefined> = { BFCL_DATA_DIR: '/already/set' };
    loadDotEnv(dir, env);
    expect(env).toEqual({ BFCL_DATA_DIR: '/already/set', OPENAI_API_KEY: 'from-file' });
    const untouched: Record<string, string | undefined> = {};
    loadDotEnv(join(dir, 'missing'), untouched);
    expect(untouched).toEqual({});
  });
});

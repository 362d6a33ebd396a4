/**
 * Evaluation on several threads. Worker threads run only from the build (the worker is a built
 * script), so these tests load the built modules and the built binary: the score folder and the
 * report are the same as a single-threaded run's, and a broken dataset file fails the run with the
 * same error.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { packageDataDir } from '../../src/data/data-dir.js';
import type { LaneCostModel } from '../../src/evaluate/lane-plan.js';
import { groupByCategory } from '../../src/evaluate/parallel-evaluation.js';
import { ALL_CATEGORIES } from '../../src/spec/categories.js';
import { PACKAGE_ROOT, ensureBuilt, runBuiltCli } from './built-cli.js';

type Built = {
  parallel: typeof import('../../src/evaluate/parallel-evaluation.js');
  dataset: typeof import('../../src/data/dataset.js');
};
let built: Built;

beforeAll(async () => {
  ensureBuilt();
  const load = (path: string) => import(pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', path)).href);
  built = { parallel: await load('evaluate/parallel-evaluation.js'), dataset: await load('data/dataset.js') };
}, 300_000);

/** Every file under `dir` with its text, by relative path. */
function folderTexts(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

/** Oracle results of our data for some categories, in a fresh folder. */
async function oracleResults(categories: string): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), 'bfcl-threads-'));
  const generate = await runBuiltCli(['generate', '--model', 'oracle', '--test-category', categories], cwd);
  expect(generate.code, generate.stderr).toBe(0);
  return cwd;
}

const ORACLE = { decoderMode: 'fc', underscoreToDot: false } as const;

/** Costs that make every lane worth using, so that our small data runs on several threads. */
const SPREAD_EVERYTHING: LaneCostModel = {
  msPerMb: { 'multi-turn': 1, 'single-turn': 1 },
  warmUpMs: { 'multi-turn': 0, 'single-turn': 0 },
  coldFactor: { 'multi-turn': 1, 'single-turn': 1 },
  workerStartMs: 0,
};

describe('groupByCategory', () => {
  it('keeps all models of a category in one group (its dataset is read once per lane), with its kind', () => {
    const job = (model: string, category: 'simple_python' | 'parallel' | 'multi_turn_base') => ({
      model,
      category,
      resultFile: '/nonexistent',
      settings: ORACLE,
    });
    const groups = groupByCategory(
      [job('a', 'simple_python'), job('a', 'parallel'), job('b', 'simple_python'), job('a', 'multi_turn_base')],
      packageDataDir(),
    );
    expect(groups.map((g) => [g.jobs, g.kind])).toEqual([
      [[0, 2], 'single-turn'],
      [[1], 'single-turn'],
      [[3], 'multi-turn'],
    ]);
    expect(groups[0]!.bytes).toBeGreaterThan(0); // the dataset file's size
  });
});

describe('runEvaluationInParallel (built)', () => {
  it('writes the same score files, sidecars and progress as one thread', async () => {
    const cwd = await oracleResults('single_turn,multi_turn');
    const run = async (threads: number) => {
      const progress: string[] = [];
      const summary = await built.parallel.runEvaluationInParallel({
        threads,
        laneCosts: SPREAD_EVERYTHING,
        resultDir: join(cwd, 'result'),
        scoreDir: join(cwd, `score-${threads}`),
        dataset: new built.dataset.BfclDataset(packageDataDir()),
        categories: ALL_CATEGORIES,
        partial: false,
        resolveSettings: () => ORACLE,
        onCategory: (model, category, evaluation) => progress.push(`${model} ${category} ${evaluation.correct}/${evaluation.total}`),
      });
      return { summary, progress, files: folderTexts(join(cwd, `score-${threads}`)) };
    };
    const one = await run(1);
    const three = await run(3);
    expect(three.progress).toEqual(one.progress);
    expect(three.progress).toHaveLength(17);
    expect(three.files).toEqual(one.files);
    expect(three.summary.evaluated.map((e) => [e.category, e.taxonomy, e.costLatency])).toEqual(
      one.summary.evaluated.map((e) => [e.category, e.taxonomy, e.costLatency]),
    );
  }, 120_000);

  it('fails with the same dataset error as one thread when a worker meets a broken file', async () => {
    const cwd = await oracleResults('simple_python,multiple,parallel,irrelevance');
    const data = join(cwd, 'data');
    cpSync(packageDataDir(), data, { recursive: true });
    const broken = join(data, 'BFCL_v4_parallel.json');
    writeFileSync(broken, readFileSync(broken, 'utf8').replace(/\n/, '\n{"id": "parallel_x", "question": \n'));
    const errorOf = async (threads: number) => {
      try {
        await built.parallel.runEvaluationInParallel({
          threads,
          laneCosts: SPREAD_EVERYTHING,
          resultDir: join(cwd, 'result'),
          scoreDir: join(cwd, `score-${threads}`),
          dataset: new built.dataset.BfclDataset(data),
          categories: ALL_CATEGORIES,
          partial: false,
          resolveSettings: () => ORACLE,
        });
      } catch (error) {
        return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      return 'no error';
    };
    const single = await errorOf(1);
    expect(single).toMatch(/^DatasetError: .*BFCL_v4_parallel\.json:2: .*invalid JSON/);
    expect(await errorOf(4)).toBe(single);
  }, 120_000);
});

describe('BFCL_DEBUG_TIMING=1 (built)', () => {
  it('reports each category (thread, start, steps) and the end of the run on stderr, and nothing when unset', async () => {
    const cwd = await oracleResults('simple_python,multiple,multi_turn_base');
    const args = ['evaluate', '--model', 'oracle', '--num-threads', '2'];
    const timed = await runBuiltCli(args, cwd, { BFCL_DEBUG_TIMING: '1', BFCL_CACHE_DIR: 'off' });
    expect(timed.code, timed.stderr).toBe(0);
    const lines = timed.stderr.split('\n').filter((line) => line.startsWith('bfcl timing: '));
    const step = /^bfcl timing: (\d+) ms, (main thread|worker \d+): (.*)$/;
    const parsed = lines.map((line) => step.exec(line));
    expect(parsed.every((m) => m !== null), lines.join('\n')).toBe(true);
    const categories = parsed.map((m) => /^oracle (\w+), started at (\d+) ms: read [\d.]+, evaluated [\d.]+, wrote [\d.]+, taxonomy and latency [\d.]+ \(ms\)$/.exec(m![3]!));
    expect(categories.filter((c) => c !== null).map((c) => c![1]).sort()).toEqual(['multi_turn_base', 'multiple', 'simple_python']);
    for (const [i, c] of categories.entries()) if (c !== null) expect(Number(c[2])).toBeLessThanOrEqual(Number(parsed[i]![1]));
    expect(parsed.slice(-3).map((m) => `${m![2]}: ${m![3]}`)).toEqual([
      'main thread: every category evaluated',
      'main thread: leaderboard CSVs written',
      'main thread: summary printed',
    ]);
    const quiet = await runBuiltCli([...args, '--score-dir', 'quiet'], cwd, { BFCL_CACHE_DIR: 'off' });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('bfcl timing');
  }, 120_000);
});

const dataDir = process.env['BFCL_DATA_DIR'];
const conformanceDir = dataDir === undefined ? '' : resolve(process.env['BFCL_CONFORMANCE_DIR'] ?? join(dirname(resolve(dataDir)), 'conformance'));

describe.skipIf(dataDir === undefined || !existsSync(conformanceDir))('bfcl evaluate --num-threads on the real run', () => {
  it('writes the same score folder (failures, taxonomy sidecars, CSVs) and report as one thread', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-threads-real-'));
    const common = ['evaluate', '--model', 'openai/gpt-oss-20b', '--result-dir', join(conformanceDir, 'real-run', 'result'), '--data-dir', resolve(dataDir!)];
    const one = await runBuiltCli([...common, '--score-dir', 'one', '--num-threads', '1'], cwd);
    const two = await runBuiltCli([...common, '--score-dir', 'two', '--num-threads', '2'], cwd);
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    // The closing line holds the elapsed time and the folder.
    const report = (stderr: string): string => stderr.replace(/Evaluated \d+ result files in .*\n/, '');
    expect(report(two.stderr)).toBe(report(one.stderr));
    const texts = folderTexts(join(cwd, 'two'));
    expect(texts.size).toBeGreaterThan(30);
    expect(texts).toEqual(folderTexts(join(cwd, 'one')));
  }, 120_000);
});

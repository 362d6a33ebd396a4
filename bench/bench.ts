/**
 * `npm run bench`: speed and memory figures (never assertions). Each scenario runs in a fresh
 * child process, several times; we print the median wall time, entries/second and peak RSS.
 * Needs BFCL_DATA_DIR (the official dataset); the conformance runs are read from the
 * `conformance` folder beside it (or BFCL_CONFORMANCE_DIR).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BfclDataset } from '../src/data/dataset.js';
import { runEvaluation, type ModelSettingsResolver } from '../src/evaluate/run-evaluate.js';
import { ORACLE_EVALUATION_SETTINGS } from '../src/conformance/oracle-check.js';
import { conformanceModelSettings } from '../src/conformance/score-check.js';
import { buildGroundTruthTrace } from '../src/conformance/trace-check.js';
import { ALL_CATEGORIES, MULTI_TURN_CATEGORY } from '../src/spec/categories.js';
import { EntryExecutor } from '../src/exec/executor.js';
import { pyDeepCopy } from '../src/py/operators.js';
import { runFaultStormBench, runGenerateBench, runGenerateCliBench } from './generate-bench.js';
import { BUNDLED_CLI, generateOracleResults } from './oracle-results.js';
import { runJudgeBench } from './judge-bench.js';
import { agenticScenarios } from './agentic-bench.js';

interface ScenarioResult {
  readonly entries: number;
  readonly ms: number;
  /** Model requests served (generate scenarios). */
  readonly requests?: number;
  /** Concurrent entries and per-request latency (generate scenarios). */
  readonly threads?: number;
  readonly delayMs?: number;
  /** Attribute snapshots taken (execute scenario). */
  readonly snapshots?: number;
  /** Fault-storm scenario: retries by cause, and entries left without a result (must be 0). */
  readonly retries?: Readonly<Record<string, number>>;
  readonly lost?: number;
}

const dataDir = process.env.BFCL_DATA_DIR;
const conformanceDir = () => resolve(process.env.BFCL_CONFORMANCE_DIR ?? join(dirname(resolve(dataDir!)), 'conformance'));

/** A scenario measured in-process (`run`, inside a child process) or as a whole `bfcl` command (`cli`). */
interface Scenario {
  readonly label: string;
  readonly run?: () => ScenarioResult | Promise<ScenarioResult>;
  /** Arguments of the bundled `bfcl` binary; the figure is the wall time of that process. */
  readonly cli?: () => string[];
  /** The work runs in a process the scenario spawns, so this process's peak RSS says nothing about it. */
  readonly spawnsWork?: boolean;
  /** Untimed work done once before the runs (e.g. making the results to evaluate). */
  readonly prepare?: () => void;
  readonly repeats?: number;
  /**
   * For `cli` scenarios: the cache folder (parsed dataset files) `off`, as on a
   * first run after `npm ci`, or `warm` (filled by untimed
   * runs first, as for every later run). Default `off`.
   */
  readonly datasetCache?: 'off' | 'warm';
}

/** Wall time of `node -e 0` under `env`, in ms. */
function nodeStartMs(env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  spawnSync(process.execPath, ['-e', '0'], { env });
  return performance.now() - started;
}

/**
 * The floor under every CLI figure: node's own start-up, which `bfcl` cannot change. With
 * NODE_EXTRA_CA_CERTS set (these machines set it), node 20 reads and parses that CA bundle as it
 * starts, before any of our code runs.
 */
function printNodeStartFloor(repeats: number): void {
  const withEnv = median(Array.from({ length: repeats * 2 }, () => nodeStartMs(process.env)));
  const { NODE_EXTRA_CA_CERTS: extraCerts, ...withoutCerts } = process.env;
  const withoutEnv = median(Array.from({ length: repeats * 2 }, () => nodeStartMs(withoutCerts)));
  const certs = extraCerts === undefined ? 'NODE_EXTRA_CA_CERTS unset' : `NODE_EXTRA_CA_CERTS set; ${withoutEnv.toFixed(0)} ms without it`;
  console.log(`node-start: ${withEnv.toFixed(0)} ms wall median of ${repeats * 2} (${certs}) — \`node -e 0\`, the floor under every CLI figure`);
}

/**
 * Instructions executed by `bfcl evaluate` on the real run (cache folder filled), counted by
 * valgrind with V8 on one thread (`--single-threaded`: compiling and GC on the main thread, so the
 * count is repeatable to about 0.5%). Wall times on shared 2-vCPU machines vary by ±15% from run
 * to run; this figure shows a change of 1%. About 50 s; skipped without valgrind.
 */
function printInstructionCounts(): void {
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    console.log('evaluate-real-run-instructions: skipped (valgrind is not installed)');
    return;
  }
  const args = evaluateCliArgs(join(conformanceDir(), 'real-run', 'result'), 'openai/gpt-oss-20b');
  const env = { ...process.env, BFCL_CACHE_DIR: join(tmpdir(), 'bfcl-bench-cache-single-threaded') };
  const node = [process.execPath, '--single-threaded', BUNDLED_CLI, ...args];
  // Two untimed runs fill the cache folder (a dataset file is stored the second time it is parsed).
  for (let run = 0; run < 2; run++) spawnSync(node[0]!, node.slice(1), { env });
  const counted = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', ...node], { env, encoding: 'utf8' });
  removeScoreDir(args);
  const collected = /Collected : (\d+)/.exec(counted.stderr ?? '')?.[1];
  if (counted.status !== 0 || collected === undefined) throw new Error(`valgrind run failed (${counted.status}): ${counted.stderr}`);
  console.log(
    `evaluate-real-run-instructions: ${(Number(collected) / 1e9).toFixed(2)} G instructions — bfcl evaluate on the real run, cache folder filled, ` +
      'counted by valgrind with V8 single-threaded (repeatable to about 0.5%)',
  );
}

const SCENARIOS: Record<string, Scenario> = {
  'multi-turn-execute': {
    label:
      'execute all 800 official multi-turn ground truths: instances, every call, a deep-copied state snapshot after every turn (dataset already loaded)',
    run: () => {
      const dataset = new BfclDataset(resolve(dataDir!));
      const work = MULTI_TURN_CATEGORY.flatMap((category) => {
        const answers = dataset.loadPossibleAnswers(category);
        return dataset
          .loadTestEntries(category, { includeLanguageHint: false })
          .map((entry, i) => ({ entry, turns: answers[i]!.groundTruth as string[][], longContext: category.includes('long_context') }));
      });
      const context = { longContext: dataset.longContext() };
      const started = performance.now();
      let snapshots = 0;
      for (const { entry, turns, longContext } of work) {
        const executor = new EntryExecutor({
          modelName: 'bench_ground_truth_eval',
          entryId: entry.id,
          initialConfig: entry.initialConfig ?? new Map(),
          involvedClasses: entry.involvedClasses ?? [],
          longContext,
          context,
        });
        for (const calls of turns) {
          executor.execute(calls);
          for (const attributes of executor.snapshot().values()) snapshots += attributes.map(([, v]) => pyDeepCopy(v)).length;
        }
      }
      return { entries: work.length, ms: performance.now() - started, snapshots };
    },
  },
  'multi-turn-ground-truth': {
    label: 'the conformance trace: load the data, execute all 800 ground truths, canonical JSON of every snapshot',
    run: () => {
      const dataset = new BfclDataset(resolve(dataDir!));
      const started = performance.now();
      const lines = buildGroundTruthTrace(dataset);
      return { entries: lines.size, ms: performance.now() - started };
    },
  },
  'evaluate-real-run': {
    label: 'evaluate the real gpt-oss-20b run (16 categories, load + check + score files)',
    run: () => evaluateRun(join(conformanceDir(), 'real-run', 'result')),
  },
  'evaluate-real-run-cli': {
    label:
      'bfcl evaluate (the bundled binary) on the real run, parse cache off (as a first run after npm ci): process wall time, start-up, score files and CSVs included',
    cli: () => evaluateCliArgs(join(conformanceDir(), 'real-run', 'result'), 'openai/gpt-oss-20b'),
  },
  'evaluate-real-run-cli-cached': {
    label: 'the same with the parse cache filled (every later run on the same dataset)',
    cli: () => evaluateCliArgs(join(conformanceDir(), 'real-run', 'result'), 'openai/gpt-oss-20b'),
    datasetCache: 'warm',
  },
  'evaluate-synthetic-cli': {
    label: 'bfcl evaluate (the bundled binary) on both synthetic runs, long_context included: process wall time',
    cli: () => evaluateCliArgs(join(conformanceDir(), 'synthetic', 'result')),
  },
  'evaluate-oracle': {
    label:
      'evaluate ground-truth results of all 17 single- and multi-turn categories of the official data in-process (load + check + score files)',
    prepare: () => prepareOracleResults(),
    // The oracle's registry settings (what `bfcl evaluate` uses for it).
    run: () => evaluateRun(join(oracleRunDir(), 'result'), () => ORACLE_EVALUATION_SETTINGS),
  },
  'evaluate-oracle-cli': {
    label:
      'bfcl evaluate (the bundled binary) on ground-truth results of all 17 single- and multi-turn categories of the official data (long_context included), cache folder off (first run after npm ci): process wall time',
    prepare: () => prepareOracleResults(),
    cli: () => evaluateCliArgs(join(oracleRunDir(), 'result'), 'oracle'),
  },
  'evaluate-oracle-cli-cached': {
    label: 'the same with the cache folder filled',
    prepare: () => prepareOracleResults(),
    cli: () => evaluateCliArgs(join(oracleRunDir(), 'result'), 'oracle'),
    datasetCache: 'warm',
  },
  'generate-instant': {
    label: 'generate all 800 official multi-turn entries against a local server answering instantly (16 threads)',
    run: () => generate(0, 16),
  },
  'generate-instant-cli': {
    label: 'the same through the bundled bfcl generate binary: wall time of the whole process (start-up, data loading, final sort included)',
    run: async () => ({ ...(await runGenerateCliBench(dataDir!, BUNDLED_CLI, 16)), threads: 16, delayMs: 0 }),
    spawnsWork: true,
  },
  'generate-200ms-t1': {
    label: 'generate 10 multi-turn entries, server latency 200 ms, --num-threads 1',
    run: () => generate(200, 1, 10),
    repeats: 1,
  },
  'generate-200ms-t16': {
    label: 'generate 160 multi-turn entries, server latency 200 ms, --num-threads 16',
    run: () => generate(200, 16, 160),
    repeats: 1,
  },
  'generate-200ms-t64': {
    label: 'generate all 800 multi-turn entries, server latency 200 ms, --num-threads 64',
    run: () => generate(200, 64),
    repeats: 1,
  },
  'generate-fault-storm': {
    label:
      'generate 160 multi-turn entries (32 threads) against a server answering 30% of requests with 429 (Retry-After: 1), 10% with 500 and dropping 5% of connections',
    run: async () => ({ ...(await runFaultStormBench(dataDir!, 32, 160)), threads: 32 }),
    repeats: 1,
  },
  'judge-real-run': {
    label:
      'bfcl judge on the real gpt-oss-20b run (16 categories: BFCL verdicts, prompts, records, calibration; dataset parse cache off) against a local judge answering instantly, 20 threads',
    run: () => runJudgeBench(dataDir!, join(conformanceDir(), 'real-run', 'result'), 20),
  },
  'evaluate-synthetic': {
    label: 'evaluate the two synthetic runs (17 categories each, incl. long_context)',
    run: () => evaluateRun(join(conformanceDir(), 'synthetic', 'result')),
  },
  ...agenticScenarios(() => dataDir!),
};

async function generate(delayMs: number, threads: number, limit?: number): Promise<ScenarioResult> {
  const result = await runGenerateBench(dataDir!, delayMs, threads, limit);
  return { ...result, threads, delayMs };
}

async function evaluateRun(resultDir: string, resolveSettings: ModelSettingsResolver = conformanceModelSettings): Promise<ScenarioResult> {
  const scoreDir = mkdtempSync(join(tmpdir(), 'bfcl-bench-'));
  try {
    const started = performance.now();
    const dataset = new BfclDataset(resolve(dataDir!));
    const summary = runEvaluation({
      resultDir,
      scoreDir,
      dataset,
      categories: ALL_CATEGORIES,
      partial: false,
      resolveSettings,
    });
    const entries = summary.evaluated.reduce((n, e) => n + e.evaluation.total, 0);
    return { entries, ms: performance.now() - started };
  } finally {
    rmSync(scoreDir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `bfcl evaluate` of `resultDir` (one model, or all) on the official data, into a fresh score folder. */
function evaluateCliArgs(resultDir: string, model?: string): string[] {
  const scoreDir = mkdtempSync(join(tmpdir(), 'bfcl-bench-cli-'));
  return ['evaluate', ...(model === undefined ? [] : ['--model', model]), '--result-dir', resultDir, '--data-dir', resolve(dataDir!), '--score-dir', scoreDir];
}

/** Where the oracle's results for the official data are made (once per bench run). */
const oracleRunDir = (): string => join(tmpdir(), 'bfcl-bench-oracle');

/** The ground truth turned into results (`bfcl generate --model oracle`) for every single- and multi-turn entry. */
let oracleResultsMade = false;
function prepareOracleResults(): void {
  if (oracleResultsMade) return;
  oracleResultsMade = true;
  rmSync(oracleRunDir(), { recursive: true, force: true });
  generateOracleResults(dataDir!, join(oracleRunDir(), 'result'));
}

/** Remove the score folder named in `bfcl` arguments made by `evaluateCliArgs`. */
function removeScoreDir(args: readonly string[]): void {
  rmSync(args[args.indexOf('--score-dir') + 1]!, { recursive: true, force: true });
}

/** The RSS probe module (`node --import`) that reports a measured CLI process's peak RSS. */
const RSS_PROBE = new URL('./rss-probe.js', import.meta.url).href;

/** The bench's own cache folder, for `datasetCache: 'warm'` scenarios (never the user's). */
const benchCacheDir = (): string => join(tmpdir(), 'bfcl-bench-cache');

/**
 * Run the bundled binary; entries are the totals it prints per category (`(correct/total)`). With
 * `probe`, the RSS probe is loaded into it (and its workers) to report the peak RSS: that loads
 * node's ES module loader, about 12 ms, so timed runs go without it (rssMb is then NaN).
 */
function runCliChild(args: string[], datasetCache: 'off' | 'warm', probe = false): ScenarioResult & { rssMb: number; wallMs: number; cpuMs: number } {
  const rssFile = probe ? join(mkdtempSync(join(tmpdir(), 'bfcl-bench-rss-')), 'max-rss-kb') : undefined;
  const env = { ...process.env, BFCL_CACHE_DIR: datasetCache === 'warm' ? benchCacheDir() : 'off', BFCL_BENCH_RSS_FILE: rssFile ?? '' };
  const started = performance.now();
  const run = spawnSync(process.execPath, [...(probe ? ['--import', RSS_PROBE] : []), BUNDLED_CLI, ...args], { encoding: 'utf8', env });
  const wallMs = performance.now() - started;
  removeScoreDir(args);
  if (run.status !== 0) throw new Error(`bfcl ${args[0]} failed (${run.status}): ${run.stderr}`);
  const entries = [...run.stderr.matchAll(/\((\d+)\/(\d+)\)/g)].reduce((n, m) => n + Number(m[2]), 0);
  let rssMb = NaN;
  if (rssFile !== undefined) {
    rssMb = Number(readFileSync(rssFile, 'utf8')) / 1024;
    rmSync(dirname(rssFile), { recursive: true, force: true });
  }
  return { entries, ms: wallMs, wallMs, cpuMs: NaN, rssMb };
}

/** A CLI scenario's peak RSS: a probed run after one that fills the parse cache (for `warm`). */
function cliPeakRssMb(args: () => string[], datasetCache: 'off' | 'warm'): number {
  runCliChild(args(), datasetCache, true);
  return runCliChild(args(), datasetCache, true).rssMb;
}

function runChild(name: string): ScenarioResult & { rssMb: number; wallMs: number; cpuMs: number } {
  const { cli, datasetCache } = SCENARIOS[name]!;
  if (cli !== undefined) return runCliChild(cli(), datasetCache ?? 'off');
  const self = fileURLToPath(import.meta.url);
  const started = performance.now();
  const out = execFileSync(process.execPath, [self, '--scenario', name], { encoding: 'utf8', env: process.env });
  const wallMs = performance.now() - started;
  return { ...(JSON.parse(out) as ScenarioResult & { rssMb: number; cpuMs: number }), wallMs };
}

const scenarioFlag = process.argv.indexOf('--scenario');
if (scenarioFlag !== -1) {
  const name = process.argv[scenarioFlag + 1]!;
  const cpuBefore = process.cpuUsage();
  const result = await SCENARIOS[name]!.run!();
  const cpu = process.cpuUsage(cpuBefore);
  const rssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ ...result, cpuMs: (cpu.user + cpu.system) / 1000, rssMb }));
} else {
  if (dataDir === undefined || !existsSync(dataDir)) {
    console.error('bench: set BFCL_DATA_DIR to the official BFCL dataset (e.g. ../shared/bfcl-data)');
    process.exit(2);
  }
  const repeats = Number(process.env.BENCH_REPEATS ?? 5);
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  if (only.length === 0 || only.includes('node-start')) printNodeStartFloor(repeats);
  if (only.length === 0 || only.some((name) => name.startsWith('evaluate-real-run-instructions'))) printInstructionCounts();
  for (const [name, scenario] of Object.entries(SCENARIOS)) {
    if (only.length > 0 && !only.includes(name)) continue;
    scenario.prepare?.();
    // Two untimed runs fill the cache folder: a dataset file is stored the second time it is parsed.
    if (scenario.cli !== undefined && scenario.datasetCache === 'warm') for (let run = 0; run < 2; run++) runCliChild(scenario.cli(), 'warm');
    const runs = Array.from({ length: scenario.repeats ?? repeats }, () => runChild(name));
    const ms = median(runs.map((r) => r.ms));
    const wall = median(runs.map((r) => r.wallMs));
    const rss = scenario.cli !== undefined ? cliPeakRssMb(scenario.cli, scenario.datasetCache ?? 'off') : Math.max(...runs.map((r) => r.rssMb));
    const cpu = median(runs.map((r) => r.cpuMs));
    const entries = runs[0]!.entries;
    const first = runs[0]!;
    if (first.lost !== undefined) {
      const retries = Object.entries(first.retries ?? {}).sort((a, b) => b[1] - a[1]);
      const total = retries.reduce((n, [, count]) => n + count, 0);
      console.log(
        `${name}: ${entries} entries, ${first.requests ?? 0} answered requests in ${(ms / 1000).toFixed(1)} s wall; ` +
          `${total} retries (${retries.map(([cause, count]) => `${cause} x${count}`).join(', ')}); entries lost: ${first.lost} — ${scenario.label}`,
      );
      continue;
    }
    if (first.requests !== undefined) {
      const perSecond = (first.requests / ms) * 1000;
      const ideal = first.delayMs ? ((first.threads ?? 1) / first.delayMs) * 1000 : undefined;
      const efficiency = ideal === undefined ? '' : `, ${((100 * perSecond) / ideal).toFixed(1)}% of the ideal ${ideal.toFixed(0)} requests/s`;
      console.log(
        `${name}: ${entries} entries, ${first.requests} requests in ${ms.toFixed(0)} ms ` +
          `(${((entries / ms) * 1000).toFixed(1)} entries/s, ${perSecond.toFixed(1)} requests/s${efficiency}` +
          `${scenario.spawnsWork === true ? '' : `; peak RSS ${rss.toFixed(0)} MB`}) — ${scenario.label}`,
      );
      continue;
    }
    if (scenario.cli !== undefined) {
      console.log(
        `${name}: ${entries} entries in ${ms.toFixed(0)} ms wall median of ${runs.length} (min ${Math.min(...runs.map((r) => r.ms)).toFixed(0)} ms; ` +
          `${((entries / ms) * 1000).toFixed(0)} entries/s; peak RSS ${rss.toFixed(0)} MB) — ${scenario.label}`,
      );
      continue;
    }
    console.log(
      `${name}: ${entries} entries in ${ms.toFixed(0)} ms median of ${runs.length} ` +
        `(${((entries / ms) * 1000).toFixed(0)} entries/s; CPU ${cpu.toFixed(0)} ms; process wall ${wall.toFixed(0)} ms incl. start-up; peak RSS ${rss.toFixed(0)} MB) — ${scenario.label}`,
    );
  }
}

/**
 * Harness overhead of `bfcl generate`: every official multi-turn entry against a local
 * OpenAI-compatible server on 127.0.0.1 that answers instantly or after a fixed delay. The server
 * answers a user turn with one tool call and a tool result with text, so each turn takes two steps
 * and exercises decoding, execution on the simulated APIs, logging and result writing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BfclDataset } from '../src/data/dataset.js';
import { generateForModel } from '../src/generate/run-generation.js';
import { createModel } from '../src/models/create-model.js';
import { fallbackModelConfig } from '../src/models/model-registry.js';
import { MULTI_TURN_CATEGORY } from '../src/spec/categories.js';
import { httpResponse, serveInChild, startChildServer, type Answer } from './mock-http.js';

const TOOL_CALL_REPLY = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 0,
  model: 'bench-model',
  choices: [
    {
      index: 0,
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'pwd', arguments: '{}' } }],
      },
    },
  ],
  usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
});
const TEXT_REPLY = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 0,
  model: 'bench-model',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Done.' } }],
  usage: { prompt_tokens: 100, completion_tokens: 2, total_tokens: 102 },
});

const TOOL_CALL_RESPONSE = httpResponse(TOOL_CALL_REPLY);
const TEXT_RESPONSE = httpResponse(TEXT_REPLY);

/**
 * The reply to one request body: the last message decides, a tool result gets text (ending the
 * turn), anything else a call. The markers are searched in the raw bytes, without decoding.
 */
function replyTo(body: Buffer): Buffer {
  return body.lastIndexOf('"role":"tool"') > body.lastIndexOf('"role":"user"') ? TEXT_RESPONSE : TOOL_CALL_RESPONSE;
}

/** An error answer with a JSON body (kept alive, like a real server's). */
function errorResponse(status: string, extraHeaders = ''): Buffer {
  return httpResponse(`{"error":{"message":"${status}","type":"bench_fault"}}`, status, extraHeaders);
}

const RATE_LIMITED_RESPONSE = errorResponse('429 Too Many Requests', 'retry-after: 1\r\n');
const SERVER_ERROR_RESPONSE = errorResponse('500 Internal Server Error');

/** Fractions of the requests a fault-storm server answers with each fault. */
export interface FaultMix {
  readonly rateLimited: number;
  readonly serverError: number;
  readonly reset: number;
}

/** The fault storm of `generate-fault-storm`: 30% 429 (Retry-After: 1), 10% 500, 5% dropped connections. */
export const FAULT_STORM: FaultMix = { rateLimited: 0.3, serverError: 0.1, reset: 0.05 };

/** mulberry32: the same faults in the same order on every bench run. */
function seededUniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** What the server does with one request: a fault of the mix, or the regular answer. */
function faultOf(mix: FaultMix | undefined, random: () => number): 'rateLimited' | 'serverError' | 'reset' | undefined {
  if (mix === undefined) return undefined;
  let draw = random();
  for (const fault of ['rateLimited', 'serverError', 'reset'] as const) {
    draw -= mix[fault];
    if (draw < 0) return fault;
  }
  return undefined;
}

/** The mock's answers: a fault of the mix (the same ones in the same order on every run), or the regular reply. */
function mockAnswer(mix: FaultMix | undefined): Answer {
  const random = seededUniform(24);
  return (body) => {
    const fault = faultOf(mix, random);
    if (fault === 'reset') return 'reset';
    return fault === 'rateLimited' ? RATE_LIMITED_RESPONSE : fault === 'serverError' ? SERVER_ERROR_RESPONSE : replyTo(body);
  };
}

/** Start the mock server in a child process (so its work does not count as the harness's). */
function startServer(delayMs: number, mix?: FaultMix): ReturnType<typeof startChildServer> {
  const faults = mix === undefined ? [] : ['--faults', JSON.stringify(mix)];
  return startChildServer(fileURLToPath(import.meta.url), ['--mock-server', String(delayMs), ...faults]);
}

/** Model requests made: one per step of every turn, read back from the result files. */
function countRequests(resultDir: string, modelDir: string): number {
  let requests = 0;
  const dir = join(resultDir, modelDir, 'multi_turn');
  for (const file of readdirSync(dir)) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const latency = (JSON.parse(line) as { latency: number[][] }).latency;
      for (const turn of latency) requests += turn.length;
    }
  }
  return requests;
}

if (process.argv[2] === '--mock-server') {
  const faults = process.argv.indexOf('--faults');
  await serveInChild(mockAnswer(faults === -1 ? undefined : (JSON.parse(process.argv[faults + 1]!) as FaultMix)), Number(process.argv[3] ?? '0'));
}

export interface GenerateBenchResult {
  readonly entries: number;
  readonly requests: number;
  readonly ms: number;
}

/** Generate every official multi-turn entry with `threads` concurrent entries against a server answering after `delayMs`. */
export async function runGenerateBench(
  dataDir: string,
  delayMs: number,
  threads: number,
  limit = Infinity,
): Promise<GenerateBenchResult> {
  const dataset = new BfclDataset(resolve(dataDir));
  const all = MULTI_TURN_CATEGORY.flatMap((category) => dataset.loadTestEntries(category));
  // A spread-out subset when limited, so every category is represented.
  const step = Math.max(1, Math.floor(all.length / Math.min(limit, all.length)));
  const entries = all.filter((_, i) => i % step === 0).slice(0, limit);
  const { child, url } = await startServer(delayMs);
  const resultDir = mkdtempSync(join(tmpdir(), 'bfcl-bench-generate-'));
  try {
    const model = createModel(fallbackModelConfig('openai-compatible/bench-model'), {
      baseUrl: url,
      env: { OPENAI_API_KEY: 'bench' },
    });
    const started = performance.now();
    const summary = await generateForModel(model, {
      categories: MULTI_TURN_CATEGORY,
      entries,
      resultDir,
      allowOverwrite: true,
      runIds: false,
      includeInputLog: false,
      excludeStateLog: false,
      numThreads: threads,
      simContext: { longContext: dataset.longContext() },
      progress: { write: () => {}, isTTY: false },
    });
    const ms = performance.now() - started;
    if (summary.errors > 0) throw new Error(`${summary.errors} entries failed during the bench`);
    return { entries: summary.written, requests: countRequests(resultDir, model.resultDirName), ms };
  } finally {
    child.kill();
    rmSync(resultDir, { recursive: true, force: true });
  }
}

/**
 * The same work through the bundled `bfcl generate` binary: the wall time of the whole process
 * (start-up, dataset loading, generation, the final sort), 800 entries at 16 threads.
 */
export async function runGenerateCliBench(dataDir: string, bundledCli: string, threads: number): Promise<GenerateBenchResult> {
  const { child, url } = await startServer(0);
  const resultDir = mkdtempSync(join(tmpdir(), 'bfcl-bench-generate-cli-'));
  try {
    const args = ['generate', '--model', 'openai-compatible/bench-model', '--base-url', url, '--test-category', 'multi_turn'];
    args.push('--num-threads', String(threads), '--data-dir', resolve(dataDir), '--result-dir', resultDir);
    const started = performance.now();
    // Parse cache off, as in the figures measured before it existed.
    const run = spawnSync(process.execPath, [bundledCli, ...args], { encoding: 'utf8', env: { ...process.env, OPENAI_API_KEY: 'bench', BFCL_CACHE_DIR: 'off' } });
    const ms = performance.now() - started;
    if (run.status !== 0) throw new Error(`bfcl generate failed (${run.status}): ${run.stderr.slice(-500)}`);
    const written = /(\d+) of \d+ entries written/.exec(run.stderr);
    if (written === null) throw new Error(`bfcl generate printed no summary: ${run.stderr.slice(-500)}`);
    return { entries: Number(written[1]), requests: countRequests(resultDir, 'openai-compatible_bench-model'), ms };
  } finally {
    child.kill();
    rmSync(resultDir, { recursive: true, force: true });
  }
}

/** What a fault-storm run did. */
export interface FaultStormResult extends GenerateBenchResult {
  /** Retries by cause, as the run counted them. */
  readonly retries: Readonly<Record<string, number>>;
  /** Entries without a result at the end (written as errors, or not finished): must be 0. */
  readonly lost: number;
}

/**
 * `limit` official multi-turn entries (spread over the categories) with `threads` concurrent entries
 * against a server answering 30% of the requests with 429 (Retry-After: 1), 10% with 500 and
 * dropping 5% of the connections; the run's own retry policy and breaker, defaults otherwise.
 */
export async function runFaultStormBench(dataDir: string, threads: number, limit: number): Promise<FaultStormResult> {
  const dataset = new BfclDataset(resolve(dataDir));
  const all = MULTI_TURN_CATEGORY.flatMap((category) => dataset.loadTestEntries(category));
  const step = Math.max(1, Math.floor(all.length / Math.min(limit, all.length)));
  const entries = all.filter((_, i) => i % step === 0).slice(0, limit);
  const { child, url } = await startServer(0, FAULT_STORM);
  const resultDir = mkdtempSync(join(tmpdir(), 'bfcl-bench-storm-'));
  try {
    const model = createModel(fallbackModelConfig('openai-compatible/bench-model'), { baseUrl: url, env: { OPENAI_API_KEY: 'bench' } });
    const started = performance.now();
    const summary = await generateForModel(model, {
      categories: MULTI_TURN_CATEGORY,
      entries,
      resultDir,
      allowOverwrite: true,
      runIds: false,
      includeInputLog: false,
      excludeStateLog: false,
      numThreads: threads,
      simContext: { longContext: dataset.longContext() },
      progress: { write: () => {}, isTTY: false },
    });
    const ms = performance.now() - started;
    return {
      entries: summary.selected,
      requests: summary.requests,
      ms,
      retries: summary.retriesByCause,
      lost: summary.selected - summary.ok,
    };
  } finally {
    child.kill();
    rmSync(resultDir, { recursive: true, force: true });
  }
}

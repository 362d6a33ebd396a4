/**
 * Harness overhead of `bfcl generate`: every official multi-turn entry against a local
 * OpenAI-compatible server on 127.0.0.1 that answers instantly or after a fixed delay. The server
 * answers a user turn with one tool call and a tool result with text, so each turn takes two steps
 * and exercises decoding, execution on the simulated APIs, logging and result writing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BfclDataset } from '../src/data/dataset.js';
import { generateForModel } from '../src/generate/run-generation.js';
import { createModel } from '../src/models/create-model.js';
import { fallbackModelConfig } from '../src/models/model-registry.js';
import { MULTI_TURN_CATEGORY } from '../src/spec/categories.js';

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

/** The complete HTTP response for a reply body (fixed length, connection kept open). */
function httpResponse(body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  const head = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${bytes.length}\r\nconnection: keep-alive\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
}

const TOOL_CALL_RESPONSE = httpResponse(TOOL_CALL_REPLY);
const TEXT_RESPONSE = httpResponse(TEXT_REPLY);
const LENGTH_REQUIRED = Buffer.from('HTTP/1.1 411 Length Required\r\ncontent-length: 0\r\nconnection: close\r\n\r\n', 'latin1');
const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;

/**
 * The reply to one request body: the last message decides, a tool result gets text (ending the
 * turn), anything else a call. The markers are searched in the raw bytes, without decoding.
 */
function replyTo(body: Buffer): Buffer {
  return body.lastIndexOf('"role":"tool"') > body.lastIndexOf('"role":"user"') ? TEXT_RESPONSE : TOOL_CALL_RESPONSE;
}

/** An error answer with a JSON body (kept alive, like a real server's). */
function errorResponse(status: string, extraHeaders = ''): Buffer {
  const body = Buffer.from(`{"error":{"message":"${status}","type":"bench_fault"}}`, 'utf8');
  const head = `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\n${extraHeaders}content-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
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

/**
 * Serves one keep-alive connection: requests with a `content-length` body (as our client and
 * undici send them), answered in order after `delayMs`. A minimal HTTP/1.1 responder rather than
 * `node:http`: the server shares the machine's two cores with the harness it measures, and
 * `node:http` cost it about twice the CPU per request. With a fault mix, some requests get a 429,
 * a 500 or a dropped connection instead.
 */
function serveConnection(socket: Socket, delayMs: number, mix?: FaultMix, random: () => number = Math.random): void {
  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  let pending: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const headerEnd = pending.indexOf(HEADER_END);
      if (headerEnd === -1) return;
      const length = CONTENT_LENGTH.exec(pending.toString('latin1', 0, headerEnd));
      if (length === null) {
        socket.end(LENGTH_REQUIRED);
        return;
      }
      const bodyStart = headerEnd + HEADER_END.length;
      const bodyEnd = bodyStart + Number(length[1]);
      if (pending.length < bodyEnd) return;
      const fault = faultOf(mix, random);
      if (fault === 'reset') {
        socket.destroy();
        return;
      }
      const response =
        fault === 'rateLimited' ? RATE_LIMITED_RESPONSE : fault === 'serverError' ? SERVER_ERROR_RESPONSE : replyTo(pending.subarray(bodyStart, bodyEnd));
      pending = pending.subarray(bodyEnd);
      if (delayMs > 0) setTimeout(() => socket.write(response), delayMs);
      else socket.write(response);
    }
  });
}

/** A server that answers chat completions after `delayMs` and prints its port; runs in its own process. */
async function serveMock(delayMs: number, mix?: FaultMix): Promise<Server> {
  const random = seededUniform(24);
  const server = createServer((socket) => serveConnection(socket, delayMs, mix, random));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${port}\n`);
  // Stop with the parent: when its pipe closes, or after 30 minutes at the most.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
  setTimeout(() => process.exit(0), 30 * 60_000).unref();
  return server;
}

/** Start the mock server in a child process (so its work does not count as the harness's). */
async function startServer(delayMs: number, mix?: FaultMix): Promise<{ child: ChildProcess; url: string }> {
  const faults = mix === undefined ? [] : ['--faults', JSON.stringify(mix)];
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--mock-server', String(delayMs), ...faults], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((ok, fail) => {
    child.once('error', fail);
    child.stdout!.once('data', (chunk: Buffer) => ok(chunk.toString('utf8').trim()));
  });
  return { child, url: `http://127.0.0.1:${port}/v1` };
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
  await serveMock(Number(process.argv[3] ?? '0'), faults === -1 ? undefined : (JSON.parse(process.argv[faults + 1]!) as FaultMix));
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

/**
 * Bench scenarios of the agentic memory categories (issue #25):
 * - `generate-memory-<backend>`: every memory prerequisite conversation and question of one backend
 *   of the official data, generated against a local OpenAI-compatible server that answers at once
 *   as a scripted agent (a prerequisite's user message is stored in memory, a question retrieves
 *   from memory and answers with what it found), snapshots written to disk; memory_vector with the
 *   deterministic hash embedder.
 * - `memory-vector-search`: a MemoryAPI_vector filled to its limits (7 core entries of 300
 *   characters, 50 archival entries of 2,000), saved as a snapshot, loaded back as a question loads
 *   it, then searched N times with distinct queries.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { HashEmbedder } from '../src/agentic/memory/hash-embedder.js';
import { InMemorySnapshotStore } from '../src/agentic/memory/in-memory-snapshot-store.js';
import { MemoryAPI_vector } from '../src/agentic/memory/memory-api-vector.js';
import { BfclDataset } from '../src/data/dataset.js';
import { createAgenticRunBackends } from '../src/generate/agentic-backends.js';
import { generateForModel } from '../src/generate/run-generation.js';
import { createModel } from '../src/models/create-model.js';
import { fallbackModelConfig } from '../src/models/model-registry.js';
import { pyDict } from '../src/py/value.js';
import type { Category } from '../src/spec/categories.js';
import { httpResponse, serveInChild, startChildServer } from './mock-http.js';

/** What an agentic scenario reports (the fields `bench.ts` prints). */
export interface AgenticBenchResult {
  readonly entries: number;
  readonly ms: number;
  /** Model requests answered (generate scenarios). */
  readonly requests?: number;
  readonly threads?: number;
  readonly delayMs?: number;
}

/** A scenario as `bench.ts` runs it (in a child process; peak RSS is that process's). */
export interface AgenticScenario {
  readonly label: string;
  readonly run: () => Promise<AgenticBenchResult>;
  readonly repeats?: number;
}

// ---------------------------------------------------------------------------------------------
// The scripted agent's server

interface ChatMessage {
  readonly role: string;
  readonly content?: string | null;
}
interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly { readonly function: { readonly name: string } }[];
}

const USAGE = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };

function completion(message: object, finishReason: string): string {
  return JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion', created: 0, model: 'bench-model', choices: [{ index: 0, finish_reason: finishReason, message }], usage: USAGE });
}

function callReply(name: string, args: object): string {
  return completion({ role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name, arguments: JSON.stringify(args) } }] }, 'tool_calls');
}

function textReply(text: string): string {
  return completion({ role: 'assistant', content: text }, 'stop');
}

/**
 * A memory_kv key per user message: `fact_`, its first six words and an FNV-1a hash of the text
 * (snake_case as the backend demands; the words give the BM25 key search something to match).
 */
function keyOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  const words = (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).slice(0, 6);
  return ['fact', ...words, hash.toString(16).padStart(8, '0')].join('_');
}

/**
 * The agent: in a prerequisite, store the user's message (rec_sum `memory_append`, kv
 * `archival_memory_add` under a key made from the text, vector `archival_memory_add`) and
 * acknowledge the tool result; asked a question, retrieve (`memory_retrieve`,
 * `archival_memory_key_search`, `archival_memory_retrieve` with the question) and answer with the
 * start of what came back.
 */
export function memoryAgentReply(request: ChatRequest): string {
  const tools = new Set((request.tools ?? []).map((t) => t.function.name));
  const last = request.messages.at(-1);
  const isQuestion = (request.messages[0]?.content ?? '').includes('For your final answer');
  let userText = '';
  for (let i = request.messages.length - 1; i >= 0; i--) {
    if (request.messages[i]!.role === 'user') {
      userText = request.messages[i]!.content ?? '';
      break;
    }
  }
  if (!isQuestion) {
    if (last?.role === 'tool') return textReply('Noted.');
    if (tools.has('memory_append')) return callReply('memory_append', { text: `${userText}\n` });
    if (tools.has('archival_memory_key_search')) return callReply('archival_memory_add', { key: keyOf(userText), value: userText });
    return callReply('archival_memory_add', { text: userText });
  }
  if (last?.role === 'tool') return textReply(`{'answer': ${JSON.stringify((last.content ?? '').slice(0, 80))}, 'context': 'from my memory'}`);
  if (tools.has('memory_retrieve')) return callReply('memory_retrieve', {});
  if (tools.has('archival_memory_key_search')) return callReply('archival_memory_key_search', { query: userText });
  return callReply('archival_memory_retrieve', { query: userText });
}

if (process.argv[2] === '--memory-agent-server') {
  await serveInChild((body) => httpResponse(memoryAgentReply(JSON.parse(body.toString('utf8')) as ChatRequest)));
}

/** Start the agent's server in a child process, so that its work does not count as the harness's. */
function startMemoryAgent(): ReturnType<typeof startChildServer> {
  return startChildServer(fileURLToPath(import.meta.url), ['--memory-agent-server']);
}

// ---------------------------------------------------------------------------------------------
// generate-memory-<backend>

/** Generate every prerequisite and question of one memory category with `threads` concurrent entries. */
export async function runMemoryGenerateBench(dataDir: string, category: Category, threads: number): Promise<AgenticBenchResult> {
  const dataset = new BfclDataset(resolve(dataDir));
  const entries = dataset.loadTestEntries(category);
  const { child, url } = await startMemoryAgent();
  const resultDir = mkdtempSync(join(tmpdir(), 'bfcl-bench-memory-'));
  try {
    const model = createModel(fallbackModelConfig('openai-compatible/bench-model'), { baseUrl: url, env: { OPENAI_API_KEY: 'bench' } });
    // memory_vector embeds with the deterministic hash embedder (no model weights here).
    const agentic = await createAgenticRunBackends(
      entries.map((entry) => entry.id),
      { embedder: new HashEmbedder() },
    );
    const started = performance.now();
    const summary = await generateForModel(model, {
      categories: [category],
      entries,
      resultDir,
      allowOverwrite: true,
      runIds: false,
      includeInputLog: false,
      excludeStateLog: false,
      numThreads: threads,
      simContext: { longContext: dataset.longContext() },
      agentic,
      progress: { write: () => {}, isTTY: false },
    });
    const ms = performance.now() - started;
    if (summary.errors > 0) throw new Error(`${summary.errors} entries failed during the bench (${JSON.stringify(summary.errorsByCause)})`);
    return { entries: summary.written, requests: summary.requests, ms, threads, delayMs: 0 };
  } finally {
    child.kill();
    rmSync(resultDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// memory-vector-search

const WORDS = 'account order refund deposit flat rent salary budget exam thesis lecture doctor allergy dose meeting deadline invoice travel garden parcel'.split(' ');

/** A text of exactly `length` characters drawn from the word list, different for each `seed`. */
function filler(seed: number, length: number): string {
  let text = '';
  let i = seed;
  while (text.length < length) {
    text += `${WORDS[(i * 7 + 3) % WORDS.length]}${i % 13} `;
    i++;
  }
  return text.slice(0, length);
}

const RESULT_DIR = '/bench/memory-vector-search';

function memoryConfig(testId: string): ReturnType<typeof pyDict> {
  return pyDict({ model_result_dir: RESULT_DIR, scenario: 'customer', test_id: testId, test_category: testId.slice(0, testId.lastIndexOf('_')) });
}

/**
 * Fill a vector memory to its limits and save it as a prerequisite would, load it as a question
 * does (every text embedded again), then time `retrieves` searches with distinct queries,
 * alternating the archival (50 entries) and core (7 entries) memory, top 5.
 */
export function runVectorSearchBench(retrieves: number): AgenticBenchResult {
  const store = new InMemorySnapshotStore();
  const embedder = new HashEmbedder();
  const deps = { snapshots: store, warn: () => {}, embedder };
  const filled = new MemoryAPI_vector({ longContext: new Map() }, deps);
  filled._loadScenario(memoryConfig('memory_vector_prereq_0-customer-0'), false);
  for (let i = 0; i < 7; i++) filled.core_memory_add(filler(i, 300));
  for (let i = 0; i < 50; i++) filled.archival_memory_add(filler(100 + i, 2000));
  const full = (filled.archival_memory_add('one more') as Map<string, unknown>).get('error');
  if (full === undefined) throw new Error('the archival memory took more than 50 entries');
  filled._flushSnapshot();

  const question = new MemoryAPI_vector({ longContext: new Map() }, deps);
  question._loadScenario(memoryConfig('memory_vector_0-customer-0'), false);
  const started = performance.now();
  let found = 0;
  for (let i = 0; i < retrieves; i++) {
    const query = `${WORDS[i % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]} question ${i}`;
    const result = (i % 2 === 0 ? question.archival_memory_retrieve(query, 5n) : question.core_memory_retrieve(query, 5n)) as Map<string, unknown[]>;
    found += result.get('result')!.length;
  }
  const ms = performance.now() - started;
  if (found !== retrieves * 5) throw new Error(`expected 5 results per search, got ${found / retrieves}`);
  return { entries: retrieves, ms };
}

/** The scenarios, for `bench.ts` (`dataDir` is read when a scenario runs). */
export function agenticScenarios(dataDir: () => string): Record<string, AgenticScenario> {
  const generate = (category: Category, backend: string): AgenticScenario => ({
    label: `generate all 37 prerequisites and 155 questions of ${category} of the official data against a local scripted agent answering instantly (stores every user message, retrieves for every question; 16 threads${backend === 'vector' ? '; hash embedder' : ''})`,
    run: () => runMemoryGenerateBench(dataDir(), category, 16),
  });
  return {
    'generate-memory-kv': generate('memory_kv', 'kv'),
    'generate-memory-rec_sum': generate('memory_rec_sum', 'rec_sum'),
    'generate-memory-vector': generate('memory_vector', 'vector'),
    'memory-vector-search': {
      label:
        'vector memory filled to its limits (7 × 300 + 50 × 2,000 characters, hash embedder), saved and loaded back as a question loads it, then 20,000 top-5 searches with distinct queries, archival and core alternately (entries = searches)',
      run: () => Promise.resolve(runVectorSearchBench(20_000)),
    },
  };
}

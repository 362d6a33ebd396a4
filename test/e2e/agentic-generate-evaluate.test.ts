/**
 * The agentic categories end to end with the built binary: a scripted FC model on a local
 * OpenAI-compatible server, our own data.
 *
 * - Memory (rec_sum, kv): during the prerequisite conversations the model stores every user message
 *   (`memory_append`, `core_memory_add`); asked a question, it retrieves its memory and answers with
 *   what it found, except for one question where it answers "I do not know". `bfcl evaluate` must
 *   score 9 of 10 per category.
 * - Web search: the searches and pages of a first run are recorded (`--search-cache-mode record`)
 *   from a local fake SerpAPI and page server; then the servers are closed and the binary generates
 *   again in `replay` mode without a SerpAPI key; the results score as expected (1 of 2: one page
 *   gives the wrong city).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runGenerateCommand } from '../../src/cli/generate-command.js';
import type { CliIo } from '../../src/cli/io.js';
import { generateOptions } from '../helpers/generate-options.js';
import { MockLlmServer, chatReply, type MockReply, type RecordedRequest } from '../helpers/mock-llm-server.js';
import { startServer, type LocalServer } from '../agentic/web/web-test-helpers.js';
import { ensureBuilt, runBuiltCli } from './built-cli.js';

interface ChatMessage {
  role: string;
  content?: string | null;
  tool_calls?: { function: { name: string; arguments: string } }[];
}
interface ChatRequest {
  messages: ChatMessage[];
  tools?: { function: { name: string } }[];
}

const jsonLines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

const call = (name: string, args: object): MockReply => chatReply.calls([{ name, arguments: JSON.stringify(args) }]);
const answer = (text: string): MockReply => chatReply.text(`{'answer': ${JSON.stringify(text)}, 'context': 'from my memory'}`);

/** The scripted agent of the memory categories. */
function memoryAgent(request: RecordedRequest): MockReply {
  const body = request.json as ChatRequest;
  const tools = new Set((body.tools ?? []).map((t) => t.function.name));
  const last = body.messages.at(-1)!;
  const isQuestion = body.messages[0]?.role === 'system' && (body.messages[0].content ?? '').includes('For your final answer');
  const userText = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  if (!isQuestion) {
    if (last.role === 'tool') return chatReply.text('Noted.');
    if (tools.has('memory_append')) return call('memory_append', { text: `${userText}\n` });
    const key = `fact_${createHash('sha1').update(userText).digest('hex').slice(0, 8)}`;
    return call('core_memory_add', { key, value: userText });
  }
  if (userText.includes('HbA1c')) return answer('I do not know');
  if (last.role === 'tool') return answer(last.content ?? '');
  return tools.has('memory_retrieve') ? call('memory_retrieve', {}) : call('core_memory_retrieve_all', {});
}

/** The scripted agent of web search: search the question, read the first hit, answer with the page. */
function webAgent(request: RecordedRequest): MockReply {
  const body = request.json as ChatRequest;
  const steps = body.messages.filter((m) => m.role === 'tool');
  const question = body.messages.find((m) => m.role === 'user')!.content ?? '';
  if (steps.length === 0) return call('search_engine_query', { keywords: question.slice(0, 40) });
  if (steps.length === 1) {
    const href = /'href': '([^']+)'/.exec(steps[0]!.content ?? '')?.[1] ?? 'http://missing/';
    return call('fetch_url_content', { url: href, mode: 'truncate' });
  }
  return answer(JSON.parse(steps[1]!.content ?? '{}').content ?? '');
}

describe('agentic categories with the built binary', () => {
  let llm: MockLlmServer;

  beforeAll(async () => {
    ensureBuilt();
    llm = await MockLlmServer.start();
  }, 300_000);

  afterAll(async () => {
    await llm?.close();
  });

  it('memory_rec_sum and memory_kv: facts stored in the prerequisites answer the questions', async () => {
    llm.setHandler(memoryAgent);
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-memory-'));
    const model = 'openai-compatible/memory-agent';
    const categories = 'memory_rec_sum,memory_kv';
    const generate = await runBuiltCli(['generate', '--model', model, '--test-category', categories, '--base-url', llm.openaiBaseUrl, '--num-threads', '3'], cwd);
    expect(generate.code, generate.stderr).toBe(0);

    const modelDir = join(cwd, 'result', 'openai-compatible_memory-agent', 'agentic', 'memory');
    expect(jsonLines(join(modelDir, 'rec_sum', 'BFCL_v4_memory_rec_sum_prereq_result.json'))).toHaveLength(10);
    const snapshot = JSON.parse(readFileSync(join(modelDir, 'rec_sum', 'memory_snapshot', 'customer_final.json'), 'utf8')) as { memory: string };
    expect(snapshot.memory).toContain('My loyalty number is GRN-40217');
    const kv = JSON.parse(readFileSync(join(modelDir, 'kv', 'memory_snapshot', 'student_final.json'), 'utf8')) as { core_memory: Record<string, string> };
    expect(Object.values(kv.core_memory)).toHaveLength(6);
    expect(readdirSync(join(modelDir, 'kv', 'memory_snapshot', 'prereq_checkpoints'))).toHaveLength(10);

    const evaluate = await runBuiltCli(['evaluate', '--model', model, '--test-category', categories], cwd);
    expect(evaluate.code, evaluate.stderr).toBe(0);
    expect(evaluate.stderr).toContain('openai-compatible_memory-agent memory_rec_sum: 90.00% (9/10)');
    expect(evaluate.stderr).toContain('openai-compatible_memory-agent memory_kv: 90.00% (9/10)');
  }, 120_000);

  it('web search: recorded once from local servers, then replayed offline and scored', async () => {
    const pages: LocalServer = await startServer((req, res) => {
      const city = req.url === '/p/0' ? 'Tobolsk, in Siberia, Russia' : 'Cologne';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<html><body><p>Born in ${city}.</p><script>x()</script></body></html>`);
    });
    let searches = 0;
    const serp: LocalServer = await startServer((req, res) => {
      searches++;
      const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? '';
      const n = q.includes('atomic number') ? 0 : 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ organic_results: [{ title: `Result ${n}`, link: `${pages.origin}/p/${n}`, snippet: 'A page.' }] }));
    });
    llm.setHandler(webAgent);
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-web-'));
    const cache = join(cwd, 'web-cache');
    const out = { stderr: '' };
    const io: CliIo = { stdout: () => {}, stderr: (t) => void (out.stderr += t), env: { OPENAI_API_KEY: 'sk-test' }, cwd };
    const model = 'openai-compatible/web-agent';
    const record = generateOptions(cwd, {
      models: [model],
      testCategories: ['web_search_base'],
      baseUrl: llm.openaiBaseUrl,
      searchCacheDir: cache,
      searchCacheMode: 'record',
      resultDir: join(cwd, 'recorded'),
    });
    const code = await runGenerateCommand(record, io, {
      agentic: { web: { serpApiKey: 'test-key', serpApiBaseUrl: serp.origin, allowPrivateAddresses: true } },
    });
    expect(code, out.stderr).toBe(0);
    expect(searches).toBe(2);
    expect(existsSync(join(cache, 'manifest.json'))).toBe(true);
    await serp.close();
    await pages.close();

    // Replay: no key, no servers; the same model answers make the same requests.
    const replay = await runBuiltCli(
      ['generate', '--model', model, '--test-category', 'web_search_base,web_search_no_snippet', '--base-url', llm.openaiBaseUrl, '--search-cache', cache, '--search-cache-mode', 'replay'],
      cwd,
      { OPENAI_API_KEY: 'sk-test' },
    );
    expect(replay.code, replay.stderr).toBe(0);
    const results = jsonLines(join(cwd, 'result', 'openai-compatible_web-agent', 'agentic', 'BFCL_v4_web_search_base_result.json'));
    const log = JSON.stringify(results[0]!['inference_log']);
    expect(log).toContain('Tobolsk');
    expect(log).not.toContain('x()');
    const evaluate = await runBuiltCli(['evaluate', '--model', model, '--test-category', 'web_search_base,web_search_no_snippet'], cwd);
    expect(evaluate.code, evaluate.stderr).toBe(0);
    expect(evaluate.stderr).toContain('openai-compatible_web-agent web_search_base: 50.00% (1/2)');
    expect(evaluate.stderr).toContain('openai-compatible_web-agent web_search_no_snippet: 50.00% (1/2)');

    // Without the cache a run needs a SerpAPI key, and says so before any entry.
    const noKey = await runBuiltCli(['generate', '--model', model, '--test-category', 'web_search_base', '--base-url', llm.openaiBaseUrl, '--result-dir', 'other'], cwd, {
      OPENAI_API_KEY: 'sk-test',
    });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('SERPAPI_API_KEY');
    expect(existsSync(join(cwd, 'other'))).toBe(false);
  }, 120_000);
});

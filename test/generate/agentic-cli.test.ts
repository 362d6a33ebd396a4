/**
 * `bfcl generate` for the agentic categories: the oracle scores 100% on our own data, the backend
 * flags and their environment variables, and the checks that stop a run before its first entry.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { HashEmbedder } from '../../src/agentic/memory/hash-embedder.js';
import { runGenerateCommand } from '../../src/cli/generate-command.js';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { agenticGenerateOptions } from '../../src/cli/option-parsers.js';
import { createAgenticRunBackends } from '../../src/generate/agentic-backends.js';
import type { GenerateOptions } from '../../src/spec/options.js';
import { UsageError } from '../../src/util/errors.js';
import { generateOptions } from '../helpers/generate-options.js';
import { type Script, ScriptedModel, fcCall } from './scripted-model.js';

function capture(env: Record<string, string> = {}): { io: CliIo; out: { stderr: string }; cwd: string } {
  const cwd = mkdtempSync(join(tmpdir(), 'bfcl-agentic-cli-'));
  const out = { stderr: '' };
  return { io: { stdout: () => {}, stderr: (t) => void (out.stderr += t), env, cwd }, out, cwd };
}

describe('bfcl generate: agentic categories', () => {
  it('the oracle answers every agentic question of our data, and evaluate gives 100%', async () => {
    const { io, out, cwd } = capture();
    expect(await runCli(['generate', '--model', 'oracle', '--test-category', 'agentic'], io)).toBe(0);
    expect(out.stderr).toMatch(/oracle: 64 of 64 entries written/);
    out.stderr = '';
    expect(await runCli(['evaluate', '--model', 'oracle', '--test-category', 'agentic'], io)).toBe(0);
    for (const [category, n] of [['web_search_base', 2], ['web_search_no_snippet', 2], ['memory_kv', 10], ['memory_vector', 10], ['memory_rec_sum', 10]] as const) {
      expect(out.stderr).toContain(`oracle ${category}: 100.00% (${n}/${n})`);
    }
    expect(existsSync(join(cwd, 'result', 'oracle', 'agentic', 'memory', 'vector', 'memory_snapshot', 'student_final.json'))).toBe(true);
  });

  it('reads the cache and embeddings settings from flags, else the environment', () => {
    const io = (env: Record<string, string>): CliIo => ({ stdout: () => {}, stderr: () => {}, env, cwd: '/w' });
    expect(agenticGenerateOptions({}, io({}), '/p')).toEqual({});
    expect(agenticGenerateOptions({ searchCache: 'c' }, io({}), '/p')).toEqual({ searchCacheMode: 'auto', searchCacheDir: '/p/c' });
    expect(agenticGenerateOptions({}, io({ BFCL_SEARCH_CACHE: '/abs', BFCL_SEARCH_CACHE_MODE: 'replay', BFCL_EMBEDDINGS_BASE_URL: 'http://e/v1' }), '/p')).toEqual({
      searchCacheMode: 'replay',
      searchCacheDir: '/abs',
      embeddingsBaseUrl: 'http://e/v1',
    });
    expect(agenticGenerateOptions({ searchCacheMode: 'off', embeddingsBaseUrl: 'http://f/v1' }, io({ BFCL_SEARCH_CACHE_MODE: 'record' }), '/p')).toEqual({
      embeddingsBaseUrl: 'http://f/v1',
    });
    expect(() => agenticGenerateOptions({ searchCacheMode: 'replay' }, io({}), '/p')).toThrow(/needs a cache directory/);
    expect(() => agenticGenerateOptions({}, io({ BFCL_SEARCH_CACHE_MODE: 'sometimes' }), '/p')).toThrow(UsageError);
  });

  it('parses the flags', async () => {
    const { io, out } = capture();
    const seen: GenerateOptions[] = [];
    const runners = { runGenerate: async (o: GenerateOptions) => (seen.push(o), 0), runEvaluate: async () => 0 };
    const argv = ['generate', '--model', 'm', '--test-category', 'web_search', '--search-cache', 'wc', '--search-cache-mode', 'record', '--embeddings-base-url', 'http://127.0.0.1:8080/v1'];
    expect(await runCli(argv, io, runners)).toBe(0);
    expect(seen[0]).toMatchObject({ searchCacheDir: join(io.cwd, 'wc'), searchCacheMode: 'record', embeddingsBaseUrl: 'http://127.0.0.1:8080/v1' });
    expect(await runCli(['generate', '--model', 'm', '--search-cache-mode', 'sometimes'], io, runners)).toBe(2);
    expect(out.stderr).toMatch(/--search-cache-mode.*sometimes/);
  });

  it('stops before any entry: web search without a SerpAPI key, memory_vector without embeddings', async () => {
    const script: Script = () => ({ responses: [fcCall('f')] });
    const buildModel = (name: string) => new ScriptedModel('fc', script, name);
    const { io, cwd } = capture();
    await expect(runGenerateCommand(generateOptions(cwd, { models: ['m'], testCategories: ['web_search_base'] }), io, { buildModel })).rejects.toThrow(
      /Web search: the web search categories need a SerpAPI key \(SERPAPI_API_KEY\)/,
    );
    const vector = generateOptions(cwd, { models: ['m'], testCategories: ['memory_vector'] });
    const noPackage = { embeddings: { importTransformers: () => Promise.reject(new Error('Cannot find package')) } };
    await expect(runGenerateCommand(vector, io, { buildModel, agentic: noPackage })).rejects.toThrow(/--embeddings-base-url or BFCL_EMBEDDINGS_BASE_URL/);
    expect(existsSync(join(cwd, 'result'))).toBe(false);
    // A cache in replay mode needs no key; memory_vector runs with any embedder.
    const replay = await createAgenticRunBackends(['web_search_base_0'], { web: { cacheMode: 'replay', cacheDir: join(cwd, 'cache') } });
    expect(replay.web).toBeDefined();
    const withEmbedder = await createAgenticRunBackends(['memory_vector_0-student-0'], { embedder: new HashEmbedder() });
    expect(withEmbedder.embedder).toBeInstanceOf(HashEmbedder);
    expect(withEmbedder.snapshots).toBeDefined();
    expect(await createAgenticRunBackends(['simple_python_0'], {})).toEqual({});
  });

  it('generates memory_vector with an embedder given by the caller', async () => {
    const { io, out, cwd } = capture();
    const script: Script = ({ entryId, step }) =>
      entryId.includes('prereq')
        ? { responses: step === 0 ? [fcCall('archival_memory_add', '{"text": "likes green tea"}')] : 'ok' }
        : { responses: step === 0 ? [fcCall('archival_memory_retrieve', '{"query": "tea"}')] : "{'answer': 'tea'}" };
    const buildModel = (name: string) => new ScriptedModel('fc', script, name);
    const options = generateOptions(cwd, { models: ['m'], testCategories: ['memory_vector'] });
    expect(await runGenerateCommand(options, io, { buildModel, agentic: { embedder: new HashEmbedder() } }), out.stderr).toBe(0);
    expect(out.stderr).toContain('m: 20 of 20 entries written');
  });
});

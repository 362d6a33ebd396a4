/**
 * One model's run over memory categories (agentic spec §4): prerequisite chains before their
 * questions, result and snapshot files, resume (a failed prerequisite is generated again — our
 * deviation), prerequisites nobody needs dropped, `-o` removing the real snapshot folder, `--run-ids`.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { openDataset } from '../../src/data/dataset.js';
import { prepareAgenticEntries } from '../../src/generate/agentic-run.js';
import { type GenerationOptions, generateForModel } from '../../src/generate/run-generation.js';
import { TEST_IDS_FILE, selectTestEntries } from '../../src/generate/select-entries.js';
import type { Category } from '../../src/spec/categories.js';
import { NodeMemorySnapshotStore } from '../../src/agentic/memory/node-memory-snapshot-store.js';
import { WebSearchServiceError } from '../../src/agentic/web/web-errors.js';
import type { WebBackends } from '../../src/agentic/web/web-search-api.js';
import { StubFetcher, StubSearch, pageResponse } from '../agentic/web/web-test-helpers.js';
import { generationOptions } from '../helpers/generate-options.js';
import { type Script, ScriptedModel, fcCall } from './scripted-model.js';

const dataset = openDataset();
const MODEL = 'scripted-fc';

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'bfcl-agentic-run-'));
}

function optionsFor(dir: string, categories: Category[], overrides: Partial<GenerationOptions> = {}): GenerationOptions {
  return generationOptions(dataset, dir, categories, { agentic: { snapshots: new NodeMemorySnapshotStore() }, ...overrides });
}

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const recSumDir = (dir: string): string => join(dir, MODEL, 'agentic', 'memory', 'rec_sum');
const prereqFile = (dir: string): string => join(recSumDir(dir), 'BFCL_v4_memory_rec_sum_prereq_result.json');
const questionFile = (dir: string): string => join(recSumDir(dir), 'BFCL_v4_memory_rec_sum_result.json');
const finalSnapshot = (dir: string, scenario: string): string => join(recSumDir(dir), 'memory_snapshot', `${scenario}_final.json`);

/** Prereqs append "<id>/<turn>. " in their first step of every turn; questions answer with text. */
function agent(failing: ReadonlySet<string> = new Set(), log: string[] = []): Script {
  return ({ entryId, turn, step }) => {
    if (step === 0 && turn === 0) log.push(entryId);
    if (failing.has(entryId)) return { fail: new Error(`scripted failure of ${entryId}`) };
    if (!entryId.includes('prereq')) return { responses: "{'answer': 'x', 'context': 'y'}" };
    return step === 0 ? { responses: [fcCall('memory_append', JSON.stringify({ text: `${entryId.split('_').pop()}/${turn}. ` }))] } : { responses: 'ok' };
  };
}

const memoryOf = (file: string): string => (JSON.parse(readFileSync(file, 'utf8')) as { memory: string }).memory;

describe('memory categories in a run', () => {
  it('runs each chain in order before its questions, with 4 threads, and writes results and snapshots', async () => {
    const dir = tmp();
    const order: string[] = [];
    const summary = await generateForModel(new ScriptedModel('fc', agent(new Set(), order)), optionsFor(dir, ['memory_rec_sum'], { numThreads: 4 }));
    expect(summary).toMatchObject({ selected: 20, written: 20, errors: 0 });
    expect(lines(prereqFile(dir)).map((l) => l['id'])).toEqual([
      'memory_rec_sum_prereq_0-customer-0', 'memory_rec_sum_prereq_1-customer-1', 'memory_rec_sum_prereq_2-healthcare-0', 'memory_rec_sum_prereq_3-healthcare-1',
      'memory_rec_sum_prereq_4-finance-0', 'memory_rec_sum_prereq_5-finance-1', 'memory_rec_sum_prereq_6-student-0', 'memory_rec_sum_prereq_7-student-1',
      'memory_rec_sum_prereq_8-notetaker-0', 'memory_rec_sum_prereq_9-notetaker-1',
    ]);
    expect(lines(questionFile(dir))).toHaveLength(10);
    // Each question started after both prereqs of its scenario, the second prereq after the first.
    for (const scenario of ['customer', 'healthcare', 'finance', 'student', 'notetaker']) {
      const positions = order.map((id, i) => [id, i] as const).filter(([id]) => id.includes(`-${scenario}-`));
      const prereqs = positions.filter(([id]) => id.includes('prereq'));
      const questions = positions.filter(([id]) => !id.includes('prereq'));
      expect(prereqs[0]![0]).toMatch(/-0$/);
      expect(Math.min(...questions.map(([, i]) => i))).toBeGreaterThan(Math.max(...prereqs.map(([, i]) => i)));
    }
    expect(memoryOf(finalSnapshot(dir, 'customer'))).toBe('0-customer-0/0. 0-customer-0/1. 0-customer-0/2. 1-customer-1/0. 1-customer-1/1. 1-customer-1/2. ');
    expect(readdirSync(join(recSumDir(dir), 'memory_snapshot', 'prereq_checkpoints')).sort()).toHaveLength(10);
    // A question's prompt shows its scenario's final memory.
    const question = lines(questionFile(dir)).find((l) => l['id'] === 'memory_rec_sum_1-customer-1')!;
    const log = question['inference_log'] as { begin_of_turn_query: { content: string }[] }[];
    expect(log[0]!.begin_of_turn_query[0]!.content).toContain('interactions:\n0-customer-0/0. ');
  });

  it('generates a failed prerequisite again on the next run, on top of the chain (a first prereq included)', async () => {
    const dir = tmp();
    const failing = new Set(['memory_rec_sum_prereq_0-customer-0']);
    const first = await generateForModel(new ScriptedModel('fc', agent(failing)), optionsFor(dir, ['memory_rec_sum']));
    expect(first).toMatchObject({ written: 20, errors: 1 });
    expect(memoryOf(finalSnapshot(dir, 'customer'))).toBe('1-customer-1/0. 1-customer-1/1. 1-customer-1/2. ');

    const log: string[] = [];
    const second = await generateForModel(new ScriptedModel('fc', agent(new Set(), log)), optionsFor(dir, ['memory_rec_sum']));
    // Its questions are done; the prereq alone runs again, continuing from the chain's latest memory.
    expect(second).toMatchObject({ toGenerate: 1, retried: 1, written: 1, errors: 0 });
    expect(log).toEqual(['memory_rec_sum_prereq_0-customer-0']);
    expect(memoryOf(finalSnapshot(dir, 'customer'))).toBe('1-customer-1/0. 1-customer-1/1. 1-customer-1/2. 0-customer-0/0. 0-customer-0/1. 0-customer-0/2. ');
    expect(lines(prereqFile(dir)).filter((l) => String(l['result']).startsWith('Error during inference'))).toEqual([]);
  });

  it('drops prerequisites nobody needs and runs missing questions against the snapshot on disk', async () => {
    const dir = tmp();
    await generateForModel(new ScriptedModel('fc', agent()), optionsFor(dir, ['memory_rec_sum']));
    const all = readFileSync(questionFile(dir), 'utf8').split('\n').filter(Boolean);
    writeFileSync(questionFile(dir), `${all.filter((l) => !l.includes('"memory_rec_sum_6-student-0"')).join('\n')}\n`);
    const log: string[] = [];
    const summary = await generateForModel(new ScriptedModel('fc', agent(new Set(), log)), optionsFor(dir, ['memory_rec_sum']));
    expect(summary).toMatchObject({ toGenerate: 1, written: 1 });
    expect(log).toEqual(['memory_rec_sum_6-student-0']);
    const again = lines(questionFile(dir)).find((l) => l['id'] === 'memory_rec_sum_6-student-0')!;
    expect(JSON.stringify(again['inference_log'])).toContain('6-student-0/0. ');
  });

  it('-o moves the snapshot folder the chains use aside (deviation: the reference removes another path)', async () => {
    const dir = tmp();
    await generateForModel(new ScriptedModel('fc', agent()), optionsFor(dir, ['memory_rec_sum']));
    const stray = join(recSumDir(dir), 'memory_snapshot', 'prereq_checkpoints', 'stale.json');
    writeFileSync(stray, '{}');
    const messages: string[] = [];
    const failFirst = new Set(['memory_rec_sum_prereq_0-customer-0']);
    await generateForModel(
      new ScriptedModel('fc', agent(failFirst)),
      optionsFor(dir, ['memory_rec_sum'], { allowOverwrite: true, progress: { write: (t) => void messages.push(t), isTTY: false } }),
    );
    const folder = join(recSumDir(dir), 'memory_snapshot');
    expect(messages.join('')).toContain(`Moved the memory snapshots of the previous run aside: ${folder} -> ${folder}.previous`);
    expect(existsSync(stray)).toBe(false);
    // Nothing of the previous run is lost: its snapshots are kept beside.
    expect(existsSync(join(`${folder}.previous`, 'prereq_checkpoints', 'stale.json'))).toBe(true);
    // The failed first prereq cannot resurrect the previous run's memory: prereq 1 starts empty.
    expect(memoryOf(finalSnapshot(dir, 'customer'))).toBe('1-customer-1/0. 1-customer-1/1. 1-customer-1/2. ');
  });

  it('--run-ids: listed questions run against the snapshot on disk; listed prereqs without questions run nothing', async () => {
    const dir = tmp();
    await generateForModel(new ScriptedModel('fc', agent()), optionsFor(dir, ['memory_rec_sum']));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, TEST_IDS_FILE), JSON.stringify({ memory_rec_sum: ['memory_rec_sum_1-customer-1'], memory_kv: ['memory_kv_prereq_0-customer-0'] }));
    const selection = selectTestEntries(dataset, { categories: [], runIds: true, projectRoot: dir });
    const log: string[] = [];
    const summary = await generateForModel(
      new ScriptedModel('fc', agent(new Set(), log)),
      optionsFor(dir, [], { categories: selection.categories, entries: selection.entries, runIds: true, allowOverwrite: true }),
    );
    expect(log).toEqual(['memory_rec_sum_1-customer-1']);
    expect(summary).toMatchObject({ written: 1 });
    expect(existsSync(join(dir, MODEL, 'agentic', 'memory', 'kv'))).toBe(false);
  });

  it('a search service that refuses every request stops the run; what finished is kept', async () => {
    const dir = tmp();
    let searches = 0;
    const search = new StubSearch(() => {
      searches++;
      return Promise.reject(new WebSearchServiceError('invalid_api_key', 'Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key'));
    });
    const web: WebBackends = { search, fetcher: new StubFetcher(() => pageResponse('')) };
    const script: Script = () => ({ responses: [fcCall('search_engine_query', '{"keywords": "x"}')] });
    await expect(generateForModel(new ScriptedModel('fc', script), optionsFor(dir, ['web_search_base', 'simple_python'], { agentic: { web } }))).rejects.toThrow(
      /Invalid API key/,
    );
    expect(searches).toBe(1);
    expect(existsSync(join(dir, MODEL, 'agentic', 'BFCL_v4_web_search_base_result.json'))).toBe(false);
  });

  it('prepareAgenticEntries gives web search and memory entries their initial_config', () => {
    const entries = prepareAgenticEntries([...dataset.loadTestEntries('web_search_no_snippet'), ...dataset.loadTestEntries('memory_kv')], '/r/m');
    expect(entries.find((e) => e.id === 'web_search_no_snippet_0')!.initialConfig).toEqual(new Map([['WebSearchAPI', new Map([['show_snippet', false]])]]));
    const prereq = entries.find((e) => e.id === 'memory_kv_prereq_1-customer-1')!;
    expect((prereq.initialConfig!.get('MemoryAPI_kv') as Map<string, unknown>).get('test_category')).toBe('memory_kv_prereq');
    expect(prereq.dependsOn).toEqual(['memory_kv_prereq_0-customer-0']);
  });
});

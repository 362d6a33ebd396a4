/**
 * Agentic entries in the multi-turn loop (agentic spec §3, §5): the answer-format and memory system
 * prompts (texts pinned by the spec's hashes), no state_info, the force quit, the snapshot flush of
 * memory prerequisites (after force quit too, never after an exception, never for questions), and
 * which backend failures become error lines and which stop the run.
 */
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { HashEmbedder } from '../../src/agentic/memory/hash-embedder.js';
import { InMemorySnapshotStore } from '../../src/agentic/memory/in-memory-snapshot-store.js';
import { WebCacheMissError, WebSearchServiceError } from '../../src/agentic/web/web-errors.js';
import { createWebSearchApiFactory, type WebBackends } from '../../src/agentic/web/web-search-api.js';
import { AGENTIC_RESPONSE_FORMAT_PROMPT } from '../../src/data/agentic.js';
import { openDataset } from '../../src/data/dataset.js';
import type { AgenticBackends } from '../../src/exec/agentic-instances.js';
import {
  MEMORY_AGENT_SETTINGS,
  MEMORY_BACKEND_INSTRUCTION_CORE_ARCHIVAL,
  MEMORY_BACKEND_INSTRUCTION_UNIFIED,
  memoryInstructionPrompt,
} from '../../src/generate/agentic-prompts.js';
import { prepareAgenticEntries } from '../../src/generate/agentic-run.js';
import { inferEntry } from '../../src/generate/infer-entry.js';
import type { MultiTurnOptions } from '../../src/generate/multi-turn.js';
import { jsonDumps } from '../../src/py/json.js';
import type { PyDict, PyValue } from '../../src/py/value.js';
import type { Category } from '../../src/spec/categories.js';
import { addSystemPromptForEntry } from '../../src/models/prompts/system-prompt.js';
import type { Conversation, ConversationStart } from '../../src/spec/model.js';
import type { Message, TestEntry } from '../../src/spec/schemas.js';
import { EMPTY_CONTEXT } from '../helpers/sim.js';
import { StubFetcher, StubSearch, pageResponse } from '../agentic/web/web-test-helpers.js';
import { type Script, ScriptedModel, fcCall } from './scripted-model.js';

const dataset = openDataset();
const MODEL_DIR = '/results/scripted-fc';
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The entry as a run prepares it (initial_config under MODEL_DIR). */
function entry(category: Category, id: string): TestEntry {
  const found = prepareAgenticEntries(dataset.loadTestEntries(category), MODEL_DIR).find((e) => e.id === id);
  if (found === undefined) throw new Error(`no entry ${id}`);
  return found;
}

interface Kit {
  readonly store: InMemorySnapshotStore;
  readonly warnings: string[];
  readonly options: MultiTurnOptions;
}

function kit(web?: Partial<WebBackends>): Kit {
  const store = new InMemorySnapshotStore();
  const warnings: string[] = [];
  const search = web?.search ?? new StubSearch(() => ({ kind: 'response', status: 200, body: '{"organic_results": []}' }));
  const fetcher = web?.fetcher ?? new StubFetcher(() => pageResponse('<p>page</p>'));
  const agentic: AgenticBackends = {
    memory: { snapshots: store, warn: (m) => warnings.push(m), embedder: new HashEmbedder() },
    webSearch: createWebSearchApiFactory({ search, fetcher }),
  };
  return { store, warnings, options: { includeInputLog: false, excludeStateLog: false, simContext: EMPTY_CONTEXT, agentic } };
}

async function run(model: ScriptedModel, e: TestEntry, k: Kit): Promise<PyDict> {
  const outcome = await inferEntry(model, e, k.options);
  if (outcome.kind === 'interrupted') throw new Error('interrupted');
  return outcome.line;
}

const log = (line: PyDict): PyValue[] => line.get('inference_log') as PyValue[];
const turnLog = (line: PyDict, turn: number): PyDict => log(line)[turn] as PyDict;
const firstMessages = (line: PyDict): PyDict[] => turnLog(line, 0).get('begin_of_turn_query') as PyDict[];
const snapshotPath = (backend: string, file: string): string => `${MODEL_DIR}/agentic/memory/${backend}/memory_snapshot/${file}`;

const text = (s: string): Script => () => ({ responses: s });

/** A prompting model whose system prompt is merged as the real prompting handlers merge it. */
class MergingPromptingModel extends ScriptedModel {
  constructor(script: Script) {
    super('prompting', script);
  }

  override startConversation(start: ConversationStart): { conversation: Conversation; question: Message[][] } {
    const { conversation } = super.startConversation(start);
    const question = start.question.map((turn) => [...turn]);
    question[0] = addSystemPromptForEntry(start.entryId, question[0]!, start.functions);
    return { conversation, question };
  }
}

describe('agentic prompts', () => {
  it('are byte-identical to the reference (lengths and sha256 from the spec)', () => {
    expect(AGENTIC_RESPONSE_FORMAT_PROMPT.length).toBe(501);
    expect(sha256(AGENTIC_RESPONSE_FORMAT_PROMPT)).toMatch(/^953a5ce4c6f95f87/);
    expect(MEMORY_BACKEND_INSTRUCTION_CORE_ARCHIVAL.length).toBe(722);
    expect(sha256(MEMORY_BACKEND_INSTRUCTION_CORE_ARCHIVAL)).toMatch(/^a623a0c85dfc4c34/);
    expect(MEMORY_BACKEND_INSTRUCTION_UNIFIED.length).toBe(451);
    expect(sha256(MEMORY_BACKEND_INSTRUCTION_UNIFIED)).toMatch(/^1b0cce5a09205753/);
    expect(Object.keys(MEMORY_AGENT_SETTINGS)).toEqual(['student', 'customer', 'finance', 'healthcare', 'notetaker']);
  });

  it('fills the template once, leaving braces and $ patterns in the content alone', () => {
    const prompt = memoryInstructionPrompt('memory_rec_sum_prereq', 'student', 'a {scenario_setting} $& $1 {x}');
    expect(prompt.startsWith(MEMORY_AGENT_SETTINGS['student']!)).toBe(true);
    expect(prompt.endsWith('interactions:\na {scenario_setting} $& $1 {x}\n')).toBe(true);
    expect(() => memoryInstructionPrompt('memory_kv', 'pirate', '')).toThrow("'pirate'");
  });

  it('gives a memory_kv question with empty core memory the spec check value (FC: M + blank line + A)', async () => {
    const k = kit();
    const line = await run(new ScriptedModel('fc', text('{}')), entry('memory_kv', 'memory_kv_0-customer-0'), k);
    const [system, user] = firstMessages(line);
    const content = system!.get('content') as string;
    expect(system!.get('role')).toBe('system');
    expect(content.length).toBe(1512);
    expect(sha256(content)).toBe('069a66f92bd53b22914000d618daee194f3d2a7703c6fa0e588cc0e247dfd2b8');
    expect(content.endsWith(`at this point.\n\n\n${AGENTIC_RESPONSE_FORMAT_PROMPT}`)).toBe(true);
    expect(user!.get('role')).toBe('user');
    // No snapshot on disk: a question starts empty with the reference's warning.
    expect(k.warnings).toHaveLength(1);
    expect(k.warnings[0]).toContain(`no snapshot file found in this path: ${snapshotPath('kv', 'customer_final.json')}. The memory will start empty for memory_kv_0-customer-0.`);
  });

  it('prompting models get their own system prompt first: D, then M, then A', async () => {
    const line = await run(new MergingPromptingModel(text('no calls')), entry('memory_rec_sum', 'memory_rec_sum_1-customer-1'), kit());
    const content = firstMessages(line)[0]!.get('content') as string;
    const e = entry('memory_rec_sum', 'memory_rec_sum_1-customer-1');
    const d = addSystemPromptForEntry(e.id, [{ role: 'user', content: '' }], e.functionDocs)[0]!.content;
    expect(content.startsWith(`${d}\n\n${MEMORY_AGENT_SETTINGS['customer']!}\n\n`)).toBe(true);
    expect(content).toContain('There is no content in the memory at this point.\n\n\nFor your final answer');
    expect(content.endsWith(AGENTIC_RESPONSE_FORMAT_PROMPT)).toBe(true);
  });

  it('shows an empty vector core memory as {} (the reference never prints its no-content sentence)', async () => {
    const line = await run(new ScriptedModel('fc', text('x')), entry('memory_vector', 'memory_vector_6-student-0'), kit());
    expect(firstMessages(line)[0]!.get('content') as string).toContain('from previous interactions:\n{}\n\n\nFor your final answer');
  });

  it('web search entries get the answer-format prompt alone, and no_snippet hides snippets', async () => {
    const search = new StubSearch(() => ({ kind: 'response', status: 200, body: JSON.stringify({ organic_results: [{ title: 'T', link: 'https://t/', snippet: 'S' }] }) }));
    const script: Script = ({ step }) => ({ responses: step === 0 ? [fcCall('search_engine_query', '{"keywords": "mendelevium"}')] : "{'answer': 'Russia'}" });
    for (const [category, tool] of [
      ['web_search_base', "[{'title': 'T', 'href': 'https://t/', 'body': 'S'}]"],
      ['web_search_no_snippet', "[{'title': 'T', 'href': 'https://t/'}]"],
    ] as const) {
      const line = await run(new ScriptedModel('fc', script), entry(category, `${category}_0`), kit({ search }));
      expect(firstMessages(line).map((m) => [m.get('role'), m.get('content') === AGENTIC_RESPONSE_FORMAT_PROMPT])).toEqual([
        ['system', true],
        ['user', false],
      ]);
      const step0 = turnLog(line, 0).get('step_0') as PyDict[];
      expect(step0.at(-1)!.get('role')).toBe('tool');
      expect(step0.at(-1)!.get('content')).toBe(tool);
      expect(line.get('result')).toEqual([[[fcCall('search_engine_query', '{"keywords": "mendelevium"}')], "{'answer': 'Russia'}"]]);
    }
    expect(search.requests.map((r) => r.params)).toEqual([[['q', 'mendelevium'], ['kl', 'wt-wt']], [['q', 'mendelevium'], ['kl', 'wt-wt']]]);
  });
});

describe('memory prerequisites in the loop', () => {
  const appendEachTurn: Script = ({ turn, step }) =>
    step === 0 ? { responses: [fcCall('memory_append', JSON.stringify({ text: `fact ${turn}. ` }))] } : { responses: 'Noted.' };

  it('run every turn, log no state_info, keep the prompt of the start, and flush both snapshot files', async () => {
    const k = kit();
    const prereq = entry('memory_rec_sum', 'memory_rec_sum_prereq_6-student-0');
    const line = await run(new ScriptedModel('fc', appendEachTurn), prereq, k);
    expect([...line.keys()]).toEqual(['id', 'result', 'input_token_count', 'output_token_count', 'latency', 'inference_log']);
    expect(log(line)).toHaveLength(prereq.question.length);
    expect(log(line).every((item) => item instanceof Map)).toBe(true);
    // One system message, in turn 0 only, with the memory as loaded (empty: a first prereq ignores any snapshot).
    expect(firstMessages(line).map((m) => m.get('role'))).toEqual(['system', 'user']);
    expect(firstMessages(line)[0]!.get('content') as string).toContain('There is no content in the memory at this point.');
    expect((turnLog(line, 1).get('begin_of_turn_query') as PyDict[]).map((m) => m.get('role'))).toEqual(['user']);
    const expected = jsonDumps(new Map([['memory', 'fact 0. fact 1. fact 2. ']]), { indent: 4 });
    expect(k.store.files.get(snapshotPath('rec_sum', 'prereq_checkpoints/memory_rec_sum_prereq_6-student-0.json'))).toBe(expected);
    expect(k.store.files.get(snapshotPath('rec_sum', 'student_final.json'))).toBe(expected);
    expect(k.warnings).toEqual([]);

    // The next prereq and the questions start from it; a question writes nothing.
    const next = await run(new ScriptedModel('fc', text('ok')), entry('memory_rec_sum', 'memory_rec_sum_prereq_7-student-1'), k);
    expect(firstMessages(next)[0]!.get('content') as string).toContain('from previous interactions:\nfact 0. fact 1. fact 2. \n');
    const before = new Map(k.store.files);
    const question = await run(new ScriptedModel('fc', appendEachTurn), entry('memory_rec_sum', 'memory_rec_sum_6-student-0'), k);
    expect(firstMessages(question)[0]!.get('content') as string).toContain('fact 2. \n\n\nFor your final answer');
    expect(k.store.files).toEqual(before);
  });

  it('force quit after the 21st executed step: the remaining turns are skipped and the snapshot is still written', async () => {
    const k = kit();
    const always: Script = () => ({ responses: [fcCall('memory_append', '{"text": "x"}')] });
    const line = await run(new ScriptedModel('fc', always), entry('memory_rec_sum', 'memory_rec_sum_prereq_6-student-0'), k);
    expect(line.get('result') as PyValue[]).toHaveLength(1);
    const turn = turnLog(line, 0);
    expect([...turn.keys()].filter((key) => String(key).startsWith('step_'))).toHaveLength(21);
    const last = turn.get('step_20') as PyDict[];
    expect(last.at(-1)!.get('content')).toBe('Model has been forced to quit after 20 steps.');
    expect(k.store.files.get(snapshotPath('rec_sum', 'student_final.json'))).toBe(jsonDumps(new Map([['memory', 'x'.repeat(21)]]), { indent: 4 }));
  });

  it('an exception skips the flush and writes the entry as an error', async () => {
    const k = kit();
    const failing: Script = ({ turn, step }) => (turn === 1 ? { fail: new Error('provider down') } : appendEachTurn({ entryId: '', turn, step }));
    const outcome = await inferEntry(new ScriptedModel('fc', failing), entry('memory_rec_sum', 'memory_rec_sum_prereq_6-student-0'), k.options);
    expect(outcome.kind).toBe('error');
    expect(outcome.kind === 'error' && outcome.line.get('result')).toBe('Error during inference: provider down');
    expect(k.store.files.size).toBe(0);
  });

  it('a corrupt snapshot fails the entry, naming the file', async () => {
    const k = kit();
    k.store.files.set(snapshotPath('kv', 'customer_final.json'), '{"core_memory": ');
    const outcome = await inferEntry(new ScriptedModel('fc', text('x')), entry('memory_kv', 'memory_kv_0-customer-0'), k.options);
    expect(outcome.kind === 'error' && outcome.message).toMatch(/^Corrupt memory snapshot \/results\/scripted-fc\/agentic\/memory\/kv\/memory_snapshot\/customer_final\.json: /);
  });
});

describe('web search failures', () => {
  const searches: Script = () => ({ responses: [fcCall('search_engine_query', '{"keywords": "x"}')] });

  it('a cache miss in replay mode is an error line, never tool text', async () => {
    const k = kit({ search: new StubSearch(() => Promise.reject(new WebCacheMissError('abc', '{}', '/c/abc.json'))) });
    const outcome = await inferEntry(new ScriptedModel('fc', searches), entry('web_search_base', 'web_search_base_1'), k.options);
    expect(outcome.kind).toBe('error');
    expect(outcome.kind === 'error' && (outcome.line.get('result') as string)).toMatch(/^Error during inference: web cache miss in replay mode: no record abc/);
  });

  it('a search service that refuses every request stops the run', async () => {
    const k = kit({ search: new StubSearch(() => Promise.reject(new WebSearchServiceError('out_of_searches', 'Your account has run out of searches.'))) });
    await expect(inferEntry(new ScriptedModel('fc', searches), entry('web_search_base', 'web_search_base_1'), k.options)).rejects.toThrow(WebSearchServiceError);
  });
});

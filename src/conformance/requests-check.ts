/**
 * Conformance of the provider adapters with the reference's golden generation requests
 * (shared/conformance/requests, README §3): the generation loop (`src/generate`) drives each handler
 * through the golden entries, the canned replies are served through a fake `fetch`
 * under the real SDK clients, and every request that leaves is compared with the golden one as a
 * JSON value, key order and int/float included. The decode cases check what each handler stores in
 * the `result` field for a canned raw output.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { BfclDataset } from '../data/dataset.js';
import { inferEntry } from '../generate/infer-entry.js';
import { createModel } from '../models/create-model.js';
import { buildModelConfig, findModel, type ModelConfig } from '../models/model-registry.js';
import { jsonDumps, parseJsonLossless } from '../py/json.js';
import type { PyDict, PyValue } from '../py/value.js';
import { extractTestCategoryFromId, isCategory } from '../spec/categories.js';
import type { TestEntry } from '../spec/schemas.js';
import { InternalError } from '../util/errors.js';

/** Agreement of one handler's requests with its golden file. */
export interface GoldenRequestComparison {
  /** Golden file name without `.jsonl`, e.g. `ClaudeHandler-FC`. */
  readonly handler: string;
  readonly identical: number;
  readonly total: number;
  /** Lines that differ: `<id> <scenario> turn T step S` with both JSON texts (ours undefined when not sent). */
  readonly mismatches: readonly { key: string; ours: string | undefined; reference: string }[];
  /** Entries whose run failed (`Error during inference`), which explains missing requests. */
  readonly errors: readonly string[];
}

/** Agreement of the `result` fields with `decode_cases.jsonl`. */
export interface DecodeCaseComparison {
  readonly identical: number;
  readonly total: number;
  readonly mismatches: readonly { case: string; handler: string; ours: string; reference: string }[];
}

type Protocol = 'responses' | 'chat' | 'anthropic' | 'completions';

/** How each golden file was made (README §3 table). */
interface HandlerSpec {
  readonly file: string;
  readonly handlerClass: string;
  readonly protocol: Protocol;
  readonly config: () => ModelConfig;
  /** The reference passes `timeout` (seconds) as a request option; the golden lines record it last. */
  readonly recordsTimeout: boolean;
}

const CONFORMANCE_KEYS = { OPENAI_API_KEY: 'conformance', ANTHROPIC_API_KEY: 'conformance' };
const FAKE_BASE_URL = 'http://conformance.invalid/v1';

function registered(name: string): () => ModelConfig {
  return () => {
    const config = findModel(name);
    if (config === undefined) throw new InternalError(`registry has no ${name}`);
    return config;
  };
}

/** `openai/gpt-oss-20b` as README §2 registers it (and its prompting twin, README §3). */
function gptOss(registryName: string, isFcModel: boolean): () => ModelConfig {
  return () =>
    buildModelConfig({
      registryName,
      modelName: 'openai/gpt-oss-20b',
      displayName: 'openai/gpt-oss-20b (FC) (vLLM)',
      url: 'https://huggingface.co/openai/gpt-oss-20b',
      org: 'OpenAI',
      license: 'apache-2.0',
      handler: 'OpenAICompletionsHandler',
      inputPrice: null,
      outputPrice: null,
      isFcModel,
      underscoreToDot: true,
    });
}

const HANDLERS: readonly HandlerSpec[] = [
  { file: 'OpenAIResponsesHandler-FC', handlerClass: 'OpenAIResponsesHandler', protocol: 'responses', config: registered('gpt-4o-2024-11-20-FC'), recordsTimeout: false },
  { file: 'OpenAIResponsesHandler-FC-reasoning', handlerClass: 'OpenAIResponsesHandler', protocol: 'responses', config: registered('o4-mini-2025-04-16-FC'), recordsTimeout: false },
  { file: 'OpenAIResponsesHandler-prompting', handlerClass: 'OpenAIResponsesHandler', protocol: 'responses', config: registered('gpt-4o-2024-11-20'), recordsTimeout: false },
  { file: 'ClaudeHandler-FC', handlerClass: 'ClaudeHandler', protocol: 'anthropic', config: registered('claude-sonnet-4-5-20250929-FC'), recordsTimeout: true },
  { file: 'ClaudeHandler-prompting', handlerClass: 'ClaudeHandler', protocol: 'anthropic', config: registered('claude-sonnet-4-5-20250929'), recordsTimeout: true },
  { file: 'OpenAICompletionsHandler-FC', handlerClass: 'OpenAICompletionsHandler', protocol: 'chat', config: gptOss('openai/gpt-oss-20b', true), recordsTimeout: false },
  { file: 'OpenAICompletionsHandler-prompting', handlerClass: 'OpenAICompletionsHandler', protocol: 'chat', config: gptOss('openai/gpt-oss-20b-prompting', false), recordsTimeout: false },
  { file: 'QwenHandler-prompting', handlerClass: 'QwenHandler', protocol: 'completions', config: registered('Qwen/Qwen3-8B'), recordsTimeout: true },
];

/** Section of `canned_responses.json` per protocol. */
const CANNED_SECTION: Readonly<Record<Protocol, string>> = {
  responses: 'OpenAIResponsesHandler (responses.create)',
  chat: 'OpenAICompletionsHandler (chat.completions.create)',
  anthropic: 'ClaudeHandler (messages.create)',
  completions: 'QwenHandler (completions.create)',
};

// ---------------------------------------------------------------------------------------------
// Canned replies

/** Canned replies of one handler; ids carry the request number `n` of the entry's run. */
class CannedReplies {
  constructor(
    private readonly section: PyDict,
    private readonly noCallText: string,
    private readonly protocol: Protocol,
    private readonly fc: boolean,
    private readonly reasoning: boolean,
  ) {}

  /** The reply to request `n` of a run of `scenario`. */
  reply(scenario: string, n: number): PyValue {
    const roundTripCall = scenario === 'tool_round_trip' && n === 0;
    let reply: PyValue;
    if (!roundTripCall) {
      reply = this.get(this.reasoning ? 'no_call (reasoning model)' : 'no_call');
    } else if (this.protocol === 'completions') {
      reply = this.get('tool_round_trip step 0');
    } else if (this.protocol === 'responses' && !this.fc) {
      // "no_call with text [cd(folder='document')]": the no-call message with the call as its text.
      const text = this.get('no_call');
      reply = parseJsonLossless(jsonDumps(text).replaceAll(jsonDumps(this.noCallText), jsonDumps("[cd(folder='document')]")));
    } else {
      reply = this.get(`tool_round_trip step 0 (${this.fc ? 'FC' : 'prompting'})`);
    }
    return this.withRequestNumber(reply, n);
  }

  private get(key: string): PyValue {
    const value = this.section.get(key);
    if (value === undefined) throw new InternalError(`canned_responses.json has no "${key}"`);
    return value;
  }

  /** `_canned_0` ids become `_canned_<n>` (README: n = request index within one entry's run). */
  private withRequestNumber(reply: PyValue, n: number): PyValue {
    const text = jsonDumps(reply)
      .replace(/_canned_0/g, `_canned_${n}`)
      .replace(/ENCRYPTED_CANNED_0/g, `ENCRYPTED_CANNED_${n}`);
    const value = parseJsonLossless(text) as PyDict;
    // The reasoning canned reply has no `output_text` field; the SDK computes it. Neither is needed on the wire.
    value.delete('output_text');
    return value;
  }
}

const dict = (entries: [string, PyValue][]): PyDict => new Map(entries);

/**
 * A wire response body whose output is `raw` (decode cases): for FC the raw value is the handler's
 * output part (Responses `output` items, the chat `message`, Claude `content` blocks); for prompting
 * it is the text, placed where each protocol carries text.
 */
function wrapRaw(protocol: Protocol, raw: PyValue, mode: 'FC' | 'prompting'): PyDict {
  if (mode === 'prompting' && typeof raw === 'string') return wrapText(protocol, raw);
  switch (protocol) {
    case 'responses':
      return dict([['output', raw]]);
    case 'chat':
      return dict([['choices', [dict([['message', raw]])]]]);
    case 'anthropic':
      return dict([['content', raw]]);
    case 'completions':
      return dict([['choices', [dict([['text', raw]])]]]);
  }
}

function wrapText(protocol: Protocol, text: string): PyDict {
  switch (protocol) {
    case 'responses': {
      const part = dict([['type', 'output_text'], ['text', text]]);
      return dict([['output', [dict([['type', 'message'], ['role', 'assistant'], ['content', [part]]])]]]);
    }
    case 'chat':
      return dict([['choices', [dict([['message', dict([['role', 'assistant'], ['content', text]])]])]]]);
    case 'anthropic':
      return dict([['content', [dict([['type', 'text'], ['text', text]])]]]);
    case 'completions':
      return dict([['choices', [dict([['text', text]])]]]);
  }
}

// ---------------------------------------------------------------------------------------------
// Where a request belongs

/**
 * The turn and step of request `n` of a run. The canned replies fix the flow: a no-call reply ends
 * its turn after one request; in `tool_round_trip` the first request is answered with a call, so
 * turn 0 has two steps.
 */
function positionOf(scenario: string, n: number): { turn: number; step: number } {
  if (scenario !== 'tool_round_trip') return { turn: n, step: 0 };
  if (n <= 1) return { turn: 0, step: n };
  return { turn: n - 1, step: 0 };
}

// ---------------------------------------------------------------------------------------------
// Comparison

interface GoldenLine {
  readonly id: string;
  readonly scenario: string;
  readonly turn: number;
  readonly step: number;
  readonly request: PyDict;
}

function readJsonLines(file: string): PyDict[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parseJsonLossless(line) as PyDict);
}

function readGolden(file: string): GoldenLine[] {
  return readJsonLines(file).map((d) => ({
    id: d.get('id') as string,
    scenario: d.get('scenario') as string,
    turn: Number(d.get('turn')),
    step: Number(d.get('step')),
    request: d.get('request') as PyDict,
  }));
}

const lineKey = (id: string, scenario: string, turn: number, step: number): string =>
  `${id} ${scenario} turn ${turn} step ${step}`;

/** A `fetch` that answers every request from `replies` and records the bodies sent. */
function fakeFetch(replies: (n: number) => PyValue, sent: (bodyText: string, n: number) => void): typeof globalThis.fetch {
  let n = 0;
  return async (_input, init) => {
    const index = n++;
    sent(typeof init?.body === 'string' ? init.body : '', index);
    return new Response(jsonDumps(replies(index)), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

class EntryCache {
  private readonly byCategory = new Map<string, Map<string, TestEntry>>();
  constructor(private readonly dataset: BfclDataset) {}

  get(id: string): TestEntry {
    const category = extractTestCategoryFromId(id);
    if (!isCategory(category)) throw new InternalError(`not a category: ${category}`);
    let entries = this.byCategory.get(category);
    if (entries === undefined) {
      entries = new Map(this.dataset.loadTestEntries(category).map((e) => [e.id, e]));
      this.byCategory.set(category, entries);
    }
    const entry = entries.get(id);
    if (entry === undefined) throw new InternalError(`no entry ${id} in ${category}`);
    return entry;
  }
}

/**
 * For each handler of README §3, drives our adapter through the golden entries and scenarios and
 * counts the golden requests that our adapter sent identically (as JSON values, key order included).
 */
export async function compareGoldenRequests(conformanceDir: string, dataDir: string): Promise<GoldenRequestComparison[]> {
  const requestsDir = join(conformanceDir, 'requests');
  const canned = parseJsonLossless(readFileSync(join(requestsDir, 'canned_responses.json'), 'utf8')) as PyDict;
  const noCallText = canned.get('no_call_text') as string;
  const dataset = new BfclDataset(dataDir);
  const entries = new EntryCache(dataset);
  const simContext = { longContext: dataset.longContext() };
  const comparisons: GoldenRequestComparison[] = [];

  for (const spec of HANDLERS) {
    const golden = readGolden(join(requestsDir, `${spec.file}.jsonl`));
    const ours = new Map<string, string>();
    const errors: string[] = [];
    const runs = [...new Set(golden.map((line) => `${line.id}\u0000${line.scenario}`))];
    for (const run of runs) {
      const [id, scenario] = run.split('\u0000') as [string, string];
      const config = spec.config();
      const fc = !spec.file.endsWith('prompting');
      const replies = new CannedReplies(
        canned.get(CANNED_SECTION[spec.protocol]) as PyDict,
        noCallText,
        spec.protocol,
        fc,
        spec.file.endsWith('reasoning'),
      );
      let timeoutMs = 0;
      const model = createModel(config, {
        env: CONFORMANCE_KEYS,
        baseUrl: FAKE_BASE_URL,
        fetch: fakeFetch(
          (n) => replies.reply(scenario, n),
          (bodyText, n) => {
            const body = parseJsonLossless(bodyText) as PyDict;
            if (spec.recordsTimeout) body.set('timeout', BigInt(Math.round(timeoutMs / 1000)));
            const { turn, step } = positionOf(scenario, n);
            ours.set(lineKey(id, scenario, turn, step), jsonDumps(body));
          },
        ),
        onRequest: (request) => {
          timeoutMs = request.timeoutMs;
        },
        retry: { maxAttempts: 1 },
      });
      // The generation loop itself drives the adapter, as `bfcl generate` does.
      const outcome = await inferEntry(model, entries.get(id), { includeInputLog: false, excludeStateLog: false, simContext });
      if (outcome.kind !== 'done') errors.push(`${id} ${scenario}: ${outcome.kind === 'error' ? outcome.message : outcome.kind}`);
    }

    let identical = 0;
    const mismatches: { key: string; ours: string | undefined; reference: string }[] = [];
    for (const line of golden) {
      const key = lineKey(line.id, line.scenario, line.turn, line.step);
      const reference = jsonDumps(line.request);
      const mine = ours.get(key);
      if (mine === reference) identical++;
      else mismatches.push({ key, ours: mine, reference });
    }
    comparisons.push({ handler: spec.file, identical, total: golden.length, mismatches, errors });
  }
  return comparisons;
}

/**
 * For each line of `decode_cases.jsonl`, serves `raw` as the model's answer to every handler the line
 * names and compares the `result` our adapter stores with the golden `result`.
 */
export async function compareDecodeCases(conformanceDir: string): Promise<DecodeCaseComparison> {
  const cases = readJsonLines(join(conformanceDir, 'requests', 'decode_cases.jsonl'));
  let identical = 0;
  const mismatches: { case: string; handler: string; ours: string; reference: string }[] = [];
  for (const c of cases) {
    const mode = c.get('mode') as 'FC' | 'prompting';
    const handlerClasses = (c.get('handler') as string).split(',').map((h) => h.trim());
    const reference = jsonDumps(c.get('result')!);
    let allEqual = true;
    for (const handlerClass of handlerClasses) {
      const spec = HANDLERS.find(
        (h) => h.handlerClass === handlerClass && h.file.endsWith('prompting') === (mode === 'prompting') && !h.file.endsWith('reasoning'),
      );
      if (spec === undefined) throw new InternalError(`no ${mode} handler ${handlerClass}`);
      const response = wrapRaw(spec.protocol, c.get('raw')!, mode);
      const model = createModel(spec.config(), {
        env: CONFORMANCE_KEYS,
        baseUrl: FAKE_BASE_URL,
        fetch: fakeFetch(() => response, () => undefined),
        retry: { maxAttempts: 1 },
      });
      const { conversation, question } = model.startConversation({
        entryId: 'simple_python_0',
        functions: [],
        question: [[{ role: 'user', content: 'decode case' }]],
        multiTurn: false,
      });
      conversation.addFirstTurnMessages(question[0]!);
      const step = await conversation.query();
      const ours = jsonDumps(step.responses);
      if (ours !== reference) {
        allEqual = false;
        mismatches.push({ case: c.get('case') as string, handler: handlerClass, ours, reference });
      }
    }
    if (allEqual) identical++;
  }
  return { identical, total: cases.length, mismatches };
}

/**
 * `runJudgeCommand` in process against a local judge server speaking the OpenAI or Anthropic
 * protocol (the real SDK clients over loopback): text mode with explanations on Claude, replies
 * that are empty, huge or in another language, a failing endpoint, classification prompts with
 * the JSON-schema fallback, `--input` traces with bad lines, template files, dry runs.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { CliIo } from '../../src/cli/io.js';
import { runJudgeCommand, type JudgeOptions } from '../../src/cli/judge-command.js';
import { runCli } from '../../src/cli/run-cli.js';
import { packageDataDir } from '../../src/data/data-dir.js';
import { TOOL_SELECTION_PROMPT } from '../../src/judge/classification-templates.js';
import { NO_TOOL_USED } from '../../src/judge/tool-call-text.js';
import { UsageError } from '../../src/util/errors.js';
import { MockLlmServer, anthropicReply, chatReply, errorReply, type MockReply, type RecordedRequest } from '../helpers/mock-llm-server.js';

interface Captured extends CliIo {
  out: string;
  err: string;
}

function captureIo(cwd: string, env: Record<string, string> = {}): Captured {
  const io: Captured = {
    out: '',
    err: '',
    stdout: (text) => void (io.out += text),
    stderr: (text) => void (io.err += text),
    env: { BFCL_PROJECT_ROOT: cwd, BFCL_CACHE_DIR: 'off', ...env },
    cwd,
  };
  return io;
}

interface Rec {
  id: string;
  turn: number | null;
  label: string | null;
  explanation: string | null;
  execution_status: string;
  exceptions: string[];
  attempts: number;
  response: string;
  skip_reason?: string;
  cache_hit: boolean;
}

const jsonLines = <T>(text: string): T[] => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 2 };

let server: MockLlmServer;
let handler: (request: RecordedRequest) => MockReply;
let project: string;

beforeAll(async () => {
  server = await MockLlmServer.start();
  server.setHandler((request) => handler(request));
  project = mkdtempSync(join(tmpdir(), 'bfcl-judge-cmd-'));
  const io = captureIo(project);
  const code = await runCli(['generate', '--model', 'oracle', '--test-category', 'simple_python,multi_turn_miss_func'], io);
  expect(code, io.err).toBe(0);
});

afterAll(async () => {
  await server.close();
});

function options(fields: Partial<JudgeOptions>): JudgeOptions {
  return {
    models: ['oracle'],
    judge: 'openai-compatible/judge-model',
    judgeBaseUrl: server.openaiBaseUrl,
    testCategories: ['simple_python'],
    numThreads: 2,
    template: 'tool-calling',
    resultDir: join(project, 'result'),
    scoreDir: join(project, 'score'),
    dataDir: packageDataDir(),
    allowOverwrite: true,
    includePrompt: true,
    json: false,
    minAgreement: [],
    dryRun: false,
    exitOnError: false,
    ...fields,
  };
}

const promptOf = (request: RecordedRequest): string => (request.json as { messages: { content: string }[] }).messages[0]!.content;

describe('bfcl judge with a Claude judge (text mode, explanations)', () => {
  it('sends the explanation template as a user message with max_tokens 1024 and reads the chain-of-thought label', async () => {
    handler = (request) => {
      const prompt = promptOf(request);
      return anthropicReply.text(prompt.includes('simple_python') || prompt.includes('compound') ? 'The call fits.\nLABEL: correct' : 'I would label this correct, but\nLABEL: incorrect');
    };
    const before = server.requests.length;
    const io = captureIo(project, { ANTHROPIC_API_KEY: 'test-key' });
    const code = await runJudgeCommand(
      options({ judge: 'claude-sonnet-4-5-20250929', judgeBaseUrl: server.anthropicBaseUrl, explain: true }),
      io,
      { retry: FAST_RETRY },
    );
    expect(code, io.err).toBe(0);
    const requests = server.requests.slice(before);
    expect(requests[0]!.path).toBe('/v1/messages');
    const body = requests[0]!.json as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['model', 'max_tokens', 'messages', 'temperature']);
    expect(body['model']).toBe('claude-sonnet-4-5-20250929');
    expect(body['max_tokens']).toBe(1024);
    expect(body['temperature']).toBe(0);
    const golden = readFileSync(join(import.meta.dirname, 'fixtures', 'golden-prompts', 'simple_python_0.explain.txt'), 'utf8');
    const sent = requests.map((r) => (r.json as { messages: { role: string; content: string }[] }).messages);
    expect(sent.every((m) => m.length === 1 && m[0]!.role === 'user')).toBe(true);
    expect(sent.map((m) => m[0]!.content)).toContain(golden);
    const dir = join(project, 'score', 'oracle', 'judge', 'claude-sonnet-4-5-20250929', 'tool_calling_with_explanation@2.13.0-text');
    const records = jsonLines<Rec>(readFileSync(join(dir, 'BFCL_v4_simple_python_judge.jsonl'), 'utf8'));
    const first = records.find((r) => r.id === 'simple_python_0')!;
    expect(first.explanation).toBe(first.response);
    expect(['correct', 'incorrect']).toContain(first.label);
    // "I would label this correct, but\nLABEL: incorrect": the first `label` word wins (spec §3.5).
    for (const r of records) if (r.response.startsWith('I would')) expect(r.label).toBe('correct');
  });
});

describe('bad judge replies and a failing endpoint (--input traces)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bfcl-judge-traces-'));
  });
  afterEach(() => {
    handler = () => errorReply.status(418);
  });

  const traces = [
    { id: 'empty', question: 'q1', tool_call: 'f(a=1)', tool_definitions: '[]' },
    { id: 'huge', question: 'q2', tool_call: 'f(a=2)', tool_definitions: [{ name: 'f', parameters: {} }] },
    { id: 'foreign', question: 'q3', tool_call: NO_TOOL_USED, tool_definitions: '[]' },
    { id: 'fine', question: 'q4', tool_call: 'f(a=4)', tool_definitions: '[]' },
    { question: 'q5', tool_call: 'f(a=5)' },
  ];
  const writeTraces = (extraLines: string[] = []): string => {
    const file = join(dir, 'traces.jsonl');
    writeFileSync(file, [...traces.map((t) => JSON.stringify(t)), ...extraLines].join('\n') + '\n');
    return file;
  };
  const huge = 'word '.repeat(400_000);

  it('records empty, huge and foreign-language replies as NOT_PARSABLE with the raw text kept', async () => {
    handler = (request) => {
      const prompt = promptOf(request);
      if (prompt.includes('q1')) return chatReply.text('');
      if (prompt.includes('q2')) return chatReply.text(huge);
      if (prompt.includes('q3')) return chatReply.text('Этот вызов правильный.');
      return chatReply.text('correct');
    };
    const input = writeTraces(['not json at all', '[1, 2]']);
    const io = captureIo(dir);
    const code = await runJudgeCommand(options({ models: [], input, judgeMode: 'text', explain: false }), io, { retry: FAST_RETRY });
    expect(code, io.err).toBe(0);
    const records = jsonLines<Rec>(readFileSync(join(dir, 'traces.judge.jsonl'), 'utf8'));
    expect(records.map((r) => [r.id, r.label, r.execution_status])).toEqual([
      ['empty', 'NOT_PARSABLE', 'COMPLETED'],
      ['huge', 'NOT_PARSABLE', 'COMPLETED'],
      ['foreign', 'NOT_PARSABLE', 'COMPLETED'],
      ['fine', 'correct', 'COMPLETED'],
      ['line_5', null, 'MISSING INPUT'],
    ]);
    expect(records[1]!.response).toBe(huge);
    expect(records[2]!.response).toBe('Этот вызов правильный.');
    expect(records[4]!.skip_reason).toBe('Missing template variables: tool_definitions');
    expect(io.err).toContain('traces.jsonl:6: not JSON');
    expect(io.err).toContain('traces.jsonl:7: not a JSON object');
    // A non-string input is written as json.dumps(value, indent=4).
    const hugeRequest = server.requests.find((r) => promptOf(r).includes('q2'))!;
    expect(promptOf(hugeRequest)).toContain('[Tool Definitions]: [\n    {\n        "name": "f",\n        "parameters": {}\n    }\n]');
  });

  it('retries a failing endpoint, records the failure (never a label), and asks again on the next run', async () => {
    let healthy = false;
    handler = (request) => (healthy || !promptOf(request).includes('q4') ? chatReply.text('incorrect') : errorReply.status(503));
    const input = writeTraces();
    const io = captureIo(dir);
    const code = await runJudgeCommand(options({ models: [], input, judgeMode: 'text', maxRetries: 2, allowOverwrite: false }), io, { retry: FAST_RETRY });
    expect(code).toBe(4);
    const records = jsonLines<Rec>(readFileSync(join(dir, 'traces.judge.jsonl'), 'utf8'));
    const failed = records.find((r) => r.id === 'fine')!;
    expect(failed).toMatchObject({ label: null, execution_status: 'FAILED', attempts: 3 });
    expect(failed.exceptions).toHaveLength(3);
    expect(failed.exceptions[0]).toContain('503');
    healthy = true;
    const before = server.requests.length;
    const again = await runJudgeCommand(options({ models: [], input, judgeMode: 'text', maxRetries: 2, allowOverwrite: false }), captureIo(dir), { retry: FAST_RETRY });
    expect(again).toBe(0);
    expect(server.requests.length - before).toBe(1);
    const after = jsonLines<Rec>(readFileSync(join(dir, 'traces.judge.jsonl'), 'utf8'));
    expect(after.find((r) => r.id === 'fine')).toMatchObject({ label: 'incorrect', execution_status: 'COMPLETED', cache_hit: false });
    expect(after.filter((r) => r.cache_hit).map((r) => r.id)).toEqual(['empty', 'huge', 'foreign']);
  });

  it('retries an unreadable function-calling reply at once, then records COMPLETED WITH RETRIES', async () => {
    let calls = 0;
    handler = () => (++calls === 1 ? chatReply.calls([{ name: 'record_response', arguments: '["correct"]' }]) : chatReply.calls([{ name: 'record_response', arguments: '{"response": "correct"}' }]));
    const input = join(dir, 'one.jsonl');
    writeFileSync(input, JSON.stringify(traces[3]) + '\n');
    const code = await runJudgeCommand(options({ models: [], input }), captureIo(dir), { retry: FAST_RETRY });
    expect(code).toBe(0);
    const [record] = jsonLines<Rec>(readFileSync(join(dir, 'one.judge.jsonl'), 'utf8'));
    expect(record).toMatchObject({ label: 'correct', execution_status: 'COMPLETED WITH RETRIES', attempts: 2 });
    expect(record!.exceptions[0]).toContain('AttributeError');
  });
});

describe('classification prompts (tool-selection)', () => {
  it('asks for a JSON schema, falls back to a forced tool on HTTP 400, and refuses labels not in the choices', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bfcl-judge-cls-'));
    const input = join(dir, 't.jsonl');
    writeFileSync(input, ['a', 'b'].map((q) => JSON.stringify({ id: q, question: `question ${q}`, tool_call: 'f()', tool_definitions: '[]' })).join('\n') + '\n');
    handler = (request) => {
      const body = request.json as { response_format?: unknown; messages: { role: string; content: string }[] };
      if (body.response_format !== undefined) return errorReply.status(400);
      const label = body.messages[0]!.content.includes('question a') ? 'correct' : 'Correct';
      return chatReply.calls([{ name: 'extract_structured_data', arguments: JSON.stringify({ explanation: 'because', label }) }]);
    };
    const before = server.requests.length;
    const io = captureIo(dir);
    const code = await runJudgeCommand(options({ models: [], input, template: 'tool-selection', maxRetries: 1, numThreads: 1 }), io, { retry: FAST_RETRY });
    expect(code).toBe(4);
    expect(io.err).toContain('forced tool call');
    const first = server.requests[before]!.json as { response_format: { type: string; json_schema: { name: string; strict: boolean; schema: unknown } }; messages: { role: string; content: string }[] };
    expect(first.response_format.type).toBe('json_schema');
    expect(first.response_format.json_schema).toMatchObject({ name: 'extract_structured_data', strict: true });
    expect(first.response_format.json_schema.schema).toEqual({
      type: 'object',
      properties: { explanation: { type: 'string', description: 'A brief explanation of your reasoning.' }, label: { type: 'string', enum: ['correct', 'incorrect'] } },
      required: ['explanation', 'label'],
      additionalProperties: false,
    });
    expect(first.messages[0]!.content).toBe(
      TOOL_SELECTION_PROMPT.content.replace('{{input}}', 'question a').replace('{{available_tools}}', '[]').replace('{{tool_selection}}', 'f()'),
    );
    const records = jsonLines<Rec>(readFileSync(join(dir, 't.judge.jsonl'), 'utf8'));
    expect(records[0]).toMatchObject({ id: 'a', label: 'correct', explanation: 'because' });
    // "Correct" is not one of the choices: Phoenix's evaluator raises, retries, and fails the row.
    expect(records[1]).toMatchObject({ id: 'b', label: null, execution_status: 'FAILED' });
    expect(records[1]!.exceptions.at(-1)).toContain('invalid label');
  });
});

describe('multi-turn units and usage errors', () => {
  it('judges every turn of a multi-turn entry, the hold-out turn with BFCL\'s replacement sentence', async () => {
    handler = () => chatReply.calls([{ name: 'record_response', arguments: '{"response": "correct"}' }]);
    const io = captureIo(project);
    const code = await runJudgeCommand(options({ testCategories: ['multi_turn_miss_func'], json: true }), io, { retry: FAST_RETRY });
    expect(code, io.err).toBe(0);
    const document = JSON.parse(io.out) as { scopes: { scope: string; level: string; n: number; agreement: number }[]; units: number };
    expect(document.units).toBe(6 + 5 + 6 + 7); // the turns of our data's four miss_func entries
    expect(document.scopes.find((s) => s.scope === 'multi_turn_miss_func' && s.level === 'entry')).toMatchObject({ n: 4, agreement: 1 });
  });

  it('refuses a template file with unknown fields, and a missing judge key', async () => {
    const file = join(project, 'bad-template.txt');
    writeFileSync(file, 'Q: {question} {context}');
    await expect(runJudgeCommand(options({ templateFile: file }), captureIo(project))).rejects.toThrow(UsageError);
    await expect(runJudgeCommand(options({ judge: 'claude-sonnet-4-5-20250929', judgeBaseUrl: undefined }), captureIo(project, {}))).rejects.toThrow('ANTHROPIC_API_KEY');
    await expect(runJudgeCommand(options({ judge: 'no-such-model' }), captureIo(project))).rejects.toThrow("Unknown judge 'no-such-model'");
  });

  it('uses a template file with the three fields, and counts units in a dry run without asking', async () => {
    const file = join(project, 'my-template.txt');
    writeFileSync(file, 'Q={question}\nC={tool_call}\nD={tool_definitions}\nAnswer correct or incorrect; {{braces}} stay.');
    const before = server.requests.length;
    const io = captureIo(project);
    expect(await runJudgeCommand(options({ templateFile: file, dryRun: true }), io)).toBe(0);
    expect(server.requests.length).toBe(before);
    expect(io.out).toMatch(/Dry run \(oracle, 1 categories\): 6 units; 6 to ask, 0 answered before, 0 skipped\./);
    handler = (request) => {
      expect(promptOf(request)).toMatch(/^Q=.*\nC=\[.*\]\nD=\[\n {4}\{\n[^]*\nAnswer correct or incorrect; \{braces\} stay\.$/);
      return chatReply.calls([{ name: 'record_response', arguments: '{"response": "incorrect"}' }]);
    };
    expect(await runJudgeCommand(options({ templateFile: file }), captureIo(project))).toBe(0);
    expect(server.requests.length - before).toBe(6);
  });
});

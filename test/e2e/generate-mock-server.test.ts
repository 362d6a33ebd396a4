/**
 * The built binary against a local OpenAI-compatible server (the test's mock, real HTTP): generate
 * our data's simple_python and multi_turn_base entries with `--base-url`, then evaluate them. The
 * server answers single-turn questions with their ground-truth calls (one with malformed
 * arguments), multi-turn user turns with a call and tool results with text, and rate-limits the
 * first two requests (Retry-After: 0).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { packageDataDir } from '../../src/data/data-dir.js';
import { jsonDumps, parseJsonLossless } from '../../src/py/json.js';
import type { PyDict, PyValue } from '../../src/py/value.js';
import { MockLlmServer, chatReply, errorReply, type MockReply, type RecordedRequest } from '../helpers/mock-llm-server.js';
import { ensureBuilt, runBuiltCli } from './built-cli.js';

interface ChatRequest {
  model: string;
  messages: { role: string; content?: string | null }[];
  tools?: { type: string; function: { name: string; parameters: { required?: string[] } } }[];
}

function jsonLines<T>(file: string): T[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
}

/**
 * One accepted value of a possible answer (the first that is not `""`, the "may be omitted" mark);
 * a dict's entries are themselves lists of accepted values.
 */
function acceptedValue(accepted: PyValue): PyValue | undefined {
  const first = (accepted as PyValue[]).find((v) => v !== '');
  if (!(first instanceof Map)) return first;
  const dict: PyDict = new Map();
  for (const [key, values] of first) {
    const value = acceptedValue(values);
    if (value !== undefined) dict.set(key, value);
  }
  return dict;
}

/**
 * Question text → the ground truth's calls as tool calls: names with `.` → `_`, arguments as JSON
 * text with Python's number forms (`62.0` stays a float).
 */
function groundTruthCalls(): Map<string, { id: string; calls: { name: string; arguments: string }[] }> {
  const data = packageDataDir();
  const lines = (file: string) => readFileSync(join(data, file), 'utf8').split('\n').filter(Boolean).map((l) => parseJsonLossless(l) as PyDict);
  const answers = new Map(lines(join('possible_answer', 'BFCL_v4_simple_python.json')).map((a) => [a.get('id'), a.get('ground_truth') as PyDict[]]));
  const byQuestion = new Map<string, { id: string; calls: { name: string; arguments: string }[] }>();
  for (const entry of lines('BFCL_v4_simple_python.json')) {
    const id = entry.get('id') as string;
    const calls = answers.get(id)!.map((expected) => {
      const [name, params] = [...expected][0]!;
      const args: PyDict = new Map();
      for (const [param, accepted] of params as PyDict) {
        const value = acceptedValue(accepted);
        if (value !== undefined) args.set(param, value);
      }
      return { name: (name as string).replaceAll('.', '_'), arguments: jsonDumps(args) };
    });
    const question = ((entry.get('question') as PyValue[][])[0]![0] as PyDict).get('content') as string;
    byQuestion.set(question, { id, calls });
  }
  return byQuestion;
}

const MALFORMED_ENTRY = 'simple_python_3';

describe('bfcl generate against a local OpenAI-compatible server, then bfcl evaluate (built binary)', () => {
  let server: MockLlmServer;
  const calls = groundTruthCalls();

  beforeAll(async () => {
    ensureBuilt();
    server = await MockLlmServer.start();
    server.setHandler((request: RecordedRequest, index: number): MockReply => {
      if (index < 2) return errorReply.rateLimited('0');
      const body = request.json as ChatRequest;
      const last = body.messages[body.messages.length - 1]!;
      if (last.role === 'tool') return chatReply.text('Done.');
      const single = calls.get(body.messages.find((m) => m.role === 'user')?.content ?? '');
      if (single !== undefined) {
        if (single.id === MALFORMED_ENTRY) return chatReply.calls([{ name: single.calls[0]!.name, arguments: '{"value": ' }]);
        return chatReply.calls(single.calls);
      }
      // A multi-turn user turn: call a tool that needs no argument, if there is one.
      const free = body.tools?.find((tool) => (tool.function.parameters.required ?? []).length === 0);
      return free === undefined ? chatReply.text('I cannot help.') : chatReply.calls([{ name: free.function.name, arguments: '{}' }]);
    });
  }, 300_000);

  afterAll(async () => {
    await server?.close();
  });

  it('writes complete result files and scores them', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-mock-'));
    const model = 'openai-compatible/mock-model';
    const categories = 'simple_python,multi_turn_base';
    const generate = await runBuiltCli(['generate', '--model', model, '--test-category', categories, '--base-url', `${server.url}/v1`, '--num-threads', '2'], cwd);
    // One entry's arguments are malformed, but it has a result: exit 0.
    expect(generate.code, generate.stderr).toBe(0);
    // The first rate-limited attempt is announced, naming the entry that waits; the second (same
    // cause, same interval) is counted in one line at the end.
    expect(generate.stderr.match(/attempt \d failed/g)).toHaveLength(1);
    expect(generate.stderr).toMatch(/\w+_\d+: attempt 1 failed \(.*429.*\); retrying in 0\.[0-2]s/);
    expect(generate.stderr).toMatch(/1 more retries after HTTP 429 in the last \d+s \(waits 0\.[0-2]s\)/);
    expect(generate.stderr).toContain('2 retries: HTTP 429 x2.');

    // The requests: the model id, the question, and the function docs as tools with '.' replaced.
    const first = server.requests.map((r) => r.json as ChatRequest).find((b) => b.messages.some((m) => m.content?.includes('savings account')))!;
    expect(first.model).toBe('mock-model');
    expect(first.tools!.map((t) => [t.type, t.function.name])).toEqual([['function', 'finance_compound_interest']]);
    expect(server.requests.filter((r) => r.path === '/v1/chat/completions').length).toBe(server.requests.length);

    const resultDir = join(cwd, 'result', 'openai-compatible_mock-model');
    const single = jsonLines<{ id: string; result: unknown; inference_log: unknown[] }>(join(resultDir, 'non_live', 'BFCL_v4_simple_python_result.json'));
    expect(single.map((l) => l.id)).toEqual(['simple_python_0', 'simple_python_1', 'simple_python_2', 'simple_python_3', 'simple_python_4', 'simple_python_5']);
    const multi = jsonLines<{ id: string; result: unknown[][]; inference_log: { role?: string }[][] | unknown[] }>(
      join(resultDir, 'multi_turn', 'BFCL_v4_multi_turn_base_result.json'),
    );
    expect(multi).toHaveLength(4);
    for (const line of multi) {
      const roles = JSON.stringify(line.inference_log);
      expect(roles).toContain('"role":"state_info"');
      expect(roles).toContain('"role":"tool"');
      expect(line.result.length).toBeGreaterThan(0);
    }

    const evaluate = await runBuiltCli(['evaluate', '--model', model, '--test-category', categories], cwd);
    expect(evaluate.code, evaluate.stderr).toBe(0);
    // Every ground-truth answer passes; the malformed one fails as a decode failure, not a crash.
    expect(evaluate.stderr).toContain('openai-compatible_mock-model simple_python: 83.33% (5/6)');
    expect(evaluate.stderr).toMatch(/openai-compatible_mock-model multi_turn_base: \d+\.\d\d% \(\d\/4\)/);
    const score = jsonLines<{ id?: string; error?: { error_type?: string } | string[]; error_type?: string }>(
      join(cwd, 'score', 'openai-compatible_mock-model', 'non_live', 'BFCL_v4_simple_python_score.json'),
    );
    expect(score.slice(1).map((l) => [l.id, l.error_type])).toEqual([[MALFORMED_ENTRY, 'ast_decoder:decoder_failed']]);
  }, 120_000);
});

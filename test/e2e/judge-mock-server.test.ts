/**
 * `bfcl judge` (the built binary) against a local judge server that records every prompt and
 * answers by a fixed rule on the prompt's SHA-256. The model under test is our `oracle` on the
 * package's data, with some results spoiled so that BFCL's verdicts differ (a wrong value, a text
 * answer, a call where none belongs, an empty multi-turn turn, a force-terminated entry, an
 * inference error, a malformed line). Checked: prompts byte-identical to renderings made by Python
 * (test/judge/fixtures/make-golden-prompts.py), the labels the rule gives, calibration figures
 * recomputed here from the score files `bfcl evaluate` wrote, failures retried by the next run,
 * resume and `-o`, and score files left as they were.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MockLlmServer, chatReply, errorReply, type MockReply, type RecordedRequest } from '../helpers/mock-llm-server.js';
import { PACKAGE_ROOT, ensureBuilt, runBuiltCli, type CliRun } from './built-cli.js';

const CATEGORIES = ['simple_python', 'live_simple', 'irrelevance', 'live_relevance', 'multi_turn_base', 'multi_turn_miss_func'];
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The judge's rule: by the first hex digit of the prompt's SHA-256. */
type RuleOutcome = 'correct' | 'incorrect' | 'NOT_PARSABLE' | 'fail';
function rule(prompt: string): RuleOutcome {
  const digit = parseInt(sha256(prompt)[0]!, 16);
  if (digit < 7) return 'correct';
  if (digit < 13) return 'incorrect';
  return digit === 13 ? 'NOT_PARSABLE' : 'fail';
}

interface Rec {
  id: string;
  category: string;
  turn: number | null;
  label: string | null;
  execution_status: string;
  cache_hit: boolean;
  prompt?: string;
  bfcl_valid: boolean | null;
  skip_reason?: string;
  exceptions: string[];
  response: string;
}

interface Scope {
  scope: string;
  level: string;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  agreement: number | null;
  cohens_kappa: number | null;
  confusion_matrix: Record<string, Record<string, number>>;
}

const jsonLines = <T>(text: string): T[] => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);

describe('bfcl judge against a local judge server (built binary)', () => {
  let server: MockLlmServer;
  let project: string;
  let failing = true;
  let recordsDir: string;
  let first: CliRun;
  let firstRequests: RecordedRequest[];
  let scoreFilesBefore: Map<string, string>;

  const judgeArgs = (...extra: string[]): string[] => [
    'judge',
    '--model',
    'oracle',
    '--judge',
    'openai-compatible/judge-model',
    '--judge-base-url',
    server.openaiBaseUrl,
    '--test-category',
    CATEGORIES.join(','),
    '--num-threads',
    '4',
    '--max-retries',
    '0',
    '--include-prompt',
    ...extra,
  ];
  const env = (): Record<string, string> => ({ BFCL_PROJECT_ROOT: project, BFCL_CACHE_DIR: 'off' });
  const records = (): Rec[] => readdirSync(recordsDir).filter((f) => f.endsWith('_judge.jsonl')).flatMap((f) => jsonLines<Rec>(readFileSync(join(recordsDir, f), 'utf8')));

  beforeAll(async () => {
    ensureBuilt();
    project = mkdtempSync(join(tmpdir(), 'bfcl-judge-e2e-'));
    const generated = await runBuiltCli(['generate', '--model', 'oracle', '--test-category', CATEGORIES.join(',')], project, env());
    expect(generated.code, generated.stderr).toBe(0);
    spoilResults(join(project, 'result', 'oracle'));
    const evaluated = await runBuiltCli(['evaluate', '--model', 'oracle', '--test-category', CATEGORIES.join(',')], project, env());
    expect(evaluated.code, evaluated.stderr).toBe(0);
    scoreFilesBefore = scoreFiles(join(project, 'score', 'oracle'));

    server = await MockLlmServer.start();
    server.setHandler((request: RecordedRequest): MockReply => {
      const prompt = (request.json as { messages: { content: string }[] }).messages[0]!.content;
      const outcome = rule(prompt);
      if (outcome === 'fail') return failing ? errorReply.status(500) : chatReply.calls([{ name: 'record_response', arguments: '{"response": "correct"}' }]);
      const response = outcome === 'NOT_PARSABLE' ? 'maybe' : outcome;
      return chatReply.calls([{ name: 'record_response', arguments: JSON.stringify({ response }) }]);
    });
    first = await runBuiltCli(judgeArgs(), project, env());
    firstRequests = [...server.requests];
    recordsDir = join(project, 'score', 'oracle', 'judge', 'openai-compatible_judge-model', 'tool_calling@2.13.0-fc');
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('sends each rendered prompt once, as a system message with record_response forced, and records it', () => {
    expect(first.stderr).toContain('units failed');
    expect(first.code).toBe(4);
    const sent = firstRequests.map((r) => {
      const body = r.json as { model: string; messages: { role: string; content: string }[]; tool_choice: unknown; temperature: number };
      expect(r.path).toBe('/v1/chat/completions');
      expect(body.model).toBe('judge-model');
      expect(body.messages).toHaveLength(1);
      expect(body.messages[0]!.role).toBe('system');
      expect(body.temperature).toBe(0);
      expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'record_response' } });
      return body.messages[0]!.content;
    });
    const recorded = records().filter((r) => r.prompt !== undefined).map((r) => r.prompt!);
    expect([...sent].sort()).toEqual([...recorded].sort());
  });

  it('renders prompts byte for byte as Python renders them (golden prompts)', () => {
    const byUnit = new Map(records().map((r) => [r.turn === null ? r.id : `${r.id}#${r.turn}`, r]));
    const goldenDir = join(PACKAGE_ROOT, 'test', 'judge', 'fixtures', 'golden-prompts');
    const goldens = readdirSync(goldenDir).filter((f) => f.endsWith('.txt') && !f.includes('.explain.'));
    expect(goldens.length).toBeGreaterThanOrEqual(7);
    for (const file of goldens) {
      const unit = file.slice(0, -'.txt'.length);
      expect(byUnit.get(unit)?.prompt, unit).toBe(readFileSync(join(goldenDir, file), 'utf8'));
    }
  });

  it('labels every unit as the rule says, and records failures and skips as such', () => {
    const all = records();
    const outcomes = new Set<string>();
    for (const r of all) {
      if (r.prompt === undefined) {
        expect(r.execution_status).toBe('SKIPPED');
        continue;
      }
      const outcome = rule(r.prompt);
      outcomes.add(outcome);
      if (outcome === 'fail') {
        expect(r.execution_status).toBe('FAILED');
        expect(r.label).toBeNull();
        expect(r.exceptions.join('\n')).toContain('500');
      } else {
        expect(r.label).toBe(outcome);
        expect(r.execution_status).toBe('COMPLETED');
      }
    }
    expect([...outcomes].sort()).toEqual(['NOT_PARSABLE', 'correct', 'fail', 'incorrect']);
    const skipped = all.filter((r) => r.execution_status === 'SKIPPED').map((r) => [r.id, r.skip_reason!.split(':')[0]]);
    expect(skipped).toEqual([
      ['simple_python_3', 'inference error'],
      ['simple_python_4', 'malformed result line ' + join(project, 'result', 'oracle', 'non_live', 'BFCL_v4_simple_python_result.json')],
    ]);
  });

  it('gives calibration figures equal to those recomputed from the score files and the rule', () => {
    const calibration = JSON.parse(readFileSync(join(recordsDir, 'calibration.json'), 'utf8')) as { scopes: Scope[] };
    const invalid = new Set<string>();
    for (const [, text] of scoreFiles(join(project, 'score', 'oracle'))) for (const line of jsonLines<{ id?: string }>(text).slice(1)) invalid.add(line.id!);
    const groundTruth = groundTruthTurnSizes();
    // BFCL's verdict per unit: single-turn from the score files; multi-turn turns by spec §4.3 from what was spoiled.
    const verdict = (r: Rec): boolean | null => {
      if (r.turn === null) return !invalid.has(r.id);
      if ((groundTruth.get(r.id)![r.turn] ?? 0) === 0) return null;
      if (r.id === 'multi_turn_base_2') return null; // force-terminated: no turn verdicts
      if (r.id === 'multi_turn_base_1') return r.turn < 2 ? true : r.turn === 2 ? false : null; // empty turn 2
      return true;
    };
    const all = records();
    for (const r of all) expect(r.bfcl_valid, `${r.id}#${r.turn}`).toBe(verdict(r));
    const expected = (units: Rec[]): { tp: number; fp: number; fn: number; tn: number } => {
      const count = (v: boolean, label: string): number => units.filter((u) => verdict(u) === v && u.label === label).length;
      return { tp: count(true, 'correct'), fp: count(false, 'correct'), fn: count(true, 'incorrect'), tn: count(false, 'incorrect') };
    };
    const kappa = ({ tp, fp, fn, tn }: { tp: number; fp: number; fn: number; tn: number }): number | null => {
      const den = (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn);
      return den === 0 ? null : (2 * (tp * tn - fn * fp)) / den;
    };
    const check = (name: string, level: string, units: Rec[]): void => {
      const scope = calibration.scopes.find((s) => s.scope === name && s.level === level)!;
      const want = expected(units);
      expect({ tp: scope.tp, fp: scope.fp, fn: scope.fn, tn: scope.tn }, `${name}/${level}`).toEqual(want);
      const n = want.tp + want.fp + want.fn + want.tn;
      expect(scope.agreement).toBeCloseTo((want.tp + want.tn) / n, 12);
      const k = kappa(want);
      if (k === null || scope.cohens_kappa === null) expect(scope.cohens_kappa).toBe(k);
      else expect(scope.cohens_kappa).toBeCloseTo(k, 12);
    };
    for (const category of CATEGORIES) {
      const units = all.filter((r) => r.category === category && (r.turn !== null || !category.startsWith('multi_turn')));
      check(category, category.startsWith('multi_turn') ? 'turn' : 'unit', units);
    }
    const headline = all.filter((r) => !r.category.includes('relevance') && (r.turn !== null || !r.category.startsWith('multi_turn')));
    check('overall', 'unit', headline);
    check('relevance', 'unit', all.filter((r) => r.category.includes('relevance')));
    // The failed and skipped units are counted apart, in their own columns.
    const overall = calibration.scopes.find((s) => s.scope === 'overall')!;
    const failed = headline.filter((r) => r.execution_status === 'FAILED' && verdict(r) !== null).length;
    expect(overall.confusion_matrix['valid']!['failed']! + overall.confusion_matrix['invalid']!['failed']!).toBe(failed);
    expect(overall.confusion_matrix['invalid']!['skipped']).toBe(2);
  });

  it('writes the CSV and the disagreements beside the records, and leaves the score files as they were', () => {
    expect(readFileSync(join(recordsDir, 'calibration.csv'), 'utf8').split('\n')[0]).toMatch(/^scope,kind,level,n,/);
    const disagreements = jsonLines<{ direction: string; question: string; tool_call: string; expected: string }>(readFileSync(join(recordsDir, 'disagreements.jsonl'), 'utf8'));
    expect(disagreements.length).toBeGreaterThan(0);
    for (const d of disagreements) expect(d.question.length).toBeGreaterThan(0);
    expect(scoreFiles(join(project, 'score', 'oracle'))).toEqual(scoreFilesBefore);
    expect(first.stdout).toContain('agreement with BFCL');
  });

  it('shows the calibration and the disagreements in bfcl report', async () => {
    const report = await runBuiltCli(['report'], project, env());
    expect(report.code, report.stderr).toBe(0);
    const html = readFileSync(join(project, 'score', 'report.html'), 'utf8');
    expect(html).toContain('Judge calibration</h2>');
    expect(html).toContain('oracle: judge openai-compatible/judge-model (tool_calling@2.13.0, fc mode)');
    const firstDisagreement = jsonLines<{ id: string }>(readFileSync(join(recordsDir, 'disagreements.jsonl'), 'utf8'))[0]!;
    expect(html).toContain(`<code>${firstDisagreement.id}`);
  });

  it('asks again only about the failed units on the next run, and everything with -o', async () => {
    const failedBefore = records().filter((r) => r.execution_status === 'FAILED').length;
    const asked = records().filter((r) => r.execution_status !== 'SKIPPED').length;
    failing = false;
    const before = server.requests.length;
    const second = await runBuiltCli(judgeArgs(), project, env());
    expect(second.code, second.stderr).toBe(0);
    expect(server.requests.length - before).toBe(failedBefore);
    const after = records();
    expect(after.filter((r) => r.execution_status === 'FAILED')).toHaveLength(0);
    expect(after.filter((r) => r.cache_hit)).toHaveLength(asked - failedBefore);
    // One line per unit after the rewrite.
    const keys = after.map((r) => `${r.id}#${r.turn}`);
    expect(new Set(keys).size).toBe(keys.length);

    const beforeOverwrite = server.requests.length;
    const third = await runBuiltCli(judgeArgs('-o', '--json', '--min-agreement', '0.99'), project, env());
    expect(third.code).toBe(3);
    expect(server.requests.length - beforeOverwrite).toBe(asked);
    const document = JSON.parse(third.stdout) as { gates: { target: string; passed: boolean }[] };
    expect(document.gates).toEqual([expect.objectContaining({ target: 'overall', passed: false })]);
    expect(third.stderr).toContain('agreement threshold missed');
  }, 120_000);

  /** Spoil some of the oracle's results so that BFCL's verdicts differ. */
  function spoilResults(dir: string): void {
    const edit = (file: string, change: (line: Record<string, unknown>) => string | Record<string, unknown>): void => {
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      writeFileSync(file, lines.map((l) => {
        const out = change(JSON.parse(l) as Record<string, unknown>);
        return typeof out === 'string' ? out : JSON.stringify(out);
      }).join('\n') + '\n');
    };
    edit(join(dir, 'non_live', 'BFCL_v4_simple_python_result.json'), (line) => {
      switch (line['id']) {
        case 'simple_python_1':
          return { ...line, result: [{ convert_temperature: '{"value": 37.0, "from_unit": "fahrenheit", "to_unit": "celsius"}' }] };
        case 'simple_python_2':
          return { ...line, result: 'I cannot help with that.' };
        case 'simple_python_3':
          return { ...line, result: 'Error during inference: boom' };
        case 'simple_python_4':
          return '{"id": "simple_python_4", "result": [';
        default:
          return line;
      }
    });
    edit(join(dir, 'non_live', 'BFCL_v4_irrelevance_result.json'), (line) =>
      line['id'] === 'irrelevance_1' ? { ...line, result: [{ get_lyrics: '{"song": "x"}' }] } : line,
    );
    edit(join(dir, 'live', 'BFCL_v4_live_relevance_result.json'), (line) => (line['id'] === 'live_relevance_0-0-0' ? { ...line, result: 'No.' } : line));
    edit(join(dir, 'multi_turn', 'BFCL_v4_multi_turn_base_result.json'), (line) => {
      const turns = line['result'] as unknown[];
      if (line['id'] === 'multi_turn_base_1') return { ...line, result: turns.map((t, i) => (i === 2 ? [] : t)) };
      if (line['id'] === 'multi_turn_base_2') return { ...line, result: turns.slice(0, -1) };
      return line;
    });
  }
});

/** Every score file of a folder (not the taxonomy sidecars): relative path → text. */
function scoreFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (sub: string): void => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const rel = join(sub, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'judge') walk(rel);
      } else if (entry.name.endsWith('_score.json')) out.set(rel, readFileSync(join(dir, rel), 'utf8'));
    }
  };
  walk('');
  return out;
}

/** Ground-truth calls per turn of the package's multi-turn entries. */
function groundTruthTurnSizes(): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const category of ['multi_turn_base', 'multi_turn_miss_func']) {
    const file = join(PACKAGE_ROOT, 'data', 'possible_answer', `BFCL_v4_${category}.json`);
    for (const a of jsonLines<{ id: string; ground_truth: string[][] }>(readFileSync(file, 'utf8'))) out.set(a.id, a.ground_truth.map((t) => t.length));
  }
  return out;
}

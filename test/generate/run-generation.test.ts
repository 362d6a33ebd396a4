import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { openDataset } from '../../src/data/dataset.js';
import { lazySimContext } from '../../src/sim/simulated-api.js';
import { DatasetError } from '../../src/util/errors.js';
import { type GenerationOptions, RequestsPerTurn, generateForModel, workEstimate } from '../../src/generate/run-generation.js';
import { RequestMonitor } from '../../src/generate/request-monitor.js';
import { selectTestEntries, TEST_IDS_FILE } from '../../src/generate/select-entries.js';
import { sortById, type Category } from '../../src/spec/categories.js';
import { generationOptions } from '../helpers/generate-options.js';
import { CAUSES, type Script, ScriptedModel, fcCall } from './scripted-model.js';

const dataset = openDataset();

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'bfcl-gen-'));
}

function optionsFor(resultDir: string, categories: Category[], overrides: Partial<GenerationOptions> = {}): GenerationOptions {
  return generationOptions(dataset, resultDir, categories, overrides);
}

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const ids = (file: string): string[] => lines(file).map((l) => l['id'] as string);
const answer: Script = () => ({ responses: [fcCall('f')] });

describe('result files', () => {
  it('writes BFCL_v4_<category>_result.json under the model and group directories, one line per entry', async () => {
    const dir = tmp();
    const model = new ScriptedModel('fc', answer, 'vendor/some-model');
    const summary = await generateForModel(model, optionsFor(dir, ['simple_python', 'live_simple']));
    const simple = join(dir, 'vendor_some-model', 'non_live', 'BFCL_v4_simple_python_result.json');
    expect(ids(simple)).toEqual(sortById(dataset.loadTestEntries('simple_python')).map((e) => e.id));
    expect(existsSync(join(dir, 'vendor_some-model', 'live', 'BFCL_v4_live_simple_result.json'))).toBe(true);
    expect(summary).toMatchObject({ written: 11, errors: 0, toGenerate: 11, alreadyDone: 0, interrupted: false });
    // Appended as ASCII json.dumps lines.
    expect(readFileSync(simple, 'utf8').split('\n')[0]).toMatch(/^\{"id": "simple_python_0", "result": \[\{"f": "\{\}"\}\], "input_token_count": 0,/);
  });

  it('resumes: finished ids are skipped on the next run', async () => {
    const dir = tmp();
    await generateForModel(new ScriptedModel('fc', answer), optionsFor(dir, ['simple_python']));
    const second = new ScriptedModel('fc', answer);
    const summary = await generateForModel(second, optionsFor(dir, ['simple_python', 'multiple']));
    expect(summary).toMatchObject({ alreadyDone: 6, toGenerate: 5, written: 5 });
    expect(second.events.filter((e) => e.startsWith('query'))).toHaveLength(5);
  });

  it('writes failed entries as errors and generates them again on the next run', async () => {
    const dir = tmp();
    const file = join(dir, 'scripted-fc', 'non_live', 'BFCL_v4_simple_python_result.json');
    const failing: Script = ({ entryId }) => (entryId === 'simple_python_2' ? { fail: new Error('rate limited for good') } : { responses: [fcCall('f')] });
    const first = await generateForModel(new ScriptedModel('fc', failing), optionsFor(dir, ['simple_python']));
    expect(first).toMatchObject({ written: 6, errors: 1 });
    const failed = lines(file).find((l) => l['id'] === 'simple_python_2')!;
    expect(Object.keys(failed)).toEqual(['id', 'result', 'traceback']);
    expect(failed['result']).toBe('Error during inference: rate limited for good');

    const retry = new ScriptedModel('fc', answer);
    const second = await generateForModel(retry, optionsFor(dir, ['simple_python']));
    expect(second).toMatchObject({ alreadyDone: 5, retried: 1, written: 1, errors: 0 });
    expect(retry.events).toEqual(['first:user', 'query:0.0']);
    // The error line is gone, the new result is in its sorted place.
    expect(ids(file)).toEqual(['simple_python_0', 'simple_python_1', 'simple_python_2', 'simple_python_3', 'simple_python_4', 'simple_python_5']);
    expect(lines(file).every((l) => typeof l['result'] !== 'string')).toBe(true);
  });

  it('regenerates everything with --allow-overwrite', async () => {
    const dir = tmp();
    await generateForModel(new ScriptedModel('fc', answer), optionsFor(dir, ['simple_python']));
    const again = new ScriptedModel('fc', () => ({ responses: [fcCall('g')] }));
    const summary = await generateForModel(again, optionsFor(dir, ['simple_python'], { allowOverwrite: true }));
    expect(summary).toMatchObject({ alreadyDone: 0, written: 6 });
    const file = join(dir, 'scripted-fc', 'non_live', 'BFCL_v4_simple_python_result.json');
    expect(lines(file)).toHaveLength(6);
    expect(lines(file).every((l) => JSON.stringify(l['result']) === '[{"g":"{}"}]')).toBe(true);
  });

  it('drops unreadable lines (a crash mid-write) and regenerates their entries', async () => {
    const dir = tmp();
    const file = join(dir, 'scripted-fc', 'non_live', 'BFCL_v4_simple_python_result.json');
    await generateForModel(new ScriptedModel('fc', answer), optionsFor(dir, ['simple_python']));
    const kept = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    writeFileSync(file, `${kept.slice(0, 4).join('\n')}\n${kept[4]!.slice(0, 20)}\n`);
    const summary = await generateForModel(new ScriptedModel('fc', answer), optionsFor(dir, ['simple_python']));
    expect(summary).toMatchObject({ alreadyDone: 4, written: 2 });
    expect(ids(file)).toHaveLength(6);
  });

  it('with --run-ids merges the listed entries into the files by id, sorted (update mode)', async () => {
    const dir = tmp();
    await generateForModel(new ScriptedModel('fc', answer), optionsFor(dir, ['simple_python']));
    writeFileSync(join(dir, TEST_IDS_FILE), JSON.stringify({ simple_python: ['simple_python_3', 'simple_python_1'], multiple: [], parallel: ['parallel_2'] }));
    const selection = selectTestEntries(dataset, { categories: [], runIds: true, projectRoot: dir });
    expect(selection.categories).toEqual(['simple_python', 'parallel']);
    const runIdsOptions = (allowOverwrite: boolean): GenerationOptions => ({
      ...optionsFor(dir, []),
      categories: selection.categories,
      entries: selection.entries,
      runIds: true,
      allowOverwrite,
    });
    // Without -o, listed ids that are done are skipped.
    const skipped = await generateForModel(new ScriptedModel('fc', answer), runIdsOptions(false));
    expect(skipped).toMatchObject({ alreadyDone: 2, written: 1 });
    // With -o they are regenerated in place.
    const updated = await generateForModel(new ScriptedModel('fc', () => ({ responses: [fcCall('g')] })), runIdsOptions(true));
    expect(updated).toMatchObject({ alreadyDone: 0, written: 3 });
    const file = join(dir, 'scripted-fc', 'non_live', 'BFCL_v4_simple_python_result.json');
    expect(ids(file)).toEqual(['simple_python_0', 'simple_python_1', 'simple_python_2', 'simple_python_3', 'simple_python_4', 'simple_python_5']);
    expect(lines(file).map((l) => Object.keys((l['result'] as Record<string, unknown>[])[0]!)[0])).toEqual(['f', 'g', 'f', 'g', 'f', 'f']);
    expect(ids(join(dir, 'scripted-fc', 'non_live', 'BFCL_v4_parallel_result.json'))).toEqual(['parallel_2']);
  });

  it('sorts the files by id at the end when entries finished out of order', async () => {
    const dir = tmp();
    // Later entries answer faster, so with 3 threads they finish (and are appended) first.
    const script: Script = ({ entryId }) => ({ responses: [fcCall('f')], delayMs: 60 - 10 * Number(entryId.split('_').pop()) });
    const summary = await generateForModel(new ScriptedModel('fc', script), optionsFor(dir, ['simple_python'], { numThreads: 3 }));
    const file = join(dir, 'scripted-fc', 'non_live', 'BFCL_v4_simple_python_result.json');
    expect(summary.sortedFiles).toEqual([file]);
    expect(ids(file)).toEqual(['simple_python_0', 'simple_python_1', 'simple_python_2', 'simple_python_3', 'simple_python_4', 'simple_python_5']);
    // In order already: nothing to rewrite.
    const inOrder = await generateForModel(new ScriptedModel('fc', answer), optionsFor(tmp(), ['simple_python']));
    expect(inOrder.sortedFiles).toEqual([]);
  });

  it('skips format sensitivity for FC models, with a warning', async () => {
    const dir = tmp();
    const messages: string[] = [];
    const summary = await generateForModel(
      new ScriptedModel('fc', answer),
      optionsFor(dir, ['format_sensitivity', 'irrelevance'], { progress: { write: (t) => void messages.push(t), isTTY: false } }),
    );
    expect(summary).toMatchObject({ selected: 5, written: 5 });
    expect(messages.join('')).toContain('Format sensitivity test cases are only supported for prompting (non-FC) models');
    expect(existsSync(join(dir, 'scripted-fc', 'format_sensitivity'))).toBe(false);
  });

  it('stops starting entries once interrupted and writes only finished ones', async () => {
    const dir = tmp();
    const controller = new AbortController();
    let answered = 0;
    const script: Script = () => {
      answered++;
      if (answered === 3) controller.abort();
      return { responses: [fcCall('f')], delayMs: 5 };
    };
    const summary = await generateForModel(new ScriptedModel('fc', script), optionsFor(dir, ['simple_python'], { signal: controller.signal }));
    expect(summary.interrupted).toBe(true);
    // The entry that was running when Ctrl-C came finished its query, so it is kept.
    expect(summary.written).toBe(3);
    expect(summary.unfinished).toBe(3);
    expect(ids(join(dir, 'scripted-fc', 'non_live', 'BFCL_v4_simple_python_result.json'))).toEqual(['simple_python_0', 'simple_python_1', 'simple_python_2']);
  });

  it('runs many entries at once on one abort signal without a listener-leak warning', async () => {
    const dir = tmp();
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const script: Script = () => ({ responses: [fcCall('f')], delayMs: 20 });
      const summary = await generateForModel(new ScriptedModel('fc', script), optionsFor(dir, ['simple_python', 'multiple', 'parallel'], { numThreads: 16 }));
      expect(summary.written).toBeGreaterThan(11);
      await new Promise((ok) => setImmediate(ok));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('prints plain progress lines when stderr is not a terminal', async () => {
    const dir = tmp();
    mkdirSync(dir, { recursive: true });
    const messages: string[] = [];
    await generateForModel(
      new ScriptedModel('fc', answer),
      optionsFor(dir, ['simple_python'], { progress: { write: (t) => void messages.push(t), isTTY: false }, progressEveryEntries: 2 }),
    );
    expect(messages.filter((m) => m.startsWith('Generating scripted-fc: '))).toHaveLength(3);
    expect(messages.at(-1)).toMatch(/^Generating scripted-fc: 6\/6 \(100%\)/);
  });
});

const SIMPLE_FILE = (dir: string, model = 'scripted-fc'): string => join(dir, model, 'non_live', 'BFCL_v4_simple_python_result.json');
const SIMPLE_IDS = ['simple_python_0', 'simple_python_1', 'simple_python_2', 'simple_python_3', 'simple_python_4', 'simple_python_5'];

function collect(): { messages: string[]; progress: GenerationOptions['progress'] } {
  const messages: string[] = [];
  return { messages, progress: { write: (t) => void messages.push(t), isTTY: false } };
}

describe('stopping by itself (#24 items 2, 3)', () => {
  it('stops at once when the first request is answered 404, writing nothing, and says what to check', async () => {
    const dir = tmp();
    const model = new ScriptedModel('fc', () => ({ failCause: CAUSES.http(404), fail: new Error('404 Not Found') }));
    const summary = await generateForModel(
      model,
      optionsFor(dir, ['simple_python'], { endpoint: { baseUrl: 'http://127.0.0.1:8900', modelId: 'qwen' } }),
    );
    expect(summary.stop?.kind).toBe('fail-fast');
    expect(summary.stop?.message).toContain('the first request failed with HTTP 404 (404 Not Found)');
    expect(summary.stop?.message).toContain("Check the base URL (http://127.0.0.1:8900): an OpenAI-compatible server's usually ends in /v1");
    expect(summary.stop?.message).toContain('the model id (qwen)');
    expect(summary).toMatchObject({ written: 0, unfinished: 6, nextRunRedoes: 6 });
    expect(model.events.filter((e) => e.startsWith('query'))).toHaveLength(1);
    expect(existsSync(SIMPLE_FILE(dir))).toBe(false);
  });

  it('says to check the key after a first 401, and does not stop for a 401 once requests succeeded', async () => {
    const first = await generateForModel(new ScriptedModel('fc', () => ({ failCause: CAUSES.http(401) })), optionsFor(tmp(), ['simple_python']));
    expect(first.stop?.message).toMatch(/HTTP 401 .*Check the API key \(OPENAI_API_KEY/);
    const later: Script = ({ entryId }) => (entryId === 'simple_python_3' ? { failCause: CAUSES.http(401) } : { responses: [fcCall('f')] });
    const summary = await generateForModel(new ScriptedModel('fc', later), optionsFor(tmp(), ['simple_python']));
    expect(summary.stop).toBeUndefined();
    expect(summary).toMatchObject({ written: 6, errors: 1, permanentErrors: 0, errorsByCause: { 'HTTP 401': 1 } });
  });

  it('trips the circuit breaker after N server failures in a row, keeping what finished', async () => {
    const dir = tmp();
    // The server answers the first entry, then fails with 503 for good.
    const script: Script = ({ entryId }) => (entryId === 'simple_python_0' ? { responses: [fcCall('f')] } : { failCause: CAUSES.http(503) });
    const model = new ScriptedModel('fc', script);
    const summary = await generateForModel(model, optionsFor(dir, ['simple_python'], { maxConsecutiveFailures: 3, breakerMinOutageMs: 0 }));
    expect(summary.stop?.kind).toBe('circuit-breaker');
    expect(summary.stop?.message).toMatch(/^the last 3 requests failed \(HTTP 503 x3\) and none succeeded for \d+s; last: scripted HTTP 503\. Check that the server is up/);
    // The third failure stopped the run: its entry was abandoned, not written; two were written as errors.
    expect(summary).toMatchObject({ written: 3, ok: 1, errors: 2, unfinished: 3, nextRunRedoes: 5, interrupted: false });
    expect(model.events.filter((e) => e.startsWith('query'))).toHaveLength(4);
    expect(ids(SIMPLE_FILE(dir))).toEqual(['simple_python_0', 'simple_python_1', 'simple_python_2']);
  });

  it('counts timeouts, lost connections and malformed answers too, but waits for the outage window', async () => {
    const causes = [CAUSES.timeout, CAUSES.reset, CAUSES.malformed, CAUSES.http(500)];
    const failing: Script = ({ entryId }) => {
      const index = Number(entryId.split('_').pop());
      return index === 0 || index === 5 ? { responses: [fcCall('f')] } : { failCause: causes[index - 1]! };
    };
    // Four failures in a row, but a success a moment ago: a blip, not an outage.
    const blip = await generateForModel(new ScriptedModel('fc', failing), optionsFor(tmp(), ['simple_python'], { maxConsecutiveFailures: 2, breakerMinOutageMs: 60_000 }));
    expect(blip.stop).toBeUndefined();
    expect(blip.errorsByCause).toEqual({ timeout: 1, 'connection reset': 1, 'malformed answer': 1, 'HTTP 500': 1 });
    const outage = await generateForModel(new ScriptedModel('fc', failing), optionsFor(tmp(), ['simple_python'], { maxConsecutiveFailures: 4, breakerMinOutageMs: 0 }));
    expect(outage.stop?.message).toContain('(timeout x1, connection reset x1, malformed answer x1, HTTP 500 x1)');
  });

  it('is not tripped by rate limits or by requests refused for good', async () => {
    const script: Script = ({ entryId }) =>
      entryId === 'simple_python_0' ? { responses: [fcCall('f')], retries: [CAUSES.http(429), CAUSES.http(429), CAUSES.http(429)] } : { failCause: CAUSES.http(400), permanent: true };
    const summary = await generateForModel(new ScriptedModel('fc', script), optionsFor(tmp(), ['simple_python'], { maxConsecutiveFailures: 2, breakerMinOutageMs: 0 }));
    expect(summary.stop).toBeUndefined();
    expect(summary).toMatchObject({ written: 6, errors: 5, permanentErrors: 5, nextRunRedoes: 0, retriesByCause: { 'HTTP 429': 3 } });
  });
});

describe('permanent errors (#24 item 2)', () => {
  it('are written as such, skipped by later runs, and generated again with --retry-errors', async () => {
    const dir = tmp();
    const script: Script = ({ entryId }) =>
      entryId === 'simple_python_2' ? { failCause: CAUSES.http(400), permanent: true, fail: new Error('context length exceeded') } : { responses: [fcCall('f')] };
    const first = await generateForModel(new ScriptedModel('fc', script), optionsFor(dir, ['simple_python']));
    expect(first).toMatchObject({ errors: 1, permanentErrors: 1, errorsByCause: { 'HTTP 400': 1 }, nextRunRedoes: 0 });
    const line = lines(SIMPLE_FILE(dir)).find((l) => l['id'] === 'simple_python_2')!;
    expect(line).toMatchObject({ result: 'Error during inference: context length exceeded', permanent_error: 'HTTP 400' });

    const again = new ScriptedModel('fc', answer);
    const second = await generateForModel(again, optionsFor(dir, ['simple_python']));
    expect(second).toMatchObject({ toGenerate: 0, skippedPermanent: { 'HTTP 400': 1 } });
    expect(again.events).toEqual([]);

    const { messages, progress } = collect();
    const third = await generateForModel(new ScriptedModel('fc', answer), optionsFor(dir, ['simple_python'], { retryErrors: true, progress }));
    expect(third).toMatchObject({ toGenerate: 1, retried: 1, written: 1, errors: 0, skippedPermanent: {} });
    expect(messages.join('')).toContain('Will generate 1 of 6 entries (0 without a usable result, 1 that failed before); 5 already have results.');
    expect(lines(SIMPLE_FILE(dir)).every((l) => typeof l['result'] !== 'string')).toBe(true);
  });

  it('transient errors are generated again by the next run, and say so', async () => {
    const dir = tmp();
    const flaky: Script = ({ entryId }) => (entryId === 'simple_python_4' ? { failCause: CAUSES.timeout } : { responses: [fcCall('f')] });
    const first = await generateForModel(new ScriptedModel('fc', flaky), optionsFor(dir, ['simple_python']));
    expect(first).toMatchObject({ errors: 1, permanentErrors: 0, nextRunRedoes: 1 });
    expect(lines(SIMPLE_FILE(dir)).find((l) => l['id'] === 'simple_python_4')).not.toHaveProperty('permanent_error');
    const second = await generateForModel(new ScriptedModel('fc', answer), optionsFor(dir, ['simple_python']));
    expect(second).toMatchObject({ toGenerate: 1, retried: 1, errors: 0 });
  });
});

describe('run output (#24 item 3)', () => {
  it('prints one retry line per cause per interval, not one per attempt', async () => {
    const { messages, progress } = collect();
    const script: Script = () => ({ responses: [fcCall('f')], retries: [CAUSES.http(429), CAUSES.http(429), CAUSES.http(500)] });
    const summary = await generateForModel(new ScriptedModel('fc', script), optionsFor(tmp(), ['simple_python'], { progress, logIntervalMs: 60_000 }));
    expect(summary.retriesByCause).toEqual({ 'HTTP 429': 12, 'HTTP 500': 6 });
    const retryLines = messages.filter((m) => /retr/.test(m));
    expect(retryLines).toEqual([
      'simple_python_0: attempt 1 failed (scripted HTTP 429); retrying in 0.0s\n',
      'simple_python_0: attempt 3 failed (scripted HTTP 500); retrying in 0.0s\n',
      expect.stringMatching(/^11 more retries after HTTP 429 in the last \d+s \(waits 0\.0s\)\n$/),
      expect.stringMatching(/^5 more retries after HTTP 500 in the last \d+s \(waits 0\.0s\)\n$/),
    ]);
  });

  it('prints a heartbeat when no entry finished for a while', async () => {
    const { messages, progress } = collect();
    const script: Script = ({ entryId }) => ({ responses: [fcCall('f')], delayMs: entryId === 'simple_python_0' ? 700 : 0 });
    await generateForModel(new ScriptedModel('fc', script), optionsFor(tmp(), ['simple_python'], { progress, heartbeatMs: 250, numThreads: 1 }));
    const beats = messages.filter((m) => m.startsWith('No entry finished'));
    expect(beats.length).toBeGreaterThanOrEqual(1);
    expect(beats[0]).toMatch(/^No entry finished in the last \ds: 1 request in flight \(oldest \ds: simple_python_0, attempt 1\)\.\n$/);
  });

  it('estimates the work left in requests: multi-turn entries to come weigh their turns at the observed rate', () => {
    const multi = dataset.loadTestEntries('multi_turn_base');
    const single = dataset.loadTestEntries('simple_python');
    const monitor = new RequestMonitor({ breaker: { maxConsecutiveFailures: 10, minOutageMs: 0 }, onStop: () => {} });
    const perTurn = new RequestsPerTurn();
    const unfinished = new Set([...multi, ...single]);
    const request = (entryId: string): void => {
      const hooks = monitor.hooksFor(entryId);
      hooks.onAttemptStart!(1);
      hooks.onAttemptEnd!({ ok: true });
    };
    expect(workEstimate(unfinished, perTurn, monitor)).toBeUndefined();
    // The first conversation finishes with 3 requests per turn.
    const first = multi[0]!;
    for (let i = 0; i < first.question.length * 3; i++) request(first.id);
    unfinished.delete(first);
    perTurn.add(first.question.length, monitor.requestsOf(first.id));
    // Another one is half-way through its first turn.
    request(multi[1]!.id);
    const turnsLeft = multi.slice(1).reduce((n, e) => n + e.question.length, 0);
    const done = first.question.length * 3 + 1;
    expect(workEstimate(unfinished, perTurn, monitor)).toEqual({ done, total: done + turnsLeft * 3 - 1 + single.length });
    // By entries it would be 1 of 10 done: the 9 left would look like 9 first conversations.
  });
});

describe('--allow-overwrite writes aside (#24 item 4)', () => {
  it('keeps the old results until a category is complete; an interrupted run loses nothing and is resumed', async () => {
    const dir = tmp();
    await generateForModel(new ScriptedModel('fc', answer), optionsFor(dir, ['simple_python']));
    const before = readFileSync(SIMPLE_FILE(dir), 'utf8');

    const controller = new AbortController();
    let answered = 0;
    const newAnswer: Script = () => {
      answered++;
      if (answered === 3) controller.abort();
      return { responses: [fcCall('g')], delayMs: 2 };
    };
    const interrupted = await generateForModel(new ScriptedModel('fc', newAnswer), optionsFor(dir, ['simple_python'], { allowOverwrite: true, signal: controller.signal }));
    expect(interrupted).toMatchObject({ interrupted: true, written: 3, unfinishedAsideFiles: [`${SIMPLE_FILE(dir)}.new`], replacedFiles: [] });
    expect(readFileSync(SIMPLE_FILE(dir), 'utf8')).toBe(before);
    expect(ids(`${SIMPLE_FILE(dir)}.new`)).toHaveLength(3);

    const { messages, progress } = collect();
    const resume = new ScriptedModel('fc', () => ({ responses: [fcCall('g')] }));
    const finished = await generateForModel(resume, optionsFor(dir, ['simple_python'], { allowOverwrite: true, progress }));
    expect(messages.join('')).toContain('Resuming an interrupted --allow-overwrite run: 3 new results are kept');
    expect(finished).toMatchObject({ toGenerate: 3, written: 3, replacedFiles: [SIMPLE_FILE(dir)], unfinishedAsideFiles: [] });
    expect(resume.events.filter((e) => e.startsWith('query'))).toHaveLength(3);
    expect(ids(SIMPLE_FILE(dir))).toEqual(SIMPLE_IDS);
    expect(lines(SIMPLE_FILE(dir)).every((l) => JSON.stringify(l['result']) === '[{"g":"{}"}]')).toBe(true);
    expect(existsSync(`${SIMPLE_FILE(dir)}.new`)).toBe(false);
  });
});

describe('existing lines that cannot be used (#24 item 9)', () => {
  it('are reported by file and line number (a numeric id included) and their entries generated again', async () => {
    const dir = tmp();
    await generateForModel(new ScriptedModel('fc', answer), optionsFor(dir, ['simple_python']));
    const kept = readFileSync(SIMPLE_FILE(dir), 'utf8').split('\n').filter(Boolean);
    const numeric = kept[3]!.replace('"simple_python_3"', '3');
    writeFileSync(SIMPLE_FILE(dir), `${kept.slice(0, 3).join('\n')}\n${numeric}\n${kept[4]}\n${kept[4]}\n${kept[5]!.slice(0, 25)}\n`);
    const { messages, progress } = collect();
    const summary = await generateForModel(new ScriptedModel('fc', answer), optionsFor(dir, ['simple_python'], { progress }));
    const text = messages.join('');
    expect(summary.unreadableLines).toEqual([
      { file: SIMPLE_FILE(dir), line: 4, reason: 'its "id" is not a string (3)' },
      { file: SIMPLE_FILE(dir), line: 7, reason: 'not valid JSON (cut short?)' },
    ]);
    expect(text).toContain(`Warning: 2 lines of ${SIMPLE_FILE(dir)} cannot be used and are dropped (line 4: its "id" is not a string (3); line 7: not valid JSON (cut short?))`);
    expect(text).toContain(`Warning: 1 id of ${SIMPLE_FILE(dir)} appear on more than one line (e.g. simple_python_4 on lines 5, 6)`);
    expect(text).toContain('Will generate 2 of 6 entries (2 without a usable result); 4 already have results.');
    expect(summary).toMatchObject({ toGenerate: 2, written: 2 });
    expect(ids(SIMPLE_FILE(dir))).toEqual(SIMPLE_IDS);
  });
});

describe('a dataset file missing', () => {
  it('fails the run naming it when an entry needs it, keeping what finished (#24 item 8)', async () => {
    const dir = tmp();
    const missing = new DatasetError({ file: '/data/long_context.json' }, 'file not found');
    const options = optionsFor(dir, ['multi_turn_long_context', 'simple_python'], {
      simContext: lazySimContext(() => {
        throw missing;
      }),
    });
    const model = new ScriptedModel('fc', () => ({ responses: [fcCall('f')] }));
    await expect(generateForModel(model, options)).rejects.toBe(missing);
  });
});

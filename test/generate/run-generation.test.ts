import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { openDataset } from '../../src/data/dataset.js';
import { type GenerationOptions, generateForModel } from '../../src/generate/run-generation.js';
import { selectTestEntries, TEST_IDS_FILE } from '../../src/generate/select-entries.js';
import { ProviderCallError } from '../../src/models/retry.js';
import { sortById, type Category } from '../../src/spec/categories.js';
import { generationOptions } from '../helpers/generate-options.js';
import { type Script, ScriptedModel, fcCall } from './scripted-model.js';

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

  it('skips format sensitivity for FC models and agentic categories, with a warning', async () => {
    const dir = tmp();
    const messages: string[] = [];
    const summary = await generateForModel(
      new ScriptedModel('fc', answer),
      optionsFor(dir, ['format_sensitivity', 'web_search_base', 'irrelevance'], { progress: { write: (t) => void messages.push(t), isTTY: false } }),
    );
    expect(summary).toMatchObject({ selected: 5, written: 5 });
    expect(messages.join('')).toContain('Format sensitivity test cases are only supported for prompting (non-FC) models');
    expect(messages.join('')).toContain('Agentic categories (web_search, memory)');
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

  it('stops by itself after 3 entries in a row could not reach the server, keeping what finished', async () => {
    const dir = tmp();
    const refused = (): ProviderCallError => {
      const failure = { retriable: true, code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' };
      return new ProviderCallError('openai POST /chat/completions failed (2 attempts): connect ECONNREFUSED', failure, [
        { ...failure, attempt: 1, delayMs: 0, label: 'openai POST /chat/completions', error: null },
        { ...failure, attempt: 2, delayMs: undefined, label: 'openai POST /chat/completions', error: null },
      ], null);
    };
    // The server answers the first entry, then goes away.
    const script: Script = ({ entryId }) => (entryId === 'simple_python_0' ? { responses: [fcCall('f')] } : { fail: refused() });
    const model = new ScriptedModel('fc', script);
    const summary = await generateForModel(model, optionsFor(dir, ['simple_python']));
    expect(summary.stoppedBecause).toMatch(/^the last 3 entries failed without ever reaching the server \(openai POST .*ECONNREFUSED.*\)\. Check the endpoint/);
    expect(summary).toMatchObject({ written: 4, errors: 3, unfinished: 2, interrupted: false });
    expect(model.events.filter((e) => e.startsWith('query'))).toHaveLength(4);
    // The failed entries are written as errors (the next run retries them); the rest were never started.
    expect(ids(join(dir, 'scripted-fc', 'non_live', 'BFCL_v4_simple_python_result.json'))).toEqual([
      'simple_python_0',
      'simple_python_1',
      'simple_python_2',
      'simple_python_3',
    ]);
  });

  it('does not stop for failures the server answered (HTTP errors), nor when a success breaks the row', async () => {
    const dir = tmp();
    const serverError = new ProviderCallError('failed: 500', { retriable: true, status: 500, message: '500' }, [], null);
    const refused = new ProviderCallError('failed: refused', { retriable: true, code: 'ECONNREFUSED', message: 'refused' }, [
      { retriable: true, code: 'ECONNREFUSED', message: 'refused', attempt: 1, delayMs: undefined, label: 'x', error: null },
    ], null);
    const failures: Record<string, Error> = {
      simple_python_0: serverError,
      simple_python_1: serverError,
      simple_python_2: serverError,
      simple_python_3: refused,
      simple_python_4: refused,
    };
    const script: Script = ({ entryId }) => (failures[entryId] === undefined ? { responses: [fcCall('f')] } : { fail: failures[entryId] });
    const summary = await generateForModel(new ScriptedModel('fc', script), optionsFor(dir, ['simple_python']));
    expect(summary.stoppedBecause).toBeUndefined();
    expect(summary).toMatchObject({ written: 6, errors: 5, unfinished: 0 });
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

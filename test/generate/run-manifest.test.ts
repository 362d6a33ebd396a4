/**
 * The run manifest (`<result dir>/<model>/bfcl_run_manifest.json`) written by `bfcl generate` on our
 * own data/: its fields, one record appended per run, atomic writes, and the dataset file lists.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { INTERRUPTED_EXIT_CODE, runGenerateCommand } from '../../src/cli/generate-command.js';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { apiModelIdOf } from '../../src/cli/model-metadata.js';
import { packageDataDir, packageVersion } from '../../src/data/data-dir.js';
import { BfclDataset } from '../../src/data/dataset.js';
import {
  RUN_MANIFEST_FILE,
  type RunManifest,
  appendRunRecord,
  datasetFilesOfCategory,
  generateWithManifest,
  readRunManifest,
  redactBaseUrl,
} from '../../src/generate/run-manifest.js';
import { createOracleModel } from '../../src/models/oracle.js';
import { generateOptions, generationOptions } from '../helpers/generate-options.js';

const dataset = new BfclDataset(packageDataDir());

function capture(): { io: CliIo; out: { stdout: string; stderr: string }; cwd: string } {
  const cwd = mkdtempSync(join(tmpdir(), 'bfcl-manifest-'));
  const out = { stdout: '', stderr: '' };
  const io: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env: {}, cwd };
  return { io, out, cwd };
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function manifestOf(cwd: string, model = 'oracle'): RunManifest {
  return JSON.parse(readFileSync(join(cwd, 'result', model, RUN_MANIFEST_FILE), 'utf8')) as RunManifest;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('bfcl generate writes a run manifest', () => {
  it('records harness, dataset hashes, model, sampling, flags, times and counts, and appends on the next run', async () => {
    const { io, cwd } = capture();
    const args = ['generate', '--model', 'oracle', '--test-category', 'simple_python,multi_turn_base', '--temperature', '0.5'];
    expect(await runCli([...args, '--num-threads', '3', '--base-url', 'https://user:secret@llm.example.com:8443/v1?api_key=xyz#frag'], io)).toBe(0);

    const first = manifestOf(cwd);
    expect(first.format_version).toBe(1);
    expect(first.model_dir).toBe('oracle');
    expect(first.runs).toHaveLength(1);
    const run = first.runs[0]!;
    expect(run.harness).toEqual({ name: 'bfcl-ts', version: packageVersion() });
    expect(run.status).toBe('completed');
    expect(run.started_at).toMatch(ISO);
    expect(run.ended_at).toMatch(ISO);
    expect(Date.parse(run.ended_at)).toBeGreaterThanOrEqual(Date.parse(run.started_at));
    expect(run.model).toEqual({ registry_name: 'oracle', result_dir_name: 'oracle', api_model_id: 'oracle', inference_mode: 'FC' });
    expect(run.sampling).toEqual({ temperature: 0.5 });
    expect(run.flags).toEqual({
      test_categories: ['multi_turn_base', 'simple_python'],
      categories: ['multi_turn_base', 'simple_python'],
      num_threads: 3,
      effective_num_threads: 3,
      include_input_log: false,
      exclude_state_log: false,
      allow_overwrite: false,
      run_ids: false,
      base_url: 'https://llm.example.com:8443/v1',
    });
    expect(JSON.stringify(first)).not.toContain('secret');
    expect(JSON.stringify(first)).not.toContain('xyz');
    expect(run.counts).toEqual({
      selected: 10,
      already_done: 0,
      retried: 0,
      to_generate: 10,
      written: 10,
      errors: 0,
      unfinished: 0,
      interrupted: false,
      permanent_errors: 0,
      errors_by_cause: {},
      retries_by_cause: {},
      skipped_permanent_errors: {},
      unreadable_lines: 0,
      // The oracle reports its answers as requests: one per single-turn entry, one per step of the others.
      requests: expect.any(Number) as number,
    });
    expect(run.counts!.requests).toBeGreaterThan(10);

    // Every file the two categories read, with its real sha256.
    const involvedDocs = new Set<string>();
    for (const entry of dataset.loadTestEntries('multi_turn_base')) for (const c of entry.involvedClasses ?? []) involvedDocs.add(c);
    expect(run.dataset.dir).toBe(packageDataDir());
    const files = Object.keys(run.dataset.files);
    expect(files).toEqual([...files].sort());
    expect(files).toEqual(
      expect.arrayContaining([
        'BFCL_v4_simple_python.json',
        'possible_answer/BFCL_v4_simple_python.json',
        'BFCL_v4_multi_turn_base.json',
        'possible_answer/BFCL_v4_multi_turn_base.json',
        'long_context.json',
      ]),
    );
    expect(files.filter((f) => f.startsWith('multi_turn_func_doc/'))).toHaveLength(involvedDocs.size);
    expect(files).toHaveLength(5 + involvedDocs.size);
    for (const file of files) expect(run.dataset.files[file]).toBe(sha256(join(packageDataDir(), file)));

    // A second run of the same command: appended, with nothing left to do.
    expect(await runCli(args, io)).toBe(0);
    const second = manifestOf(cwd);
    expect(second.runs).toHaveLength(2);
    expect(second.runs[0]).toEqual(run);
    const again = second.runs[1]!;
    expect(again.flags.num_threads).toBeNull();
    expect(again.flags.effective_num_threads).toBe(8); // the oracle's default
    expect(again.flags.base_url).toBeNull();
    expect(again.counts).toMatchObject({ selected: 10, already_done: 10, to_generate: 0, written: 0 });
    expect(again.dataset).toEqual(run.dataset);
    // Written through a temporary file: nothing is left behind.
    expect(readdirSync(join(cwd, 'result', 'oracle')).sort()).toEqual([RUN_MANIFEST_FILE, 'multi_turn', 'non_live']);
  });

  it('records the data directory of the run and the flags of a --run-ids run', async () => {
    const { io, cwd } = capture();
    const data = join(cwd, 'my-data');
    cpSync(packageDataDir(), data, { recursive: true });
    writeFileSync(join(cwd, 'test_case_ids_to_generate.json'), JSON.stringify({ simple_python: ['simple_python_1'], live_simple: [] }));
    const code = await runCli(
      ['generate', '--model', 'oracle', '--run-ids', '--data-dir', data, '--include-input-log', '--exclude-state-log', '-o'],
      io,
    );
    expect(code).toBe(0);
    const run = manifestOf(cwd).runs[0]!;
    expect(run.dataset.dir).toBe(data);
    expect(Object.keys(run.dataset.files)).toEqual(['BFCL_v4_simple_python.json', 'possible_answer/BFCL_v4_simple_python.json']);
    expect(run.flags).toMatchObject({
      categories: ['simple_python'],
      include_input_log: true,
      exclude_state_log: true,
      allow_overwrite: true,
      run_ids: true,
    });
    expect(run.counts).toMatchObject({ selected: 1, written: 1 });
  });

  it('records an interrupted run', async () => {
    const { io, cwd } = capture();
    const controller = new AbortController();
    controller.abort();
    expect(await runGenerateCommand(generateOptions(cwd), io, { signal: controller.signal })).toBe(INTERRUPTED_EXIT_CODE);
    const run = manifestOf(cwd).runs[0]!;
    expect(run.status).toBe('interrupted');
    expect(run.counts).toMatchObject({ selected: 6, to_generate: 6, written: 0, unfinished: 6, interrupted: true });
  });

  it('records a failed run with its error, then rethrows', async () => {
    const { cwd } = capture();
    const options = generateOptions(cwd);
    const times = [new Date('2025-01-02T03:04:05.000Z'), new Date('2025-01-02T03:04:09.500Z')];
    const run = generateWithManifest(
      createOracleModel({ groundTruth: () => undefined }),
      generationOptions(dataset, options.resultDir, ['simple_python'], {
        progress: {
          write: () => {
            throw new Error('stderr is gone');
          },
          isTTY: false,
        },
        progressEveryEntries: 1,
      }),
      { dataset, options, apiModelId: 'oracle', now: () => times.shift()! },
    );
    await expect(run).rejects.toThrow('stderr is gone');
    const record = manifestOf(cwd).runs[0]!;
    expect(record).toMatchObject({
      status: 'failed',
      error: 'stderr is gone',
      counts: null,
      started_at: '2025-01-02T03:04:05.000Z',
      ended_at: '2025-01-02T03:04:09.500Z',
    });
  });

  it('keeps an unreadable manifest aside instead of overwriting it', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'bfcl-manifest-')), 'oracle');
    mkdirSync(dir);
    writeFileSync(join(dir, RUN_MANIFEST_FILE), '{"runs": [');
    const first = manifestOfAppend(dir);
    expect(first.warning).toContain('could not be read');
    expect(readFileSync(join(dir, `${RUN_MANIFEST_FILE}.unreadable`), 'utf8')).toBe('{"runs": [');
    expect(readRunManifest(dir)?.runs).toHaveLength(1);
    expect(manifestOfAppend(dir).warning).toBeUndefined();
    expect(readRunManifest(dir)?.runs).toHaveLength(2);
    rmSync(dir, { recursive: true });
    expect(readRunManifest(dir)).toBeUndefined();
  });
});

/** Append a minimal record (only the fields the reader checks matter here). */
function manifestOfAppend(dir: string): { warning?: string } {
  const record = {
    harness: { name: 'bfcl-ts', version: '0' },
    started_at: '',
    ended_at: '',
    status: 'completed',
    model: { registry_name: 'oracle', result_dir_name: 'oracle', api_model_id: 'oracle', inference_mode: 'FC' },
    sampling: { temperature: 0 },
    flags: {
      test_categories: [],
      categories: [],
      num_threads: null,
      effective_num_threads: 1,
      include_input_log: false,
      exclude_state_log: false,
      allow_overwrite: false,
      run_ids: false,
      base_url: null,
    },
    dataset: { dir: '/data', files: {} },
    counts: null,
  } as const;
  return appendRunRecord(dir, 'oracle', record);
}

describe('dataset files of a category', () => {
  it('lists the data file, possible answers, function docs and long-context filler', () => {
    expect(datasetFilesOfCategory(dataset, 'simple_python')).toEqual(['BFCL_v4_simple_python.json', 'possible_answer/BFCL_v4_simple_python.json']);
    expect(datasetFilesOfCategory(dataset, 'irrelevance')).toEqual(['BFCL_v4_irrelevance.json']);
    const multiTurn = datasetFilesOfCategory(dataset, 'multi_turn_long_context');
    expect(multiTurn.slice(0, 2)).toEqual(['BFCL_v4_multi_turn_long_context.json', 'possible_answer/BFCL_v4_multi_turn_long_context.json']);
    expect(multiTurn.at(-1)).toBe('long_context.json');
    expect(multiTurn.slice(2, -1).every((f) => f.startsWith('multi_turn_func_doc/'))).toBe(true);
  });

  it('lists the memory prerequisite conversations and the backend docs of a memory category', () => {
    expect(datasetFilesOfCategory(dataset, 'memory_kv')).toEqual([
      'BFCL_v4_memory.json',
      'possible_answer/BFCL_v4_memory.json',
      'memory_prereq_conversation/memory_student.json',
      'memory_prereq_conversation/memory_customer.json',
      'memory_prereq_conversation/memory_finance.json',
      'memory_prereq_conversation/memory_healthcare.json',
      'memory_prereq_conversation/memory_notetaker.json',
      'multi_turn_func_doc/memory_kv.json',
    ]);
    expect(datasetFilesOfCategory(dataset, 'web_search_no_snippet')).toEqual([
      'BFCL_v4_web_search.json',
      'possible_answer/BFCL_v4_web_search.json',
      'multi_turn_func_doc/web_search.json',
    ]);
  });

  it('follows format sensitivity to the files of the categories it lists', () => {
    const sources = [...dataset.formatSensitivityIds()].filter(([, ids]) => ids.length > 0).map(([category]) => category);
    const files = datasetFilesOfCategory(dataset, 'format_sensitivity');
    expect(files[0]).toBe('BFCL_v4_format_sensitivity.json');
    for (const source of sources) {
      expect(files).toContain(`BFCL_v4_${source}.json`);
      expect(files).toContain(`possible_answer/BFCL_v4_${source}.json`);
    }
  });

  it('names the v3 file when only that exists, as the loader reads it', () => {
    const data = mkdtempSync(join(tmpdir(), 'bfcl-v3-data-'));
    mkdirSync(join(data, 'possible_answer'));
    writeFileSync(join(data, 'BFCL_v3_simple.json'), '');
    writeFileSync(join(data, 'possible_answer', 'BFCL_v3_simple.json'), '');
    expect(datasetFilesOfCategory(new BfclDataset(data), 'simple_python')).toEqual(['BFCL_v3_simple.json', 'possible_answer/BFCL_v3_simple.json']);
    expect(existsSync(join(data, 'BFCL_v4_simple_python.json'))).toBe(false);
  });
});

describe('recorded values', () => {
  it('drops credentials, query and fragment from the base URL', () => {
    expect(redactBaseUrl(undefined)).toBeNull();
    expect(redactBaseUrl('http://localhost:8000/v1')).toBe('http://localhost:8000/v1');
    expect(redactBaseUrl('https://me:pw@host/v1?key=k#x')).toBe('https://host/v1');
    expect(redactBaseUrl('sk-not-a-url')).toBe('<not a URL; not recorded>');
  });

  it('resolves the API model id as generate does', () => {
    expect(apiModelIdOf('oracle')).toBe('oracle');
    expect(apiModelIdOf('gpt-4o-2024-11-20-FC')).toBe('gpt-4o-2024-11-20');
    expect(apiModelIdOf('openai-compatible/qwen3-8b')).toBe('qwen3-8b');
    expect(apiModelIdOf('no-such-model')).toBeNull();
  });

  it('records the request parameters and run-control flags when given, and how a run stopped', async () => {
    const { io, cwd } = capture();
    const args = ['generate', '--model', 'oracle', '--test-category', 'simple_python', '--max-tokens', '512', '--top-p', '0.9', '--seed', '7'];
    args.push('--extra-body', '{"chat_template_kwargs": {"enable_thinking": false}}', '--timeout', '30', '--max-retries', '2', '--max-backoff', '5');
    args.push('--max-consecutive-failures', '4', '--retry-errors');
    expect(await runCli(args, io)).toBe(0);
    const run = manifestOf(cwd).runs[0]!;
    expect(run.sampling).toEqual({ temperature: 0.001, max_tokens: 512, top_p: 0.9, seed: 7, extra_body: { chat_template_kwargs: { enable_thinking: false } } });
    expect(run.flags).toMatchObject({ timeout_s: 30, max_retries: 2, max_backoff_s: 5, max_consecutive_failures: 4, retry_errors: true });
    expect(run.status).toBe('completed');
  });
});

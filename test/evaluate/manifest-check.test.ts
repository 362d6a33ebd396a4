/**
 * `bfcl evaluate` compares the dataset files recorded in a model folder's run manifest with the data
 * directory it evaluates against. When they differ it stops with a usage error (exit 2) naming both
 * data directories, before writing anything; `--allow-data-mismatch` makes that a warning (issue #24, item 13).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { packageDataDir } from '../../src/data/data-dir.js';
import { BfclDataset } from '../../src/data/dataset.js';
import { checkDatasetDrift, findDatasetDrift, formatDatasetDriftWarning } from '../../src/evaluate/manifest-check.js';
import { RUN_MANIFEST_FILE } from '../../src/generate/run-manifest.js';

interface Project {
  readonly cwd: string;
  readonly out: { stdout: string; stderr: string };
  readonly io: CliIo;
  run(args: string[]): Promise<number>;
}

function project(): Project {
  const cwd = mkdtempSync(join(tmpdir(), 'bfcl-manifest-check-'));
  const out = { stdout: '', stderr: '' };
  const io: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env: {}, cwd };
  return {
    cwd,
    out,
    io,
    run: async (args) => {
      out.stdout = '';
      out.stderr = '';
      return runCli(args, io);
    },
  };
}

/** A copy of our data/ in which one line of a file has a word changed (still valid data). */
function editedDataCopy(cwd: string, name: string, file: string, edit = (text: string) => text.replace(/"content": "(\w)/, '"content": "Please, $1')): string {
  const data = join(cwd, name);
  cpSync(packageDataDir(), data, { recursive: true });
  const path = join(data, file);
  const text = readFileSync(path, 'utf8');
  const edited = edit(text);
  expect(edited).not.toBe(text);
  writeFileSync(path, edited);
  return data;
}

const CATEGORIES = 'simple_python,multi_turn_base';
const DRIFT = 'the results of oracle were generated from different data than this evaluation reads';
const WARNING = `Warning: ${DRIFT}`;
const ERROR = `bfcl: error: ${DRIFT}`;
const ALLOW = '--allow-data-mismatch';

describe('bfcl evaluate: dataset check against the run manifest', () => {
  let shared: Project;
  beforeAll(async () => {
    shared = project();
    expect(await shared.run(['generate', '--model', 'oracle', '--test-category', CATEGORIES])).toBe(0);
  });

  it('says nothing when the data is the same, in the same or another directory', async () => {
    expect(await shared.run(['evaluate', '--model', 'oracle', '--test-category', CATEGORIES])).toBe(0);
    expect(shared.out.stderr).not.toContain('Warning');
    const copy = join(shared.cwd, 'identical-copy');
    cpSync(packageDataDir(), copy, { recursive: true });
    expect(await shared.run(['evaluate', '--test-category', CATEGORIES, '--data-dir', copy])).toBe(0);
    expect(shared.out.stderr).not.toContain('Warning');
  });

  it('stops with exit 2 before scoring, naming the model, the files and both directories, when a dataset file changed', async () => {
    const data = editedDataCopy(shared.cwd, 'edited-data', 'BFCL_v4_simple_python.json');
    const scoreDir = join(shared.cwd, 'score-of-edited-data');
    const code = await shared.run(['evaluate', '--model', 'oracle', '--test-category', CATEGORIES, '--data-dir', data, '--score-dir', scoreDir]);
    expect(code).toBe(2);
    const manifest = join(shared.cwd, 'result', 'oracle', RUN_MANIFEST_FILE);
    expect(shared.out.stderr).toBe(
      [
        `${ERROR}; 1 dataset file differs:`,
        '  BFCL_v4_simple_python.json  (simple_python)',
        `  generated from:    ${packageDataDir()}`,
        `  evaluated against: ${data}`,
        `  (Recorded in ${manifest}.)`,
        `Nothing was scored: scores against other data than the results were made from would be wrong. Evaluate against the data the results came from (--data-dir ${packageDataDir()}, or BFCL_DATA_DIR), or generate again with --allow-overwrite; --allow-data-mismatch scores anyway.`,
        '',
      ].join('\n'),
    );
    expect(existsSync(scoreDir)).toBe(false);
  });

  it('with --allow-data-mismatch warns and evaluates', async () => {
    const data = editedDataCopy(shared.cwd, 'edited-data-allowed', 'BFCL_v4_simple_python.json');
    const code = await shared.run(['evaluate', '--model', 'oracle', '--test-category', CATEGORIES, '--data-dir', data, ALLOW]);
    expect(code).toBe(0);
    const manifest = join(shared.cwd, 'result', 'oracle', RUN_MANIFEST_FILE);
    expect(shared.out.stderr).toContain(
      [
        `${WARNING}; 1 dataset file differs:`,
        '  BFCL_v4_simple_python.json  (simple_python)',
        `  generated from:    ${packageDataDir()}`,
        `  evaluated against: ${data}`,
        '  The scores of these categories may not match the results (evaluated anyway: --allow-data-mismatch).',
        `  (Recorded in ${manifest}.)`,
        '',
      ].join('\n'),
    );
    // Printed before the evaluation's own lines.
    expect(shared.out.stderr.indexOf(WARNING)).toBeLessThan(shared.out.stderr.indexOf('oracle simple_python: 100.00%'));
  });

  it('stops when the evaluation reads the package data/ but the results came from another data directory (a forgotten BFCL_DATA_DIR)', async () => {
    const p = project();
    const data = editedDataCopy(p.cwd, 'official', 'BFCL_v4_simple_python.json');
    expect(await p.run(['generate', '--model', 'oracle', '--test-category', 'simple_python', '--data-dir', data])).toBe(0);
    expect(await p.run(['evaluate', '--test-category', 'simple_python'])).toBe(2);
    expect(p.out.stderr).toContain(`  generated from:    ${data}\n  evaluated against: ${packageDataDir()}\n`);
    expect(p.out.stderr).toContain(`(--data-dir ${data}, or BFCL_DATA_DIR)`);
    expect(p.out.stderr).not.toContain('simple_python: 0.00%');
    expect(await p.run(['evaluate', '--test-category', 'simple_python', '--data-dir', data])).toBe(0);
  });

  it('only looks at the files of the categories being evaluated', async () => {
    const data = editedDataCopy(shared.cwd, 'edited-multi-turn', 'BFCL_v4_multi_turn_base.json');
    expect(await shared.run(['evaluate', '--model', 'oracle', '--test-category', 'simple_python', '--data-dir', data])).toBe(0);
    expect(shared.out.stderr).not.toContain('Warning');
    expect(await shared.run(['evaluate', '--model', 'oracle', '--test-category', 'multi_turn_base', '--data-dir', data])).toBe(2);
    expect(shared.out.stderr).toContain(`${ERROR}; 1 dataset file differs:\n  BFCL_v4_multi_turn_base.json  (multi_turn_base)\n`);
  });

  it('lists function docs, long-context filler and missing files', async () => {
    const data = editedDataCopy(shared.cwd, 'edited-docs', 'possible_answer/BFCL_v4_simple_python.json', (text) => `${text}\n`);
    const doc = 'multi_turn_func_doc/gorilla_file_system.json';
    for (const file of ['long_context.json', doc]) writeFileSync(join(data, file), `${readFileSync(join(data, file), 'utf8')}\n`);
    const dataset = new BfclDataset(data);
    const drift = findDatasetDrift(join(shared.cwd, 'result', 'oracle'), 'oracle', dataset, ['simple_python', 'multi_turn_base']);
    expect(drift?.files.map((f) => f.file)).toEqual(['long_context.json', doc, 'possible_answer/BFCL_v4_simple_python.json']);
    expect(drift?.files[0]).toMatchObject({ categories: ['multi_turn_base'] });
    expect(drift?.generatedFrom).toEqual([packageDataDir()]);
    expect(drift?.evaluatedWith).toBe(data);

    // A file that is gone is reported as absent (the evaluation itself then fails on it).
    const gone = 'possible_answer/BFCL_v4_multi_turn_base.json';
    rmSync(join(data, gone));
    const drift2 = findDatasetDrift(join(shared.cwd, 'result', 'oracle'), 'oracle', new BfclDataset(data), ['multi_turn_base']);
    expect(drift2?.files.find((f) => f.file === gone)).toMatchObject({ current: null });
    expect(formatDatasetDriftWarning(drift2!)).toContain(`  ${gone}  (multi_turn_base; absent from the evaluated data directory)\n`);
  });

  it('says nothing for result folders without a manifest (e.g. from the reference BFCL)', async () => {
    const p = project();
    expect(await p.run(['generate', '--model', 'oracle', '--test-category', 'simple_python'])).toBe(0);
    rmSync(join(p.cwd, 'result', 'oracle', RUN_MANIFEST_FILE));
    const data = editedDataCopy(p.cwd, 'edited', 'BFCL_v4_simple_python.json');
    expect(await p.run(['evaluate', '--test-category', 'simple_python', '--data-dir', data])).toBe(0);
    expect(p.out.stderr).not.toContain('Warning');
  });

  it('forgets runs whose results were regenerated with --allow-overwrite', async () => {
    const p = project();
    expect(await p.run(['generate', '--model', 'oracle', '--test-category', 'simple_python'])).toBe(0);
    const data = editedDataCopy(p.cwd, 'edited', 'BFCL_v4_simple_python.json');
    expect(await p.run(['generate', '--model', 'oracle', '--test-category', 'simple_python', '--data-dir', data, '-o'])).toBe(0);
    expect(await p.run(['evaluate', '--test-category', 'simple_python', '--data-dir', data])).toBe(0);
    expect(p.out.stderr).not.toContain('Warning');
    expect(await p.run(['evaluate', '--test-category', 'simple_python', ALLOW])).toBe(0);
    expect(p.out.stderr).toContain(`${WARNING}; 1 dataset file differs:`);
    expect(p.out.stderr).toContain(`  generated from:    ${data}\n  evaluated against: ${packageDataDir()}\n`);
  });

  it('keeps earlier runs when a later run only resumed (results of both may be in the files)', async () => {
    const p = project();
    expect(await p.run(['generate', '--model', 'oracle', '--test-category', 'simple_python'])).toBe(0);
    const data = editedDataCopy(p.cwd, 'edited', 'BFCL_v4_simple_python.json');
    expect(await p.run(['generate', '--model', 'oracle', '--test-category', 'simple_python', '--data-dir', data])).toBe(0);
    expect(await p.run(['evaluate', '--test-category', 'simple_python', '--data-dir', data])).toBe(2);
    expect(p.out.stderr).toContain(`  generated from:    ${packageDataDir()}\n  evaluated against: ${data}\n`);
  });

  it('says when the generation directory itself changed', async () => {
    const p = project();
    const data = join(p.cwd, 'data');
    cpSync(packageDataDir(), data, { recursive: true });
    expect(await p.run(['generate', '--model', 'oracle', '--test-category', 'simple_python', '--data-dir', data])).toBe(0);
    editedDataCopy(p.cwd, 'data', 'BFCL_v4_simple_python.json');
    const warnings: string[] = [];
    const check = { resultDir: join(p.cwd, 'result'), models: ['oracle'], categories: ['simple_python'] as const, dataset: new BfclDataset(data), warn: (text: string) => warnings.push(text) };
    expect(() => checkDatasetDrift({ ...check, allowMismatch: false })).toThrow(
      `  evaluated against: ${data} (the same directory: its files changed since generation)\n  (Recorded in ${join(p.cwd, 'result', 'oracle', RUN_MANIFEST_FILE)}.)\nNothing was scored: scores against other data than the results were made from would be wrong. The data directory changed since generation: generate again with --allow-overwrite; --allow-data-mismatch scores anyway.`,
    );
    expect(checkDatasetDrift({ ...check, allowMismatch: true })).toHaveLength(1);
    expect(warnings.join('')).toContain(`  evaluated against: ${data} (the same directory: its files changed since generation)\n`);
    // An unreadable manifest is no reason to stop an evaluation: nothing is said.
    writeFileSync(join(p.cwd, 'result', 'oracle', RUN_MANIFEST_FILE), 'not json');
    expect(checkDatasetDrift({ ...check, models: undefined, allowMismatch: false })).toEqual([]);
  });
});

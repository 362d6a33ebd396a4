/**
 * Item 6 of issue #24: a possible-answer file out of step with its test data. The reference pairs
 * answers by position (every later entry is checked against its neighbour's answer; the last one
 * raises IndexError, or a TypeError on `None` where answers are looked up by id). Its behaviour is not
 * a score, so here it is a DatasetError naming the possible-answer file, the entry and what is missing.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';
import { packageDataDir } from '../../src/data/data-dir.js';
import { BfclDataset } from '../../src/data/dataset.js';
import { pairPossibleAnswers, possibleAnswerIdOf } from '../../src/evaluate/possible-answers.js';
import { ALL_CATEGORIES, getCategoryInfo } from '../../src/spec/categories.js';
import { DatasetError } from '../../src/util/errors.js';

/** A copy of data/ with the lines of a possible-answer file edited. */
function dataCopy(edit: (lines: string[]) => string[], file = 'possible_answer/BFCL_v4_simple_python.json'): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'bfcl-possible-answers-')), 'data');
  cpSync(packageDataDir(), dir, { recursive: true });
  const path = join(dir, file);
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '');
  writeFileSync(path, edit(lines).join('\n') + '\n');
  return dir;
}

function caught(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

const dataDirs = [packageDataDir(), ...(process.env['BFCL_DATA_DIR'] !== undefined && existsSync(process.env['BFCL_DATA_DIR']) ? [process.env['BFCL_DATA_DIR']] : [])];

describe('pairPossibleAnswers', () => {
  it.each(dataDirs)('pairs every category of %s (ids as loading renames them)', (dir) => {
    const dataset = new BfclDataset(dir);
    for (const category of ALL_CATEGORIES) {
      if (!getCategoryInfo(category).hasPossibleAnswer) continue;
      const prompts = dataset.loadTestEntries(category, { includePrereq: false, includeLanguageHint: false });
      const answers = pairPossibleAnswers(dataset, category, prompts);
      expect(answers.map((a) => a.id)).toEqual(prompts.map((p) => possibleAnswerIdOf(category, p.id)));
    }
  });

  it('names the file, the entry and what is missing when an answer line is gone', () => {
    const dataset = new BfclDataset(dataCopy((lines) => lines.filter((_, i) => i !== 2)));
    const prompts = dataset.loadTestEntries('simple_python', { includePrereq: false });
    const error = caught(() => pairPossibleAnswers(dataset, 'simple_python', prompts));
    expect(error).toBeInstanceOf(DatasetError);
    const e = error as DatasetError;
    expect(e.file).toBe(join(dataset.dir, 'possible_answer', 'BFCL_v4_simple_python.json'));
    expect(e.entryId).toBe('simple_python_2');
    expect(e.message).toContain('no possible answer for this test entry (no line with id "simple_python_2"; the possible answers have 5 entries, the test data 6)');
  });

  it('reports answers in another order, and an answer without a test entry', () => {
    const swapped = new BfclDataset(dataCopy((lines) => [lines[1]!, lines[0]!, ...lines.slice(2)]));
    const prompts = swapped.loadTestEntries('simple_python', { includePrereq: false });
    expect((caught(() => pairPossibleAnswers(swapped, 'simple_python', prompts)) as Error).message).toContain(
      'entry simple_python_0: the possible answers are not in the order of the test entries: answer 1 is "simple_python_1", expected "simple_python_0"',
    );
    const extra = new BfclDataset(dataCopy((lines) => [...lines, lines[0]!.replace('"simple_python_0"', '"simple_python_77"')]));
    expect((caught(() => pairPossibleAnswers(extra, 'simple_python', prompts)) as DatasetError).entryId).toBe('simple_python_77');
  });

  it('names the source category file of a format-sensitivity entry', () => {
    const dataset = new BfclDataset(dataCopy((lines) => lines.slice(1)));
    const prompts = dataset.loadTestEntries('format_sensitivity', { includePrereq: false });
    const error = caught(() => pairPossibleAnswers(dataset, 'format_sensitivity', prompts)) as DatasetError;
    expect(error.file).toBe(join(dataset.dir, 'possible_answer', 'BFCL_v4_simple_python.json'));
  });
});

describe('bfcl evaluate with a possible-answer file missing one entry', () => {
  it('exits 1 with a DatasetError naming the file and the entry (it used to crash with an internal TypeError)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bfcl-possible-answers-cli-'));
    const out = { stdout: '', stderr: '' };
    const io: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env: {}, cwd: root };
    expect(await runCli(['generate', '--model', 'oracle', '--test-category', 'simple_python,multi_turn_base'], io)).toBe(0);
    for (const [category, file] of [
      ['simple_python', 'possible_answer/BFCL_v4_simple_python.json'],
      ['multi_turn_base', 'possible_answer/BFCL_v4_multi_turn_base.json'],
    ] as const) {
      const data = dataCopy((lines) => lines.filter((_, i) => i !== 1), file);
      out.stderr = '';
      const code = await runCli(['evaluate', '--model', 'oracle', '--test-category', category, '--data-dir', data, '--allow-data-mismatch'], io);
      expect(code, out.stderr).toBe(1);
      expect(out.stderr).not.toContain('internal error');
      expect(out.stderr).toContain(`bfcl: error: ${join(data, file)}: entry ${category}_1: no possible answer for this test entry`);
    }
  });
});

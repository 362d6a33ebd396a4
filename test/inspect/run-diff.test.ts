import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { diffRuns, formatPValue, renderRunDiff } from '../../src/inspect/run-diff.js';
import { locateRun, type CategoryVerdicts, type RunVerdicts } from '../../src/inspect/run-verdicts.js';
import { createTextStyle } from '../../src/inspect/text-style.js';
import type { Category } from '../../src/spec/categories.js';
import { UsageError } from '../../src/util/errors.js';
import { tempProject } from './helpers.js';

function category(name: Category, failed: string[], ids: string[] | undefined, total = ids?.length ?? 4): CategoryVerdicts {
  return { category: name, accuracy: (total - failed.length) / total, correct: total - failed.length, total, failedIds: new Set(failed), evaluatedIds: ids };
}

function run(label: string, categories: CategoryVerdicts[]): RunVerdicts {
  return { label, dir: `/runs/${label}`, kind: 'scores', categories: new Map(categories.map((c) => [c.category, c])) };
}

const ids = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}_${i}`);

describe('diffRuns', () => {
  it('pairs entries, lists flips in id order and tests them', () => {
    const a = run('a', [category('simple_python', ['simple_python_10', 'simple_python_2', 'simple_python_3'], ids('simple_python', 12))]);
    const b = run('b', [category('simple_python', ['simple_python_3', 'simple_python_5'], ids('simple_python', 12))]);
    const [c] = diffRuns(a, b).categories;
    expect(c).toMatchObject({ paired: 12, passToFail: ['simple_python_5'], failToPass: ['simple_python_2', 'simple_python_10'], pValue: 1 });
    expect(c!.delta).toBeCloseTo(1 / 12, 12);
  });

  it('leaves out unpaired categories and entries, with a note', () => {
    const a = run('a', [category('multiple', [], undefined, 5), category('parallel', ['parallel_0'], ['parallel_0', 'parallel_1', 'parallel_2'])]);
    const b = run('b', [category('multiple', ['multiple_1'], ids('multiple', 5)), category('parallel', [], ['parallel_0', 'parallel_1']), category('irrelevance', [], ids('irrelevance', 2))]);
    const diff = diffRuns(a, b);
    expect(diff.categories.map((c) => [c.category, c.pValue, c.note])).toEqual([
      ['multiple', undefined, 'no paired comparison: the evaluated entries of A are unknown (partial evaluation, or a different dataset; see --data-dir)'],
      ['parallel', 1, '1 entry evaluated in only one run left out of the pairing'],
      ['irrelevance', undefined, 'only in B'],
    ]);
    expect(diff.pooled).toEqual({ paired: 2, passToFail: 0, failToPass: 1, pValue: 1 });
  });

  it('renders a table with the pooled line', () => {
    const failed = ids('simple_python', 9);
    const a = run('a', [category('simple_python', [], ids('simple_python', 20))]);
    const b = run('b', [category('simple_python', failed, ids('simple_python', 20))]);
    const text = renderRunDiff(diffRuns(a, b), createTextStyle(false));
    expect(text.split('\n').slice(3, 6)).toEqual([
      'Category                  A       B  Δ (pp)  pass→fail  fail→pass  McNemar p',
      'simple_python       100.00%  55.00%  -45.00          9          0   0.003906',
      'all paired entries                                   9          0   0.003906',
    ]);
  });
});

describe('formatPValue', () => {
  it.each([
    [1, '1'],
    [0.5, '0.5'],
    [0.0625, '0.0625'],
    [0.012939453125, '0.01294'],
    [1.862645149230957e-9, '1.86e-9'],
    [undefined, '—'],
  ])('%s → %s', (p, text) => {
    expect(formatPValue(p)).toBe(text);
  });
});

describe('locateRun', () => {
  it('finds a model folder inside a score root with one model, and refuses a root with several', () => {
    const root = tempProject();
    const file = (model: string) => {
      mkdirSync(join(root, 'score', model, 'non_live'), { recursive: true });
      writeFileSync(join(root, 'score', model, 'non_live', 'BFCL_v4_simple_python_score.json'), '{"accuracy": 1.0, "correct_count": 1, "total_count": 1}\n');
    };
    file('one');
    const places = { cwd: root, scoreDir: join(root, 'score'), resultDir: join(root, 'result') };
    expect(locateRun('score', places)).toEqual({ label: 'score', dir: join(root, 'score', 'one'), kind: 'scores' });
    expect(locateRun('one', places)).toEqual({ label: 'one', dir: join(root, 'score', 'one'), kind: 'scores' });
    file('two');
    expect(() => locateRun('score', places)).toThrow(/several models \(one, two\)/);
    expect(() => locateRun('one', places, 'results')).toThrow(UsageError);
  });
});

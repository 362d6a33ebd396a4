/**
 * The oracle must score every reachable entry: generate with it, then evaluate, on our own data
 * (always) and on the official data (when BFCL_DATA_DIR is set), for the 17 single- and multi-turn
 * categories.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { buildModel } from '../../src/cli/generate-command.js';
import { ORACLE_EVALUATION_SETTINGS } from '../../src/conformance/oracle-check.js';
import { type BfclDataset, openDataset } from '../../src/data/dataset.js';
import { runEvaluation } from '../../src/evaluate/run-evaluate.js';
import { generateForModel } from '../../src/generate/run-generation.js';
import { MULTI_TURN_CATEGORY, SINGLE_TURN_CATEGORY, type Category } from '../../src/spec/categories.js';
import type { GenerateOptions } from '../../src/spec/options.js';
import { generationOptions } from '../helpers/generate-options.js';
import { UNPASSABLE_OFFICIAL_ENTRIES } from '../../src/conformance/unpassable-entries.js';

const CATEGORIES: Category[] = [...SINGLE_TURN_CATEGORY, ...MULTI_TURN_CATEGORY].sort();

async function generateAndEvaluate(dataset: BfclDataset) {
  const dir = mkdtempSync(join(tmpdir(), 'bfcl-oracle-'));
  const options = generationOptions(dataset, join(dir, 'result'), CATEGORIES, { numThreads: 4 });
  const model = buildModel('oracle', {
    dataset,
    categories: options.categories,
    options: {} as GenerateOptions,
    io: { stdout: () => {}, stderr: () => {}, env: {}, cwd: dir },
    signal: new AbortController().signal,
  });
  const summary = await generateForModel(model, options);
  expect(summary.errors).toBe(0);
  const evaluation = runEvaluation({
    resultDir: join(dir, 'result'),
    scoreDir: join(dir, 'score'),
    dataset,
    categories: CATEGORIES,
    partial: false,
    // The oracle answers like an FC model that writes `_` for `.` in function names.
    resolveSettings: () => ORACLE_EVALUATION_SETTINGS,
  });
  const scores = new Map(evaluation.evaluated.map((e) => [e.category, { ...e.evaluation, failures: e.taxonomy.entries }]));
  return { summary, scores };
}

describe('oracle generate + evaluate', () => {
  it('scores 100% in all 17 categories on our data', async () => {
    const { summary, scores } = await generateAndEvaluate(openDataset());
    expect(summary.written).toBe(summary.toGenerate);
    expect([...scores.keys()].sort()).toEqual(CATEGORIES);
    for (const [category, evaluation] of scores) {
      expect({ category, correct: evaluation.correct }).toEqual({ category, correct: evaluation.total });
    }
  }, 120_000);

  const officialDir = process.env['BFCL_DATA_DIR'];
  it.skipIf(officialDir === undefined)(
    'scores every reachable entry of the official data (100% in every category but the 7 unreachable entries)',
    async () => {
      const { summary, scores } = await generateAndEvaluate(openDataset(officialDir));
      expect(summary.written).toBe(4441);
      expect([...scores.keys()].sort()).toEqual(CATEGORIES);
      const failures: Record<string, string> = {};
      for (const evaluation of scores.values()) {
        for (const failure of evaluation.failures) failures[failure.id] = failure.errorType;
      }
      expect(failures).toEqual(UNPASSABLE_OFFICIAL_ENTRIES);
      for (const [category, evaluation] of scores) {
        const unreachable = Object.keys(UNPASSABLE_OFFICIAL_ENTRIES).filter((id) => id.startsWith(`${category}_`)).length;
        expect({ category, correct: evaluation.correct }).toEqual({ category, correct: evaluation.total - unreachable });
      }
    },
    600_000,
  );
});

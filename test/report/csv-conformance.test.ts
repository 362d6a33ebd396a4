/**
 * The leaderboard CSVs rebuilt from the reference's own score headers and result files must be
 * byte-identical to the reference's CSVs (shared/conformance README §2 and §4).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { describe, expect, test } from 'vitest';

import { filesUnder } from '../../src/util/files-under.js';

import { conformanceModelMetadata } from '../../src/conformance/score-check.js';
import { parseJsonLossless } from '../../src/py/json.js';
import type { PyValue } from '../../src/py/value.js';
import { collectCostLatency, type CostLatencyData } from '../../src/report/cost-latency.js';
import {
  LEADERBOARD_CSV_FILES,
  OFFICIAL_DATASET_SIZES,
  buildLeaderboardCsvs,
  type LeaderboardModel,
} from '../../src/report/leaderboard.js';
import { assembleLeaderboardTable, loadScoreHeaders, type EvaluatedModel } from '../../src/report/score-files.js';
import { extractTestCategoryFromFileName, sortById, type Category } from '../../src/spec/categories.js';

const dataDir = process.env.BFCL_DATA_DIR;
const conformanceDir = dataDir === undefined ? '' : resolve(dataDir, '..', 'conformance');

/** Result entries of one file, sorted by id as the evaluator loads them. */
function readResultEntries(file: string): PyValue[] {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const entries = lines.map((line) => parseJsonLossless(line));
  const withIds = entries.map((raw) => ({ id: String((raw as Map<string, PyValue>).get('id')), raw }));
  return sortById(withIds).map((e) => e.raw);
}

/** What the evaluator records for each model directory of a result folder (cost/latency per file). */
function evaluatedModels(resultDir: string): EvaluatedModel[] {
  return readdirSync(resultDir)
    .sort()
    .map((modelDir) => {
      const costLatency: CostLatencyData[] = [];
      for (const file of filesUnder(join(resultDir, modelDir))) {
        if (extractTestCategoryFromFileName(file.slice(file.lastIndexOf('/') + 1)) === undefined) continue;
        costLatency.push(collectCostLatency(readResultEntries(file)));
      }
      return { modelDir, scores: new Map(), costLatency };
    });
}

const datasetSize = (category: Category): number => OFFICIAL_DATASET_SIZES.get(category)!;

const available = dataDir !== undefined && existsSync(conformanceDir);

describe.skipIf(!available)('leaderboard CSVs match the reference', () => {
  for (const run of ['real-run', 'synthetic']) {
    describe(run, () => {
      const runDir = join(conformanceDir, run);
      // Built lazily: describe bodies run at collection time even when the suite is skipped.
      let csvs: Map<string, string> | undefined;
      const build = (): Map<string, string> => {
        if (csvs !== undefined) return csvs;
        const table = assembleLeaderboardTable(evaluatedModels(join(runDir, 'result')), loadScoreHeaders(join(runDir, 'score')));
        const models: LeaderboardModel[] = table.map((entry) => ({ ...entry, metadata: conformanceModelMetadata(entry.modelDir) }));
        csvs = buildLeaderboardCsvs(models, { datasetSize });
        return csvs;
      };
      for (const file of LEADERBOARD_CSV_FILES) {
        test(file, () => {
          expect(build().get(file)).toBe(readFileSync(join(runDir, 'score', file), 'utf8'));
        });
      }
    });
  }
});

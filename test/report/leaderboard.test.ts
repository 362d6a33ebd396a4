import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { parseJsonLossless } from '../../src/py/json.js';
import { isDict, type PyDict, type PyValue } from '../../src/py/value.js';
import type { CostLatencyData } from '../../src/report/cost-latency.js';
import {
  LEADERBOARD_CSV_FILES,
  OFFICIAL_DATASET_SIZES,
  OVERALL_WEIGHTS,
  buildLeaderboardCsvs,
  getCategoryScore,
  percentageWeightedAccuracy,
  summarizeModel,
  unweightedAccuracy,
  weightedAccuracy,
  type AggregateScore,
  type CategoryScore,
  type LeaderboardModel,
} from '../../src/report/leaderboard.js';
import type { PyNumber } from '../../src/report/python-statistics.js';
import { categoryScoreFromHeader } from '../../src/report/score-files.js';
import type { Category } from '../../src/spec/categories.js';

const datasetSize = (category: Category): number => OFFICIAL_DATASET_SIZES.get(category)!;
const options = { datasetSize };

const score = (accuracy: number, totalCount: number): AggregateScore => ({ accuracy, totalCount, display: accuracy });
const missing = (totalCount: number): AggregateScore => ({ accuracy: 0, totalCount, display: 'N/A' });
const header = (correct: number, total: number): CategoryScore => ({
  accuracy: correct / total,
  correctCount: BigInt(correct),
  totalCount: BigInt(total),
});

describe('score arithmetic', () => {
  test('getCategoryScore: recorded accuracy, or 0 over the dataset size shown as N/A', () => {
    const scores = new Map([['live_simple', header(129, 258)]]);
    expect(getCategoryScore(scores, 'live_simple', datasetSize)).toEqual(score(0.5, 258));
    expect(getCategoryScore(scores, 'live_multiple', datasetSize)).toEqual(missing(1053));
  });

  test('weighted vs unweighted', () => {
    const parts = [score(0.5, 100), score(1.0, 300)];
    expect(weightedAccuracy(parts)).toEqual(score(0.875, 400));
    expect(unweightedAccuracy(parts)).toEqual(score(0.75, 400));
  });

  test('N/A propagates unless the overall variant is asked for; a missing category counts as 0', () => {
    const parts = [score(0.5, 100), missing(300)];
    expect(weightedAccuracy(parts)).toEqual({ accuracy: 0.125, totalCount: 400, display: 'N/A' });
    expect(weightedAccuracy(parts, false)).toEqual(score(0.125, 400));
    expect(unweightedAccuracy(parts)).toEqual({ accuracy: 0.25, totalCount: 400, display: 'N/A' });
    expect(unweightedAccuracy(parts, false)).toEqual(score(0.25, 400));
  });

  test('overall weights 10/10/10/30/40, normalised', () => {
    const parts = [score(1, 1), score(0, 1), score(0, 1), score(0, 1), score(0, 1)];
    expect(percentageWeightedAccuracy(parts, OVERALL_WEIGHTS, false).accuracy).toBe(0.1);
    const agenticOnly = [score(0, 1), score(0, 1), score(0, 1), score(0, 1), score(1, 1)];
    expect(percentageWeightedAccuracy(agenticOnly, OVERALL_WEIGHTS, false).accuracy).toBe(0.4);
    const multiTurnOnly = [missing(1), missing(1), missing(1), score(1, 1), missing(1)];
    expect(percentageWeightedAccuracy(multiTurnOnly, OVERALL_WEIGHTS, false)).toEqual(score(0.3, 5));
    expect(percentageWeightedAccuracy(multiTurnOnly, OVERALL_WEIGHTS).display).toBe('N/A');
    expect(() => percentageWeightedAccuracy([score(1, 1)], [1, 2])).toThrow('Weights length must match accuracy list');
    expect(() => percentageWeightedAccuracy([score(1, 1)], [0])).toThrow('Sum of weights must be greater than 0');
  });

  test('summarizeModel: groups as the reference forms them', () => {
    const s = summarizeModel(
      new Map([
        ['simple_python', header(400, 400)],
        ['simple_java', header(50, 100)],
        ['simple_javascript', header(0, 50)],
        ['multiple', header(100, 200)],
        ['live_simple', header(129, 258)],
        ['irrelevance', header(240, 240)],
        ['web_search_base', header(50, 100)],
        ['web_search_no_snippet', header(100, 100)],
      ]),
      options,
    );
    expect(s.simpleAstNonLive.display).toBe(0.5);
    expect(s.summaryAstNonLive.display).toBe('N/A'); // parallel and parallel_multiple missing
    expect(s.overallNonLive.display).toBe(0.25); // (0.5 + 0.5 + 0 + 0) / 4
    expect(s.summaryAstLive.display).toBe('N/A');
    expect(s.overallLive.display).toBe(129 / (258 + 1053 + 16 + 24));
    expect(s.totalIrrelevance.display).toBe('N/A'); // live_irrelevance missing
    expect(s.totalIrrelevance.accuracy).toBe(0.5);
    expect(s.summaryWebSearch.display).toBe(0.75);
    expect(s.summaryMemory.display).toBe('N/A');
    expect(s.overallAgentic.display).toBe(0.375);
    expect(s.overallMultiTurn.display).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// The reference's own CSVs for a hand-made table (see test/fixtures/report/README.md).

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'report');

function asDict(v: PyValue | undefined): PyDict {
  if (!isDict(v)) throw new TypeError('expected an object');
  return v;
}

function numbers(v: PyValue | undefined): PyNumber[] {
  return Array.isArray(v) ? v.filter((x): x is PyNumber => typeof x === 'bigint' || typeof x === 'number') : [];
}

function scenarioModels(): LeaderboardModel[] {
  const scenario = asDict(parseJsonLossless(readFileSync(join(FIXTURES, 'leaderboard-scenario.json'), 'utf8')));
  const registry = asDict(scenario.get('models'));
  return [...asDict(scenario.get('table'))].map(([modelDir, value]) => {
    const entry = asDict(value);
    const scores = new Map<string, CategoryScore>();
    let costLatency: CostLatencyData | null = null;
    for (const [key, v] of entry) {
      if (key === 'cost' || key === 'latency') continue;
      scores.set(String(key), categoryScoreFromHeader(v));
    }
    if (entry.has('cost')) {
      const cost = asDict(entry.get('cost'));
      costLatency = {
        inputTokens: numbers(cost.get('input_data')),
        outputTokens: numbers(cost.get('output_data')),
        latency: numbers(asDict(entry.get('latency')).get('data')),
      };
    }
    const m = asDict(registry.get(modelDir));
    const price = (k: string): number | null => {
      const p = m.get(k);
      return p === null || p === undefined ? null : Number(p);
    };
    return {
      modelDir: String(modelDir),
      metadata: {
        displayName: String(m.get('display_name')),
        url: String(m.get('url')),
        org: String(m.get('org')),
        license: String(m.get('license')),
        inputPrice: price('input_price'),
        outputPrice: price('output_price'),
      },
      scores,
      costLatency,
    };
  });
}

describe('buildLeaderboardCsvs reproduces the reference on a hand-made table', () => {
  const csvs = buildLeaderboardCsvs(scenarioModels(), options);
  test('exactly the six files', () => {
    expect([...csvs.keys()].sort()).toEqual([...LEADERBOARD_CSV_FILES].sort());
  });
  for (const file of LEADERBOARD_CSV_FILES) {
    test(file, () => {
      expect(csvs.get(file)).toBe(readFileSync(join(FIXTURES, 'expected', file), 'utf8'));
    });
  }

  test('tied rows keep input order', () => {
    const models = scenarioModels();
    const [c, d] = [models[2]!, models[3]!];
    const swapped = buildLeaderboardCsvs([d, c], options).get('data_overall.csv')!.split('\n');
    expect(swapped[1]!.startsWith('1,8.46%,Model D,')).toBe(true);
    expect(swapped[2]!.startsWith('2,8.46%,Model C,')).toBe(true);
  });

  test('no models: header rows only', () => {
    const empty = buildLeaderboardCsvs([], options);
    expect(empty.get('data_multi_turn.csv')).toBe('Rank,Model,Multi Turn Overall Acc,Base,Miss Func,Miss Param,Long Context');
  });
});

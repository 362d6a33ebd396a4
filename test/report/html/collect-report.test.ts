import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { modelMetadata } from '../../../src/cli/model-metadata.js';
import { datasetEntryCounter } from '../../../src/data/dataset-size.js';
import { openDataset } from '../../../src/data/dataset.js';
import { formatPercent } from '../../../src/report/csv-writer.js';
import { collectReportData } from '../../../src/report/html/collect-report.js';
import type { ReportData } from '../../../src/report/html/report-data.js';
import { OFFICIAL_DATASET_SIZES as OFFICIAL_SIZES } from '../../../src/report/leaderboard.js';
import { parseLeaderboardCsv } from '../../../src/report/score-table.js';
import { FLAWED_MODEL, HOSTILE_OUTPUT, type ScoreFixture, buildScoreFixture } from './report-fixture.js';

/** data_overall.csv as rows keyed by column name. */
function overallCsv(scoreDir: string): Record<string, string>[] {
  const [header = [], ...rows] = parseLeaderboardCsv(readFileSync(join(scoreDir, 'data_overall.csv'), 'utf8'));
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i] ?? ''])));
}

/** Every summary of the report equals the CSV's cell of the same name for the same model. */
function expectSummariesMatchCsv(data: ReportData, scoreDir: string): void {
  const csv = overallCsv(scoreDir);
  expect(data.models.map((m) => m.name)).toEqual(csv.map((row) => row['Model']));
  for (const model of data.models) {
    const row = csv.find((r) => r['Model'] === model.name)!;
    for (const summary of model.summaries) {
      expect(summary.accuracy === null ? 'N/A' : formatPercent(summary.accuracy), `${model.name} ${summary.label}`).toBe(row[summary.label]);
    }
  }
}

describe('collectReportData on a score folder made by generate + evaluate on our data/', () => {
  let fixture: ScoreFixture;
  let data: ReportData;
  beforeAll(async () => {
    fixture = await buildScoreFixture();
    data = collectReportData({
      scoreDir: fixture.scoreDir,
      resultDir: fixture.resultDir,
      datasetSize: datasetEntryCounter(openDataset(fixture.dataDir)),
      metadata: modelMetadata,
    });
  });

  it('orders models by Overall Acc and reports the same summaries as data_overall.csv', () => {
    expect(data.models.map((m) => m.dir)).toEqual(['oracle', FLAWED_MODEL]);
    expectSummariesMatchCsv(data, fixture.scoreDir);
    expect(data.categories).toEqual(['simple_python', 'multiple', 'irrelevance', 'live_relevance', 'multi_turn_base', 'multi_turn_miss_func']);
    expect(data.models[0]!.scores['simple_python']).toEqual({ accuracy: 1, correct: 6, total: 6 });
    expect(data.models[1]!.scores['simple_python']).toEqual({ accuracy: 4 / 6, correct: 4, total: 6 });
    expect(data.warnings).toEqual([]);
  });

  it('lists every failure line with its error type and class', () => {
    expect(data.failures.map((f) => [f.model, f.category, f.id, f.errorType, f.errorClass])).toEqual([
      [FLAWED_MODEL, 'simple_python', 'simple_python_1', 'value_error:others', 'value_mismatch'],
      [FLAWED_MODEL, 'simple_python', 'simple_python_2', expect.stringMatching(/^ast_decoder:/), 'parse_failure'],
      [FLAWED_MODEL, 'multiple', 'multiple_0', 'simple_function_checker:wrong_func_name', 'wrong_function'],
      [FLAWED_MODEL, 'irrelevance', 'irrelevance_0', 'irrelevance_error:decoder_success', 'wrong_function'],
      [FLAWED_MODEL, 'multi_turn_base', 'multi_turn_base_0', 'multi_turn:instance_state_mismatch', 'state_mismatch'],
    ]);
    expect(data.models[1]!.failureCounts).toEqual({
      simple_python: 2,
      multiple: 1,
      irrelevance: 1,
      live_relevance: 0,
      multi_turn_base: 1,
      multi_turn_miss_func: 0,
    });
    expect(data.errorClasses).toEqual(['parse_failure', 'wrong_function', 'value_mismatch', 'state_mismatch']);
    expect(data.errorClassCounts).toContainEqual({ model: FLAWED_MODEL, category: 'simple_python', counts: { value_mismatch: 1, parse_failure: 1 } });
  });

  it('keeps hostile model output as plain text and adds the result file usage', () => {
    const failure = data.failures.find((f) => f.id === 'simple_python_2')!;
    const output = failure.sections.find((s) => s.title === 'Model output');
    expect(output).toMatchObject({ kind: 'text', text: HOSTILE_OUTPUT });
    expect(failure.usage).toBe('From the result file: latency 0.75 s · 120 input tokens · 14 output tokens');
  });

  it('shows the multi-turn state diff at the failing turn', () => {
    const failure = data.failures.find((f) => f.id === 'multi_turn_base_0')!;
    expect(failure.stateDiff?.className).toBe('GorillaFileSystem');
    expect(failure.stateDiff?.turn).toBe(3);
    expect(failure.stateDiff?.rows.map((r) => r.attribute)).toEqual(['root']);
    expect(failure.stateDiff?.rows[0]!.model).toContain('Robin average: 17.6>>');
    expect(failure.stateDiff?.rows[0]!.groundTruth).toContain('Robin average: 17.67>>');
    expect(failure.turns?.map((t) => t.status)).toEqual(['passed', 'passed', 'passed', 'failed', 'not checked']);
    const failed = failure.turns![3]!;
    expect(failed.user[0]!.content).toContain('may_summary.txt');
    expect(failed.steps[0]!.decoded).toEqual([
      "touch(file_name='may_summary.txt')",
      "echo(content='Robin average: 17.6',file_name='may_summary.txt')",
      "mv(source='counts_march.txt',destination='archive')",
    ]);
    expect(failed.groundTruthCalls).toContain("echo(content='Robin average: 17.67', file_name='may_summary.txt')");
  });

  it('computes cost and latency from the result files, or reads them from data_overall.csv', () => {
    const fromResults = data.models.find((m) => m.dir === FLAWED_MODEL)!.costLatency!;
    expect(fromResults.source).toBe('result files');
    expect(fromResults.inputTokens).toBe(170);
    expect(fromResults.latencyMean).toBe('0.62');

    const withoutResults = collectReportData({
      scoreDir: fixture.scoreDir,
      datasetSize: datasetEntryCounter(openDataset(fixture.dataDir)),
      metadata: modelMetadata,
    });
    const csv = overallCsv(fixture.scoreDir).find((r) => r['Model'] === FLAWED_MODEL)!;
    expect(withoutResults.models.find((m) => m.dir === FLAWED_MODEL)!.costLatency).toMatchObject({
      source: 'data_overall.csv',
      cost: csv['Total Cost ($)'],
      latencyMean: csv['Latency Mean (s)'],
      latencyStd: csv['Latency Standard Deviation (s)'],
      latency95: csv['Latency 95th Percentile (s)'],
    });
  });

  it('warns about unreadable failure lines instead of failing', async () => {
    const { appendFileSync } = await import('node:fs');
    const file = join(fixture.scoreDir, FLAWED_MODEL, 'non_live', 'BFCL_v4_multiple_score.json');
    appendFileSync(file, '{"id": "multiple_9", "error": [\n');
    const again = collectReportData({ scoreDir: fixture.scoreDir, datasetSize: () => 0, metadata: modelMetadata });
    expect(again.warnings).toHaveLength(1);
    expect(again.warnings[0]).toMatch(/BFCL_v4_multiple_score\.json:3: invalid JSON, skipped/);
    expect(again.failures.filter((f) => f.category === 'multiple')).toHaveLength(1);
  });
});

const SYNTHETIC = '/work/shared/conformance/synthetic';

describe.skipIf(!existsSync(SYNTHETIC))('collectReportData on the reference-made synthetic scores', () => {
  it('matches the reference CSV summaries and builds a view of every failure line', () => {
    const scoreDir = join(SYNTHETIC, 'score');
    const data = collectReportData({
      scoreDir,
      // The synthetic runs were evaluated on the official data set.
      datasetSize: (category) => OFFICIAL_SIZES.get(category) ?? 0,
      // Registered in the reference with these display names (conformance README §4).
      metadata: (dir) => ({ ...modelMetadata(dir), displayName: dir === 'synthetic-fc-a' ? 'synthetic-fc-a (FC)' : 'synthetic-prompt-a (Prompt)' }),
    });
    expectSummariesMatchCsv(data, scoreDir);
    const expectedFailures = data.models.reduce((n, m) => n + Object.values(m.failureCounts).reduce((a, b) => a + b, 0), 0);
    expect(data.failures).toHaveLength(expectedFailures);
    expect(data.failures.every((f) => f.reasons.length > 0 && f.errorType !== '')).toBe(true);
    const stateMismatches = data.failures.filter((f) => f.errorType === 'multi_turn:instance_state_mismatch');
    expect(stateMismatches.length).toBeGreaterThan(0);
    expect(stateMismatches.every((f) => f.stateDiff !== null && f.stateDiff.rows.length > 0 && f.stateDiff.className !== '')).toBe(true);
    // Costs come from the reference's data_overall.csv.
    expect(data.models.map((m) => m.costLatency?.cost)).toEqual(overallCsv(scoreDir).map((r) => r['Total Cost ($)']));
  });
});

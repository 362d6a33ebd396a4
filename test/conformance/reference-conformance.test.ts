/**
 * Parity with the reference BFCL on shared/conformance (skipped without BFCL_DATA_DIR):
 * the ground-truth execution trace, and score files for a real and two synthetic runs.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareScoreFiles, conformanceModelSettings } from '../../src/conformance/score-check.js';
import { buildGroundTruthTrace, compareWithReferenceTrace } from '../../src/conformance/trace-check.js';
import { BfclDataset } from '../../src/data/dataset.js';

const dataDir = process.env.BFCL_DATA_DIR;
const conformanceDir =
  dataDir === undefined ? '' : resolve(process.env.BFCL_CONFORMANCE_DIR ?? join(dirname(resolve(dataDir)), 'conformance'));
const available = dataDir !== undefined && existsSync(conformanceDir);

describe.skipIf(!available)('reference conformance', () => {
  const dataset = available ? new BfclDataset(resolve(dataDir!)) : undefined;

  it('replays all 800 multi-turn ground truths identically to the reference trace', () => {
    const ours = buildGroundTruthTrace(dataset!);
    const comparison = compareWithReferenceTrace(ours, join(conformanceDir, 'multi_turn_ground_truth_trace.jsonl'));
    expect(comparison.mismatches.map((m) => `${m.id} turn ${m.turn}`)).toEqual([]);
    expect(comparison.identical).toBe(800);
  });

  for (const run of ['real-run', 'synthetic']) {
    it(`scores the ${run} results exactly as the reference (verdicts and score-file bytes)`, () => {
      const { scoreFiles: comparisons, csvs } = compareScoreFiles(join(conformanceDir, run), dataset!, conformanceModelSettings);
      expect(comparisons.length).toBeGreaterThanOrEqual(16);
      const verdictDiffs = comparisons.filter((c) => c.sameVerdict !== c.total || !c.headerIdentical);
      expect(verdictDiffs.map((c) => `${c.model} ${c.category}: ${JSON.stringify(c.differences)}`)).toEqual([]);
      const lineDiffs = comparisons.filter((c) => c.identicalLines !== c.lines);
      expect(lineDiffs.map((c) => `${c.model} ${c.category}: ${c.identicalLines}/${c.lines}`)).toEqual([]);
      // The leaderboard CSVs built from our own score files and result files, as `bfcl evaluate` writes them.
      expect(csvs.filter((c) => !c.identical).map((c) => `${c.file}: ${JSON.stringify(c.firstDifference)}`)).toEqual([]);
      expect(csvs).toHaveLength(6);
    });
  }
});

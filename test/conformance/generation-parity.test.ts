/**
 * Generation parity in the test suite: the built `bfcl generate` against the reference's scripted
 * agent (shared/conformance/generation) must write what the reference wrote, every field but
 * latency, and the memory snapshots byte for byte. Skipped without the official data and the conformance folder.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { runGenerationCheck } from '../../src/conformance/generation-check.js';
import { CLI, ensureBuilt } from '../e2e/built-cli.js';

const dataDir = process.env['BFCL_DATA_DIR'];
const generationDir =
  dataDir === undefined ? '' : join(resolve(process.env['BFCL_CONFORMANCE_DIR'] ?? join(dirname(resolve(dataDir)), 'conformance')), 'generation');

describe.skipIf(dataDir === undefined || !existsSync(generationDir))('generation parity with the reference (scripted agent)', () => {
  beforeAll(() => ensureBuilt(), 300_000);

  it('reproduces every result line of the single-turn, multi-turn and memory_rec_sum categories, and every memory snapshot byte for byte', async () => {
    const report = await runGenerationCheck({ cliPath: CLI, dataDir: resolve(dataDir!), generationDir });
    const categories = report.comparison.categories;
    expect(categories.map((c) => c.category).sort()).toEqual(['live_multiple', 'memory_rec_sum', 'multi_turn_base', 'multi_turn_miss_func', 'simple_python']);
    for (const c of categories) {
      expect(c.mismatches.slice(0, 3), c.category).toEqual([]);
      expect(c.identical, c.category).toBe(c.total);
    }
    expect(report.comparison.snapshots.length).toBeGreaterThan(0);
    for (const s of report.comparison.snapshots) {
      expect(s.mismatches.slice(0, 3), s.folder).toEqual([]);
      expect(s.identical, s.folder).toBe(s.total);
    }
  }, 180_000);
});

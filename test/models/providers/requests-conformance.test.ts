/**
 * The adapters build the reference's requests, byte for byte as JSON values (README §3 of
 * shared/conformance), and store the reference's `result` for its canned raw outputs.
 * Skipped without BFCL_DATA_DIR.
 */
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { compareDecodeCases, compareGoldenRequests } from '../../../src/conformance/requests-check.js';

const dataDir = process.env.BFCL_DATA_DIR;
const conformanceDir =
  dataDir === undefined ? '' : resolve(process.env.BFCL_CONFORMANCE_DIR ?? join(dirname(resolve(dataDir)), 'conformance'));

describe.skipIf(dataDir === undefined)('golden generation requests', () => {
  it('every handler sends the reference requests', async () => {
    const comparisons = await compareGoldenRequests(conformanceDir, resolve(dataDir!));
    for (const c of comparisons) {
      console.log(`requests ${c.handler}: ${c.identical}/${c.total} identical`);
      for (const e of c.errors) console.log(`  error: ${e}`);
      for (const m of c.mismatches.slice(0, 2)) console.log(`  ${m.key}\n    ours: ${m.ours?.slice(0, 400)}\n    ref:  ${m.reference.slice(0, 400)}`);
    }
    expect(comparisons).toHaveLength(8);
    for (const c of comparisons) {
      expect({ handler: c.handler, identical: c.identical, errors: c.errors }).toEqual({ handler: c.handler, identical: c.total, errors: [] });
    }
  });

  it('every decode case stores the reference result', async () => {
    const comparison = await compareDecodeCases(conformanceDir);
    console.log(`decode cases: ${comparison.identical}/${comparison.total} identical`);
    for (const m of comparison.mismatches) console.log(`  ${m.case} (${m.handler})\n    ours: ${m.ours}\n    ref:  ${m.reference}`);
    expect(comparison.total).toBe(34);
    expect(comparison.identical).toBe(comparison.total);
  });
});

/**
 * `npm run conformance`: every parity check against ../shared/conformance, one agreement line each.
 * Needs BFCL_DATA_DIR (the official dataset); the conformance folder is BFCL_CONFORMANCE_DIR or
 * the `conformance` folder beside the dataset.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { BfclDataset } from '../src/data/dataset.js';
import { compareDecodeCases, compareGoldenRequests } from '../src/conformance/requests-check.js';
import { compareScoreFiles, conformanceModelSettings } from '../src/conformance/score-check.js';
import { buildGroundTruthTrace, compareWithReferenceTrace } from '../src/conformance/trace-check.js';

const dataDir = process.env.BFCL_DATA_DIR;
if (dataDir === undefined || !existsSync(dataDir)) {
  console.error('conformance: set BFCL_DATA_DIR to the official BFCL dataset (e.g. ../shared/bfcl-data)');
  process.exit(2);
}
const conformanceDir = resolve(process.env.BFCL_CONFORMANCE_DIR ?? join(dirname(resolve(dataDir)), 'conformance'));
const verbose = process.argv.includes('--verbose');
const dataset = new BfclDataset(resolve(dataDir));

function traceCheck(): void {
  const started = performance.now();
  const ours = buildGroundTruthTrace(dataset);
  const comparison = compareWithReferenceTrace(ours, join(conformanceDir, 'multi_turn_ground_truth_trace.jsonl'));
  const ms = (performance.now() - started).toFixed(0);
  console.log(`multi-turn trace: ${comparison.identical}/${comparison.total} identical (${ms} ms)`);
  for (const m of comparison.mismatches.slice(0, verbose ? 50 : 5)) {
    console.log(`  ${m.id} turn ${m.turn}\n    ours: ${m.ours.slice(0, 600)}\n    ref:  ${m.reference.slice(0, 600)}`);
  }
}

traceCheck();

function scoreCheck(run: string, label: string): void {
  const started = performance.now();
  const { scoreFiles: comparisons, csvs } = compareScoreFiles(join(conformanceDir, run), dataset, conformanceModelSettings);
  const ms = (performance.now() - started).toFixed(0);
  let lines = 0;
  let identicalLines = 0;
  for (const c of comparisons) {
    const prefix = run === 'synthetic' ? `${label} ${c.model} ${c.category}` : `${label} ${c.category}`;
    const header = c.headerIdentical ? '' : ' (header differs)';
    console.log(`${prefix}: ${c.sameVerdict}/${c.total} verdicts identical${header}`);
    for (const [id, ours, reference] of c.differences.slice(0, verbose ? 10 : 3)) {
      console.log(`    ${id}: ours ${ours}, reference ${reference}`);
    }
    lines += c.lines;
    identicalLines += c.identicalLines;
  }
  console.log(`${label} score lines: ${identicalLines}/${lines} byte-identical (${ms} ms)`);
  console.log(`${label} leaderboard CSVs: ${csvs.filter((c) => c.identical).length}/${csvs.length} byte-identical`);
  for (const c of csvs.filter((c) => !c.identical)) {
    console.log(`    ${c.file}\n      ours: ${c.firstDifference![0].slice(0, 300)}\n      ref:  ${c.firstDifference![1].slice(0, 300)}`);
  }
}

async function requestChecks(): Promise<void> {
  const started = performance.now();
  for (const c of await compareGoldenRequests(conformanceDir, resolve(dataDir!))) {
    console.log(`requests ${c.handler}: ${c.identical}/${c.total} identical`);
    for (const m of c.mismatches.slice(0, verbose ? 10 : 2)) console.log(`    ${m.key}`);
    for (const e of c.errors.slice(0, 3)) console.log(`    error: ${e}`);
  }
  const decode = await compareDecodeCases(conformanceDir);
  const ms = (performance.now() - started).toFixed(0);
  console.log(`decode cases: ${decode.identical}/${decode.total} identical (${ms} ms)`);
  for (const m of decode.mismatches.slice(0, verbose ? 10 : 3)) console.log(`    ${m.handler} ${m.case}`);
}

scoreCheck('real-run', 'real run');
scoreCheck('synthetic', 'synthetic');
await requestChecks();

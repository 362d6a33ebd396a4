/** The oracle's results for a dataset, made by the bundled CLI: shared by `npm run bench` and `npm run conformance`. */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built `bfcl` binary (`npm run build` bundles it). */
export const BUNDLED_CLI = fileURLToPath(new URL('../bin/bfcl.cjs', import.meta.url));

/**
 * `bfcl generate --model oracle` for every single- and multi-turn entry of `dataDir`, into
 * `resultDir` (8 threads). Throws with the command's stderr when it fails.
 */
export function generateOracleResults(dataDir: string, resultDir: string): void {
  const args = ['generate', '--model', 'oracle', '--test-category', 'single_turn,multi_turn', '--data-dir', resolve(dataDir)];
  const run = spawnSync(process.execPath, [BUNDLED_CLI, ...args, '--result-dir', resultDir, '--num-threads', '8'], {
    encoding: 'utf8',
    env: process.env,
  });
  if (run.status !== 0) throw new Error(`bfcl generate --model oracle failed (${run.status}): ${run.stderr}`);
}

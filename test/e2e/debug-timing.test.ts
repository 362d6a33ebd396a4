/** `BFCL_DEBUG_TIMING=1`: where `bfcl evaluate`'s time goes, reported by the built binary. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, runBuiltCli } from './built-cli.js';

beforeAll(() => ensureBuilt(), 300_000);

/** Oracle results of our data for some categories, in a fresh folder. */
async function oracleResults(categories: string): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), 'bfcl-timing-'));
  const generate = await runBuiltCli(['generate', '--model', 'oracle', '--test-category', categories], cwd);
  expect(generate.code, generate.stderr).toBe(0);
  return cwd;
}

describe('BFCL_DEBUG_TIMING=1 (built)', () => {
  it('reports each category (start, steps) and the end of the run on stderr, and nothing when unset', async () => {
    const cwd = await oracleResults('simple_python,multiple,multi_turn_base');
    const args = ['evaluate', '--model', 'oracle'];
    const timed = await runBuiltCli(args, cwd, { BFCL_DEBUG_TIMING: '1', BFCL_CACHE_DIR: 'off' });
    expect(timed.code, timed.stderr).toBe(0);
    const lines = timed.stderr.split('\n').filter((line) => line.startsWith('bfcl timing: '));
    const step = /^bfcl timing: (\d+) ms: (.*)$/;
    const parsed = lines.map((line) => step.exec(line));
    expect(parsed.every((m) => m !== null), lines.join('\n')).toBe(true);
    const categories = parsed.map((m) => /^oracle (\w+), started at (\d+) ms: read [\d.]+, evaluated [\d.]+, wrote [\d.]+, taxonomy and latency [\d.]+ \(ms\)$/.exec(m![2]!));
    expect(categories.filter((c) => c !== null).map((c) => c![1]).sort()).toEqual(['multi_turn_base', 'multiple', 'simple_python']);
    for (const [i, c] of categories.entries()) if (c !== null) expect(Number(c[2])).toBeLessThanOrEqual(Number(parsed[i]![1]));
    expect(parsed.slice(-3).map((m) => m![2])).toEqual(['every category evaluated', 'leaderboard CSVs written', 'summary printed']);
    const quiet = await runBuiltCli([...args, '--score-dir', 'quiet'], cwd, { BFCL_CACHE_DIR: 'off' });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('bfcl timing');
  }, 120_000);
});

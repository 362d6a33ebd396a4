/**
 * End to end with the built binary on our own data/: generate with the oracle, evaluate, and
 * interrupt a generation with SIGINT, then resume it.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { ORACLE_DELAY_ENV } from '../../src/cli/generate-command.js';
import { ensureBuilt, runBuiltCli, startCli } from './built-cli.js';

const SINGLE_AND_MULTI_TURN = 17;

function resultLines(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean));
}

beforeAll(() => ensureBuilt(), 300_000);

describe('bfcl binary', () => {
  it('generates with the oracle and evaluates to 100% in every single- and multi-turn category', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-'));
    const generate = await runBuiltCli(['generate', '--model', 'oracle', '--test-category', 'single_turn,multi_turn'], cwd);
    expect(generate.stderr).toMatch(/oracle: 82 of 82 entries written/);
    expect(generate.code).toBe(0);

    const evaluate = await runBuiltCli(['evaluate', '--model', 'oracle', '--test-category', 'single_turn,multi_turn'], cwd);
    expect(evaluate.code).toBe(0);
    const categoryLines = evaluate.stderr.split('\n').filter((l) => l.startsWith('oracle '));
    expect(categoryLines).toHaveLength(SINGLE_AND_MULTI_TURN);
    for (const line of categoryLines) expect(line).toMatch(/: 100\.00% \((\d+)\/\1\)$/);
    expect(evaluate.stdout).toContain('| Oracle (ground truth) (FC)');
    expect(existsSync(join(cwd, 'score', 'data_overall.csv'))).toBe(true);
  }, 120_000);

  it('stops on SIGINT with exit code 130, keeps what finished, and the next run completes the rest', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-sigint-'));
    const resultDir = join(cwd, 'result', 'oracle', 'multi_turn');
    const args = ['generate', '--model', 'oracle', '--test-category', 'multi_turn', '--num-threads', '2'];
    const { child, done } = startCli(args, cwd, { [ORACLE_DELAY_ENV]: '100' });
    // Wait for the first finished entry, then interrupt.
    const deadline = Date.now() + 30_000;
    while (resultLines(resultDir).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const interrupted = await done;
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toContain('Interrupted');
    const kept = resultLines(resultDir);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(16);
    for (const line of kept) expect(() => JSON.parse(line)).not.toThrow();

    const resumed = await runBuiltCli(args, cwd);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`${kept.length} entries already had results and were skipped.`);
    const all = resultLines(resultDir).map((l) => (JSON.parse(l) as { id: string }).id);
    expect(all).toHaveLength(16);
    expect(new Set(all).size).toBe(16);
    // Sorted by id within each file.
    const base = readFileSync(join(resultDir, 'BFCL_v4_multi_turn_base_result.json'), 'utf8').split('\n').filter(Boolean);
    expect(base.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual([0, 1, 2, 3].map((i) => `multi_turn_base_${i}`));
  }, 120_000);
});

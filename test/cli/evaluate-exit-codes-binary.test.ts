/**
 * Exit codes of the built `bfcl` binary for issue #24's evaluate items: results generated from other
 * data (item 13: exit 2 unless --allow-data-mismatch), a possible-answer file missing an entry
 * (item 6: exit 1 with a DatasetError, not an internal error).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { packageDataDir } from '../../src/data/data-dir.js';
import { ensureBuilt, runBuiltCli } from '../e2e/built-cli.js';

beforeAll(() => ensureBuilt(), 300_000);

/** A copy of data/ with one file edited. */
function editedData(cwd: string, file: string, edit: (text: string) => string): string {
  const data = join(cwd, 'data-copy');
  cpSync(packageDataDir(), data, { recursive: true });
  writeFileSync(join(data, file), edit(readFileSync(join(data, file), 'utf8')));
  return data;
}

describe('bfcl evaluate (built binary)', () => {
  it('exits 2 when the run manifest names other data than the evaluation reads, and scores with --allow-data-mismatch', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-mismatch-'));
    const data = editedData(cwd, 'BFCL_v4_simple_python.json', (text) => text.replace(/"content": "(\w)/, '"content": "Please, $1'));
    const env = { BFCL_CACHE_DIR: 'off' };
    expect((await runBuiltCli(['generate', '--model', 'oracle', '--test-category', 'simple_python', '--data-dir', data], cwd, env)).code).toBe(0);

    const forgotten = await runBuiltCli(['evaluate', '--test-category', 'simple_python'], cwd, env);
    expect(forgotten.code).toBe(2);
    expect(forgotten.stderr).toContain(`  generated from:    ${data}\n  evaluated against: ${packageDataDir()}\n`);
    expect(forgotten.stderr).toContain('--allow-data-mismatch scores anyway.');

    const allowed = await runBuiltCli(['evaluate', '--test-category', 'simple_python', '--allow-data-mismatch'], cwd, env);
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toContain('Warning: the results of oracle were generated from different data than this evaluation reads');

    expect((await runBuiltCli(['evaluate', '--test-category', 'simple_python', '--data-dir', data], cwd, env)).code).toBe(0);
  }, 120_000);

  it('exits 1 naming the possible-answer file and the entry when the file lacks one', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'bfcl-e2e-answers-'));
    const file = 'possible_answer/BFCL_v4_simple_python.json';
    const data = editedData(cwd, file, (text) => text.split('\n').filter((_, i) => i !== 3).join('\n'));
    const env = { BFCL_CACHE_DIR: 'off' };
    expect((await runBuiltCli(['generate', '--model', 'oracle', '--test-category', 'simple_python'], cwd, env)).code).toBe(0);
    const r = await runBuiltCli(['evaluate', '--test-category', 'simple_python', '--data-dir', data, '--allow-data-mismatch'], cwd, env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`bfcl: error: ${join(data, file)}: entry simple_python_3: no possible answer for this test entry`);
    expect(r.stderr).not.toContain('internal error');
  }, 120_000);
});

import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import type { CliIo } from '../../../src/cli/io.js';
import { runCli } from '../../../src/cli/main.js';
import { toReportOptions } from '../../../src/cli/report-command.js';
import { type ScoreFixture, buildScoreFixture } from './report-fixture.js';

async function run(argv: string[], env: Record<string, string> = {}, cwd = '/'): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env, cwd };
  const code = await runCli(argv, io);
  return { code, ...out };
}

describe('bfcl report', () => {
  let fixture: ScoreFixture;
  beforeAll(async () => {
    fixture = await buildScoreFixture();
  });

  it('writes the HTML file and says what is in it', async () => {
    const out = join(fixture.root, 'out', 'report.html');
    const r = await run(['report', '--score-dir', fixture.scoreDir, '--result-dir', fixture.resultDir, '--out', out, '--title', 'Fixture run']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Wrote ${out} \\(2 models, 6 categories, 5 failed entries, \\d+\\.\\d MB\\)\\n$`));
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">')).toBe(true);
    expect(html).toContain('<title>Fixture run</title>');
    expect(html).toMatch(/<p>Generated \d{4}-\d\d-\d\dT/);
    expect(html).toContain(`Result folder: <code>${fixture.resultDir}</code>`);
  });

  it('resolves paths against the project root and writes into the score folder by default', async () => {
    const r = await run(['report', '--score-dir', 'score'], { BFCL_PROJECT_ROOT: fixture.root });
    expect(r.code).toBe(0);
    expect(existsSync(join(fixture.scoreDir, 'report.html'))).toBe(true);
  });

  it('fails clearly without score files', async () => {
    const missing = await run(['report', '--score-dir', '/nonexistent/score']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Score folder not found: /nonexistent/score');

    const empty = mkdtempSync(join(tmpdir(), 'bfcl-empty-'));
    mkdirSync(join(empty, 'some-model'));
    const none = await run(['report', '--score-dir', empty]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(`bfcl report: no score files under ${empty}\n`);

    const badLimit = await run(['report', '--score-dir', fixture.scoreDir, '--max-text', '12']);
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toContain('at least 100');
  });

  it('is listed in the help', async () => {
    const r = await run(['--help']);
    expect(r.stdout).toMatch(/\n {2}report /);
    const help = await run(['report', '--help']);
    for (const flag of ['--score-dir', '--result-dir', '--out', '--title', '--max-text', '--data-dir']) expect(help.stdout).toContain(flag);
  });
});

describe('toReportOptions', () => {
  it('defaults the score folder to <root>/score and the file to <score>/report.html', () => {
    const io: CliIo = { stdout: () => {}, stderr: () => {}, env: {}, cwd: '/work/p' };
    const options = toReportOptions({}, io, null);
    expect(options).toMatchObject({ scoreDir: '/work/p/score', resultDir: undefined, out: '/work/p/score/report.html', generatedAt: null, maxTextChars: 20000 });
    expect(toReportOptions({ scoreDir: 's', out: 'r.html', resultDir: 'res', maxText: 500 }, io, new Date(0))).toMatchObject({
      scoreDir: '/work/p/s',
      out: '/work/p/r.html',
      resultDir: '/work/p/res',
      maxTextChars: 500,
      generatedAt: '1970-01-01T00:00:00.000Z',
    });
  });
});

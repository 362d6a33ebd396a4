/**
 * The HTML report in a real browser: Debian's Chromium, headless, driven by playwright-core.
 * Skipped (with a message) where /usr/bin/chromium (or $BFCL_CHROMIUM) is absent; .ci/run installs it when it can.
 */

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runCli } from '../../src/cli/main.js';
import { parseLeaderboardCsv } from '../../src/report/score-table.js';
import { FLAWED_MODEL, HOSTILE_OUTPUT, buildScoreFixture } from '../report/html/report-fixture.js';

// Debian's package; BFCL_CHROMIUM may point elsewhere.
const CHROMIUM = process.env['BFCL_CHROMIUM'] ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const available = existsSync(CHROMIUM);
if (!available) {
  console.warn(`SKIPPED: the HTML report browser test needs Chromium at ${CHROMIUM} (Debian: apt-get install -y chromium).`);
}

describe.skipIf(!available)('bfcl report in headless Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let shotDir: string;
  const problems: string[] = [];
  const outsideRequests: string[] = [];
  let overallAccuracyInCsv: Map<string, string>;

  beforeAll(async () => {
    const fixture = await buildScoreFixture();
    const [, ...csvRows] = parseLeaderboardCsv(readFileSync(join(fixture.scoreDir, 'data_overall.csv'), 'utf8'));
    overallAccuracyInCsv = new Map(csvRows.map((row) => [row[2]!, row[1]!]));
    const reportFile = join(fixture.root, 'report.html');
    const io = { stdout: () => {}, stderr: (t: string) => void problems.push(t), env: {}, cwd: fixture.root };
    const code = await runCli(['report', '--score-dir', fixture.scoreDir, '--result-dir', fixture.resultDir, '--out', reportFile], io);
    expect(code).toBe(0);

    // A fresh profile for every run (launchPersistentContext passes it as --user-data-dir).
    const profile = mkdtempSync(join(tmpdir(), 'bfcl-chromium-profile-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1400, height: 1000 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    // The report must not reach out: record and refuse anything that is not the file itself.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      outsideRequests.push(url);
      return route.abort();
    });
    await page.goto(pathToFileURL(reportFile).href);
    await page.waitForSelector('#failure-list details.failure');
    shotDir = mkdtempSync(join(tmpdir(), 'bfcl-report-screenshots-'));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
  });

  it('renders the leaderboard, category table and one chart per category', async () => {
    const rows = page.locator('#leaderboard tbody tr');
    await expect(rows.count()).resolves.toBe(2);
    await expect(rows.nth(0).getAttribute('data-model')).resolves.toBe('oracle');
    await expect(rows.nth(1).getAttribute('data-model')).resolves.toBe(FLAWED_MODEL);
    // Names and Overall Acc as data_overall.csv has them (absent categories count as 0).
    for (const i of [0, 1]) {
      const name = (await rows.nth(i).locator('td').nth(1).innerText()).split('\n')[0]!.trim();
      expect(overallAccuracyInCsv.has(name)).toBe(true);
      await expect(rows.nth(i).locator('td').nth(2).innerText()).resolves.toBe(overallAccuracyInCsv.get(name));
    }
    await expect(page.locator('#category-table tbody tr[data-category]').count()).resolves.toBe(6);
    await expect(page.locator('#category-table tr[data-category="simple_python"] td').nth(2).innerText()).resolves.toMatch(/^66\.67%\s+4\/6 · 2 failed$/);
    await expect(page.locator('.charts svg').count()).resolves.toBe(6);
    await expect(page.locator('#error-class-table tbody tr').count()).resolves.toBe(4);
  });

  it('lists the failures folded and renders one with its checker reason when clicked', async () => {
    await expect(page.locator('#failure-count').innerText()).resolves.toBe('Showing 5 of 5 matching failures (5 in all).');
    const failure = page.locator('details.failure', { has: page.locator('.f-id', { hasText: /^simple_python_1$/ }) });
    await expect(failure.locator('.failure-body').innerHTML()).resolves.toBe('');
    await failure.locator('summary').click();
    const reason = failure.locator('.reason');
    await reason.waitFor();
    await expect(reason.innerText()).resolves.toContain("Invalid value for parameter 'value': 37.0. Expected one of [98.6].");
    await expect(failure.locator('details.section', { hasText: 'Expected (possible answer)' }).locator('pre').innerText()).resolves.toMatch(/^convert_temperature\(value=98\.6/);
  });

  it('shows hostile model output as text', async () => {
    const failure = page.locator('details.failure', { has: page.locator('.f-id', { hasText: /^simple_python_2$/ }) });
    await failure.locator('summary').click();
    const output = failure.locator('details.section', { hasText: 'Model output' }).locator('pre');
    await expect(output.innerText()).resolves.toBe(HOSTILE_OUTPUT);
    await expect(page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).resolves.toBeUndefined();
    await expect(page.locator('#failures img, #failures script').count()).resolves.toBe(0);
  });

  it('shows the multi-turn state diff at the failing turn', async () => {
    await page.locator('#category-table tr[data-category="multi_turn_base"] td[data-filter-model]').click();
    await expect(page.locator('#filter-category').inputValue()).resolves.toBe('multi_turn_base');
    await expect(page.locator('#failure-count').innerText()).resolves.toBe('Showing 1 of 1 matching failures (5 in all).');
    const failure = page.locator('details.failure').first();
    await failure.locator('summary').click();
    await expect(failure.locator('.state-diff h4').innerText()).resolves.toBe('State diff: GorillaFileSystem after turn 3');
    await expect(failure.locator('.state-diff del').first().innerText()).resolves.toBe('6');
    await expect(failure.locator('.state-diff ins').first().innerText()).resolves.toBe('67');
    await expect(failure.locator('details.turn[open] > summary').allInnerTexts()).resolves.toEqual(['Turn 3 — failed']);
    await failure.evaluate((e) => e.scrollIntoView());
    const shot = join(shotDir, 'report-multi-turn-failure.png');
    await page.screenshot({ path: shot });
    console.log(`report screenshot: ${shot}`);
  });

  it('filters by error class and text', async () => {
    await page.selectOption('#filter-category', '');
    await page.selectOption('#filter-class', 'wrong_function');
    await expect(page.locator('#failure-list details.failure .f-id').allInnerTexts()).resolves.toEqual(['multiple_0', 'irrelevance_0']);
    await page.selectOption('#filter-class', '');
    await page.fill('#filter-text', 'successfully decode');
    await expect(page.locator('#failure-list details.failure .f-id').allInnerTexts()).resolves.toEqual(['irrelevance_0']);
    await page.fill('#filter-text', '');
    await expect(page.locator('#failure-list details.failure').count()).resolves.toBe(5);
  });

  it('made no request outside the file and logged no errors', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    const shot = join(shotDir, 'report-top.png');
    await page.screenshot({ path: shot });
    console.log(`report screenshot: ${shot}`);
    expect(outsideRequests).toEqual([]);
    expect(problems).toEqual([]);
  });
});

import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { clientScript } from '../../../src/report/html/client.js';
import type { ModelView, ReportData } from '../../../src/report/html/report-data.js';
import { categoryChart, jsonForScript, renderReportHtml } from '../../../src/report/html/render-html.js';
import { REPORT_CSS } from '../../../src/report/html/styles.js';

const HOSTILE = '</script><script>window.__pwned = 1</script><!-- \u2028 & "quotes"';

function model(dir: string, name: string, accuracy: number | null): ModelView {
  return {
    dir,
    name,
    scores: accuracy === null ? {} : { simple_python: { accuracy, correct: Math.round(accuracy * 4), total: 4 } },
    summaries: [
      { label: 'Overall Acc', accuracy },
      { label: 'Live Acc', accuracy: null },
    ],
    costLatency: null,
    failureCounts: accuracy === null ? {} : { simple_python: 4 - Math.round(accuracy * 4) },
  };
}

function reportData(overrides: Partial<ReportData> = {}): ReportData {
  return {
    title: 'Test report',
    generatedAt: null,
    scoreDir: '/tmp/score',
    resultDir: null,
    models: [model('a', 'Model A', 0.75), model('b', HOSTILE, 0.5)],
    categories: ['simple_python'],
    errorClasses: ['value_mismatch'],
    errorClassCounts: [{ model: 'a', category: 'simple_python', counts: { value_mismatch: 1 } }],
    failures: [
      {
        model: 'a',
        category: 'simple_python',
        id: 'simple_python_0',
        errorType: 'value_error:others',
        errorClass: 'value_mismatch',
        reasons: [HOSTILE],
        turns: null,
        stateDiff: null,
        sections: [{ kind: 'text', title: 'Model output', open: true, text: HOSTILE }],
        usage: null,
      },
    ],
    sharedTexts: [],
    warnings: [],
    ...overrides,
  };
}

/** The text of the element `<tag ...attrs>` … `</tag>` (first match). */
function elementText(html: string, open: string, close: string): string {
  const start = html.indexOf(open);
  expect(start).toBeGreaterThanOrEqual(0);
  return html.slice(start + open.length, html.indexOf(close, start));
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64');

describe('renderReportHtml', () => {
  const html = renderReportHtml(reportData());

  it('embeds the data as JSON that parses back to the same value, with nothing that closes the script', () => {
    const json = elementText(html, '<script type="application/json" id="report-data">', '</script>');
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(reportData());
    expect(jsonForScript({ a: HOSTILE })).toBe(JSON.stringify({ a: HOSTILE }).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028'));
  });

  it('inlines the stylesheet and script and allows exactly them in its Content-Security-Policy', () => {
    const script = elementText(html, '<script>', '</script>');
    const style = elementText(html, '<style>', '</style>');
    expect(script).toBe(clientScript());
    expect(style).toBe(REPORT_CSS);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!;
    expect(csp).toBe(
      `default-src &#39;none&#39;; script-src &#39;sha256-${sha256(script)}&#39;; style-src &#39;sha256-${sha256(style)}&#39;; img-src data:; base-uri &#39;none&#39;; form-action &#39;none&#39;`,
    );
  });

  it('loads nothing from outside the file', () => {
    expect(html).not.toMatch(/<link|<iframe|<img|\bsrc=|@import|url\(/i);
    // The only URL is the SVG namespace, which is never fetched.
    expect(html.match(/https?:\/\/[^"'\s)]+/g)).toEqual(['http://www.w3.org/2000/svg']);
  });

  it('escapes every data text in the static part', () => {
    const beforeData = html.slice(0, html.indexOf('<script type="application/json"'));
    expect(beforeData).not.toContain('<script>window');
    expect(beforeData).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html.match(/<script/g)).toHaveLength(2);
  });

  it('writes the leaderboard in the given order with N/A cells, the category table, chart and filters', () => {
    const leaderboard = elementText(html, '<table class="grid" id="leaderboard">', '</table>');
    expect(leaderboard).toContain('<th>Overall Acc</th><th>Live Acc</th><th>Failed entries</th>');
    expect(leaderboard.match(/<tr data-model="[ab]">/g)).toEqual(['<tr data-model="a">', '<tr data-model="b">']);
    expect(leaderboard).toContain('<td>75.00%</td><td class="na">N/A</td>');
    const categories = elementText(html, '<table class="grid" id="category-table">', '</table>');
    expect(categories).toContain('<tr class="group-row"><td colspan="3">Non-live</td></tr>');
    expect(categories).toContain('<td data-filter-model="a" data-filter-category="simple_python" title="Show the failures">75.00%<span class="counts">3/4<a class="fail-link" href="#failures"> · 1 failed</a></span></td>');
    expect(html).toContain('<div class="chart" data-category="simple_python">');
    for (const id of ['filter-model', 'filter-category', 'filter-class', 'filter-type', 'filter-text', 'failure-list', 'failure-more', 'failure-count']) {
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain('No cost or latency data');
  });

  it('lists reading problems and handles an empty score folder', () => {
    const empty = renderReportHtml(reportData({ models: [], categories: [], failures: [], errorClassCounts: [], errorClasses: [], warnings: ['x.json:2: invalid JSON'] }));
    expect(empty).toContain('<strong>1 problem(s) while reading:</strong><ul><li>x.json:2: invalid JSON</li></ul>');
    expect(empty).toContain('No score files found.');
    expect(empty).toContain('<p id="failure-count">No failed entries.</p>');
  });
});

describe('categoryChart', () => {
  it('draws one bar per model, its width proportional to the accuracy, N/A without a bar', () => {
    const svg = categoryChart('simple_python', [model('a', 'Model A', 0.75), model('c', 'A model with a very long name', null)]).html;
    expect(svg).toContain('viewBox="0 0 340 52"');
    expect(svg).toContain('<title>Model A: 75.00% (3/4)</title>');
    expect(svg).toContain('<rect x="120" y="7" width="120.0" height="16" fill="#0072b2"></rect>');
    expect(svg).toContain('<title>A model with a very long name: N/A</title>');
    expect(svg).toContain('>A model with a ve…</text>');
    expect(svg).toContain('<rect x="120" y="29" width="0.0" height="16" fill="#e69f00"></rect>');
  });
});

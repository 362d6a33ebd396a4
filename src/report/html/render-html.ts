/**
 * The report as one self-contained HTML file: overview tables and SVG charts rendered here, the
 * failures embedded as JSON and rendered by the page's script when browsed. Nothing is loaded
 * from the network, and a Content-Security-Policy with the hashes of the inline script and
 * stylesheet keeps it that way (and keeps any markup that slipped into the data inert).
 */


import { ERROR_CLASS_DESCRIPTIONS, type ErrorClass } from '../../evaluate/error-taxonomy.js';
import { getGeneralGrouping } from '../../spec/categories.js';
import { formatPercent } from '../csv-writer.js';
import { type Child, type Html, clientScript, fragment, h, raw } from './client.js';
import type { CategoryScoreView, ModelView, ReportData } from './report-data.js';
import { REPORT_CSS } from './styles.js';
import { judgeSection } from './judge-calibration.js';
import { createHash } from 'node:crypto';

/** Colour-blind-safe palette (Okabe–Ito); model i gets colour i mod 8 (CSS classes swatch-i match). */
export const MODEL_COLOURS = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#555555'] as const;

const colourOf = (index: number): string => MODEL_COLOURS[index % MODEL_COLOURS.length]!;

/** JSON that is safe inside a `<script>` element (no `<`, `>`, `&` or line separators left raw). */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const percent = (accuracy: number | null): string => (accuracy === null ? 'N/A' : formatPercent(accuracy));

function countsText(score: CategoryScoreView): string {
  return score.correct === null ? `of ${score.total}` : `${score.correct}/${score.total}`;
}

// ---------------------------------------------------------------------------------------------
// Overview

function leaderboardTable(data: ReportData): Html {
  const labels = data.models[0]?.summaries.map((s) => s.label) ?? [];
  const totalFailures = (m: ModelView): number => Object.values(m.failureCounts).reduce((a, b) => a + b, 0);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'grid', id: 'leaderboard' },
      h('thead', null, h('tr', null, h('th', null, 'Rank'), h('th', { class: 'text' }, 'Model'), labels.map((l) => h('th', null, l)), h('th', null, 'Failed entries'))),
      h(
        'tbody',
        null,
        data.models.map((m, i) =>
          h(
            'tr',
            { 'data-model': m.dir },
            h('td', null, i + 1),
            h('td', { class: 'text' }, h('span', { class: `swatch swatch-${i % MODEL_COLOURS.length}` }), ' ', m.name, m.name !== m.dir ? h('span', { class: 'counts' }, m.dir) : null),
            m.summaries.map((s) => h('td', { class: s.accuracy === null ? 'na' : null }, percent(s.accuracy))),
            h('td', { 'data-filter-model': m.dir, 'data-filter-category': '' }, h('a', { class: 'fail-link', href: '#failures' }, String(totalFailures(m)))),
          ),
        ),
      ),
    ),
  );
}

const GROUP_TITLES: Readonly<Record<string, string>> = {
  non_live: 'Non-live',
  live: 'Live',
  multi_turn: 'Multi-turn',
  agentic: 'Agentic',
  format_sensitivity: 'Format sensitivity',
};

function groupOf(category: string): string {
  try {
    return getGeneralGrouping(category);
  } catch {
    return 'other';
  }
}

function categoryTable(data: ReportData): Html {
  const rows: Html[] = [];
  let group = '';
  for (const category of data.categories) {
    if (groupOf(category) !== group) {
      group = groupOf(category);
      rows.push(h('tr', { class: 'group-row' }, h('td', { colspan: data.models.length + 1 }, GROUP_TITLES[group] ?? group)));
    }
    rows.push(
      h(
        'tr',
        { 'data-category': category },
        h('td', { class: 'text' }, h('code', null, category)),
        data.models.map((m) => {
          const score = m.scores[category];
          if (score === undefined) return h('td', { class: 'na' }, 'N/A');
          const failed = m.failureCounts[category] ?? 0;
          return h(
            'td',
            failed > 0 ? { 'data-filter-model': m.dir, 'data-filter-category': category, title: 'Show the failures' } : null,
            formatPercent(score.accuracy),
            h('span', { class: 'counts' }, countsText(score), failed > 0 ? h('a', { class: 'fail-link', href: '#failures' }, ` · ${failed} failed`) : null),
          );
        }),
      ),
    );
  }
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'grid', id: 'category-table' },
      h('thead', null, h('tr', null, h('th', { class: 'text' }, 'Category'), data.models.map((m) => h('th', null, m.name)))),
      h('tbody', null, rows),
    ),
  );
}

function legend(data: ReportData): Html {
  return h(
    'div',
    { class: 'legend' },
    data.models.map((m, i) => h('span', null, h('span', { class: `swatch swatch-${i % MODEL_COLOURS.length}` }), m.name)),
  );
}

const CHART = { width: 340, label: 120, bar: 160, row: 22, top: 4 } as const;

/** One category's accuracy across models as horizontal bars. */
export function categoryChart(category: string, models: readonly ModelView[]): Html {
  const height = CHART.top * 2 + CHART.row * models.length;
  const bars = models.map((m, i) => {
    const y = CHART.top + i * CHART.row;
    const score = m.scores[category];
    const name = m.name.length > 18 ? `${m.name.slice(0, 17)}…` : m.name;
    const width = score === undefined ? 0 : Math.max(0, Math.min(1, score.accuracy)) * CHART.bar;
    const value = score === undefined ? 'N/A' : formatPercent(score.accuracy);
    return h(
      'g',
      null,
      h('title', null, `${m.name}: ${value}${score === undefined ? '' : ` (${countsText(score)})`}`),
      h('text', { x: CHART.label - 6, y: y + 15, 'text-anchor': 'end', 'font-size': 11, fill: '#1d2330' }, name),
      h('rect', { x: CHART.label, y: y + 3, width: CHART.bar, height: 16, fill: '#eef1f5' }),
      h('rect', { x: CHART.label, y: y + 3, width: width.toFixed(1), height: 16, fill: colourOf(i) }),
      h('text', { x: CHART.label + CHART.bar + 6, y: y + 15, 'font-size': 11, fill: score === undefined ? '#5c667a' : '#1d2330' }, value),
    );
  });
  return h(
    'div',
    { class: 'chart', 'data-category': category },
    h('h3', null, category),
    h(
      'svg',
      { xmlns: 'http://www.w3.org/2000/svg', viewBox: `0 0 ${CHART.width} ${height}`, width: CHART.width, height, role: 'img', 'aria-label': `Accuracy on ${category} per model` },
      bars,
    ),
  );
}

function costTable(data: ReportData): Html {
  const withCost = data.models.filter((m) => m.costLatency !== null);
  if (withCost.length === 0) {
    return h('p', { class: 'note' }, 'No cost or latency data: pass --result-dir, or evaluate first so that the score folder has data_overall.csv.');
  }
  const tokens = (n: number | null): string => (n === null ? 'N/A' : String(n));
  const table = h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'grid', id: 'cost-table' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { class: 'text' }, 'Model'),
          ['Total Cost ($)', 'Latency Mean (s)', 'Latency Standard Deviation (s)', 'Latency 95th Percentile (s)', 'Input tokens', 'Output tokens'].map((t) => h('th', null, t)),
          h('th', { class: 'text' }, 'Source'),
        ),
      ),
      h(
        'tbody',
        null,
        data.models.map((m) => {
          const c = m.costLatency;
          if (c === null) return h('tr', null, h('td', { class: 'text' }, m.name), h('td', { class: 'na', colspan: 7 }, 'N/A'));
          return h(
            'tr',
            null,
            h('td', { class: 'text' }, m.name),
            [c.cost, c.latencyMean, c.latencyStd, c.latency95, tokens(c.inputTokens), tokens(c.outputTokens)].map((v) => h('td', { class: v === 'N/A' ? 'na' : null }, v)),
            h('td', { class: 'text' }, c.source),
          );
        }),
      ),
    ),
  );
  const perCategory = data.categories.filter((cat) => data.models.some((m) => m.costLatency?.categoryLatency[cat] !== undefined));
  const latencyTable =
    perCategory.length === 0
      ? null
      : h(
          'details',
          { class: 'section' },
          h('summary', null, 'Mean latency per category (s)'),
          h(
            'div',
            { class: 'table-wrap' },
            h(
              'table',
              { class: 'grid' },
              h('thead', null, h('tr', null, h('th', { class: 'text' }, 'Category'), data.models.map((m) => h('th', null, m.name)))),
              h(
                'tbody',
                null,
                perCategory.map((cat) =>
                  h(
                    'tr',
                    null,
                    h('td', { class: 'text' }, h('code', null, cat)),
                    data.models.map((m) => {
                      const v = m.costLatency?.categoryLatency[cat];
                      return v === undefined ? h('td', { class: 'na' }, 'N/A') : h('td', null, v.toFixed(2));
                    }),
                  ),
                ),
              ),
            ),
          ),
        );
  return fragment(
    table,
    h('p', { class: 'note' }, 'Cost: API models by token prices; unpriced (local) models by GPU time, as the leaderboard computes it.'),
    latencyTable,
  );
}

function errorClassTable(data: ReportData): Html {
  if (data.errorClassCounts.length === 0) return h('p', { class: 'note' }, 'No failed entries.');
  const nameOf = new Map(data.models.map((m) => [m.dir, m.name]));
  return fragment(
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'grid', id: 'error-class-table' },
        h('thead', null, h('tr', null, h('th', { class: 'text' }, 'Model'), h('th', { class: 'text' }, 'Category'), data.errorClasses.map((c) => h('th', { title: ERROR_CLASS_DESCRIPTIONS[c as ErrorClass] ?? '' }, c)))),
        h(
          'tbody',
          null,
          data.errorClassCounts.map((row) =>
            h(
              'tr',
              null,
              h('td', { class: 'text' }, nameOf.get(row.model) ?? row.model),
              h('td', { class: 'text' }, h('code', null, row.category)),
              data.errorClasses.map((c) => {
                const n = row.counts[c] ?? 0;
                return n === 0
                  ? h('td', { class: 'na' }, '')
                  : h('td', { 'data-filter-model': row.model, 'data-filter-category': row.category, 'data-filter-class': c }, h('a', { class: 'fail-link', href: '#failures' }, String(n)));
              }),
            ),
          ),
        ),
      ),
    ),
    h(
      'details',
      { class: 'section' },
      h('summary', null, 'What the classes mean'),
      h('ul', { class: 'plain' }, data.errorClasses.map((c) => h('li', null, h('code', null, c), ': ', ERROR_CLASS_DESCRIPTIONS[c as ErrorClass] ?? ''))),
    ),
  );
}

function failureBrowser(data: ReportData): Html {
  const select = (id: string, label: string): Html => h('label', null, label, h('select', { id }, h('option', { value: '' }, 'all')));
  return fragment(
    h(
      'div',
      { class: 'filters' },
      select('filter-model', 'Model'),
      select('filter-category', 'Category'),
      select('filter-class', 'Error class'),
      select('filter-type', 'Error type'),
      h('label', null, 'Search id or reason', h('input', { id: 'filter-text', type: 'search', placeholder: 'e.g. multi_turn_base_3' })),
    ),
    h('p', { id: 'failure-count' }, data.failures.length === 0 ? 'No failed entries.' : 'Loading failures…'),
    h('noscript', null, h('p', { class: 'note' }, 'The failure browser needs JavaScript; the failures are embedded as JSON in this file (#report-data).')),
    h('div', { id: 'failure-list' }),
    h('button', { id: 'failure-more', type: 'button', hidden: true }, 'Show more'),
  );
}

// ---------------------------------------------------------------------------------------------
// Page

function sha256Base64(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

/** The whole page. */
export function renderReportHtml(data: ReportData): string {
  const script = clientScript();
  if (/<\/script|<!--/i.test(script)) throw new Error('the client script cannot be inlined as is');
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${sha256Base64(script)}'`,
    `style-src 'sha256-${sha256Base64(REPORT_CSS)}'`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const facts: Child[] = [
    `${data.models.length} model${data.models.length === 1 ? '' : 's'}, ${data.categories.length} categories, ${data.failures.length} failed entries.`,
  ];
  const body = h(
    'body',
    null,
    h(
      'header',
      { class: 'top' },
      h('h1', null, data.title),
      h('p', null, facts),
      h('p', null, 'Score folder: ', h('code', null, data.scoreDir)),
      data.resultDir !== null ? h('p', null, 'Result folder: ', h('code', null, data.resultDir)) : null,
      data.generatedAt !== null ? h('p', null, `Generated ${data.generatedAt}`) : null,
    ),
    h(
      'nav',
      { class: 'toc' },
      [
        ['#overview', 'Leaderboard'],
        ['#categories', 'Categories'],
        ['#charts', 'Charts'],
        ['#cost', 'Cost & latency'],
        ['#error-classes', 'Error classes'],
        ['#failures', 'Failures'],
        ...((data.judges ?? []).length > 0 ? [['#judge', 'Judge']] : []),
      ].map(([href, text]) => h('a', { href }, text)),
    ),
    h(
      'main',
      null,
      data.warnings.length > 0
        ? h('div', { class: 'warnings' }, h('strong', null, `${data.warnings.length} problem(s) while reading:`), h('ul', null, data.warnings.map((w) => h('li', null, w))))
        : null,
      h('section', { class: 'block', id: 'overview' }, h('h2', null, 'Leaderboard'), data.models.length === 0 ? h('p', { class: 'note' }, 'No score files found.') : leaderboardTable(data),
        h('p', { class: 'note' }, 'Summary columns are computed as in data_overall.csv; a category without a score counts as 0 in the "overall" columns and makes the other summaries N/A.')),
      h('section', { class: 'block', id: 'categories' }, h('h2', null, 'Accuracy per category'), categoryTable(data), h('p', { class: 'note' }, 'Click a cell with failures to list them.')),
      h('section', { class: 'block', id: 'charts' }, h('h2', null, 'Charts'), legend(data), h('div', { class: 'charts' }, data.categories.map((c) => categoryChart(c, data.models)))),
      h('section', { class: 'block', id: 'cost' }, h('h2', null, 'Cost & latency'), costTable(data)),
      h('section', { class: 'block', id: 'error-classes' }, h('h2', null, 'Error classes'), errorClassTable(data)),
      h('section', { class: 'block', id: 'failures' }, h('h2', null, 'Failures'), failureBrowser(data)),
      (data.judges ?? []).length > 0 ? h('section', { class: 'block', id: 'judge' }, h('h2', null, 'Judge calibration'), judgeSection(data.judges!)) : null,
    ),
    h('footer', null, 'Made by bfcl-ts. Self-contained: no network access; the data is embedded in this file.'),
    h('script', { type: 'application/json', id: 'report-data' }, raw(jsonForScript(data))),
    h('script', null, raw(script)),
  );
  const head = h(
    'head',
    null,
    h('meta', { charset: 'utf-8' }),
    h('meta', { 'http-equiv': 'Content-Security-Policy', content: csp }),
    h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
    h('title', null, data.title),
    h('style', null, raw(REPORT_CSS)),
  );
  return `<!DOCTYPE html>\n${h('html', { lang: 'en' }, head, body).html}\n`;
}

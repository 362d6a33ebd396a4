import { describe, expect, it } from 'vitest';

import {
  CLIENT_FUNCTIONS,
  type DiffPart,
  clientScript,
  diffTokens,
  escapeHtml,
  failureMatches,
  fragment,
  h,
  raw,
  renderComparison,
  renderFailureDetail,
  renderFailureSummary,
  shorten,
  tokenize,
} from '../../../src/report/html/client.js';
import type { FailureView } from '../../../src/report/html/report-data.js';

const EVIL = `<script>alert("x")</script><img src=x onerror='alert(1)'>&`;

function failure(overrides: Partial<FailureView> = {}): FailureView {
  return {
    model: 'm',
    category: 'simple_python',
    id: 'simple_python_3',
    errorType: 'value_error:string',
    errorClass: 'value_mismatch',
    reasons: ["Invalid value for parameter 'city': 'Pariss'. Expected one of ['Paris']. Case insensitive."],
    turns: null,
    stateDiff: null,
    sections: [],
    usage: null,
    ...overrides,
  };
}

/** Both sides of a diff, rebuilt from its parts. */
function sides(parts: readonly DiffPart[]): [string, string] {
  return [parts.filter((p) => p.op <= 0).map((p) => p.text).join(''), parts.filter((p) => p.op >= 0).map((p) => p.text).join('')];
}

describe('HTML building', () => {
  it('escapes text and attribute values', () => {
    expect(escapeHtml(EVIL)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;alert(1)&#39;&gt;&amp;');
    expect(h('p', { title: EVIL, 'data-x': 3 }, EVIL).html).toBe(`<p title="${escapeHtml(EVIL)}" data-x="3">${escapeHtml(EVIL)}</p>`);
  });

  it('writes boolean attributes, skips empty ones, nests children and void elements', () => {
    expect(h('details', { open: true, hidden: false, id: null, class: undefined }, 'a', ['b', ['c', null, false]], h('br', null), 7).html).toBe(
      '<details open>abc<br>7</details>',
    );
    expect(fragment('<', raw('<b>ok</b>')).html).toBe('&lt;<b>ok</b>');
  });

  it('refuses invalid tag names, attribute names and event handlers', () => {
    expect(() => h('p onclick', null)).toThrow(/invalid tag/);
    expect(() => h('p', { 'a"b': 1 })).toThrow(/invalid attribute/);
    expect(() => h('p', { onclick: 'x()' })).toThrow(/invalid attribute/);
    expect(() => h('img', { OnError: 'x()' })).toThrow(/invalid attribute/);
  });

  it('shortens text to one line', () => {
    expect(shorten('  a\n b  ', 10)).toBe('a b');
    expect(shorten('abcdefghijk', 5)).toBe('abcd…');
  });
});

describe('token diff', () => {
  it('splits into words, spaces and punctuation', () => {
    expect(tokenize("{'a': 12,  x}")).toEqual(['{', "'", 'a', "'", ':', ' ', '12', ',', '  ', 'x', '}']);
  });

  it('finds the changed tokens', () => {
    expect(diffTokens(tokenize('Content: 17.67>>'), tokenize('Content: 17.6>>'), 100)).toEqual([
      { op: 0, text: 'Content: 17.' },
      { op: -1, text: '67' },
      { op: 1, text: '6' },
      { op: 0, text: '>>' },
    ]);
    expect(diffTokens(['a', 'b', 'c'], ['a', 'x', 'c', 'd'], 10)).toEqual([
      { op: 0, text: 'a' },
      { op: -1, text: 'b' },
      { op: 1, text: 'x' },
      { op: 0, text: 'c' },
      { op: 1, text: 'd' },
    ]);
    expect(diffTokens([], ['a'], 10)).toEqual([{ op: 1, text: 'a' }]);
    expect(diffTokens(['a'], ['a'], 0)).toEqual([{ op: 0, text: 'a' }]);
  });

  it('is a minimal edit script that rebuilds both sides', () => {
    const cases: [string, string][] = [
      ['the quick brown fox jumps', 'the slow brown dog jumps high'],
      ['{"a": [1, 2, 3], "b": {}}', '{"a": [1, 3], "b": {"c": 4}, "d": 5}'],
      ['', 'new'],
      ['gone', ''],
      ['x y z', 'z y x'],
    ];
    for (const [left, right] of cases) {
      const parts = diffTokens(tokenize(left), tokenize(right), 1000)!;
      expect(sides(parts)).toEqual([left, right]);
    }
    // Two tokens changed → two deletions and two insertions, no more.
    const parts = diffTokens(tokenize('a b c d'), tokenize('a X c Y'), 1000)!;
    expect(parts.filter((p) => p.op !== 0).map((p) => p.text)).toEqual(['b', 'X', 'd', 'Y']);
  });

  it('gives up beyond the edit limit', () => {
    expect(diffTokens(['a', 'b', 'c'], ['x', 'y', 'z'], 5)).toBeNull();
    expect(diffTokens(['a', 'b', 'c'], ['x', 'y', 'z'], 6)).not.toBeNull();
  });

  it('renders both sides with the differences marked, escaped', () => {
    const html = renderComparison('a <b> 1', 'a <b> 2', 'model', 'ground truth').html;
    expect(html).toContain('a &lt;b&gt; <del>1</del>');
    expect(html).toContain('a &lt;b&gt; <ins>2</ins>');
    expect(html).not.toContain('<b>');
  });
});

describe('failure rendering', () => {
  it('folds a failure into one escaped summary line', () => {
    const html = renderFailureSummary(failure({ id: EVIL, reasons: [EVIL] }), 4).html;
    expect(html).toMatch(/^<details class="failure" data-index="4" id="failure-4"><summary>/);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('<div class="failure-body"></div>');
  });

  it('never lets data become markup in the detail view', () => {
    const hostile = failure({
      reasons: [EVIL],
      usage: EVIL,
      stateDiff: { className: EVIL, turn: 2, rows: [{ attribute: EVIL, model: EVIL, groundTruth: `${EVIL}!` }] },
      turns: [
        {
          index: 0,
          user: [{ role: `user"><script>`, content: EVIL }],
          steps: [{ output: EVIL, decoded: [EVIL], toolResults: [EVIL], events: [EVIL] }],
          checked: [{ calls: [EVIL], results: [EVIL] }],
          groundTruthCalls: [EVIL],
          groundTruthResults: [EVIL],
          status: 'failed',
        },
      ],
      sections: [
        { kind: 'text', title: EVIL, open: true, text: EVIL },
        { kind: 'list', title: EVIL, open: false, items: [EVIL] },
        { kind: 'messages', title: EVIL, open: true, messages: [{ role: EVIL, content: EVIL }] },
        { kind: 'shared', title: EVIL, open: false, ref: 0 },
      ],
    });
    const html = renderFailureDetail(hostile, [EVIL]).html;
    expect(html).not.toMatch(/<script|<img/i);
    expect(html.split(escapeHtml('<script>alert("x")</script>')).length).toBeGreaterThan(10);
  });

  it('opens the failed turn and shows the state diff with its class and turn', () => {
    const html = renderFailureDetail(
      failure({
        stateDiff: { className: 'TwitterAPI', turn: 1, rows: [{ attribute: 'tweet_counter', model: '0', groundTruth: '1' }] },
        turns: [
          { index: 0, user: [], steps: [], checked: null, groundTruthCalls: [], groundTruthResults: null, status: 'passed' },
          { index: 1, user: [], steps: [], checked: [], groundTruthCalls: ['post_tweet()'], groundTruthResults: ['{}'], status: 'failed' },
        ],
      }),
      [],
    ).html;
    expect(html).toContain('State diff: TwitterAPI after turn 1');
    expect(html).toContain('<div class="diff-attr">tweet_counter</div>');
    expect(html).toContain('<pre class="value"><del>0</del></pre>');
    expect(html).toContain('<details class="turn turn-passed"><summary>Turn 0 — passed</summary>');
    expect(html).toContain('<details class="turn turn-failed" open><summary>Turn 1 — failed</summary>');
    expect(html).toContain('No decodable calls.');
  });

  it('filters by model, category, class, type and text', () => {
    const f = failure();
    const all = { model: '', category: '', errorClass: '', errorType: '', text: '' };
    expect(failureMatches(f, all)).toBe(true);
    expect(failureMatches(f, { ...all, model: 'other' })).toBe(false);
    expect(failureMatches(f, { ...all, category: 'simple_python', errorClass: 'value_mismatch', errorType: 'value_error:string' })).toBe(true);
    expect(failureMatches(f, { ...all, errorClass: 'parse_failure' })).toBe(false);
    expect(failureMatches(f, { ...all, text: '  PARISS ' })).toBe(true);
    expect(failureMatches(f, { ...all, text: 'python_3' })).toBe(true);
    expect(failureMatches(f, { ...all, text: 'london' })).toBe(false);
  });
});

describe('the page script', () => {
  it('is the client functions as plain JavaScript that parses and only starts the page', () => {
    const script = clientScript();
    expect(() => new Function(script)).not.toThrow();
    for (const f of CLIENT_FUNCTIONS) expect(script).toContain(`function ${f.name}(`);
    // No references to module bindings or bundler helpers that would not exist in the page.
    expect(script).not.toMatch(/__vi|__name|import\(|require\(|\bexport\b/);
    expect(script).not.toMatch(/<\/script|<!--/i);
    expect(script.trim().endsWith('startReport(document);\n})();')).toBe(true);
  });

  it('runs the shared helpers unchanged when evaluated on their own', () => {
    const body = CLIENT_FUNCTIONS.map((f) => f.toString()).join('\n');
    const standalone = new Function(`${body}\nreturn { h, diffTokens, tokenize };`)() as { h: typeof h; diffTokens: typeof diffTokens; tokenize: typeof tokenize };
    expect(standalone.h('p', { class: 'x' }, '<').html).toBe('<p class="x">&lt;</p>');
    expect(standalone.diffTokens(standalone.tokenize('a b'), standalone.tokenize('a c'), 10)).toEqual(diffTokens(tokenize('a b'), tokenize('a c'), 10));
  });
});

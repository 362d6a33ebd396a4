/** The report's stylesheet (inlined: the page loads nothing from the network). */
export const REPORT_CSS = `
:root {
  --fg: #1d2330; --muted: #5c667a; --line: #d8dde6; --bg: #ffffff; --panel: #f5f7fa;
  --accent: #2456a6; --bad: #b3261e; --bad-bg: #fdecea; --good: #1e7b34; --good-bg: #e7f5ea;
  --del-bg: #ffd7d5; --ins-bg: #ccf0d4;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 14px; color: var(--fg); background: var(--bg);
}
body { margin: 0; }
header.top { padding: 16px 24px; border-bottom: 1px solid var(--line); background: var(--panel); }
header.top h1 { margin: 0 0 4px; font-size: 22px; }
header.top p { margin: 2px 0; color: var(--muted); }
nav.toc { padding: 8px 24px; border-bottom: 1px solid var(--line); position: sticky; top: 0; background: var(--bg); z-index: 2; }
nav.toc a { margin-right: 16px; color: var(--accent); text-decoration: none; }
main { padding: 0 24px 48px; }
section.block { margin-top: 28px; scroll-margin-top: 48px; }
section.block > h2 { font-size: 18px; margin: 0 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
p.note, .note { color: var(--muted); font-size: 13px; }
.warnings { background: #fff8e1; border: 1px solid #f0d48a; padding: 8px 12px; margin-top: 16px; }
.warnings li { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; white-space: pre-wrap; }
.table-wrap { overflow-x: auto; max-width: 100%; }
table.grid { border-collapse: collapse; font-variant-numeric: tabular-nums; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: 4px 8px; text-align: right; white-space: nowrap; }
table.grid th { background: var(--panel); font-weight: 600; position: sticky; top: 0; }
table.grid td.text, table.grid th.text { text-align: left; }
table.grid td.na { color: var(--muted); }
table.grid tr.group-row td { background: #eef2f8; font-weight: 600; text-align: left; }
td .counts { display: block; color: var(--muted); font-size: 11px; }
[data-filter-category] { cursor: pointer; }
td[data-filter-category]:hover { background: #eef3fc; }
a.fail-link { color: var(--bad); font-size: 11px; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 12px; }
.chart { border: 1px solid var(--line); border-radius: 6px; padding: 8px; background: var(--bg); }
.chart h3 { margin: 0 0 4px; font-size: 13px; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.legend { display: flex; flex-wrap: wrap; gap: 12px; margin-bottom: 10px; }
span.swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -2px; border-radius: 2px; }
.swatch-0 { background: #0072b2; } .swatch-1 { background: #e69f00; } .swatch-2 { background: #009e73; } .swatch-3 { background: #cc79a7; }
.swatch-4 { background: #56b4e9; } .swatch-5 { background: #d55e00; } .swatch-6 { background: #f0e442; } .swatch-7 { background: #555555; }
.filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: end; padding: 10px; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 2px; }
.filters select, .filters input { font: inherit; padding: 3px 6px; min-width: 160px; }
#failure-count { margin: 10px 0; }
details.failure { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; background: var(--bg); }
details.failure > summary { cursor: pointer; padding: 6px 10px; display: flex; flex-wrap: wrap; gap: 10px; align-items: baseline; list-style: none; }
details.failure > summary::before { content: "▸"; color: var(--muted); }
details.failure[open] > summary::before { content: "▾"; }
details.failure[open] > summary { border-bottom: 1px solid var(--line); background: var(--panel); }
.f-model { color: var(--muted); font-size: 12px; }
.f-id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; }
.f-type { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--muted); font-size: 12px; }
.f-reason { flex-basis: 100%; color: var(--fg); font-size: 13px; padding-left: 18px; }
.badge { font-size: 11px; padding: 1px 6px; border-radius: 10px; background: var(--bad-bg); color: var(--bad); border: 1px solid #f3c2bd; }
.failure-body { padding: 8px 14px 14px; }
.detail h4 { margin: 12px 0 6px; font-size: 14px; }
.detail h5 { margin: 4px 0 6px; font-size: 13px; color: var(--muted); }
pre { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; white-space: pre-wrap; word-break: break-word; }
ul.plain { list-style: none; padding: 0; margin: 0; }
ul.plain li { margin: 3px 0; }
.reason { background: var(--bad-bg); border-left: 4px solid var(--bad); padding: 6px 10px; }
.reason h4 { margin-top: 0; }
.usage { color: var(--muted); margin: 6px 0 0; }
details.section { margin-top: 10px; border: 1px solid var(--line); border-radius: 4px; }
details.section > summary { cursor: pointer; padding: 4px 8px; background: var(--panel); font-weight: 600; font-size: 13px; }
details.section > pre, details.section > .messages, details.section > ul { padding: 6px 10px; }
.messages { display: flex; flex-direction: column; gap: 4px; }
.msg { border-left: 3px solid var(--line); padding: 2px 8px; }
.msg .role { display: block; font-size: 11px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.msg-user { border-color: #2456a6; } .msg-assistant { border-color: #8a5cd1; } .msg-tool { border-color: #1e7b34; } .msg-system { border-color: #999; }
.calls { border-left: 3px solid #e69f00; padding: 2px 8px; }
.calls .role, .checked .role { display: block; font-size: 11px; text-transform: uppercase; color: var(--muted); }
.event { color: #8a5a00; font-size: 12px; font-style: italic; padding-left: 11px; }
.step { margin: 6px 0; }
.step-label { font-size: 11px; color: var(--muted); }
details.turn { border: 1px solid var(--line); border-radius: 4px; margin: 6px 0; }
details.turn > summary { cursor: pointer; padding: 4px 8px; font-weight: 600; }
details.turn-passed > summary { background: var(--good-bg); color: var(--good); }
details.turn-failed > summary { background: var(--bad-bg); color: var(--bad); }
details.turn-not-checked > summary { background: var(--panel); color: var(--muted); }
details.turn > .messages, details.turn > p { padding: 6px 10px; }
.turn-columns { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; padding: 6px 10px; }
.state-diff { border: 1px solid #f3c2bd; border-radius: 4px; padding: 6px 10px; margin-top: 10px; }
.diff-row { margin: 8px 0; }
.diff-attr { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; margin-bottom: 4px; }
.compare { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
.compare .side { border: 1px solid var(--line); border-radius: 4px; padding: 4px 8px; overflow-x: auto; }
.side-label { font-size: 11px; text-transform: uppercase; color: var(--muted); }
.compare .note { grid-column: 1 / span 2; margin: 0; }
del { background: var(--del-bg); text-decoration: line-through; }
ins { background: var(--ins-bg); text-decoration: none; }
.agentic { border: 1px solid var(--line); border-radius: 4px; padding: 6px 10px; margin-top: 10px; }
.agentic-call { margin: 4px 0 4px 11px; }
.agentic-steps { padding: 6px 10px; }
.step-final { border-left: 3px solid var(--bad); padding-left: 6px; }
button { font: inherit; padding: 4px 12px; cursor: pointer; }
footer { color: var(--muted); font-size: 12px; padding: 16px 24px; border-top: 1px solid var(--line); }
@media (max-width: 800px) { .turn-columns, .compare { grid-template-columns: 1fr; } }
`;

/**
 * The terminal leaderboard of `bfcl scores`: selected columns of `data_overall.csv` drawn as a
 * grid, in the layout of Python's `tabulate(..., tablefmt="grid")` that the reference prints.
 */

import { pyLen } from '../py/builtins.js';

/** Columns of `data_overall.csv` shown in the terminal, with the heading printed for each. */
export const SCORE_TABLE_COLUMNS: readonly { readonly column: string; readonly heading: string }[] = [
  { column: 'Rank', heading: 'Rank' },
  { column: 'Model', heading: 'Model' },
  { column: 'Overall Acc', heading: 'Overall Acc' },
  { column: 'Non-Live AST Acc', heading: 'Non-Live AST Acc' },
  // Deviation: the reference also asks for "Non-Live Exec Acc", a column data_overall.csv no longer
  // has, so its `bfcl scores` raises ValueError; the column is left out here.
  { column: 'Live Acc', heading: 'Live Acc' },
  { column: 'Multi Turn Acc', heading: 'Multi Turn Acc' },
  // The last two headings are shortened, as the reference does.
  { column: 'Relevance Detection', heading: 'Relevance' },
  { column: 'Irrelevance Detection', heading: 'Irrelevance' },
];

/** Split the leaderboard CSV (written without quoting) into rows of cells. */
export function parseLeaderboardCsv(text: string): string[][] {
  return text
    .split(/\r?\n/)
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

// tabulate pads every header by 2 before measuring column widths (MIN_PADDING).
const HEADER_MIN_PADDING = 2;

type ColumnKind = 'int' | 'float' | 'text';

const INT_TEXT = /^\s*[+-]?\d+\s*$/;
const FLOAT_TEXT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$|^\s*[+-]?(?:inf|infinity|nan)\s*$/i;

/** tabulate's column type: int if every cell parses as an int, float if every cell is numeric, else text. */
function columnKind(cells: readonly string[]): ColumnKind {
  if (cells.length === 0) return 'text';
  if (cells.every((c) => INT_TEXT.test(c))) return 'int';
  if (cells.every((c) => FLOAT_TEXT.test(c))) return 'float';
  return 'text';
}

/** Python `format(float(s), "g")`, the form tabulate prints numbers of a float column in. */
function formatGeneral(s: string): string {
  const x = Number(s.trim().replace(/^([+-]?)inf(inity)?$/i, '$1Infinity'));
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const exponent = Number(x.toExponential(5).split('e')[1]);
  if (exponent < -4 || exponent >= 6) {
    const [mantissa, exp] = x.toExponential(5).split('e') as [string, string];
    const trimmed = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa;
    const e = Number(exp);
    return `${trimmed}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const fixed = x.toFixed(Math.max(0, 5 - exponent));
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

const padLeft = (s: string, width: number): string => ' '.repeat(Math.max(0, width - pyLen(s))) + s;
const padRight = (s: string, width: number): string => s + ' '.repeat(Math.max(0, width - pyLen(s)));

/** Characters after the decimal point, or else after the exponent mark (tabulate's `_afterpoint`); -1 for ints. */
function afterPoint(s: string): number {
  if (INT_TEXT.test(s)) return -1;
  let point = s.lastIndexOf('.');
  if (point === -1) point = s.toLowerCase().lastIndexOf('e');
  return point === -1 ? -1 : s.length - point - 1;
}

/** Format and align one column's cells to a common width; numbers right-aligned on the decimal point. */
function alignColumn(cells: readonly string[], kind: ColumnKind, minWidth: number): string[] {
  let strings: string[];
  if (kind === 'int') strings = cells.map((c) => BigInt(c.trim()).toString());
  else if (kind === 'float') {
    const formatted = cells.map(formatGeneral);
    const decimals = formatted.map(afterPoint);
    const maxDecimals = Math.max(...decimals);
    strings = formatted.map((s, i) => s + ' '.repeat(maxDecimals - decimals[i]!));
  } else strings = [...cells];
  const width = Math.max(minWidth, ...strings.map(pyLen));
  return strings.map((s) => (kind === 'text' ? padRight(s, width) : padLeft(s, width)));
}

/**
 * A grid table like `tabulate(rows, headers, tablefmt="grid")`: text columns left-aligned,
 * numeric columns right-aligned (headers too), one space of padding, `=` under the header.
 */
export function renderGrid(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const columns = headers.map((_, j) => rows.map((row) => row[j] ?? ''));
  const kinds = columns.map(columnKind);
  const aligned = columns.map((cells, j) => alignColumn(cells, kinds[j]!, pyLen(headers[j]!) + HEADER_MIN_PADDING));
  const widths = aligned.map((cells, j) => Math.max(pyLen(headers[j]!) + HEADER_MIN_PADDING, ...cells.map(pyLen)));
  const headerCells = headers.map((h, j) => (kinds[j] === 'text' ? padRight(h, widths[j]!) : padLeft(h, widths[j]!)));
  const rule = (fill: string): string => `+${widths.map((w) => fill.repeat(w + 2)).join('+')}+`;
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const out = [rule('-'), line(headerCells), rule('=')];
  rows.forEach((_, i) => {
    out.push(line(aligned.map((cells) => cells[i]!)));
    out.push(rule('-'));
  });
  if (rows.length === 0) out.push(rule('-')); // a header-only grid still ends with the bottom rule
  return out.join('\n');
}

/** The `bfcl scores` table for the text of `data_overall.csv`. Throws if a needed column is missing. */
export function renderScoreTable(overallCsv: string): string {
  const [header = [], ...rows] = parseLeaderboardCsv(overallCsv);
  const indices = SCORE_TABLE_COLUMNS.map(({ column }) => {
    const index = header.indexOf(column);
    if (index === -1) throw new RangeError(`data_overall.csv has no "${column}" column`);
    return index;
  });
  return renderGrid(
    SCORE_TABLE_COLUMNS.map((c) => c.heading),
    rows.map((row) => indices.map((i) => row[i] ?? '')),
  );
}

/**
 * The leaderboard CSV format of the reference (`write_score_csv_file`): rows sorted by one column,
 * a rank column, numbers shown as percentages or raw Python `str()`, no quoting, no trailing newline.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { formatFixed } from '../py/builtins.js';
import { floatRepr } from '../py/repr.js';

/** The placeholder shown for a missing value; it also sorts last. */
export const NOT_AVAILABLE = 'N/A';

/** One cell before formatting: text is written as is, numbers are Python ints (`bigint`) or floats (`number`). */
export type CsvCell = string | number | bigint;

/** A table to write: the header row and the data rows (the first cell of each row is replaced by the rank). */
export interface ScoreTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly CsvCell[])[];
  /** Column whose value orders the rows, highest first; `"N/A"` sorts after every number. */
  readonly sortColumn: number;
  /** Numeric columns written with Python's `str()` (cost, latency, format-sensitivity spread) instead of as a percentage. */
  readonly rawColumns?: readonly number[];
}

/** Python `str()` of an int or float. */
export function pyNumberStr(v: number | bigint): string {
  return typeof v === 'bigint' ? v.toString() : floatRepr(v);
}

/** Python `"{:.2f}%".format(v * 100)`. */
export function formatPercent(v: number | bigint): string {
  // An int times 100 stays an int; the format spec then converts it to float.
  const scaled = typeof v === 'bigint' ? Number(v * 100n) : v * 100;
  return `${formatFixed(scaled, 2)}%`;
}

function sortValue(cell: CsvCell | undefined): number {
  // BFCL parity: eval_runner_helper.py::write_score_csv_file — "N/A" counts as -1, below every accuracy in [0, 1].
  if (cell === NOT_AVAILABLE || cell === undefined) return -1;
  if (typeof cell === 'string') throw new TypeError(`cannot sort on the text cell ${JSON.stringify(cell)}`);
  return Number(cell);
}

/** Format one row's cells after the rank column. */
function formatRow(row: readonly CsvCell[], rank: number, rawColumns: ReadonlySet<number>): string[] {
  return row.map((cell, j) => {
    if (j === 0) return String(rank);
    if (typeof cell === 'string') return cell;
    return rawColumns.has(j) ? pyNumberStr(cell) : formatPercent(cell);
  });
}

/**
 * The exact CSV text of a table: header first, rows sorted descending by the sort column (stable, so
 * ties keep their input order), cells joined with `,` without quoting, rows with `\n`, no final newline.
 */
export function renderScoreCsv(table: ScoreTable): string {
  const rawColumns = new Set(table.rawColumns ?? []);
  // Array.prototype.sort is stable, as Python's sort with reverse=True is for equal keys.
  const sorted = [...table.rows].sort((a, b) => sortValue(b[table.sortColumn]) - sortValue(a[table.sortColumn]));
  const lines = [table.header.join(','), ...sorted.map((row, i) => formatRow(row, i + 1, rawColumns).join(','))];
  return lines.join('\n');
}

/** Write each `file name → text` pair into `dir` (created if missing), as UTF-8 without a final newline. */
export function writeCsvFiles(dir: string, files: ReadonlyMap<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of files) writeFileSync(join(dir, name), text, 'utf8');
}

/**
 * `bfcl diff`: two runs compared per category — accuracy change, the entries that flipped, and
 * McNemar's exact p-value on the flips (a paired test: the same entries were answered twice).
 */

import { ALL_CATEGORIES, sortById, type Category } from '../spec/categories.js';
import { mcnemarExactPValue } from './mcnemar.js';
import type { CategoryVerdicts, RunVerdicts } from './run-verdicts.js';
import type { TextStyle } from './text-style.js';

/** The comparison of one category. */
export interface CategoryDiff {
  readonly category: Category;
  readonly a: CategoryVerdicts | undefined;
  readonly b: CategoryVerdicts | undefined;
  /** B's accuracy minus A's (fractions); undefined unless both have the category. */
  readonly delta: number | undefined;
  /** Entries compared pairwise (evaluated in both); 0 when pairing was not possible. */
  readonly paired: number;
  readonly passToFail: readonly string[];
  readonly failToPass: readonly string[];
  /** McNemar's exact two-sided p-value; undefined when pairing was not possible. */
  readonly pValue: number | undefined;
  readonly note: string | undefined;
}

export interface RunDiff {
  readonly a: RunVerdicts;
  readonly b: RunVerdicts;
  readonly categories: readonly CategoryDiff[];
  /** All paired entries of all categories together. */
  readonly pooled: { paired: number; passToFail: number; failToPass: number; pValue: number };
}

function compareCategory(category: Category, a: CategoryVerdicts | undefined, b: CategoryVerdicts | undefined): CategoryDiff {
  const base = { category, a, b, delta: a !== undefined && b !== undefined ? b.accuracy - a.accuracy : undefined };
  if (a === undefined || b === undefined) {
    return { ...base, paired: 0, passToFail: [], failToPass: [], pValue: undefined, note: `only in ${a === undefined ? 'B' : 'A'}` };
  }
  if (a.evaluatedIds === undefined || b.evaluatedIds === undefined) {
    const partial = [a.evaluatedIds === undefined ? 'A' : undefined, b.evaluatedIds === undefined ? 'B' : undefined].filter(Boolean).join(' and ');
    return {
      ...base,
      paired: 0,
      passToFail: [],
      failToPass: [],
      pValue: undefined,
      note: `no paired comparison: the evaluated entries of ${partial} are unknown (partial evaluation, or a different dataset; see --data-dir)`,
    };
  }
  const inB = new Set(b.evaluatedIds);
  const common = a.evaluatedIds.filter((id) => inB.has(id));
  const passToFail: string[] = [];
  const failToPass: string[] = [];
  for (const id of common) {
    const failedA = a.failedIds.has(id);
    const failedB = b.failedIds.has(id);
    if (!failedA && failedB) passToFail.push(id);
    else if (failedA && !failedB) failToPass.push(id);
  }
  const uncommon = a.evaluatedIds.length + b.evaluatedIds.length - 2 * common.length;
  return {
    ...base,
    paired: common.length,
    passToFail: sortById(passToFail.map((id) => ({ id }))).map((x) => x.id),
    failToPass: sortById(failToPass.map((id) => ({ id }))).map((x) => x.id),
    pValue: mcnemarExactPValue(passToFail.length, failToPass.length),
    note: uncommon > 0 ? `${uncommon} ${uncommon === 1 ? 'entry' : 'entries'} evaluated in only one run left out of the pairing` : undefined,
  };
}

/** Compare run B against run A, category by category (in the standard category order). */
export function diffRuns(a: RunVerdicts, b: RunVerdicts): RunDiff {
  const categories = ALL_CATEGORIES.filter((c) => a.categories.has(c) || b.categories.has(c)).map((c) =>
    compareCategory(c, a.categories.get(c), b.categories.get(c)),
  );
  let paired = 0;
  let passToFail = 0;
  let failToPass = 0;
  for (const c of categories) {
    paired += c.paired;
    passToFail += c.passToFail.length;
    failToPass += c.failToPass.length;
  }
  return { a, b, categories, pooled: { paired, passToFail, failToPass, pValue: mcnemarExactPValue(passToFail, failToPass) } };
}

// ---------------------------------------------------------------------------------------------
// Text

function percent(x: number | undefined): string {
  return x === undefined ? '—' : `${(100 * x).toFixed(2)}%`;
}

function points(x: number | undefined): string {
  if (x === undefined) return '—';
  const v = 100 * x;
  const text = v.toFixed(2);
  return v > 0 && text !== '0.00' ? `+${text}` : text === '-0.00' ? '0.00' : text;
}

/** A p-value with four significant digits, in scientific notation below 0.0001. */
export function formatPValue(p: number | undefined): string {
  if (p === undefined) return '—';
  if (p === 1) return '1';
  if (p < 1e-4) return p.toExponential(2);
  return p.toPrecision(4).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

function table(rows: string[][], rightAligned: ReadonlySet<number>): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
  return rows.map((r) => r.map((cell, i) => (rightAligned.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd());
}

function wrapIds(ids: readonly string[], indent: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const id of ids) {
    const next = line === '' ? id : `${line}, ${id}`;
    if (indent.length + next.length > width && line !== '') {
      lines.push(indent + line + ',');
      line = id;
    } else {
      line = next;
    }
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

/** The diff as text: the runs, a table per category, then the flipped entries. */
export function renderRunDiff(diff: RunDiff, style: TextStyle): string {
  const describe = (run: RunVerdicts): string => `${run.label}  (${run.dir}, ${run.kind === 'scores' ? 'score files' : 'result files, evaluated now'})`;
  const lines = [`${style.bold('A:')} ${describe(diff.a)}`, `${style.bold('B:')} ${describe(diff.b)}`, ''];
  const rows: string[][] = [['Category', 'A', 'B', 'Δ (pp)', 'pass→fail', 'fail→pass', 'McNemar p']];
  for (const c of diff.categories) {
    const paired = c.pValue !== undefined;
    rows.push([
      c.category,
      percent(c.a?.accuracy),
      percent(c.b?.accuracy),
      points(c.delta),
      paired ? String(c.passToFail.length) : '—',
      paired ? String(c.failToPass.length) : '—',
      formatPValue(c.pValue),
    ]);
  }
  const pooled = diff.pooled;
  rows.push(['all paired entries', '', '', '', String(pooled.passToFail), String(pooled.failToPass), formatPValue(pooled.paired > 0 ? pooled.pValue : undefined)]);
  const rendered = table(rows, new Set([1, 2, 3, 4, 5, 6]));
  lines.push(style.bold(rendered[0]!), ...rendered.slice(1));

  for (const c of diff.categories) {
    if (c.passToFail.length === 0 && c.failToPass.length === 0 && c.note === undefined) continue;
    lines.push('', style.bold(c.category));
    if (c.note !== undefined) lines.push(style.dim(`  ${c.note}`));
    if (c.passToFail.length > 0) {
      lines.push(style.red(`  pass→fail (${c.passToFail.length}):`), ...wrapIds(c.passToFail, '    '));
    }
    if (c.failToPass.length > 0) {
      lines.push(style.green(`  fail→pass (${c.failToPass.length}):`), ...wrapIds(c.failToPass, '    '));
    }
  }
  lines.push(
    '',
    style.dim('McNemar p: exact two-sided binomial test on the entries that flipped; small values mean the change is unlikely to be chance.'),
  );
  return lines.join('\n') + '\n';
}

/** The diff as a JSON-ready object. */
export function runDiffToJson(diff: RunDiff): unknown {
  const run = (r: RunVerdicts) => ({ label: r.label, dir: r.dir, source: r.kind });
  const side = (v: CategoryVerdicts | undefined) =>
    v === undefined ? null : { accuracy: v.accuracy, correct: v.correct, total: v.total };
  return {
    a: run(diff.a),
    b: run(diff.b),
    categories: diff.categories.map((c) => ({
      category: c.category,
      a: side(c.a),
      b: side(c.b),
      accuracy_delta: c.delta ?? null,
      paired: c.paired,
      pass_to_fail: c.passToFail,
      fail_to_pass: c.failToPass,
      mcnemar_p: c.pValue ?? null,
      note: c.note ?? null,
    })),
    pooled: { paired: diff.pooled.paired, pass_to_fail: diff.pooled.passToFail, fail_to_pass: diff.pooled.failToPass, mcnemar_p: diff.pooled.paired > 0 ? diff.pooled.pValue : null },
  };
}

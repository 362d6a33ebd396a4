/**
 * The calibration as people and machines read it: a terminal table, a JSON document, a CSV, and
 * the disagreements (units where the judge and BFCL differ) with what is needed to read them.
 */

import type { JudgeUnit } from './bfcl-units.js';
import { JUDGE_COLUMNS, VERDICT_ROWS, findScope, type Calibration, type CalibrationScope } from './calibration.js';
import { unitKey, type JudgeRecord } from './judge-record.js';
import { UsageError } from '../util/errors.js';

/** A unit where the judge's label and BFCL's verdict differ (spec §5.3). */
export interface Disagreement {
  /** `judge_lenient`: the judge said correct, BFCL invalid; `judge_strict`: the judge said incorrect, BFCL valid. */
  readonly direction: 'judge_lenient' | 'judge_strict';
  readonly id: string;
  readonly category: string;
  readonly turn: number | null;
  readonly bfcl_error_type: string | null;
  readonly bfcl_error: string | null;
  readonly judge_label: string;
  readonly judge_explanation: string | null;
  readonly question: string | null;
  readonly tool_call: string | null;
  /** What BFCL expected: the possible answer, the turn's ground-truth calls, or whether a call was expected. */
  readonly expected: string | null;
  readonly tool_names: readonly string[];
}

/** The disagreements of a run's records, in record order (BFCL's: category, sort key, turn). */
export function findDisagreements(records: readonly JudgeRecord[], units: ReadonlyMap<string, JudgeUnit>): Disagreement[] {
  const found: Disagreement[] = [];
  for (const r of records) {
    if (r.bfcl_valid === null || (r.label !== 'correct' && r.label !== 'incorrect')) continue;
    if ((r.label === 'correct') === r.bfcl_valid) continue;
    const unit = units.get(unitKey(r));
    found.push({
      direction: r.label === 'correct' ? 'judge_lenient' : 'judge_strict',
      id: r.id,
      category: r.category,
      turn: r.turn,
      bfcl_error_type: r.bfcl_error_type,
      bfcl_error: unit?.bfcl.error ?? null,
      judge_label: r.label,
      judge_explanation: r.explanation,
      question: unit?.inputs?.question ?? null,
      tool_call: unit?.inputs?.tool_call ?? null,
      expected: unit?.expected ?? null,
      tool_names: unit?.toolNames ?? [],
    });
  }
  return found;
}

/** Lenient disagreements by BFCL error type: where the judge accepts what the checker rejects. */
export function countByErrorType(disagreements: readonly Disagreement[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const d of disagreements) {
    if (d.direction !== 'judge_lenient') continue;
    const type = d.bfcl_error_type ?? 'unknown';
    counts[type] = (counts[type] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** A `--min-agreement` threshold: `target` is `overall`, a group or category (`:entry` for multi-turn entries). */
export interface AgreementGate {
  readonly target: string;
  readonly threshold: number;
}

/** A gate checked against a calibration. */
export interface AgreementGateCheck {
  readonly gate: AgreementGate;
  /** null when the scope has no unit to agree on (counts as missed). */
  readonly agreement: number | null;
  readonly passed: boolean;
}

/** Parse `--min-agreement` items: `0.8`, `80%`, `<scope>=<value>` (`multi_turn=0.6`, `simple_python=90%`, `multi_turn:entry=0.5`). */
export function parseAgreementGates(items: readonly string[]): AgreementGate[] {
  return items.map((item) => {
    const eq = item.indexOf('=');
    const target = eq === -1 ? 'overall' : item.slice(0, eq).trim();
    const text = (eq === -1 ? item : item.slice(eq + 1)).trim();
    const percent = text.endsWith('%');
    const digits = percent ? text.slice(0, -1).trim() : text;
    if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(digits)) throw new UsageError(`Invalid --min-agreement "${item}": "${text}" is not a number (use 0.8 or 80%).`);
    const threshold = Number(digits) / (percent ? 100 : 1);
    if (threshold > 1) throw new UsageError(`Invalid --min-agreement "${item}": ${text} is above 1 (write 0.8 or 80%).`);
    if (target === '') throw new UsageError(`Invalid --min-agreement "${item}": no scope before "=".`);
    return { target, threshold };
  });
}

/** Check gates; a scope the run does not have is missed (the gate asked about something not judged). */
export function checkAgreementGates(calibration: Calibration, gates: readonly AgreementGate[]): AgreementGateCheck[] {
  return gates.map((gate) => {
    const agreement = findScope(calibration, gate.target)?.metrics.agreement ?? null;
    return { gate, agreement, passed: agreement !== null && agreement >= gate.threshold };
  });
}

/** What the calibration is of. */
export interface CalibrationMeta {
  readonly model: string;
  readonly judge: string;
  readonly judgeModelId: string;
  readonly template: string;
  readonly mode: string;
  readonly prices: { readonly input: number; readonly output: number } | null;
}

const pct = (x: number | null): string => (x === null ? 'N/A' : `${(100 * x).toFixed(1)}%`);
const fixed = (x: number | null, digits = 3): string => (x === null ? 'N/A' : x.toFixed(digits));
const signedPct = (x: number | null): string => (x === null ? 'N/A' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`);

function scopeLabel(s: CalibrationScope): string {
  return s.level === 'entry' ? `${s.name} (entries)` : s.level === 'turn' ? `${s.name} (turns)` : s.name;
}

/** The terminal table: one line per scope, then usage and the keys. */
export function renderCalibrationTable(calibration: Calibration, meta: CalibrationMeta): string {
  const header = ['scope', 'n', 'TP', 'FP', 'FN', 'TN', 'NP', 'fail', 'skip', 'none', 'agree', 'kappa', 'prec', 'recall', 'judge', 'bfcl', 'bias'];
  const rows = calibration.scopes.map((s) => {
    const m = s.matrix;
    const sum = (column: (typeof JUDGE_COLUMNS)[number]): number => m.valid[column] + m.invalid[column];
    const none = JUDGE_COLUMNS.reduce((n, c) => n + m.none[c], 0);
    return [
      scopeLabel(s),
      String(s.metrics.n),
      String(s.metrics.tp),
      String(s.metrics.fp),
      String(s.metrics.fn),
      String(s.metrics.tn),
      String(sum('NOT_PARSABLE')),
      String(sum('failed')),
      String(sum('skipped')),
      String(none),
      pct(s.metrics.agreement),
      fixed(s.metrics.kappa),
      pct(s.metrics.precision),
      pct(s.metrics.recall),
      pct(s.metrics.judgeCorrectRate),
      pct(s.metrics.bfclAccuracy),
      signedPct(s.metrics.bias),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const overall = calibration.scopes.find((s) => s.kind === 'overall');
  const usage = overall?.usage;
  const out = [
    `Judge ${meta.judge} (${meta.template}, ${meta.mode} mode) on ${meta.model}: agreement with BFCL's verdicts`,
    line(header),
    ...rows.map(line),
    '',
    'n = TP+FP+FN+TN (units with a BFCL verdict and a correct/incorrect label); positive class "correct", truth BFCL valid.',
    'NP, fail, skip: NOT_PARSABLE, failed and skipped units with a verdict (not in n); none: units BFCL has no verdict on.',
    'judge = the judge\'s correct rate (its implied score), bfcl = BFCL accuracy on the same units, bias = judge - bfcl (points).',
    'overall = single-turn and multi-turn-turn units outside the relevance group (the tool-calling template has no notion of a correct abstention).',
  ];
  if (usage !== undefined) {
    const cost = usage.cost === null ? 'N/A (no price: --judge-price in,out)' : `$${usage.cost.toFixed(4)}`;
    out.push(
      '',
      `Judge calls ${usage.calls} (retries ${usage.retries}), cache hits ${usage.cacheHits} (${usage.cachedPromptTokens + usage.cachedCompletionTokens} tokens not spent again); ` +
        `tokens ${usage.promptTokens} in + ${usage.completionTokens} out; cost ${cost}; ` +
        `latency mean ${fixed(usage.latencyMean, 2)} s, p50 ${fixed(usage.latencyP50, 2)} s, p95 ${fixed(usage.latencyP95, 2)} s.`,
    );
  }
  return out.join('\n') + '\n';
}

/** One scope as JSON (snake_case, the file format). */
function scopeJson(s: CalibrationScope): Record<string, unknown> {
  const m = s.metrics;
  const u = s.usage;
  return {
    scope: s.name,
    kind: s.kind,
    level: s.level,
    confusion_matrix: Object.fromEntries(VERDICT_ROWS.map((row) => [row, { ...s.matrix[row] }])),
    n: m.n,
    tp: m.tp,
    fp: m.fp,
    fn: m.fn,
    tn: m.tn,
    agreement: m.agreement,
    cohens_kappa: m.kappa,
    precision_correct: m.precision,
    recall_correct: m.recall,
    judge_correct_rate: m.judgeCorrectRate,
    bfcl_accuracy: m.bfclAccuracy,
    bias: m.bias,
    not_parsable_rate: m.notParsableRate,
    calls: u.calls,
    retries: u.retries,
    cache_hits: u.cacheHits,
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    cached_prompt_tokens: u.cachedPromptTokens,
    cached_completion_tokens: u.cachedCompletionTokens,
    cost_usd: u.cost,
    latency_mean_s: u.latencyMean,
    latency_p50_s: u.latencyP50,
    latency_p95_s: u.latencyP95,
  };
}

/** The calibration document (`calibration.json`, `--json`). */
export function calibrationDocument(
  calibration: Calibration,
  meta: CalibrationMeta,
  disagreements: readonly Disagreement[],
  gates: readonly AgreementGateCheck[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    model: meta.model,
    judge: meta.judge,
    judge_model_id: meta.judgeModelId,
    judge_template: meta.template,
    judge_mode: meta.mode,
    prices_usd_per_million_tokens: meta.prices,
    ...extra,
    scopes: calibration.scopes.map(scopeJson),
    disagreements: {
      judge_lenient: disagreements.filter((d) => d.direction === 'judge_lenient').length,
      judge_strict: disagreements.filter((d) => d.direction === 'judge_strict').length,
      lenient_by_bfcl_error_type: countByErrorType(disagreements),
    },
    gates: gates.map((g) => ({ target: g.gate.target, min_agreement: g.gate.threshold, agreement: g.agreement, passed: g.passed })),
  };
}

/** `calibration.csv`: one row per scope, the matrix flattened. */
export function calibrationCsv(calibration: Calibration): string {
  const matrixColumns = VERDICT_ROWS.flatMap((row) => JUDGE_COLUMNS.map((column) => `${row}_${column}`));
  const rows = calibration.scopes.map((s) => {
    const json = scopeJson(s);
    const flat = VERDICT_ROWS.flatMap((row) => JUDGE_COLUMNS.map((column) => s.matrix[row][column]));
    const rest = Object.entries(json)
      .filter(([key]) => key !== 'confusion_matrix')
      .map(([, value]) => (value === null ? 'N/A' : String(value)));
    return [...rest, ...flat.map(String)];
  });
  const header = [...Object.keys(scopeJson(calibration.scopes[0]!)).filter((k) => k !== 'confusion_matrix'), ...matrixColumns];
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

/** A CSV cell, quoted when it holds a comma, quote or line break. */
function csvCell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

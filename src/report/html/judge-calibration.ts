/**
 * The report's judge section: the calibration `bfcl judge` wrote beside the score files
 * (`<model>/judge/<judge>/<config>/calibration.json`) and the first disagreements per category
 * (`disagreements.jsonl`). Those files are the contract; nothing of the judge's code is used.
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { type Html, fragment, h } from './client.js';

/** One row of a judge's calibration table. */
export interface JudgeScopeView {
  readonly scope: string;
  readonly level: string;
  readonly n: number;
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly tn: number;
  readonly agreement: number | null;
  readonly kappa: number | null;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly notParsableRate: number | null;
}

/** A unit where the judge and BFCL disagree. */
export interface JudgeDisagreementView {
  readonly direction: string;
  readonly category: string;
  readonly id: string;
  readonly turn: number | null;
  readonly bfclErrorType: string | null;
  readonly bfclError: string | null;
  readonly judgeLabel: string;
  readonly judgeExplanation: string | null;
  readonly question: string | null;
  readonly toolCall: string | null;
  readonly expected: string | null;
}

/** One judge configuration's calibration of one model. */
export interface JudgeCalibrationView {
  readonly model: string;
  readonly judge: string;
  readonly template: string;
  readonly mode: string;
  readonly scopes: readonly JudgeScopeView[];
  /** The first disagreements of each category (`DISAGREEMENTS_SHOWN`), in BFCL's order. */
  readonly disagreements: readonly JudgeDisagreementView[];
  readonly disagreementCount: number;
}

/** Disagreements shown per category. */
export const DISAGREEMENTS_SHOWN = 5;

const isDirectory = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Every judge calibration under the given model folders; unreadable files go to `warnings`. */
export function collectJudgeCalibrations(scoreDir: string, modelDirs: readonly string[], warnings: string[]): JudgeCalibrationView[] {
  const views: JudgeCalibrationView[] = [];
  for (const model of modelDirs) {
    const judgeDir = join(scoreDir, model, 'judge');
    if (!isDirectory(judgeDir)) continue;
    for (const judge of readdirSync(judgeDir).sort()) {
      if (!isDirectory(join(judgeDir, judge))) continue;
      for (const config of readdirSync(join(judgeDir, judge)).sort()) {
        const dir = join(judgeDir, judge, config);
        const file = join(dir, 'calibration.json');
        if (!existsSync(file)) continue;
        try {
          views.push(readCalibration(model, dir, file));
        } catch (e) {
          warnings.push(`${file}: skipped, ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    }
  }
  return views;
}

function readCalibration(model: string, dir: string, file: string): JudgeCalibrationView {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const scopes = (Array.isArray(doc['scopes']) ? doc['scopes'] : []).map((raw): JudgeScopeView => {
    const s = raw as Record<string, unknown>;
    return {
      scope: str(s['scope']) ?? '?',
      level: str(s['level']) ?? '',
      n: num(s['n']) ?? 0,
      tp: num(s['tp']) ?? 0,
      fp: num(s['fp']) ?? 0,
      fn: num(s['fn']) ?? 0,
      tn: num(s['tn']) ?? 0,
      agreement: num(s['agreement']),
      kappa: num(s['cohens_kappa']),
      precision: num(s['precision_correct']),
      recall: num(s['recall_correct']),
      notParsableRate: num(s['not_parsable_rate']),
    };
  });
  const disagreements: JudgeDisagreementView[] = [];
  const shown = new Map<string, number>();
  let disagreementCount = 0;
  const lines = existsSync(join(dir, 'disagreements.jsonl')) ? readFileSync(join(dir, 'disagreements.jsonl'), 'utf8').split('\n') : [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    disagreementCount++;
    const d = JSON.parse(line) as Record<string, unknown>;
    const category = str(d['category']) ?? '?';
    if ((shown.get(category) ?? 0) >= DISAGREEMENTS_SHOWN) continue;
    shown.set(category, (shown.get(category) ?? 0) + 1);
    disagreements.push({
      direction: str(d['direction']) ?? '',
      category,
      id: str(d['id']) ?? '?',
      turn: num(d['turn']),
      bfclErrorType: str(d['bfcl_error_type']),
      bfclError: str(d['bfcl_error']),
      judgeLabel: str(d['judge_label']) ?? '',
      judgeExplanation: str(d['judge_explanation']),
      question: str(d['question']),
      toolCall: str(d['tool_call']),
      expected: str(d['expected']),
    });
  }
  return {
    model,
    judge: str(doc['judge']) ?? '?',
    template: str(doc['judge_template']) ?? '?',
    mode: str(doc['judge_mode']) ?? '?',
    scopes,
    disagreements,
    disagreementCount,
  };
}

const pct = (x: number | null): string => (x === null ? 'N/A' : `${(100 * x).toFixed(1)}%`);

/** The section's content: per judge configuration, its calibration table and first disagreements. */
export function judgeSection(views: readonly JudgeCalibrationView[]): Html {
  return fragment(
    views.map((v) =>
      h(
        'div',
        { class: 'judge' },
        h('h3', null, `${v.model}: judge ${v.judge} (${v.template}, ${v.mode} mode)`),
        h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            { class: 'grid' },
            h('thead', null, h('tr', null, h('th', { class: 'text' }, 'Scope'), ['n', 'TP', 'FP', 'FN', 'TN', 'Agreement', 'Kappa', 'Precision', 'Recall', 'NOT_PARSABLE'].map((c) => h('th', null, c)))),
            h(
              'tbody',
              null,
              v.scopes.map((s) =>
                h(
                  'tr',
                  null,
                  h('td', { class: 'text' }, s.level === 'entry' ? `${s.scope} (entries)` : s.level === 'turn' ? `${s.scope} (turns)` : s.scope),
                  [s.n, s.tp, s.fp, s.fn, s.tn].map((x) => h('td', null, x)),
                  h('td', null, pct(s.agreement)),
                  h('td', null, s.kappa === null ? 'N/A' : s.kappa.toFixed(3)),
                  h('td', null, pct(s.precision)),
                  h('td', null, pct(s.recall)),
                  h('td', null, pct(s.notParsableRate)),
                ),
              ),
            ),
          ),
        ),
        h(
          'details',
          { class: 'section' },
          h('summary', null, `Disagreements: ${v.disagreementCount} (the first ${DISAGREEMENTS_SHOWN} of each category)`),
          h(
            'ul',
            { class: 'plain' },
            v.disagreements.map((d) =>
              h(
                'li',
                null,
                h('code', null, d.turn === null ? d.id : `${d.id} turn ${d.turn}`),
                ` ${d.direction === 'judge_lenient' ? 'judge said correct, BFCL invalid' : 'judge said incorrect, BFCL valid'}`,
                d.bfclErrorType !== null ? fragment(' (', h('code', null, d.bfclErrorType), ')') : null,
                h(
                  'dl',
                  null,
                  [
                    ['Question', d.question],
                    ['Call', d.toolCall],
                    ['Expected', d.expected],
                    ["BFCL's reason", d.bfclError],
                    ["Judge's explanation", d.judgeExplanation],
                  ].map(([label, text]) => (text === null ? null : fragment(h('dt', null, label), h('dd', null, h('pre', null, text))))),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
    h('p', { class: 'note' }, 'Positive class "correct", truth BFCL\'s verdict; see README, "Judge", for how to read these figures.'),
  );
}

import { describe, expect, it } from 'vitest';

import {
  agreementMetrics,
  calibrate,
  cohensKappa,
  confusionMatrix,
  entryColumn,
  findScope,
  percentile,
  usageFigures,
} from '../../src/judge/calibration.js';
import { calibrationCsv, checkAgreementGates, parseAgreementGates } from '../../src/judge/calibration-report.js';
import type { JudgeRecord, JudgeStatus } from '../../src/judge/judge-record.js';

/** Kappa by its closed form for 2×2 tables (a different formula from the code's p_o/p_e one). */
function kappaClosedForm(tp: number, fp: number, fn: number, tn: number): number {
  return (2 * (tp * tn - fn * fp)) / ((tp + fp) * (fp + tn) + (tp + fn) * (fn + tn));
}

describe("Cohen's kappa", () => {
  it.each([
    [20, 5, 10, 15],
    [45, 15, 25, 15],
    [1, 0, 0, 1],
    [10, 3, 7, 0],
    [0, 4, 6, 0],
    [123, 17, 9, 51],
  ])('TP=%i FP=%i FN=%i TN=%i matches the closed form', (tp, fp, fn, tn) => {
    expect(cohensKappa(tp, fp, fn, tn)).toBeCloseTo(kappaClosedForm(tp, fp, fn, tn), 12);
  });

  it('is 0.4 on the textbook table (a=20, b=5, c=10, d=15)', () => {
    // p_o = 35/50 = 0.7; p_e = (25*30 + 25*20)/2500 = 0.5; kappa = 0.2/0.5.
    expect(cohensKappa(20, 5, 10, 15)).toBeCloseTo(0.4, 12);
  });

  it('is N/A with no units or when chance agreement is 1', () => {
    expect(cohensKappa(0, 0, 0, 0)).toBeNull();
    expect(cohensKappa(7, 0, 0, 0)).toBeNull();
    expect(cohensKappa(0, 0, 0, 3)).toBeNull();
  });
});

describe('confusion matrix and agreement', () => {
  const observations = [
    ...Array.from({ length: 6 }, () => ({ verdict: true, column: 'correct' as const })),
    ...Array.from({ length: 2 }, () => ({ verdict: false, column: 'correct' as const })),
    ...Array.from({ length: 3 }, () => ({ verdict: true, column: 'incorrect' as const })),
    ...Array.from({ length: 4 }, () => ({ verdict: false, column: 'incorrect' as const })),
    { verdict: true, column: 'NOT_PARSABLE' as const },
    { verdict: false, column: 'failed' as const },
    { verdict: false, column: 'skipped' as const },
    { verdict: null, column: 'correct' as const },
  ];

  it('counts rows by verdict and columns by label', () => {
    const m = confusionMatrix(observations);
    expect(m.valid).toEqual({ correct: 6, incorrect: 3, NOT_PARSABLE: 1, failed: 0, skipped: 0 });
    expect(m.invalid).toEqual({ correct: 2, incorrect: 4, NOT_PARSABLE: 0, failed: 1, skipped: 1 });
    expect(m.none).toEqual({ correct: 1, incorrect: 0, NOT_PARSABLE: 0, failed: 0, skipped: 0 });
  });

  it('computes every figure from the 2×2 part only', () => {
    const metrics = agreementMetrics(confusionMatrix(observations));
    expect(metrics).toMatchObject({ n: 15, tp: 6, fp: 2, fn: 3, tn: 4 });
    expect(metrics.agreement).toBeCloseTo(10 / 15, 12);
    expect(metrics.kappa).toBeCloseTo(kappaClosedForm(6, 2, 3, 4), 12);
    expect(metrics.precision).toBeCloseTo(6 / 8, 12);
    expect(metrics.recall).toBeCloseTo(6 / 9, 12);
    // Implied score: correct over every label of units with a verdict (the NOT_PARSABLE one counts as not correct).
    expect(metrics.judgeCorrectRate).toBeCloseTo(8 / 16, 12);
    // BFCL accuracy: valid over every unit with a verdict (10 valid of 18).
    expect(metrics.bfclAccuracy).toBeCloseTo(10 / 18, 12);
    expect(metrics.bias).toBeCloseTo(8 / 16 - 10 / 18, 12);
    expect(metrics.notParsableRate).toBeCloseTo(1 / 17, 12);
  });

  it('is N/A on empty denominators', () => {
    const metrics = agreementMetrics(confusionMatrix([{ verdict: false, column: 'incorrect' }]));
    expect(metrics.precision).toBeNull();
    expect(metrics.recall).toBeNull();
    expect(metrics.agreement).toBe(1);
    expect(metrics.kappa).toBeNull();
  });
});

describe('usage', () => {
  it('percentiles interpolate between ranks (numpy default)', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBeCloseTo(9.55, 12);
    expect(percentile([], 0.5)).toBeNull();
  });

  it('costs the calls, not the cache hits or skipped units', () => {
    const records = [
      rec({ prompt_tokens: 1000, completion_tokens: 10, latency_s: 1, attempts: 3 }),
      rec({ prompt_tokens: 2000, completion_tokens: 30, latency_s: 3 }),
      rec({ prompt_tokens: 500, completion_tokens: 5, cache_hit: true, latency_s: 9 }),
      rec({ execution_status: 'SKIPPED', label: null }),
    ];
    const usage = usageFigures(records, { input: 2.5, output: 10 });
    expect(usage).toMatchObject({ calls: 2, cacheHits: 1, retries: 2, promptTokens: 3000, completionTokens: 40, cachedPromptTokens: 500 });
    expect(usage.cost).toBeCloseTo((3000 * 2.5) / 1e6 + (40 * 10) / 1e6, 15);
    expect(usage.latencyMean).toBe(2);
    expect(usageFigures(records, null).cost).toBeNull();
  });
});

function rec(fields: Partial<Omit<JudgeRecord, 'execution_status'>> & { execution_status?: JudgeStatus }): JudgeRecord {
  return {
    id: 'simple_python_0',
    category: 'simple_python',
    turn: null,
    judge_template: 't',
    judge_mode: 'fc',
    judge_model: 'j',
    label: 'correct',
    explanation: null,
    score: 1,
    execution_status: 'COMPLETED',
    exceptions: [],
    attempts: 1,
    execution_seconds: 0,
    prompt_tokens: null,
    completion_tokens: null,
    total_tokens: null,
    latency_s: null,
    cache_key: null,
    cache_hit: false,
    response: '',
    bfcl_valid: true,
    bfcl_error_type: null,
    ...fields,
  };
}

describe('calibrate', () => {
  const records: JudgeRecord[] = [
    rec({ id: 'simple_python_0', bfcl_valid: true, label: 'correct' }),
    rec({ id: 'simple_python_1', bfcl_valid: false, label: 'correct' }),
    rec({ id: 'live_simple_0-0-0', category: 'live_simple', bfcl_valid: false, label: 'incorrect' }),
    rec({ id: 'irrelevance_0', category: 'irrelevance', bfcl_valid: true, label: 'incorrect' }),
    // A multi-turn entry failing at turn 1: turn 0 valid, turn 1 invalid, turn 2 no verdict.
    rec({ id: 'multi_turn_base_0', category: 'multi_turn_base', turn: 0, bfcl_valid: true, bfcl_entry_valid: false, ground_truth_calls: true, label: 'correct' }),
    rec({ id: 'multi_turn_base_0', category: 'multi_turn_base', turn: 1, bfcl_valid: false, bfcl_entry_valid: false, ground_truth_calls: true, label: 'correct' }),
    rec({ id: 'multi_turn_base_0', category: 'multi_turn_base', turn: 2, bfcl_valid: null, bfcl_entry_valid: false, ground_truth_calls: true, label: 'incorrect' }),
    // A valid entry whose only incorrect turn has empty ground truth: that turn does not count for the entry.
    rec({ id: 'multi_turn_base_1', category: 'multi_turn_base', turn: 0, bfcl_valid: true, bfcl_entry_valid: true, ground_truth_calls: true, label: 'correct' }),
    rec({ id: 'multi_turn_base_1', category: 'multi_turn_base', turn: 1, bfcl_valid: null, bfcl_entry_valid: true, ground_truth_calls: false, label: 'incorrect' }),
    // An inference error: one skipped record for the whole entry.
    rec({ id: 'multi_turn_base_2', category: 'multi_turn_base', turn: null, bfcl_valid: false, bfcl_entry_valid: false, execution_status: 'SKIPPED', label: null }),
  ];
  const calibration = calibrate(records, null);
  const names = calibration.scopes.map((s) => `${s.name}/${s.level}`);

  it('has category, group and overall rows, multi-turn at turn and entry level, relevance apart', () => {
    expect(names).toEqual([
      'simple_python/unit',
      'live_simple/unit',
      'irrelevance/unit',
      'multi_turn_base/turn',
      'multi_turn_base/entry',
      'non_live/unit',
      'live/unit',
      'multi_turn/turn',
      'multi_turn/entry',
      'relevance/unit',
      'overall/unit',
    ]);
  });

  it('counts multi-turn turns and entries as spec §4.3 says', () => {
    const turns = findScope(calibration, 'multi_turn_base')!;
    expect(turns.matrix.valid.correct).toBe(2);
    expect(turns.matrix.invalid.correct).toBe(1);
    expect(turns.matrix.none.incorrect).toBe(2);
    const entries = findScope(calibration, 'multi_turn_base:entry')!;
    expect(entries.matrix.invalid.incorrect).toBe(1); // entry 0: turn 2 incorrect
    expect(entries.matrix.valid.correct).toBe(1); // entry 1: the empty-ground-truth turn is left out
    expect(entries.matrix.invalid.skipped).toBe(1); // entry 2
    expect(entryColumn([])).toBe('skipped');
  });

  it('keeps relevance out of overall', () => {
    const overall = findScope(calibration, 'overall')!;
    // simple_python 0 (TP), 1 (FP), live_simple (TN), entry 0's turns 0 (TP) and 1 (FP), entry 1's turn 0 (TP).
    expect(overall.metrics).toMatchObject({ tp: 3, fp: 2, fn: 0, tn: 1 });
    expect(findScope(calibration, 'relevance')!.metrics).toMatchObject({ fn: 1 });
  });

  it('gates on agreement, by scope', () => {
    const gates = checkAgreementGates(calibration, parseAgreementGates(['0.5', 'simple_python=60%', 'multi_turn:entry=0.5', 'web_search=0.1']));
    expect(gates.map((g) => [g.gate.target, g.passed])).toEqual([
      ['overall', true],
      ['simple_python', false],
      ['multi_turn:entry', true],
      ['web_search', false],
    ]);
    expect(() => parseAgreementGates(['1.5'])).toThrow('above 1');
    expect(() => parseAgreementGates(['x=y'])).toThrow('not a number');
  });

  it('writes one CSV row per scope', () => {
    const lines = calibrationCsv(calibration).trimEnd().split('\n');
    expect(lines).toHaveLength(calibration.scopes.length + 1);
    expect(lines[0]).toMatch(/^scope,kind,level,n,tp,fp,fn,tn,agreement,cohens_kappa,/);
    expect(lines[0]).toContain('valid_correct,valid_incorrect,valid_NOT_PARSABLE,valid_failed,valid_skipped');
  });
});

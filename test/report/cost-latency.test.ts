import { describe, expect, test } from 'vitest';

import { parseJsonLossless } from '../../src/py/json.js';
import type { PyValue } from '../../src/py/value.js';
import {
  addCostLatency,
  collectCostLatency,
  emptyCostLatency,
  mergeCostLatency,
  summarizeCostLatency,
} from '../../src/report/cost-latency.js';

const entries = (...lines: string[]): PyValue[] => lines.map((l) => parseJsonLossless(l));
const UNPRICED = { inputPrice: null, outputPrice: null };

describe('collectCostLatency', () => {
  test('single-turn scalars and multi-turn lists of lists, zeros and non-numbers skipped', () => {
    const data = collectCostLatency(
      entries(
        '{"id": "simple_python_0", "result": [], "input_token_count": 192, "output_token_count": 52, "latency": 0.5}',
        '{"id": "simple_python_1", "result": [], "input_token_count": 0, "output_token_count": 3, "latency": 0}',
        '{"id": "multi_turn_base_0", "input_token_count": [[10, 20], [], [0, 30]], "output_token_count": [[1], [2.5]], "latency": [[1.25, 0.0], [2]]}',
        '{"id": "simple_python_2", "result": "Error during inference: boom", "traceback": "..."}',
        '{"id": "x", "latency": "1.5", "input_token_count": null, "output_token_count": true}',
      ),
    );
    expect(data.inputTokens).toEqual([192n, 10n, 20n, 30n]);
    expect(data.outputTokens).toEqual([52n, 3n, 1n, 2.5, 1n]);
    expect(data.latency).toEqual([0.5, 1.25, 2n]);
  });

  test('a list that is not entirely lists is ignored; an empty list adds nothing; deeper lists are skipped', () => {
    const data = collectCostLatency(entries('{"latency": [1.0, 2.0]}', '{"latency": []}', '{"latency": [[[3.0]], [4.0]]}'));
    expect(data.latency).toEqual([4.0]);
  });

  test('merged per-file latency moments give the statistics of all latencies together', () => {
    const files = [
      entries('{"latency": 0.5220794677734375}', '{"latency": [[0.3969593048095703, 2], [0.1]]}'),
      entries(),
      entries('{"latency": 0.8430464267730713}', '{"latency": 7}'),
    ];
    const merged = mergeCostLatency([emptyCostLatency(), ...files.map((file) => collectCostLatency(file))]);
    expect(merged.latencyMoments?.count).toBe(6n);
    const withoutMoments = { latency: merged.latency, inputTokens: [], outputTokens: [] };
    expect(summarizeCostLatency(merged, UNPRICED)).toEqual(summarizeCostLatency(withoutMoments, UNPRICED));
    // Latencies added after the moments were taken: the moments no longer describe them.
    const grown = collectCostLatency(files[0]!);
    addCostLatency(grown, entries('{"latency": 100.0}'));
    expect(mergeCostLatency([grown]).latencyMoments).toBeUndefined();
    expect(summarizeCostLatency(grown, UNPRICED)).toEqual(summarizeCostLatency({ ...grown, latencyMoments: undefined }, UNPRICED));
  });

  test('addCostLatency and mergeCostLatency append in order', () => {
    const a = collectCostLatency(entries('{"latency": 1.0}'));
    addCostLatency(a, entries('{"latency": 2.0}'));
    const merged = mergeCostLatency([a, collectCostLatency(entries('{"latency": 3.0}'))]);
    expect(merged.latency).toEqual([1.0, 2.0, 3.0]);
    expect(emptyCostLatency()).toEqual({ latency: [], inputTokens: [], outputTokens: [] });
  });
});

describe('summarizeCostLatency', () => {
  test('unpriced model: GPU cost from total latency, latency statistics rounded to 2 places', () => {
    const data = { latency: [0.5220794677734375, 0.3969593048095703, 0.8430464267730713], inputTokens: [], outputTokens: [] };
    // cost = sum/3600 * 23.92 / 100 ≈ 0.000117 → 0.0
    expect(summarizeCostLatency(data, UNPRICED)).toEqual({ cost: 0.0, latencyMean: 0.59, latencyStd: 0.23, latency95: 0.81 });
    const long = { latency: Array.from({ length: 2000 }, () => 3.0), inputTokens: [], outputTokens: [] };
    expect(summarizeCostLatency(long, UNPRICED).cost).toBe(0.4);
  });

  test('priced model: tokens × price per million, needs both token lists', () => {
    const data = { latency: [1.0, 2.0], inputTokens: [1000000n], outputTokens: [250000n, 250000n] };
    expect(summarizeCostLatency(data, { inputPrice: 2.5, outputPrice: 10.0 }).cost).toBe(7.5);
    expect(summarizeCostLatency({ ...data, outputTokens: [] }, { inputPrice: 2.5, outputPrice: 10.0 }).cost).toBe('N/A');
    // One price missing: the unpriced (GPU) formula applies.
    expect(summarizeCostLatency(data, { inputPrice: 2.5, outputPrice: null }).cost).toBe(0.0);
  });

  test('no data (or a model known only from score files): everything N/A', () => {
    const na = { cost: 'N/A', latencyMean: 'N/A', latencyStd: 'N/A', latency95: 'N/A' };
    expect(summarizeCostLatency(null, UNPRICED)).toEqual(na);
    expect(summarizeCostLatency(undefined, { inputPrice: 1, outputPrice: 1 })).toEqual(na);
    expect(summarizeCostLatency(emptyCostLatency(), UNPRICED)).toEqual(na);
  });

  test('a single latency value: standard deviation N/A instead of the reference crash', () => {
    expect(summarizeCostLatency({ latency: [2.0], inputTokens: [], outputTokens: [] }, UNPRICED)).toEqual({
      cost: 0.0,
      latencyMean: 2.0,
      latencyStd: 'N/A',
      latency95: 2.0,
    });
  });

  test('all-int latencies keep a Python int mean', () => {
    const summary = summarizeCostLatency({ latency: [3n, 3n], inputTokens: [], outputTokens: [] }, UNPRICED);
    expect(summary.latencyMean).toBe(3n);
    expect(summary.latencyStd).toBe(0);
    expect(summary.latency95).toBe(3);
  });

  test('the 95th percentile uses NumPy rounding', () => {
    // percentile of [2.5, 2.675, 2.675] is 2.675; numpy rounds it to 2.68 where Python would give 2.67.
    const summary = summarizeCostLatency({ latency: [2.5, 2.675, 2.675], inputTokens: [], outputTokens: [] }, UNPRICED);
    expect(summary.latency95).toBe(2.68);
  });
});

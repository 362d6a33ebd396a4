/**
 * Cost and latency columns of the overall leaderboard (`record_cost_latency`, `get_cost_latency_info`).
 *
 * Token counts and latencies are collected from the result files evaluated in the current run; a
 * model known only from earlier score files has none, and all four columns then read "N/A".
 */

import { pyRound, pySum } from '../py/builtins.js';
import { intTrueDivide } from '../py/numbers.js';
import { isDict, type PyValue } from '../py/value.js';
import { NOT_AVAILABLE, type CsvCell } from './csv-writer.js';
import {
  exactMomentsOf,
  meanAndStdevOfMoments,
  meanOfMoments,
  mergeExactMoments,
  numpyPercentile,
  numpyRound,
  type ExactMoments,
  type PyNumber,
} from './python-statistics.js';

/** Hourly price of an 8×H100 machine (USD), used to cost locally served models. */
export const H100_X8_PRICE_PER_HOUR = 23.92;
/** Concurrent requests of a local server: GPU up-time is approximated as total latency / this. */
export const LOCAL_SERVER_MAX_CONCURRENT_REQUEST = 100;

/** Nonzero token counts and latencies of one model, in the order the result entries were read. */
export interface CostLatencyData {
  readonly latency: PyNumber[];
  readonly inputTokens: PyNumber[];
  readonly outputTokens: PyNumber[];
  /**
   * The exact moments of `latency`, taken where the data was collected (an evaluation thread):
   * the leaderboard, at the end of a run, then only merges them.
   */
  readonly latencyMoments?: ExactMoments;
}

/** Prices in USD per million tokens; `null` for models without a price (locally served). */
export interface ModelPrices {
  readonly inputPrice: number | null;
  readonly outputPrice: number | null;
}

/** The four cost/latency cells of `data_overall.csv`: Python numbers, or "N/A". */
export interface CostLatencySummary {
  readonly cost: CsvCell;
  readonly latencyMean: CsvCell;
  readonly latencyStd: CsvCell;
  readonly latency95: CsvCell;
}

/** No data: what a model evaluated without usable fields, or known only from score files, has. */
export function emptyCostLatency(): CostLatencyData {
  return { latency: [], inputTokens: [], outputTokens: [] };
}

/** A nonzero Python int or float (bool counts as int, as `isinstance(True, int)`), else undefined. */
function nonzeroNumber(v: PyValue | undefined): PyNumber | undefined {
  if (typeof v === 'boolean') return v ? 1n : undefined;
  if (typeof v === 'bigint') return v !== 0n ? v : undefined;
  if (typeof v === 'number') return v !== 0 ? v : undefined;
  return undefined;
}

/**
 * Append the usable values of one result field: a list of lists (multi-turn: per turn, per step) is
 * flattened one level; a scalar is taken alone; zeros and non-numbers are skipped.
 */
function collectField(value: PyValue | undefined, into: PyNumber[]): void {
  if (value === undefined) return;
  // BFCL parity: eval_runner_helper.py::record_cost_latency — only a list made entirely of lists is
  // flattened (an empty list qualifies and adds nothing); any other list is ignored.
  if (Array.isArray(value) && value.every((inner) => Array.isArray(inner))) {
    // Index loops: a real run has about 10,000 latencies, read in V8's unoptimized tiers.
    for (let i = 0; i < value.length; i++) {
      const inner = value[i] as PyValue[];
      for (let j = 0; j < inner.length; j++) {
        const n = nonzeroNumber(inner[j]);
        if (n !== undefined) into.push(n);
      }
    }
    return;
  }
  const n = nonzeroNumber(value);
  if (n !== undefined) into.push(n);
}

/** Token counts and latencies of one result file's entries (`record_cost_latency`). */
export function collectCostLatency(resultEntries: readonly PyValue[]): CostLatencyData {
  const data = emptyCostLatency();
  addCostLatency(data, resultEntries);
  return data.latency.length === 0 ? data : { ...data, latencyMoments: exactMomentsOf(data.latency) };
}

/** The data's latency moments when they are there and still describe its latencies. */
function currentLatencyMoments(data: CostLatencyData): ExactMoments | undefined {
  const moments = data.latencyMoments;
  return moments !== undefined && moments.count === BigInt(data.latency.length) ? moments : undefined;
}

/** Append one more result file's token counts and latencies to a model's data. */
export function addCostLatency(data: CostLatencyData, resultEntries: readonly PyValue[]): void {
  for (const entry of resultEntries) {
    if (!isDict(entry)) continue;
    collectField(entry.get('latency'), data.latency);
    collectField(entry.get('input_token_count'), data.inputTokens);
    collectField(entry.get('output_token_count'), data.outputTokens);
  }
}

/** Concatenate several files' data in order (the caller merges per model in evaluation order). */
export function mergeCostLatency(parts: readonly CostLatencyData[]): CostLatencyData {
  const merged = emptyCostLatency();
  // The parts' latency moments add up, unless a part with latencies has none.
  let moments: ExactMoments | undefined;
  let momentsComplete = true;
  for (const part of parts) {
    merged.latency.push(...part.latency);
    merged.inputTokens.push(...part.inputTokens);
    merged.outputTokens.push(...part.outputTokens);
    if (part.latency.length === 0) continue;
    const own = currentLatencyMoments(part);
    if (own === undefined) momentsComplete = false;
    else moments = moments === undefined ? own : mergeExactMoments(moments, own);
  }
  return momentsComplete && moments !== undefined ? { ...merged, latencyMoments: moments } : merged;
}

/** Python `a * b` for an int or float count and a float price. */
const times = (count: PyNumber, price: number): number => Number(count) * price;

/** Python `total / divisor` (true division) where total may be an int. */
function divide(total: PyNumber, divisor: bigint): number {
  return typeof total === 'bigint' ? intTrueDivide(total, divisor) : total / Number(divisor);
}

/**
 * Total cost in USD, rounded to cents, or "N/A".
 * Priced (API) models: tokens × price per million, which needs both token lists. Unpriced (local)
 * models: GPU hours (total latency / 3600) × the 8×H100 hourly price / the server's concurrency.
 */
function totalCost(data: CostLatencyData, prices: ModelPrices): CsvCell {
  if (prices.inputPrice !== null && prices.outputPrice !== null) {
    if (data.inputTokens.length === 0 || data.outputTokens.length === 0) return NOT_AVAILABLE;
    const inputCost = times(pySum(data.inputTokens), prices.inputPrice) / 1000000;
    const outputCost = times(pySum(data.outputTokens), prices.outputPrice) / 1000000;
    return pyRound(inputCost + outputCost, 2);
  }
  if (data.latency.length === 0) return NOT_AVAILABLE;
  const hours = divide(pySum(data.latency), 3600n);
  return pyRound((hours * H100_X8_PRICE_PER_HOUR) / LOCAL_SERVER_MAX_CONCURRENT_REQUEST, 2);
}

/**
 * The cost and latency cells of one model (`get_cost_latency_info`): latency mean, sample standard
 * deviation and 95th percentile, each rounded to 2 places, "N/A" without latency data.
 *
 * Deviation: with exactly one latency value the reference crashes (`statistics.stdev` raises
 * StatisticsError); here the standard deviation is "N/A" and the other cells are computed.
 */
export function summarizeCostLatency(data: CostLatencyData | null | undefined, prices: ModelPrices): CostLatencySummary {
  const d = data ?? emptyCostLatency();
  const cost = totalCost(d, prices);
  if (d.latency.length === 0) {
    return { cost, latencyMean: NOT_AVAILABLE, latencyStd: NOT_AVAILABLE, latency95: NOT_AVAILABLE };
  }
  // Mean and deviation from the exact moments (taken by the evaluation threads when they collected
  // the latencies, else here); a single value has no deviation (see above).
  const moments = currentLatencyMoments(d) ?? exactMomentsOf(d.latency);
  const { mean, stdev } = d.latency.length < 2 ? { mean: meanOfMoments(moments), stdev: undefined } : meanAndStdevOfMoments(moments);
  return {
    cost,
    latencyMean: pyRound(mean, 2),
    latencyStd: stdev === undefined ? NOT_AVAILABLE : pyRound(stdev, 2),
    // BFCL parity: eval_runner_helper.py::get_cost_latency_info — the percentile is a numpy.float64,
    // so `round(x, 2)` is NumPy's scale-rint-unscale rounding, not Python's.
    latency95: numpyRound(numpyPercentile(d.latency, 95), 2),
  };
}

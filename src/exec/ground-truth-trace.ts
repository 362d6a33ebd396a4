import { jsonString } from '../py/json.js';
import type { PyDict } from '../py/value.js';
import type { SimContext } from '../sim/simulated-api.js';
import { EntryExecutor } from './executor.js';
import { canonicalStateJson } from './state-snapshot.js';

/** One multi-turn entry's ground truth, as needed to replay it. */
export interface GroundTruthReplay {
  readonly id: string;
  readonly initialConfig: PyDict;
  readonly involvedClasses: readonly string[];
  readonly turns: readonly (readonly string[])[];
  readonly longContext: boolean;
}

/**
 * Execute every ground-truth turn and render the conformance trace line
 * (`{"id":..,"turns":[{"results":[..],"state":{..}}]}`, canonical JSON, see shared/conformance).
 */
export function traceGroundTruth(entry: GroundTruthReplay, context: SimContext, modelName: string): string {
  const executor = new EntryExecutor({
    modelName: `${modelName}_eval`,
    entryId: entry.id,
    initialConfig: entry.initialConfig,
    involvedClasses: entry.involvedClasses,
    longContext: entry.longContext,
    context,
  });
  const turns = entry.turns.map((calls) => {
    const results = executor.execute(calls);
    const state = canonicalStateJson(executor.snapshot());
    return `{"results":[${results.map((r) => jsonString(r, false)).join(',')}],"state":${state}}`;
  });
  return `{"id":${jsonString(entry.id, false)},"turns":[${turns.join(',')}]}`;
}

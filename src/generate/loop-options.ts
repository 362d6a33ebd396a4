import type { SimContext } from '../sim/simulated-api.js';
import type { QueryOptions } from '../spec/model.js';

/** What the inference loops need besides the model and the entry. */
export interface LoopOptions {
  /** Record the model input of every query (`--include-input-log`). */
  readonly includeInputLog: boolean;
  /** Leave `state_info` records out of multi-turn logs (`--exclude-state-log`). */
  readonly excludeStateLog: boolean;
  /** Long-context filler for the simulated APIs (the data directory's `long_context.json`). */
  readonly simContext: SimContext;
  /** Fired on Ctrl-C: queries should stop, and the entry is then discarded. */
  readonly signal?: AbortSignal;
  /** The observers of an entry's queries (attempts and retries), so the run can watch its requests. */
  readonly queryHooks?: (entryId: string) => Omit<QueryOptions, 'signal'>;
}

/** The per-query options of an entry. */
export function queryOptionsOf(options: LoopOptions, entryId: string): QueryOptions {
  const { signal, queryHooks } = options;
  return {
    ...(signal !== undefined && { signal }),
    ...queryHooks?.(entryId),
  };
}

/** Thrown between steps once the run was interrupted, so the entry is not written half done. */
export class GenerationInterrupted extends Error {
  constructor() {
    super('generation interrupted');
    this.name = 'GenerationInterrupted';
  }
}

/** Throw `GenerationInterrupted` if the run was interrupted. */
export function throwIfInterrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new GenerationInterrupted();
}

/**
 * Instances of the agentic backend classes (`MemoryAPI_kv`, `MemoryAPI_vector`,
 * `MemoryAPI_rec_sum`, `WebSearchAPI`) for the executor. Unlike the eight simulated classes they
 * need things from outside (snapshot files, an embedder, a search service), which the run hands in
 * as `AgenticBackends`; and some of their calls are asynchronous (`executeAsync`).
 */

import { preparesCalls } from '../agentic/memory/call-preparer.js';
import { isMemoryClass, createMemoryInstance } from '../agentic/memory/memory-classes.js';
import type { MemoryApi, MemoryBackendDeps } from '../agentic/memory/memory-api.js';
import type { SimContext, SimulatedApi } from '../sim/simulated-api.js';
import { createSimulatedInstance } from '../sim/registry.js';
import { InternalError } from '../util/errors.js';

/** The reference's class name of the web-search backend. */
export const WEB_SEARCH_CLASS = 'WebSearchAPI';

/** What the agentic classes are built with; a class whose part is missing cannot be instantiated. */
export interface AgenticBackends {
  /** Snapshot store, warning sink and (for `MemoryAPI_vector`) embedder of the memory classes. */
  readonly memory?: MemoryBackendDeps;
  /** Builds a `WebSearchAPI` over the run's search provider and page fetcher. */
  readonly webSearch?: (ctx: SimContext) => SimulatedApi;
}

/** Whether `className` is one of the four agentic backend classes. */
export function isAgenticClass(className: string): boolean {
  return className === WEB_SEARCH_CLASS || isMemoryClass(className);
}

/** A new instance of a simulated or agentic class (scenario not loaded yet). */
export function createInstance(className: string, ctx: SimContext, backends: AgenticBackends | undefined): SimulatedApi {
  if (className === WEB_SEARCH_CLASS) {
    if (backends?.webSearch === undefined) throw new InternalError('WebSearchAPI needs web backends (search provider and page fetcher); none were configured for this run');
    return backends.webSearch(ctx);
  }
  if (isMemoryClass(className)) {
    if (backends?.memory === undefined) throw new InternalError(`${className} needs memory backends (snapshot store); none were configured for this run`);
    return createMemoryInstance(className, ctx, backends.memory);
  }
  return createSimulatedInstance(className, ctx);
}

/** Whether some calls of `instance` must go through `executeAsync` (promised results or prepared calls). */
export function isAsyncInstance(instance: SimulatedApi): boolean {
  const asyncMethods = (instance as Partial<{ _asyncMethods: ReadonlySet<string> }>)._asyncMethods;
  return (asyncMethods !== undefined && asyncMethods.size > 0) || preparesCalls(instance);
}

/** Whether `instance` is a memory backend (it has a snapshot to flush and a core memory to show). */
export function isMemoryInstance(instance: SimulatedApi): instance is MemoryApi {
  return isMemoryClass(instance._className);
}

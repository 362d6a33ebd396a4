/**
 * The registry of the three memory backends, by the reference's class name, and what it takes to
 * build one: the simulated-API context plus `MemoryBackendDeps` (snapshot store, warning sink and,
 * for the vector backend, an embedder).
 */
import type { SimContext } from '../../sim/simulated-api.js';
import type { MemoryApi, MemoryBackendDeps } from './memory-api.js';
import { MemoryAPI_kv } from './memory-api-kv.js';
import { MemoryAPI_rec_sum } from './memory-api-rec-sum.js';
import { MemoryAPI_vector } from './memory-api-vector.js';

/** A memory backend's constructor. */
export type MemoryClassConstructor = new (ctx: SimContext, deps: MemoryBackendDeps) => MemoryApi;

/** The memory backends by the reference's class name (`MemoryAPI_<backend>`). */
export const MEMORY_CLASSES = {
  MemoryAPI_kv,
  MemoryAPI_vector,
  MemoryAPI_rec_sum,
} as const satisfies Readonly<Record<string, MemoryClassConstructor>>;

/** `MemoryAPI_kv`, `MemoryAPI_vector` or `MemoryAPI_rec_sum`. */
export type MemoryClassName = keyof typeof MEMORY_CLASSES;

/** Whether `className` is one of the memory backends. */
export function isMemoryClass(className: string): className is MemoryClassName {
  return Object.prototype.hasOwnProperty.call(MEMORY_CLASSES, className);
}

/** A new, empty memory backend; call `_loadScenario(initial_config[className], false)` next. */
export function createMemoryInstance(className: MemoryClassName, ctx: SimContext, deps: MemoryBackendDeps): MemoryApi {
  const ctor: MemoryClassConstructor = MEMORY_CLASSES[className];
  return new ctor(ctx, deps);
}

/** Shared set-up of the memory backend tests: an in-memory snapshot store, collected warnings, loaded instances. */
import type { Embedder } from '../../../src/agentic/memory/embedder.js';
import { InMemorySnapshotStore } from '../../../src/agentic/memory/in-memory-snapshot-store.js';
import type { MemoryApi, MemoryBackendDeps } from '../../../src/agentic/memory/memory-api.js';
import { pyDict } from '../../../src/py/value.js';
import type { SimContext } from '../../../src/sim/simulated-api.js';
import { EMPTY_CONTEXT } from '../../helpers/sim.js';

export const RESULT_DIR = '/results/gpt-4o-2024-11-20-FC';

/** Dependencies whose store and warnings the test can read. */
export interface Kit {
  readonly store: InMemorySnapshotStore;
  readonly warnings: string[];
  readonly deps: MemoryBackendDeps;
}

export function makeKit(embedder?: Embedder): Kit {
  const store = new InMemorySnapshotStore();
  const warnings: string[] = [];
  return { store, warnings, deps: { snapshots: store, warn: (message) => warnings.push(message), embedder } };
}

/** The entry's `initial_config["MemoryAPI_<backend>"]`. */
export function memoryConfig(testId: string, scenario: string) {
  return pyDict({ model_result_dir: RESULT_DIR, scenario, test_id: testId, test_category: testId.slice(0, testId.lastIndexOf('_')) });
}

/** A backend after `_load_scenario` for `testId` (default: the first prerequisite, which starts empty). */
export function loadMemory<T extends MemoryApi>(
  create: (ctx: SimContext, deps: MemoryBackendDeps) => T,
  kit: Kit,
  testId: string,
  scenario = 'customer',
): T {
  const api = create(EMPTY_CONTEXT, kit.deps);
  api._loadScenario(memoryConfig(testId, scenario), false);
  return api;
}

/**
 * The generation-time steps of agentic entries in one model's run
 * (_llm_response_generation.py::collect_test_cases, spec §2.1 step 5 and §4): which memory
 * prerequisites still need to run, what every agentic entry's `initial_config` is, and which
 * memory snapshots an `--allow-overwrite` run starts without.
 */

import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { CONTINUE_CHAIN_KEY } from '../agentic/memory/memory-api.js';
import { cleanUpMemoryPrereqEntries, withMemoryInitialConfig, withWebSearchInitialConfig } from '../data/agentic.js';
import { toTestEntry } from '../data/test-entry.js';
import type { PyDict } from '../py/value.js';
import {
  extractTestCategoryFromId,
  getDirectoryStructureByCategory,
  isAgentic,
  isFirstMemoryPrereqEntry,
  isMemory,
  isMemoryPrereq,
} from '../spec/categories.js';
import type { TestEntry } from '../spec/schemas.js';

/**
 * The entries still to generate, ready to run: memory prerequisites whose category has no question
 * left to generate are dropped, dependencies on entries not being generated are removed (their
 * snapshot is on disk already), and web search and memory entries get their `initial_config`
 * (`model_result_dir` = the absolute model result folder). Other entries pass unchanged.
 *
 * BFCL parity: _llm_response_generation.py::collect_test_cases — the clean-up runs after finished
 * ids were removed. Deviation: a prerequisite whose earlier attempt ended as an error
 * (`failedBefore`) is generated again, even when every question of its category is done: it runs
 * on top of the scenario's latest snapshot and its flush adds its memory writes there (the
 * reference never retries it, so that conversation's memory stays missing for good).
 */
export function prepareAgenticEntries(pending: readonly TestEntry[], modelDir: string, failedBefore: ReadonlySet<string> = new Set()): TestEntry[] {
  if (!pending.some((entry) => isAgentic(entry.id))) return [...pending];
  const modelResultDir = resolve(modelDir);
  const retried = new Set(pending.flatMap((entry) => (isMemoryPrereq(entry.id) && failedBefore.has(entry.id) ? [entry.id] : [])));
  const cleaned = cleanUpMemoryPrereqEntries(pending, retried);
  return cleaned.map((entry) => {
    const prepared = withWebSearchInitialConfig(withMemoryInitialConfig(entry, modelResultDir));
    // A first prereq generated again must not wipe what the rest of its chain wrote meanwhile.
    return retried.has(entry.id) && isFirstMemoryPrereqEntry(entry.id) ? continuingChain(prepared) : prepared;
  });
}

/** The entry with `continue_chain: true` in its memory config: it starts from the chain's latest snapshot. */
function continuingChain(entry: TestEntry): TestEntry {
  const raw: PyDict = new Map(entry.raw);
  const configs = new Map(entry.initialConfig);
  for (const [className, config] of configs) {
    if (config instanceof Map) configs.set(className, new Map([...config, [CONTINUE_CHAIN_KEY, true]]));
  }
  raw.set('initial_config', configs);
  return toTestEntry(raw);
}

/** `<model dir>/agentic/memory/<backend>/memory_snapshot`: where a memory category's snapshots live. */
export function memorySnapshotFolder(modelDir: string, category: string): string {
  return join(modelDir, getDirectoryStructureByCategory(category), 'memory_snapshot');
}

/**
 * `--allow-overwrite` without `--run-ids`: move aside (to `<folder>.previous`, replacing an older
 * one) the snapshot folder of every memory category of the run whose prerequisites all run again,
 * so no chain can start from an earlier run's memory, and an interrupted overwrite loses nothing:
 * the old results stay in place until a category completes, and the old snapshots stay beside.
 * A category some of whose prerequisites are already done (an interrupted overwrite being resumed
 * from its `.new` files) keeps its snapshots: they are this overwrite's own. Returns the folders moved.
 *
 * Deviation (spec §4.4): the reference deletes `<model dir>/memory_snapshot/<category>`, where no
 * snapshot lives, so old snapshots survive; a failing first prerequisite then lets the next one
 * start from the previous run's final memory.
 */
export function clearMemorySnapshotsForOverwrite(modelDir: string, selected: readonly TestEntry[], pending: readonly TestEntry[]): string[] {
  const pendingIds = new Set(pending.map((entry) => entry.id));
  const prereqCategory = (entry: TestEntry): string | undefined =>
    isMemory(entry.id) && isMemoryPrereq(entry.id) ? extractTestCategoryFromId(entry.id, true) : undefined;
  const categories = new Set(pending.flatMap((entry) => prereqCategory(entry) ?? []));
  const deleted: string[] = [];
  for (const category of categories) {
    const allRunAgain = selected.every((entry) => prereqCategory(entry) !== category || pendingIds.has(entry.id));
    if (!allRunAgain) continue;
    const folder = memorySnapshotFolder(modelDir, category);
    if (!existsSync(folder)) continue;
    rmSync(previousSnapshotFolder(folder), { recursive: true, force: true });
    renameSync(folder, previousSnapshotFolder(folder));
    deleted.push(folder);
  }
  return deleted;
}

/** Where `-o` keeps the previous run's snapshots of a memory category. */
export function previousSnapshotFolder(folder: string): string {
  return `${folder}.previous`;
}

/**
 * The generation-time steps of agentic entries in one model's run
 * (_llm_response_generation.py::collect_test_cases, spec §2.1 step 5 and §4): which memory
 * prerequisites still need to run, what every agentic entry's `initial_config` is, and which
 * memory snapshots an `--allow-overwrite` run starts without.
 */

import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { cleanUpMemoryPrereqEntries, withMemoryInitialConfig, withWebSearchInitialConfig } from '../data/agentic.js';
import { extractTestCategoryFromId, getDirectoryStructureByCategory, isAgentic, isMemory, isMemoryPrereq } from '../spec/categories.js';
import type { TestEntry } from '../spec/schemas.js';

/**
 * The entries still to generate, ready to run: memory prerequisites whose category has no question
 * left to generate are dropped, dependencies on entries not being generated are removed (their
 * snapshot is on disk already), and web search and memory entries get their `initial_config`
 * (`model_result_dir` = the absolute model result folder). Other entries pass unchanged.
 *
 * BFCL parity: _llm_response_generation.py::collect_test_cases — the clean-up runs after finished
 * ids were removed. Deviation: a prerequisite whose result is an error is not finished here (every
 * error line is generated again), so it runs again, on top of the scenario's latest snapshot.
 */
export function prepareAgenticEntries(pending: readonly TestEntry[], modelDir: string): TestEntry[] {
  if (!pending.some((entry) => isAgentic(entry.id))) return [...pending];
  const modelResultDir = resolve(modelDir);
  return cleanUpMemoryPrereqEntries(pending).map((entry) => withWebSearchInitialConfig(withMemoryInitialConfig(entry, modelResultDir)));
}

/** `<model dir>/agentic/memory/<backend>/memory_snapshot`: where a memory category's snapshots live. */
export function memorySnapshotFolder(modelDir: string, category: string): string {
  return join(modelDir, getDirectoryStructureByCategory(category), 'memory_snapshot');
}

/**
 * `--allow-overwrite` without `--run-ids`: delete the snapshot folder of every memory category of
 * the run whose prerequisites all run again, so no chain can start from an earlier run's memory.
 * A category some of whose prerequisites are already done (an interrupted overwrite being resumed
 * from its `.new` files) keeps its snapshots: they are this overwrite's own. Returns the folders deleted.
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
    rmSync(folder, { recursive: true, force: true });
    deleted.push(folder);
  }
  return deleted;
}

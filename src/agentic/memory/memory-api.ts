/**
 * What the three memory backends share (reference `memory_api_metaclass.py`, spec §8): where their
 * snapshots live, loading the scenario's latest snapshot when an entry starts, and writing both
 * snapshot files when a prerequisite conversation ends.
 */
import { join } from 'node:path';

import { jsonDumps, parseJsonLossless } from '../../py/json.js';
import { dictLookup } from '../../py/ops.js';
import { pyStr } from '../../py/repr.js';
import { PyException, pyTruthy, pyTypeName, type PyDict, type PyValue } from '../../py/value.js';
import { SimulatedApi, type SimContext } from '../../sim/simulated-api.js';
import { getDirectoryStructureById, isFirstMemoryPrereqEntry, isMemoryPrereq } from '../../spec/categories.js';
import { InternalError } from '../../util/errors.js';
import type { Embedder } from './embedder.js';
import { MemorySnapshotError } from './memory-snapshot-error.js';
import type { MemorySnapshotStore } from './memory-snapshot-store.js';

/** What a memory backend needs from outside: its snapshot files, a place for warnings and (vector only) embeddings. */
export interface MemoryBackendDeps {
  readonly snapshots: MemorySnapshotStore;
  /** Receives the missing-snapshot warning (the reference prints it to stdout). */
  readonly warn: (message: string) => void;
  /** Sentence embeddings; required by `MemoryAPI_vector` only. */
  readonly embedder?: Embedder;
}

/** The snapshot locations of one entry (spec §8.1). */
export interface MemorySnapshotPaths {
  /** `<model_result_dir>/agentic/memory/<backend>/memory_snapshot`. */
  readonly folder: string;
  /** Where this entry's own snapshot goes: `<folder>/prereq_checkpoints` for a prerequisite, else `<folder>`. */
  readonly snapshotFolder: string;
  /** `<folder>/<scenario>_final.json`, the state the next entry of the scenario starts from. */
  readonly latestFile: string;
}

/** The snapshot locations for an entry id and scenario under a model's result folder. */
export function memorySnapshotPaths(modelResultDir: string, testId: string, scenario: string): MemorySnapshotPaths {
  const folder = join(modelResultDir, getDirectoryStructureById(testId), 'memory_snapshot');
  return {
    folder,
    snapshotFolder: isMemoryPrereq(testId) ? join(folder, 'prereq_checkpoints') : folder,
    latestFile: join(folder, `${scenario}_final.json`),
  };
}

const WARNING_SIGNS = '⚠️'.repeat(100);

/** `initial_config` key that makes a chain's first prerequisite load the latest snapshot (a retried first prereq). */
export const CONTINUE_CHAIN_KEY = 'continue_chain';

/** The reference's warning when a non-first entry finds no snapshot to start from (spec §4.3). */
export function missingSnapshotWarning(latestFile: string, testId: string): string {
  return (
    WARNING_SIGNS +
    `\nWarning: Not first memory entry, but no snapshot file found in this path: ${latestFile}. The memory will start empty for ${testId}.\n` +
    WARNING_SIGNS
  );
}

/**
 * Base of `MemoryAPI_kv`, `MemoryAPI_vector` and `MemoryAPI_rec_sum`. Subclasses declare their memory
 * fields, then `snapshot_folder`, so that the public state lists them in the reference's `vars()`
 * order; `_loadScenario` adds `test_id`, `scenario` and `latest_snapshot_file`.
 */
export abstract class MemoryApi extends SimulatedApi {
  /** The folder of this entry's own snapshot (a str once loaded, else None). */
  abstract snapshot_folder: PyValue;
  declare test_id: PyValue;
  declare scenario: PyValue;
  declare latest_snapshot_file: PyValue;

  private _paths: (MemorySnapshotPaths & { readonly testId: string }) | undefined = undefined;

  constructor(
    ctx: SimContext,
    protected readonly _deps: MemoryBackendDeps,
  ) {
    super(ctx);
  }

  /**
   * The reference's `_load_scenario(initial_config)`: `scenario` is the entry's
   * `initial_config["MemoryAPI_<backend>"]` with `model_result_dir`, `test_id` and `scenario`.
   * The first prerequisite of a chain starts empty; any other entry starts from the scenario's
   * latest snapshot, or empty with a warning when there is none.
   */
  _loadScenario(scenario: PyDict, _longContext: boolean): void {
    const modelResultDir = configString(scenario, 'model_result_dir');
    const testId = configString(scenario, 'test_id');
    // BFCL parity: memory_api_metaclass.py::_prepare_snapshot — the scenario goes through an f-string.
    const scenarioName = pyStr(configValue(scenario, 'scenario'));
    const paths = memorySnapshotPaths(modelResultDir, testId, scenarioName);
    this._paths = { ...paths, testId };
    this.test_id = testId;
    this.scenario = configValue(scenario, 'scenario');
    this.snapshot_folder = paths.snapshotFolder;
    this.latest_snapshot_file = paths.latestFile;

    // `continue_chain` (our addition, never set by the reference's loader): a first prereq generated
    // again after an error continues from the chain's latest snapshot instead of starting empty.
    if (isFirstMemoryPrereqEntry(testId) && !pyTruthy(dictLookup(scenario, CONTINUE_CHAIN_KEY) ?? false)) return;
    let text: string | undefined;
    try {
      text = this._deps.snapshots.readText(paths.latestFile);
    } catch (error) {
      throw new MemorySnapshotError(paths.latestFile, error instanceof Error ? error.message : String(error), { cause: error });
    }
    if (text === undefined) {
      this._deps.warn(missingSnapshotWarning(paths.latestFile, testId));
      return;
    }
    try {
      const data = parseJsonLossless(text);
      // BFCL parity: memory_*.py::_load_scenario — `if memory_data:`, so `{}`, `[]` or null start empty.
      if (pyTruthy(data)) this._restoreSnapshot(data);
    } catch (error) {
      if (error instanceof PyException) {
        throw new MemorySnapshotError(paths.latestFile, `${error.pyType}: ${error.message}`, { cause: error });
      }
      throw error;
    }
  }

  /**
   * The reference's `_flush_memory_to_local_file`: the same pyJson4 text (`json.dump(obj, f, indent=4)`,
   * ASCII escapes, no trailing newline) written to `<snapshot_folder>/<test_id>.json`, then to the
   * scenario's latest snapshot. The generation loop calls it for prerequisite entries only, once,
   * after the turn loop (force quit included, not after an inference error).
   */
  _flushSnapshot(): void {
    const paths = this._paths;
    if (paths === undefined) throw new InternalError(`${this._className}: _flushSnapshot before _loadScenario`);
    const text = jsonDumps(this._snapshotContent(), { indent: 4 });
    this._deps.snapshots.writeText(join(paths.snapshotFolder, `${paths.testId}.json`), text);
    this._deps.snapshots.writeText(paths.latestFile, text);
  }

  /** The reference's `_dump_core_memory_to_context()`: the `{memory_content}` of the memory system prompt (spec §3.2). */
  abstract _dumpCoreMemoryToContext(): string;

  /** The object the snapshot files hold. */
  protected abstract _snapshotContent(): PyDict;

  /** Take the state from a loaded, truthy snapshot; raise a PyException as the reference would. */
  protected abstract _restoreSnapshot(data: PyValue): void;
}

/** `initial_config[key]`; its absence is a bug of the harness, not of the model. */
function configValue(config: PyDict, key: string): PyValue {
  const value = dictLookup(config, key);
  if (value === undefined) throw new InternalError(`Memory initial_config lacks '${key}'`);
  return value;
}

function configString(config: PyDict, key: string): string {
  const value = configValue(config, key);
  if (typeof value !== 'string') throw new InternalError(`Memory initial_config '${key}' must be a str, not ${pyTypeName(value)}`);
  return value;
}

/**
 * MemoryAPI_vector: core and archival memories of free texts searched by embedding similarity.
 *
 * Port of the reference's `memory_vector.py` (spec §10). Arguments are not coerced (`vec_id` uses
 * Python equality, so 3.0 and True find ids 3 and 1). Embeddings come from the injected `Embedder`;
 * with an asynchronous one, `_prepareCall` must be awaited before each call is executed.
 */
import { jsonDumps } from '../../py/json.js';
import { getItem } from '../../py/ops.js';
import { pyDict, type PyDict, type PyValue } from '../../py/value.js';
import { opt, req, type MethodSignatures, type SimContext } from '../../sim/simulated-api.js';
import { EmbeddingsUnavailableError } from './embedder.js';
import { MemoryApi, type MemoryBackendDeps } from './memory-api.js';
import { PreparedEmbeddings } from './prepared-embeddings.js';
import { VectorStore } from './vector-store.js';

/** The reference's limits (entries per memory; code points per text). */
const MAX_CORE_MEMORY_SIZE = 7;
const MAX_CORE_MEMORY_ENTRY_LENGTH = 300;
const MAX_ARCHIVAL_MEMORY_SIZE = 50;
const MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH = 2000;

/** Python signatures of the public methods, in the reference's definition order. */
const SIGNATURES: MethodSignatures = {
  core_memory_add: [req('text')],
  core_memory_remove: [req('vec_id')],
  core_memory_update: [req('vec_id'), req('new_text')],
  core_memory_clear: [],
  core_memory_retrieve: [req('query'), opt('top_k', 5n)],
  core_memory_retrieve_all: [],
  archival_memory_add: [req('text')],
  archival_memory_remove: [req('vec_id')],
  archival_memory_update: [req('vec_id'), req('new_text')],
  archival_memory_clear: [],
  archival_memory_retrieve: [req('query'), opt('top_k', 5n)],
  archival_memory_retrieve_all: [],
};

export class MemoryAPI_vector extends MemoryApi {
  readonly _className = 'MemoryAPI_vector';
  readonly _signatures = SIGNATURES;

  /** Vectors by text, shared by both memories. */
  private readonly _embeddings: PreparedEmbeddings;

  // Public state, in the reference's `vars()` order.
  core_memory: VectorStore;
  archival_memory: VectorStore;
  snapshot_folder: PyValue = null;

  constructor(ctx: SimContext, deps: MemoryBackendDeps) {
    super(ctx, deps);
    if (deps.embedder === undefined) throw new EmbeddingsUnavailableError('MemoryAPI_vector was created without an embedder.');
    this._embeddings = new PreparedEmbeddings(deps.embedder);
    this.core_memory = new VectorStore(MAX_CORE_MEMORY_SIZE, MAX_CORE_MEMORY_ENTRY_LENGTH, this._embeddings);
    this.archival_memory = new VectorStore(MAX_ARCHIVAL_MEMORY_SIZE, MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH, this._embeddings);
  }

  /**
   * Embed, ahead of a call, what the call will need (`args` bound to the method's signature): for
   * `*_retrieve`, the memory's texts not embedded yet and the query. Other calls need nothing. Bad
   * arguments are left for the call itself to report; only an embedder failure rejects.
   */
  async _prepareCall(method: string, args: readonly PyValue[]): Promise<void> {
    const store =
      method === 'core_memory_retrieve' ? this.core_memory : method === 'archival_memory_retrieve' ? this.archival_memory : undefined;
    if (store === undefined) return;
    await this._embeddings.prepare(store.textsToEmbedForRetrieve(args[0] ?? null));
  }

  _dumpCoreMemoryToContext(): string {
    // BFCL parity: memory_vector.py::_dump_core_memory_to_context — a VectorStore is always truthy,
    // so an empty core memory prints `{}`, never the "no content" sentence.
    return jsonDumps(this.core_memory._store, { indent: 4 });
  }

  protected _snapshotContent(): PyDict {
    return pyDict({ core_memory: this.core_memory.export(), archival_memory: this.archival_memory.export() });
  }

  protected _restoreSnapshot(data: PyValue): void {
    this.core_memory.loadFromSnapshot(getItem(data, 'core_memory'));
    this.archival_memory.loadFromSnapshot(getItem(data, 'archival_memory'));
  }

  core_memory_add(text: PyValue): PyValue {
    return this.core_memory.add(text);
  }

  core_memory_remove(vec_id: PyValue): PyValue {
    return this.core_memory.remove(vec_id);
  }

  core_memory_update(vec_id: PyValue, new_text: PyValue): PyValue {
    return this.core_memory.update(vec_id, new_text);
  }

  core_memory_clear(): PyValue {
    return this.core_memory.clear();
  }

  core_memory_retrieve(query: PyValue, top_k: PyValue): PyValue {
    return pyDict({ result: this.core_memory.retrieve(query, top_k) });
  }

  core_memory_retrieve_all(): PyValue {
    return pyDict({ result: this.core_memory.retrieveAll() });
  }

  archival_memory_add(text: PyValue): PyValue {
    return this.archival_memory.add(text);
  }

  archival_memory_remove(vec_id: PyValue): PyValue {
    return this.archival_memory.remove(vec_id);
  }

  archival_memory_update(vec_id: PyValue, new_text: PyValue): PyValue {
    return this.archival_memory.update(vec_id, new_text);
  }

  archival_memory_clear(): PyValue {
    return this.archival_memory.clear();
  }

  archival_memory_retrieve(query: PyValue, top_k: PyValue): PyValue {
    return pyDict({ result: this.archival_memory.retrieve(query, top_k) });
  }

  archival_memory_retrieve_all(): PyValue {
    return pyDict({ result: this.archival_memory.retrieveAll() });
  }
}

/**
 * One memory of `MemoryAPI_vector` (the reference's `VectorStore`, spec §10): texts by integer id, a
 * flat inner-product index over their embeddings, and FAISS's search order.
 *
 * The index holds texts, not vectors: a vector is taken from `PreparedEmbeddings` when a search
 * needs it, so adding, updating and loading never wait for an embedder. Vectors depend on the text
 * only, so the results are those of embedding at insertion, as the reference does.
 */
import { pyLen } from '../../py/builtins.js';
import { augmented, deleteItem, dictContains, dictSet, getItem, hashKey, noAttribute, pyCompare, pyIntConvert } from '../../py/ops.js';
import { pyStr } from '../../py/repr.js';
import { PyException, PyObject, pyDict, pyEquals, pyTypeName, type PyDict, type PyKey, type PyValue } from '../../py/value.js';
import type { PreparedEmbeddings } from './prepared-embeddings.js';
import { innerProduct, topKPositions } from './top-k-inner-product.js';

/** One vector of the flat index: its id (the store key) and the text it embeds. */
interface IndexEntry {
  readonly id: PyKey;
  readonly text: string;
}

export class VectorStore extends PyObject {
  readonly pyTypeName = 'VectorStore';

  // The reference's attributes, in its `vars()` order.
  readonly max_size: bigint;
  readonly max_entry_length: bigint;
  /** Index positions: insertion order of live vectors; an update moves its entry to the end. */
  _index: IndexEntry[] = [];
  _store: PyDict = new Map();
  _next_id: PyValue = 0n;

  constructor(
    maxSize: number,
    maxEntryLength: number,
    private readonly _embeddings: PreparedEmbeddings,
  ) {
    super();
    this.max_size = BigInt(maxSize);
    this.max_entry_length = BigInt(maxEntryLength);
  }

  pyRepr(): string {
    // CPython prints the object's address here; a fixed text keeps runs deterministic.
    return '<VectorStore object>';
  }

  override publicAttributes(): [string, PyValue][] {
    return [
      ['max_size', this.max_size],
      ['max_entry_length', this.max_entry_length],
    ];
  }

  add(text: PyValue): PyDict {
    if (pyLen(text) > this.max_entry_length) return this.tooLong();
    if (this._store.size >= this.max_size) {
      return pyDict({ error: `Memory size exceeds maximum size of ${this.max_size} entries.` });
    }
    const vecId = this._next_id;
    // BFCL parity: memory_vector.py::VectorStore.add — the id is taken before embedding, so a text that fails to embed burns it.
    this._next_id = augmented('+', this._next_id, 1n);
    const id = hashKey(vecId);
    this._index.push({ id, text: singleVectorText(text) });
    dictSet(this._store, id, text);
    return pyDict({ id: vecId });
  }

  remove(vecId: PyValue): PyDict {
    if (!dictContains(this._store, vecId)) return notPresent(vecId);
    this._index = this._index.filter((entry) => !pyEquals(entry.id, vecId));
    deleteItem(this._store, vecId);
    return pyDict({ status: `ID ${pyStr(vecId)} removed from store.` });
  }

  update(vecId: PyValue, newText: PyValue): PyDict {
    if (!dictContains(this._store, vecId)) return notPresent(vecId);
    if (pyLen(newText) > this.max_entry_length) return this.tooLong();
    // BFCL parity: memory_vector.py::VectorStore.update — the old vector goes first; if the new text
    // fails to embed, the entry stays in the store without a vector (unreachable by search).
    this._index = this._index.filter((entry) => !pyEquals(entry.id, vecId));
    this._index.push({ id: hashKey(vecId), text: singleVectorText(newText) });
    dictSet(this._store, vecId, newText);
    return pyDict({ status: `ID ${pyStr(vecId)} updated.` });
  }

  clear(): PyDict {
    this._index = [];
    this._store.clear();
    this._next_id = 0n;
    return pyDict({ status: 'Memory cleared.' });
  }

  /** The texts a `retrieve(query, ...)` now would embed (for preparing the embeddings ahead of the call). */
  textsToEmbedForRetrieve(query: PyValue): string[] {
    if (this._store.size === 0) return [];
    let queryTexts: string[];
    try {
      queryTexts = encodeInputs(query);
    } catch {
      return [];
    }
    return queryTexts.length === 0 ? [] : [...this._index.map((entry) => entry.text), queryTexts[0]!];
  }

  /** The `top_k` entries most similar to `query`: `[{id, similarity_score, text}]`, FAISS's order. */
  retrieve(query: PyValue, topK: PyValue): PyValue[] {
    if (this._store.size === 0) return [];
    const queryTexts = encodeInputs(query);
    // `min(top_k, len(store))`: Python compares the second argument with the first.
    const size = BigInt(this._store.size);
    const k = pyCompare('<', size, topK) ? size : topK;
    // BFCL parity: faiss replacement_search — an empty batch of queries fails unpacking its shape, then `assert k > 0` (empty message).
    if (queryTexts.length === 0) throw new PyException('ValueError', 'not enough values to unpack (expected 2, got 1)');
    if (!pyCompare('>', k, 0n)) throw new PyException('AssertionError', '');
    const count = searchCount(k);

    // A list query is a batch of queries; the reference reads the first row of results only.
    const vectors = this._embeddings.get([...this._index.map((entry) => entry.text), queryTexts[0]!]);
    const queryVector = vectors.pop()!;
    const scores = vectors.map((vector) => innerProduct(vector, queryVector));
    const results: PyValue[] = [];
    for (const position of topKPositions(scores, count)) {
      // FAISS pads the slots it cannot fill with id -1, which the reference skips.
      if (position === -1) continue;
      const { id } = this._index[position]!;
      results.push(pyDict({ id: pyIntConvert(id), similarity_score: scores[position]!, text: getItem(this._store, id) }));
    }
    return results;
  }

  /** `[{id, text}]` in store order. */
  retrieveAll(): PyValue[] {
    return [...this._store].map(([id, text]) => pyDict({ id: pyIntConvert(id), text }));
  }

  /** The snapshot object `{"next_id": n, "store": {id: text}}` (int keys become JSON strings). */
  export(): PyDict {
    return pyDict({ next_id: this._next_id, store: this._store });
  }

  /** Replace the content with a snapshot's; raises as the reference would for a malformed one. */
  loadFromSnapshot(snapshot: PyValue): void {
    const nextId = getItem(snapshot, 'next_id');
    const stored = getItem(snapshot, 'store');
    if (!(stored instanceof Map)) throw noAttribute(stored, 'items');
    const store: PyDict = new Map();
    // `{int(k): v ...}`: keys that are equal as ints keep the first one's place and the last value.
    for (const [key, text] of stored) store.set(pyIntConvert(key), text);
    const ids = [...store.keys()].sort((a, b) => (pyCompare('<', a, b) ? -1 : pyCompare('<', b, a) ? 1 : 0));
    this._next_id = nextId;
    this._store = store;
    // BFCL parity: memory_vector.py::VectorStore.load_from_snapshot — the index is rebuilt in ascending id order.
    this._index = ids.map((id) => {
      const text = store.get(id)!;
      if (typeof text !== 'string') {
        // The reference re-embeds all texts as one batch, which its tokenizer refuses for a non-str item.
        throw new PyException('TypeError', `the text of id ${pyStr(id)} is a ${pyTypeName(text)}, which cannot be re-embedded`);
      }
      return { id, text };
    });
  }

  private tooLong(): PyDict {
    return pyDict({ error: `Entry length exceeds maximum length of ${this.max_entry_length} characters.` });
  }
}

const notPresent = (vecId: PyValue): PyDict => pyDict({ error: `ID ${pyStr(vecId)} not present in store.` });

/**
 * The texts `encode(text if isinstance(text, list) else [text])` embeds, or the error it raises.
 * BFCL parity: sentence_transformers Transformer.tokenize — a batch whose first item is a str must be
 * all str; otherwise the first item is read as a (text, pair) tuple, which fails for a scalar. The
 * texts of other failures (dicts, pairs) are not reproduced.
 */
function encodeInputs(value: PyValue): string[] {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return [];
  const first = items[0]!;
  if (typeof first === 'string') {
    if (items.every((item): item is string => typeof item === 'string')) return items;
    throw new PyException('TypeError', 'TextEncodeInput must be Union[TextInputSequence, Tuple[InputSequence, InputSequence]]');
  }
  if (first === null || typeof first !== 'object') throw new PyException('TypeError', `'${pyTypeName(first)}' object is not subscriptable`);
  throw new PyException('TypeError', `cannot embed a ${pyTypeName(first)} as a text`);
}

/**
 * The one text whose vector `add_with_ids(vectors, [id])` stores, or the error raised there.
 * BFCL parity: faiss replacement_add_with_ids — a list is embedded item by item and only a
 * one-item list passes (`not same nb of vectors as ids`); an empty one fails unpacking its shape.
 */
function singleVectorText(text: PyValue): string {
  const texts = encodeInputs(text);
  if (texts.length === 0) throw new PyException('ValueError', 'not enough values to unpack (expected 2, got 1)');
  if (texts.length !== 1) throw new PyException('AssertionError', 'not same nb of vectors as ids');
  return texts[0]!;
}

/** The `k` FAISS searches with: an int (a bool counts as one); a float fails allocating the result array. */
function searchCount(k: PyValue): number {
  if (typeof k === 'bigint') return Number(k);
  if (typeof k === 'boolean') return k ? 1 : 0;
  if (typeof k === 'number') throw new PyException('TypeError', "'float' object cannot be interpreted as an integer");
  throw new PyException('TypeError', `'${pyTypeName(k)}' object cannot be interpreted as an integer`);
}

/**
 * MemoryAPI_kv: key-value core and archival memories with BM25+ search over key names.
 *
 * Port of the reference's `memory_kv.py` (spec §9). Both memories are dicts; `add`/`replace` take
 * `str()` of their arguments, `remove`/`retrieve` look the raw argument up with Python equality.
 */
import { pyLen } from '../../py/builtins.js';
import { jsonDumps } from '../../py/json.js';
import { pyDeepCopy } from '../../py/operators.js';
import { deleteItem, dictContains, getItem } from '../../py/ops.js';
import { pyStr } from '../../py/repr.js';
import { PyException, PyTuple, pyDict, pyTypeName, type PyDict, type PyValue } from '../../py/value.js';
import { opt, req, type MethodSignatures } from '../../sim/simulated-api.js';
import { Bm25Plus, tokenizeKeyText } from './bm25-plus.js';
import { MemoryApi } from './memory-api.js';

/** The reference's limits (entries per memory; code points per value). */
const MAX_CORE_MEMORY_SIZE = 7;
const MAX_CORE_MEMORY_ENTRY_LENGTH = 300;
const MAX_ARCHIVAL_MEMORY_SIZE = 50;
const MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH = 2000;

// BFCL parity: memory_kv.py::_is_valid_key_format — Python's `$` also matches before one final "\n".
const KEY_FORMAT = /^[a-z]+(_[a-z0-9]+)*\n?$/;

const KEY_NOT_FOUND = 'Key not found.';

/** Python signatures of the public methods, in the reference's definition order. */
const SIGNATURES: MethodSignatures = {
  core_memory_add: [req('key'), req('value')],
  core_memory_remove: [req('key')],
  core_memory_replace: [req('key'), req('value')],
  core_memory_clear: [],
  core_memory_retrieve: [req('key')],
  core_memory_list_keys: [],
  core_memory_key_search: [req('query'), opt('k', 5n)],
  core_memory_retrieve_all: [],
  archival_memory_add: [req('key'), req('value')],
  archival_memory_remove: [req('key')],
  archival_memory_replace: [req('key'), req('value')],
  archival_memory_clear: [],
  archival_memory_retrieve: [req('key')],
  archival_memory_list_keys: [],
  archival_memory_key_search: [req('query'), opt('k', 5n)],
};

/** What differs between the two memories. */
interface Limits {
  readonly maxSize: number;
  readonly maxEntryLength: number;
  readonly fullMessage: string;
  readonly addedMessage: string;
}

const CORE: Limits = {
  maxSize: MAX_CORE_MEMORY_SIZE,
  maxEntryLength: MAX_CORE_MEMORY_ENTRY_LENGTH,
  fullMessage: 'Core memory is full. Please clear some entries.',
  addedMessage: 'Key-value pair added.',
};

const ARCHIVAL: Limits = {
  maxSize: MAX_ARCHIVAL_MEMORY_SIZE,
  maxEntryLength: MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH,
  fullMessage: 'Long term memory is full. Please clear some entries.',
  addedMessage: 'Key added.',
};

export class MemoryAPI_kv extends MemoryApi {
  readonly _className = 'MemoryAPI_kv';
  readonly _signatures = SIGNATURES;

  // Public state, in the reference's `vars()` order.
  core_memory: PyDict = new Map();
  archival_memory: PyDict = new Map();
  snapshot_folder: PyValue = null;

  _dumpCoreMemoryToContext(): string {
    if (this.core_memory.size === 0) return 'There is no content in the core memory at this point.';
    return jsonDumps4(this.core_memory);
  }

  protected _snapshotContent(): PyDict {
    return pyDict({ core_memory: this.core_memory, archival_memory: this.archival_memory });
  }

  protected _restoreSnapshot(data: PyValue): void {
    this.core_memory = snapshotDict(getItem(data, 'core_memory'), 'core_memory');
    this.archival_memory = snapshotDict(getItem(data, 'archival_memory'), 'archival_memory');
  }

  core_memory_add(key: PyValue, value: PyValue): PyValue {
    return add(this.core_memory, key, value, CORE);
  }

  core_memory_remove(key: PyValue): PyValue {
    return remove(this.core_memory, key);
  }

  core_memory_replace(key: PyValue, value: PyValue): PyValue {
    return replace(this.core_memory, key, value, CORE);
  }

  core_memory_clear(): PyValue {
    this.core_memory = new Map();
    return pyDict({ status: 'Short term memory cleared.' });
  }

  core_memory_retrieve(key: PyValue): PyValue {
    return retrieve(this.core_memory, key);
  }

  core_memory_list_keys(): PyValue {
    return pyDict({ keys: [...this.core_memory.keys()] });
  }

  core_memory_key_search(query: PyValue, k: PyValue): PyValue {
    return keySearch([...this.core_memory.keys()], query, k);
  }

  core_memory_retrieve_all(): PyValue {
    // The dict itself, as the reference returns it.
    return this.core_memory;
  }

  archival_memory_add(key: PyValue, value: PyValue): PyValue {
    return add(this.archival_memory, key, value, ARCHIVAL);
  }

  archival_memory_remove(key: PyValue): PyValue {
    return remove(this.archival_memory, key);
  }

  archival_memory_replace(key: PyValue, value: PyValue): PyValue {
    return replace(this.archival_memory, key, value, ARCHIVAL);
  }

  archival_memory_clear(): PyValue {
    this.archival_memory = new Map();
    return pyDict({ status: 'Long term memory cleared.' });
  }

  archival_memory_retrieve(key: PyValue): PyValue {
    return retrieve(this.archival_memory, key);
  }

  archival_memory_list_keys(): PyValue {
    return pyDict({ keys: [...this.archival_memory.keys()] });
  }

  archival_memory_key_search(query: PyValue, k: PyValue): PyValue {
    return keySearch([...this.archival_memory.keys()], query, k);
  }
}

// ---------------------------------------------------------------------------------------------
// The operations, shared by both memories

function add(memory: PyDict, rawKey: PyValue, rawValue: PyValue, limits: Limits): PyDict {
  const key = pyStr(rawKey);
  const value = pyStr(rawValue);
  if (memory.size >= limits.maxSize) return error(limits.fullMessage);
  if (pyLen(value) > limits.maxEntryLength) return error(tooLong(limits));
  if (!KEY_FORMAT.test(key)) return error('Key must be in snake_case format and cannot contain spaces.');
  if (memory.has(key)) return error('Key name must be unique.');
  memory.set(key, value);
  return pyDict({ status: limits.addedMessage });
}

function remove(memory: PyDict, key: PyValue): PyDict {
  if (!dictContains(memory, key)) return error(KEY_NOT_FOUND);
  deleteItem(memory, key);
  return pyDict({ status: 'Key removed.' });
}

function replace(memory: PyDict, rawKey: PyValue, rawValue: PyValue, limits: Limits): PyDict {
  const key = pyStr(rawKey);
  const value = pyStr(rawValue);
  if (!memory.has(key)) return error(KEY_NOT_FOUND);
  if (pyLen(value) > limits.maxEntryLength) return error(tooLong(limits));
  // Map.set keeps the key's position, as a Python dict assignment does.
  memory.set(key, value);
  return pyDict({ status: 'Key replaced.' });
}

function retrieve(memory: PyDict, key: PyValue): PyDict {
  if (!dictContains(memory, key)) return error(KEY_NOT_FOUND);
  return pyDict({ value: getItem(memory, key) });
}

/** `_similarity_search(query, keys, k)`: BM25+ over the key names, best first, ties in insertion order. */
function keySearch(keys: PyValue[], query: PyValue, k: PyValue): PyDict {
  // The reference tokenises the corpus and builds the index before it reads the query.
  const index = new Bm25Plus(keys.map(tokenizeKeyText));
  const scores = index.scores(tokenizeKeyText(query));
  const ranked = keys.map((key, i) => ({ score: scores[i]!, key }));
  // Array.prototype.sort is stable, as Python's sorted(..., reverse=True) is.
  ranked.sort((x, y) => (x.score === y.score ? 0 : x.score > y.score ? -1 : 1));
  const results: PyValue[] = ranked.map(({ score, key }) => new PyTuple([score, key]));
  return pyDict({ ranked_results: sliceTo(results, k) });
}

/** Python `items[:stop]`. */
function sliceTo(items: PyValue[], stop: PyValue): PyValue[] {
  if (stop === null) return items.slice();
  let n: bigint;
  if (typeof stop === 'bigint') n = stop;
  else if (typeof stop === 'boolean') n = stop ? 1n : 0n;
  else throw new PyException('TypeError', 'slice indices must be integers or None or have an __index__ method');
  const length = BigInt(items.length);
  const end = n < 0n ? (n + length < 0n ? 0n : n + length) : n > length ? length : n;
  return items.slice(0, Number(end));
}

const tooLong = (limits: Limits): string =>
  `Entry is too long. Please shorten the entry to less than ${limits.maxEntryLength} characters.`;

const error = (message: string): PyDict => pyDict({ error: message });

/** A memory dict of a loaded snapshot, copied. */
function snapshotDict(value: PyValue, name: string): PyDict {
  // The reference would keep any JSON value and fail in later calls; a non-dict is refused at load.
  if (!(value instanceof Map)) throw new PyException('TypeError', `'${name}' must be a dict, not ${pyTypeName(value)}`);
  return pyDeepCopy(value);
}

function jsonDumps4(value: PyValue): string {
  return jsonDumps(value, { indent: 4 });
}

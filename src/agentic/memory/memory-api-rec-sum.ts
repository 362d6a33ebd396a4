/**
 * MemoryAPI_rec_sum: one text buffer that the model rewrites itself ("recursive summarisation").
 *
 * Port of the reference's `memory_rec_sum.py` (spec §11). Every text argument goes through `str()`;
 * lengths count code points; the backend never summarises or truncates.
 */
import { pyLen } from '../../py/builtins.js';
import { getItem } from '../../py/ops.js';
import { pyStr } from '../../py/repr.js';
import { PyException, pyDict, pyTypeName, type PyDict, type PyValue } from '../../py/value.js';
import { req, type MethodSignatures } from '../../sim/simulated-api.js';
import { MemoryApi } from './memory-api.js';

/** The reference's `MAX_MEMORY_ENTRY_LENGTH` (code points). */
const MAX_MEMORY_ENTRY_LENGTH = 10000;

/** Python signatures of the public methods, in the reference's definition order. */
const SIGNATURES: MethodSignatures = {
  memory_append: [req('text')],
  memory_update: [req('text')],
  memory_clear: [],
  memory_replace: [req('old_text'), req('new_text')],
  memory_retrieve: [],
};

const tooLong = (after: string): PyDict =>
  pyDict({ error: `Entry will be too long after ${after}. Please shorten the entry to less than ${MAX_MEMORY_ENTRY_LENGTH} characters.` });

export class MemoryAPI_rec_sum extends MemoryApi {
  readonly _className = 'MemoryAPI_rec_sum';
  readonly _signatures = SIGNATURES;

  // Public state, in the reference's `vars()` order.
  memory = '';
  snapshot_folder: PyValue = null;

  _dumpCoreMemoryToContext(): string {
    if (this.memory === '') return 'There is no content in the memory at this point.';
    return this.memory;
  }

  protected _snapshotContent(): PyDict {
    return pyDict({ memory: this.memory });
  }

  protected _restoreSnapshot(data: PyValue): void {
    const memory = getItem(data, 'memory');
    if (typeof memory !== 'string') {
      throw new PyException('AssertionError', `Memory data should be a string, but got <class '${pyTypeName(memory)}'> instead.`);
    }
    this.memory = memory;
  }

  memory_append(text: PyValue): PyValue {
    const addition = pyStr(text);
    if (pyLen(this.memory + addition) > MAX_MEMORY_ENTRY_LENGTH) return tooLong('appending');
    this.memory += addition;
    return pyDict({ status: 'Memory appended.' });
  }

  memory_update(text: PyValue): PyValue {
    const replacement = pyStr(text);
    if (pyLen(replacement) > MAX_MEMORY_ENTRY_LENGTH) return tooLong('updating');
    this.memory = replacement;
    return pyDict({ status: 'Memory updated.' });
  }

  memory_clear(): PyValue {
    this.memory = '';
    // BFCL parity: memory_rec_sum.py::memory_clear — the message says "Short term" although there is one memory.
    return pyDict({ status: 'Short term memory cleared.' });
  }

  memory_replace(old_text: PyValue, new_text: PyValue): PyValue {
    const oldText = pyStr(old_text);
    const newText = pyStr(new_text);
    if (!this.memory.includes(oldText)) return pyDict({ error: `Text '${oldText}' not found in memory.` });
    if (pyLen(newText) > MAX_MEMORY_ENTRY_LENGTH) return tooLong('replacing');
    // BFCL parity: memory_rec_sum.py::memory_replace — only new_text is measured; the result may exceed the limit.
    this.memory = pyReplaceAll(this.memory, oldText, newText);
    return pyDict({ status: 'Memory updated.' });
  }

  memory_retrieve(): PyValue {
    if (this.memory === '') return pyDict({ error: 'Memory is empty.' });
    return pyDict({ memory_content: this.memory });
  }
}

/**
 * Python `s.replace(old, new)`: every occurrence, with `new` taken literally (no `$&` patterns); an
 * empty `old` inserts `new` before every code point and at the end.
 */
function pyReplaceAll(s: string, old: string, replacement: string): string {
  if (old !== '') return s.split(old).join(replacement);
  return replacement + Array.from(s).join(replacement) + (s === '' ? '' : replacement);
}

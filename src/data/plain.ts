import { PyObject, PySet, PyTuple, type PyValue } from '../py/value.js';

/**
 * A plain-JSON view of a Python value, for zod validation and convenient typed access:
 * dict → object (keys as `str()` would print them), int → number, tuple/set → array,
 * other objects → their repr. Lossy on purpose; keep the `PyValue` wherever Python semantics matter.
 */
export function toPlain(v: PyValue): unknown {
  if (v === null || typeof v !== 'object') return typeof v === 'bigint' ? Number(v) : v;
  if (Array.isArray(v)) return v.map(toPlain);
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, item] of v) out[plainKey(k)] = toPlain(item);
    return out;
  }
  if (v instanceof PyTuple) return v.items.map(toPlain);
  if (v instanceof PySet) return [...v.items].map(toPlain);
  if (v instanceof PyObject) return v.pyRepr();
  return v;
}

function plainKey(k: PyValue): string {
  if (typeof k === 'string') return k;
  if (k === null) return 'None';
  if (typeof k === 'boolean') return k ? 'True' : 'False';
  if (typeof k === 'bigint' || typeof k === 'number') return String(k);
  return String(toPlain(k));
}

import { compareCodePoints } from '../py/builtins.js';
import { jsonString } from '../py/json.js';
import { floatRepr } from '../py/repr.js';
import { PyObject, PySet, PyTuple, type PyKey, type PyValue } from '../py/value.js';
import type { SimulatedApi } from '../sim/simulated-api.js';

/** Public state of every instance: class name → `vars()` without private names. */
export type StateSnapshot = Map<string, [string, PyValue][]>;

/** Snapshot the public attributes of each instance (values are live references, not copies). */
export function snapshotState(instances: ReadonlyMap<string, SimulatedApi>): StateSnapshot {
  const snapshot: StateSnapshot = new Map();
  for (const [className, instance] of instances) snapshot.set(className, instance._publicState());
  return snapshot;
}

function canonicalKey(k: PyKey): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'bigint') return k.toString();
  if (typeof k === 'number') return floatRepr(k);
  if (typeof k === 'boolean') return k ? 'true' : 'false';
  if (k === null) return 'null';
  return canonicalJson(k);
}

function canonicalObject(entries: [string, string][]): string {
  entries.sort(([a], [b]) => compareCodePoints(a, b));
  return '{' + entries.map(([k, v]) => jsonString(k, false) + ':' + v).join(',') + '}';
}

function compareNatural(a: PyKey, b: PyKey): number {
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return compareCodePoints(canonicalJson(a), canonicalJson(b));
}

/**
 * The canonical JSON of the conformance trace (shared/conformance/README.md §1): keys sorted,
 * no whitespace, floats in Python repr, sets sorted, objects as their public attributes
 * (a Directory's `parent` back-pointer left out).
 */
export function canonicalJson(v: PyValue): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'number':
      if (Number.isNaN(v)) return '"NaN"';
      if (!Number.isFinite(v)) return v > 0 ? '"Infinity"' : '"-Infinity"';
      return floatRepr(v);
    case 'string':
      return jsonString(v, false);
  }
  if (Array.isArray(v)) return '[' + v.map(canonicalJson).join(',') + ']';
  if (v instanceof PyTuple) return '[' + v.items.map(canonicalJson).join(',') + ']';
  if (v instanceof Map) {
    return canonicalObject([...v].map(([k, val]) => [canonicalKey(k), canonicalJson(val)]));
  }
  if (v instanceof PySet) return '[' + [...v.items].sort(compareNatural).map(canonicalJson).join(',') + ']';
  if (v instanceof PyObject) {
    const attrs = v.publicAttributes().filter(([name]) => !(v.pyTypeName === 'Directory' && name === 'parent'));
    return canonicalObject(attrs.map(([k, val]) => [k, canonicalJson(val)]));
  }
  throw new TypeError(`not a Python value: ${String(v)}`);
}

/** Canonical JSON of a snapshot: one object per class, attributes sorted. */
export function canonicalStateJson(snapshot: StateSnapshot): string {
  return canonicalObject(
    [...snapshot].map(([className, attrs]) => [
      className,
      canonicalObject(attrs.map(([k, val]) => [k, canonicalJson(val)])),
    ]),
  );
}

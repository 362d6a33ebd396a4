/**
 * The few Python dict operations that prompt and tool building apply to function docs, with
 * Python's exceptions when a doc has an unexpected shape (the generation loop records them as
 * `Error during inference: <message>`, as the reference does).
 */

import { strRepr } from '../../py/repr.js';
import {
  PyException,
  PySet,
  PyTuple,
  dictHas,
  listContains,
  pyTypeName,
  type PyDict,
  type PyKey,
  type PyValue,
} from '../../py/value.js';

/** Python `d[key]` for a str key. */
export function getItem(d: PyValue, key: string): PyValue {
  if (d instanceof Map) {
    const value = d.get(key);
    if (value === undefined) throw new PyException('KeyError', strRepr(key));
    return value;
  }
  if (Array.isArray(d) || d instanceof PyTuple) {
    throw new PyException('TypeError', `${pyTypeName(d)} indices must be integers or slices, not str`);
  }
  if (typeof d === 'string') throw new PyException('TypeError', "string indices must be integers, not 'str'");
  throw new PyException('TypeError', `'${pyTypeName(d)}' object is not subscriptable`);
}

/** Python `d.get(key, fallback)`. */
export function getOr(d: PyValue, key: string, fallback: PyValue): PyValue {
  const dict = asDict(d, 'get');
  return dict.has(key) ? dict.get(key)! : fallback;
}

/** `d` itself when it is a dict, else Python's AttributeError for `d.<method>`. */
export function asDict(d: PyValue, method: string): PyDict {
  if (d instanceof Map) return d;
  throw new PyException('AttributeError', `'${pyTypeName(d)}' object has no attribute '${method}'`);
}

/** Python `key in container` for the containers a function doc holds (dict keys, list items, substrings). */
export function contains(container: PyValue, key: PyValue): boolean {
  if (container instanceof Map) {
    if (typeof key === 'string') return container.has(key);
    assertHashable(key);
    return dictHas(container, key as PyKey);
  }
  if (Array.isArray(container)) return listContains(container, key);
  if (container instanceof PyTuple) return listContains(container.items, key);
  if (container instanceof PySet) return listContains([...container.items], key);
  if (typeof container === 'string') {
    if (typeof key !== 'string') {
      throw new PyException('TypeError', `'in <string>' requires string as left operand, not ${pyTypeName(key)}`);
    }
    return container.includes(key);
  }
  throw new PyException('TypeError', `argument of type '${pyTypeName(container)}' is not iterable`);
}

/** Python `a += b` where `b` is a str (the reference's description concatenations). */
export function concatStr(a: PyValue, b: string): string {
  if (typeof a === 'string') return a + b;
  throw new PyException('TypeError', `unsupported operand type(s) for +=: '${pyTypeName(a)}' and 'str'`);
}

/** Python `hash(v)` succeeds: lists, dicts and sets cannot be dict keys or set members. */
export function assertHashable(v: PyValue): void {
  if (Array.isArray(v) || v instanceof Map || v instanceof PySet) {
    throw new PyException('TypeError', `unhashable type: '${pyTypeName(v)}'`);
  }
}

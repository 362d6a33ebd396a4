/**
 * Reading a class's scenario (`initial_config`) and the long-context filler: values the simulated
 * methods use as dicts or lists are checked once at load time, so a malformed scenario fails with a
 * clear message instead of a confusing one later.
 */
import { PyException, pyTypeName, type PyDict, type PyValue } from '../py/value.js';

/** `value` when it is a dict; `what` names it in the error ("TwitterAPI scenario 'tweets'"). */
export function expectDict(value: PyValue, what: string): PyDict {
  if (value instanceof Map) return value;
  throw new PyException('TypeError', `${what} must be a dict, not ${pyTypeName(value)}`);
}

/** `value` when it is a list; `what` names it in the error. */
export function expectList(value: PyValue, what: string): PyValue[] {
  if (Array.isArray(value)) return value;
  throw new PyException('TypeError', `${what} must be a list, not ${pyTypeName(value)}`);
}

/** The seed of `random.Random(seed)` (int or float seeds only; no scenario of the data sets one). */
export function randomSeed(value: PyValue): bigint | number {
  if (typeof value === 'bigint' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1n : 0n;
  throw new PyException('TypeError', `unsupported random_seed type: '${pyTypeName(value)}'`);
}

/**
 * Decoded calls → executable Python call strings, for prompting models
 * (`decoded_output_to_execution_list` / `parse_nested_value` in the reference).
 */
import { pyRepr, pyStr } from '../../py/repr.js';
import { PyException, type PyDict, type PyValue } from '../../py/value.js';
import { noAttribute, pyIterate } from '../../py/ops.js';

/**
 * One argument value as call-string text.
 *
 * BFCL parity: model_handler/utils.py::parse_nested_value — a dict whose values are all dicts is
 * taken for a nested call `name(k=v, ...)` (first key only); an empty dict passes that test too and
 * then fails with `IndexError: list index out of range`. Other dicts print as `{'k': v}` with the
 * key's `str()` in single quotes (no escaping); everything else is `repr(v)`, so dicts inside lists
 * are plain reprs.
 */
export function parseNestedValue(value: PyValue): string {
  if (!(value instanceof Map)) return pyRepr(value);
  const values = [...value.values()];
  if (values.every((v) => v instanceof Map)) {
    const first = value.keys().next();
    if (first.done === true) throw new PyException('IndexError', 'list index out of range');
    const funcName = first.value;
    const args = value.get(funcName) as PyDict;
    return `${pyStr(funcName)}(${formatArguments(args)})`;
  }
  const items = [...value].map(([k, v]) => `'${pyStr(k)}': ${parseNestedValue(v)}`);
  return '{' + items.join(', ') + '}';
}

/** `k1=v1, k2=v2` with values rendered by `parseNestedValue`. */
function formatArguments(args: PyDict): string {
  return [...args].map(([k, v]) => `${pyStr(k)}=${parseNestedValue(v)}`).join(', ');
}

/** Python `x.items()` on a value that must be a dict. */
function items(value: PyValue): [PyValue, PyValue][] {
  if (!(value instanceof Map)) throw noAttribute(value, 'items');
  return [...value];
}

/** `decoded_output_to_execution_list`: `[{name: {k: v}}]` → `["name(k=v)"]`. */
export function decodedOutputToExecutionList(decoded: PyValue): string[] {
  const calls: string[] = [];
  for (const functionCall of pyIterate(decoded)) {
    for (const [name, args] of items(functionCall)) {
      const argsText = items(args)
        .map(([k, v]) => `${pyStr(k)}=${parseNestedValue(v)}`)
        .join(', ');
      calls.push(`${pyStr(name)}(${argsText})`);
    }
  }
  return calls;
}

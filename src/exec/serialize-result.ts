import { jsonDumps } from '../py/json.js';
import { pyStr } from '../py/repr.js';
import { PyException, type PyValue } from '../py/value.js';

/**
 * How the reference turns a method's return value into the string shown to the model:
 * str as is; dict through `json.dumps` (falling back to `str()` when not serialisable); else `str()`.
 */
export function serializeResult(value: PyValue): string {
  if (typeof value === 'string') return value;
  if (value instanceof Map) {
    try {
      return jsonDumps(value);
    } catch (error) {
      if (error instanceof PyException) return pyStr(value);
      throw error;
    }
  }
  return pyStr(value);
}

/** The reference's text for an exception raised while executing a call. */
export function executionErrorText(message: string): string {
  return `Error during execution: ${message}`;
}

/** Test helpers for code that raises Python exceptions. */
import { PyException } from '../../src/py/value.js';

/** `Type: message` of the Python exception `fn` raises (`str(e)` after the type name). */
export function raised(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof PyException) return `${error.pyType}: ${error.message}`;
    throw error;
  }
  throw new Error('no exception raised');
}

/**
 * Shared types of the model-output decoders, and the conversion of a raised Python exception
 * into a typed decode failure.
 */
import { PythonSyntaxError } from '../python-tokenizer.js';
import { PyException } from '../../py/value.js';

/** The `ReturnFormat` values of the reference (`bfcl_eval/constants/enums.py`). */
export type ReturnFormat = 'python' | 'java' | 'javascript' | 'json' | 'verbose_xml' | 'concise_xml';

export const RETURN_FORMATS: readonly ReturnFormat[] = [
  'python',
  'java',
  'javascript',
  'json',
  'verbose_xml',
  'concise_xml',
];

/**
 * What a decoder produced: the value, or the exception the reference would raise.
 * `error` is Python's `str(e)` (the evaluator prints `Failed to decode AST. <str(e)>`),
 * `errorType` the exception class name.
 */
export type DecodeResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: string; errorType: string };

/** Run a decoder body and turn a Python-level exception into a failure result. */
export function runDecoder<T>(body: () => T): DecodeResult<T> {
  try {
    return { ok: true, value: body() };
  } catch (error) {
    return { ok: false, ...describeError(error) };
  }
}

/** Python's `type(e).__name__` and `str(e)` for an error thrown by a decoder. */
export function describeError(error: unknown): { error: string; errorType: string } {
  if (error instanceof PyException) return { errorType: error.pyType, error: error.message };
  if (error instanceof PythonSyntaxError) return { errorType: error.pyType, error: error.message };
  // Deep recursion in a hostile input: CPython would raise RecursionError as well.
  if (error instanceof RangeError) return { errorType: 'RecursionError', error: 'maximum recursion depth exceeded' };
  // Anything else is a bug in this port; it still counts as a decode failure, as any exception does.
  return { errorType: 'Exception', error: error instanceof Error ? error.message : String(error) };
}

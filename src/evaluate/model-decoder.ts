import {
  decodeAstFC,
  decodeAstPrompting,
  decodeExecuteFC,
  decodeExecutePrompting,
  type DecodeResult,
  type ReturnFormat,
} from '../exec/decode/index.js';
import type { PyValue } from '../py/value.js';

/** How a model's raw results are decoded at evaluation time. */
export type DecoderMode = 'fc' | 'prompting';

/** The two decoders of a reference handler (`decode_ast`, `decode_execute`). */
export interface ModelDecoder {
  readonly mode: DecoderMode;
  decodeAst(raw: PyValue, format: ReturnFormat, hasToolCallTag: boolean): DecodeResult<PyValue>;
  decodeExecute(raw: PyValue, hasToolCallTag: boolean): DecodeResult<string[]>;
}

/**
 * The decoders the reference's handler would use. BFCL parity: OpenAI and Claude handlers decode
 * with the FC decoders iff the model is a function-calling model; OSS handlers always decode prompting.
 */
export function modelDecoder(mode: DecoderMode): ModelDecoder {
  if (mode === 'fc') {
    return { mode, decodeAst: (raw) => decodeAstFC(raw), decodeExecute: (raw) => decodeExecuteFC(raw) };
  }
  return {
    mode,
    decodeAst: (raw, format, tag) => decodeAstPrompting(raw, format, tag),
    decodeExecute: (raw, tag) => decodeExecutePrompting(raw, tag),
  };
}

/** The reference's `is_empty_execute_response`. */
export function isEmptyExecuteResponse(calls: readonly string[]): boolean {
  return calls.length === 0 || (calls.length === 1 && calls[0]!.length === 0);
}

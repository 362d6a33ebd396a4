import { isFunctionCallingFormatOutput } from '../ast/ast-checker.js';
import type { PyDict, PyValue } from '../../py/value.js';
import { record, type CategoryRunInput, type CategoryRunOutput } from './category-input.js';

/** The reference's `is_empty_output`: not call-shaped, `[]` or `[{}]`. */
export function isEmptyOutput(decoded: PyValue): boolean {
  if (!isFunctionCallingFormatOutput(decoded)) return true;
  const list = decoded as PyValue[];
  if (list.length === 0) return true;
  return list.length === 1 && list[0] instanceof Map && list[0].size === 0;
}

/** The reference's `relevance_file_runner` (irrelevance, live_irrelevance, live_relevance). */
export function runRelevanceCategory(input: CategoryRunInput): CategoryRunOutput {
  const expectNoCall = input.category.includes('irrelevance');
  const failures: PyDict[] = [];
  let correct = 0;
  input.results.forEach((entry, i) => {
    const decoded = input.decoder.decodeAst(entry.result, 'python', false);
    const decodedResult: PyValue = decoded.ok ? decoded.value : null;
    const containsCall = decoded.ok && !isEmptyOutput(decoded.value);
    if (containsCall !== expectNoCall) {
      correct++;
      return;
    }
    const base: [string, PyValue][] = [
      ['id', entry.id],
      ['model_name', input.modelName],
      ['test_category', input.category],
      ['valid', false],
      ['prompt', input.prompts[i]!.raw],
      ['model_result', entry.result],
      ['decoded_result', decodedResult],
    ];
    if (expectNoCall) {
      base.push(['error', ['Valid syntax. Successfully decode AST when it should not.']]);
      base.push(['error_type', 'irrelevance_error:decoder_success']);
    } else {
      // BFCL parity: eval_runner._evaluate_single_relevance_entry — str(None) when decoding worked but found no call.
      const reason = decoded.ok ? 'None' : decoded.error;
      base.push(['error', [`Invalid syntax. Failed to decode AST when it should have. ${reason}`]]);
      base.push(['error_type', 'relevance_error:decoder_failed']);
    }
    failures.push(record(base));
  });
  return { correct, total: input.results.length, failures };
}

import { isFunctionCallingFormatOutput } from '../ast/ast-checker.js';
import type { PyValue } from '../../py/value.js';
import { failureHead, record, tallyEntries, type CategoryRunInput, type CategoryRunOutput } from './category-input.js';

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
  return tallyEntries(input.results, (entry, i) => {
    const decoded = input.decoder.decodeAst(entry.result, 'python', false);
    const decodedResult: PyValue = decoded.ok ? decoded.value : null;
    const containsCall = decoded.ok && !isEmptyOutput(decoded.value);
    if (containsCall !== expectNoCall) return undefined;
    const failure: [string, PyValue][] = [
      ...failureHead(entry.id, input.modelName, input.category),
      ['prompt', input.prompts[i]!.raw],
      ['model_result', entry.result],
      ['decoded_result', decodedResult],
    ];
    if (expectNoCall) {
      failure.push(['error', ['Valid syntax. Successfully decode AST when it should not.']]);
      failure.push(['error_type', 'irrelevance_error:decoder_success']);
    } else {
      // BFCL parity: eval_runner._evaluate_single_relevance_entry — str(None) when decoding worked but found no call.
      const reason = decoded.ok ? 'None' : decoded.error;
      failure.push(['error', [`Invalid syntax. Failed to decode AST when it should have. ${reason}`]]);
      failure.push(['error_type', 'relevance_error:decoder_failed']);
    }
    return record(failure);
  });
}

import { checkAst, isFunctionCallingFormatOutput, type CheckerLanguage } from '../ast/ast-checker.js';
import type { ReturnFormat } from '../../exec/decode/index.js';
import { pyStr } from '../../py/repr.js';
import type { PyDict, PyValue } from '../../py/value.js';
import { isJava, isJs } from '../../spec/categories.js';
import type { ModelDecoder } from '../model-decoder.js';
import {
  failureHead,
  record,
  tallyEntries,
  type CategoryRunInput,
  type CategoryRunOutput,
  type ResultEntry,
} from './category-input.js';

/** One single-turn entry to check against its possible answer. */
interface AstEntryInput extends AstCheckMode {
  readonly id: string;
  readonly raw: PyValue;
  readonly prompt: PyDict;
  readonly possibleAnswer: PyValue;
  readonly modelName: string;
  readonly category: string;
  readonly decoder: ModelDecoder;
  readonly underscoreToDot: boolean;
}

/** The reference's `_evaluate_single_ast_entry`: undefined when correct, else the failure record. */
function evaluateAstEntry(input: AstEntryInput): PyDict | undefined {
  const { id, raw, prompt, possibleAnswer, modelName, category } = input;
  const functionDocs = prompt.get('function');
  const decoded = input.decoder.decodeAst(raw, input.format, input.hasToolCallTag);
  if (!decoded.ok) {
    return record([
      ...failureHead(id, modelName, category),
      ['error', [`Invalid syntax. Failed to decode AST. ${decoded.error}`]],
      ['error_type', 'ast_decoder:decoder_failed'],
      ['prompt', prompt],
      ['model_result_raw', raw],
      ['possible_answer', possibleAnswer],
    ]);
  }
  if (!isFunctionCallingFormatOutput(decoded.value)) {
    return record([
      ...failureHead(id, modelName, category),
      [
        'error',
        [
          'Did not output in the specified format. Note: the model_result is wrapped in a string to ensure json serializability.',
        ],
      ],
      ['error_type', 'ast_decoder:decoder_wrong_output_format'],
      ['prompt', prompt],
      ['model_result_raw', pyStr(raw)],
      ['model_result_decoded', pyStr(decoded.value)],
      ['possible_answer', possibleAnswer],
    ]);
  }
  const docs = Array.isArray(functionDocs) ? functionDocs : [];
  const result = checkAst(docs, decoded.value, possibleAnswer, input.language, input.checkerCategory, input.underscoreToDot);
  if (result.valid) return undefined;
  return record([
    ...failureHead(id, modelName, category),
    ['error', result.error],
    ['error_type', result.errorType],
    ['prompt', prompt],
    ['model_result_raw', raw],
    ['model_result_decoded', decoded.value],
    ['possible_answer', possibleAnswer],
  ]);
}

/** Checker language and prompting return format of a single-turn category. */
export function languageOf(category: string): { language: CheckerLanguage; format: ReturnFormat } {
  if (isJava(category)) return { language: 'java', format: 'java' };
  if (isJs(category)) return { language: 'javascript', format: 'javascript' };
  return { language: 'python', format: 'python' };
}

/** How the entries of a single-turn category are decoded and checked. */
export interface AstCheckMode {
  /** The category the checker routes on (the original id for format sensitivity). */
  readonly checkerCategory: string;
  readonly language: CheckerLanguage;
  readonly format: ReturnFormat;
  readonly hasToolCallTag: boolean;
}

/** `evaluateAstEntry` for the `i`-th result of a category run. */
export function evaluateRunEntry(input: CategoryRunInput, entry: ResultEntry, i: number, mode: AstCheckMode): PyDict | undefined {
  return evaluateAstEntry({
    id: entry.id,
    raw: entry.result,
    prompt: input.prompts[i]!.raw,
    possibleAnswer: input.answers![i]!.groundTruth,
    modelName: input.modelName,
    category: input.category,
    decoder: input.decoder,
    underscoreToDot: input.underscoreToDot,
    ...mode,
  });
}

/** The reference's `ast_file_runner`. */
export function runAstCategory(input: CategoryRunInput): CategoryRunOutput {
  const { language, format } = languageOf(input.category);
  const mode: AstCheckMode = { checkerCategory: input.category, language, format, hasToolCallTag: false };
  return tallyEntries(input.results, (entry, i) => evaluateRunEntry(input, entry, i, mode));
}

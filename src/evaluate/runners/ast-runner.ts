import { checkAst, isFunctionCallingFormatOutput, type CheckerLanguage } from '../ast/ast-checker.js';
import type { ReturnFormat } from '../../exec/decode/index.js';
import { pyStr } from '../../py/repr.js';
import type { PyDict, PyValue } from '../../py/value.js';
import { isJava, isJs } from '../../spec/categories.js';
import type { ModelDecoder } from '../model-decoder.js';
import { record, type CategoryRunInput, type CategoryRunOutput } from './category-input.js';

/** One single-turn entry to check against its possible answer. */
export interface AstEntryInput {
  readonly id: string;
  readonly raw: PyValue;
  readonly prompt: PyDict;
  readonly possibleAnswer: PyValue;
  readonly modelName: string;
  readonly category: string;
  /** The category the checker routes on (the original id for format sensitivity). */
  readonly checkerCategory: string;
  readonly language: CheckerLanguage;
  readonly format: ReturnFormat;
  readonly hasToolCallTag: boolean;
  readonly decoder: ModelDecoder;
  readonly underscoreToDot: boolean;
}

/** The reference's `_evaluate_single_ast_entry`: undefined when correct, else the failure record. */
export function evaluateAstEntry(input: AstEntryInput): PyDict | undefined {
  const { id, raw, prompt, possibleAnswer, modelName, category } = input;
  const functionDocs = prompt.get('function');
  const decoded = input.decoder.decodeAst(raw, input.format, input.hasToolCallTag);
  if (!decoded.ok) {
    return record([
      ['id', id],
      ['model_name', modelName],
      ['test_category', category],
      ['valid', false],
      ['error', [`Invalid syntax. Failed to decode AST. ${decoded.error}`]],
      ['error_type', 'ast_decoder:decoder_failed'],
      ['prompt', prompt],
      ['model_result_raw', raw],
      ['possible_answer', possibleAnswer],
    ]);
  }
  if (!isFunctionCallingFormatOutput(decoded.value)) {
    return record([
      ['id', id],
      ['model_name', modelName],
      ['test_category', category],
      ['valid', false],
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
    ['id', id],
    ['model_name', modelName],
    ['test_category', category],
    ['valid', false],
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

/** The reference's `ast_file_runner`. */
export function runAstCategory(input: CategoryRunInput): CategoryRunOutput {
  const { language, format } = languageOf(input.category);
  const failures: PyDict[] = [];
  let correct = 0;
  input.results.forEach((entry, i) => {
    const failure = evaluateAstEntry({
      id: entry.id,
      raw: entry.result,
      prompt: input.prompts[i]!.raw,
      possibleAnswer: input.answers![i]!.groundTruth,
      modelName: input.modelName,
      category: input.category,
      checkerCategory: input.category,
      language,
      format,
      hasToolCallTag: false,
      decoder: input.decoder,
      underscoreToDot: input.underscoreToDot,
    });
    if (failure === undefined) correct++;
    else failures.push(failure);
  });
  return { correct, total: input.results.length, failures };
}

import { pyStr } from '../../py/repr.js';
import { pyDict, pyTruthy, type PyDict, type PyValue } from '../../py/value.js';
import { isEmptyExecuteResponse } from '../model-decoder.js';
import {
  failureHead,
  iterateOrUndefined,
  record,
  tallyEntries,
  withInferenceLog,
  withoutFunctionDocs,
  type CategoryRunInput,
  type CategoryRunOutput,
  type ResultEntry,
} from './category-input.js';

/** The agentic checker's normalisation: drop `,./-_*^()`, lowercase, `'` → `"` (spaces are kept). */
export function standardizeAgenticString(s: string): string {
  return s.replace(/[,./\-_*^()]/g, '').toLowerCase().replaceAll("'", '"');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Python's `\b` is Unicode-aware: a word character is a letter, digit or underscore of any script.
const WORD = '[\\p{L}\\p{N}_]';

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** Python `re.search(rf"\b{re.escape(answer)}\b", text)` with Unicode word boundaries. */
function matchesAsWords(answer: string, text: string): boolean {
  if (answer.length === 0) return WORD_CHAR.test(text);
  const before = WORD_CHAR.test(answer[0]!) ? `(?<!${WORD})` : `(?<=${WORD})`;
  const after = WORD_CHAR.test(answer.at(-1)!) ? `(?!${WORD})` : `(?=${WORD})`;
  return new RegExp(`${before}${escapeRegExp(answer)}${after}`, 'u').test(text);
}

/** The reference's `agentic_checker`: some standardized answer appears as a whole word sequence. */
export function checkAgenticAnswer(modelResponse: PyValue, possibleAnswers: readonly string[]): PyDict | undefined {
  const standardizedAnswers = possibleAnswers.map(standardizeAgenticString);
  let response = Array.isArray(modelResponse) ? (modelResponse[0] ?? null) : modelResponse;
  if (typeof response !== 'string') response = pyStr(response);
  const standardizedResponse = standardizeAgenticString(response);
  for (const answer of standardizedAnswers) {
    if (matchesAsWords(answer, standardizedResponse)) return undefined;
  }
  return pyDict({
    error_message: 'None of the expected answers were found in the model response.',
    error_type: 'agentic:answer_not_found',
    details: pyDict({
      model_response: response,
      possible_answers: [...possibleAnswers],
      standardized_model_response: standardizedResponse,
      standardized_possible_answers: standardizedAnswers,
    }),
  });
}

/** The reference's `agentic_runner` / `_evaluate_single_agentic_entry` (web search and memory). */
export function runAgenticCategory(input: CategoryRunInput): CategoryRunOutput {
  return tallyEntries(input.results, (entry, i) => withInferenceLog(checkEntry(input, entry, i), entry));
}

function checkEntry(input: CategoryRunInput, entry: ResultEntry, i: number): PyDict | undefined {
  const promptEntry = withoutFunctionDocs(input.prompts[i]!.raw);
  const possibleAnswer = input.answers![i]!.groundTruth;
  const result = entry.result;
  const head = failureHead(entry.id, input.modelName, input.category);
  if (!Array.isArray(result) || result.length !== 1) {
    return record([
      ...head,
      [
        'error',
        pyDict({
          error_message: ['Error during inference phase. Model did not output a list of model responses.'],
          error_type: 'agentic:inference_error',
        }),
      ],
      ['prompt', promptEntry],
      ['model_result', result],
      ['possible_answer', possibleAnswer],
    ]);
  }
  const decodedSteps: PyValue[] = [];
  let lastMessage: PyValue = null;
  for (const step of iterateOrUndefined(result[0]!) ?? []) {
    const decoded = input.decoder.decodeExecute(step, false);
    if (!decoded.ok || isEmptyExecuteResponse(decoded.value)) lastMessage = step;
    else decodedSteps.push(decoded.value);
  }
  if (!pyTruthy(lastMessage)) {
    return record([
      ...head,
      [
        'error',
        pyDict({
          error_message: ['Cannot find the last chat message that is not a function call.'],
          error_type: 'agentic:no_last_message',
        }),
      ],
      ['prompt', promptEntry],
      ['model_result', result],
      ['model_result_decoded', decodedSteps],
      ['possible_answer', possibleAnswer],
    ]);
  }
  const answers = (Array.isArray(possibleAnswer) ? possibleAnswer : []).map((a) => pyStr(a));
  const error = checkAgenticAnswer(lastMessage, answers);
  if (error === undefined) return undefined;
  return record([
    ...head,
    ['error', error],
    ['prompt', promptEntry.get('question') ?? null],
    ['model_result_raw', result],
    ['last_non_fc_message', lastMessage],
    ['possible_answer', possibleAnswer],
  ]);
}

/**
 * The single-turn loop (base_handler.py::inference_single_turn_FC / _prompting): one query on the
 * first turn, no decoding. FC and prompting differ only inside the model's conversation.
 */

import type { PyDict, PyValue } from '../py/value.js';
import type { Model } from '../spec/model.js';
import type { TestEntry } from '../spec/schemas.js';
import { logRecord, tokenCount } from './inference-log.js';
import { type LoopOptions, queryOptionsOf, throwIfInterrupted } from './loop-options.js';

/**
 * Run one single-turn entry and return its result line:
 * `id, result, [inference_log], input_token_count, output_token_count, latency, [reasoning_content]`.
 */
export async function inferSingleTurn(model: Model, entry: TestEntry, options: LoopOptions): Promise<PyDict> {
  const { conversation, question } = model.startConversation({
    entryId: entry.id,
    functions: entry.functionDocs,
    question: entry.question,
    multiTurn: false,
  });
  conversation.addFirstTurnMessages(question[0] ?? []);
  throwIfInterrupted(options.signal);
  const step = await conversation.query(queryOptionsOf(options, entry.id));

  const line: PyDict = new Map<string, PyValue>([
    ['id', entry.id],
    ['result', step.responses],
  ]);
  if (options.includeInputLog) {
    line.set('inference_log', [logRecord('inference_input', [['content', conversation.inferenceInputLog()]])]);
  }
  line.set('input_token_count', tokenCount(step.inputTokens));
  line.set('output_token_count', tokenCount(step.outputTokens));
  line.set('latency', step.latency);
  if (step.reasoningContent !== '') line.set('reasoning_content', step.reasoningContent);
  return line;
}

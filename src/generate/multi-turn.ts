/**
 * The multi-turn loop (base_handler.py::inference_multi_turn_FC / _prompting, one structure for
 * both): per turn, query until the model's answer decodes to no call, fails to decode, or the step
 * limit is hit; execute every decoded call on the entry's simulated APIs and feed the results back.
 *
 * Agentic entries (web search, memory) run through the same loop (agentic spec §5): their backends
 * come from `options.agentic`, their calls are executed asynchronously, memory entries get the
 * memory instruction in their system prompt, and a memory prerequisite flushes its snapshot at the end.
 */

import type { MemoryApi } from '../agentic/memory/memory-api.js';
import { type AgenticBackends, isMemoryInstance } from '../exec/agentic-instances.js';
import { EntryExecutor } from '../exec/executor.js';
import { makeJsonSerializable } from '../py/json.js';
import { pyStr } from '../py/repr.js';
import { PyObject, type PyDict, type PyValue } from '../py/value.js';
import { OMIT_STATE_INFO_CLASSES, STATELESS_CLASSES } from '../sim/registry.js';
import { isMemory, isMemoryPrereq } from '../spec/categories.js';
import type { Conversation, Model } from '../spec/model.js';
import type { Message, TestEntry } from '../spec/schemas.js';
import {
  ADDITIONAL_FUNCTION_PROMPT_FC,
  HANDLER_LOG,
  MAXIMUM_STEP_LIMIT,
  additionalFunctionPromptPrompting,
  isEmptyExecuteResponse,
  logRecord,
  messageRecord,
  tokenCount,
} from './inference-log.js';
import { memoryInstructionPrompt, withMemorySystemPrompt } from './agentic-prompts.js';
import { type LoopOptions, queryOptionsOf, throwIfInterrupted } from './loop-options.js';

/** The loop's options plus the agentic backends (needed only by web search and memory entries). */
export interface MultiTurnOptions extends LoopOptions {
  /** What `WebSearchAPI` and the memory classes are built with. */
  readonly agentic?: AgenticBackends;
}

/** Per-turn lists of per-step values, as the result line stores them. */
interface TurnSeries {
  responses: PyValue[][];
  inputTokens: PyValue[][];
  outputTokens: PyValue[][];
  latency: PyValue[][];
  reasoning: string[][];
}

/**
 * Run one multi-turn entry and return its result line:
 * `id, result, input_token_count, output_token_count, latency, inference_log, [reasoning_content]`.
 */
export async function inferMultiTurn(model: Model, entry: TestEntry, options: MultiTurnOptions): Promise<PyDict> {
  // BFCL parity: base_handler.py — `test_category` is the id without its last `_<index>`.
  const category = entry.id.slice(0, Math.max(0, entry.id.lastIndexOf('_')));
  const executor = new EntryExecutor({
    modelName: model.instanceModelName,
    entryId: entry.id,
    initialConfig: entry.initialConfig ?? new Map(),
    involvedClasses: entry.involvedClasses ?? [],
    longContext: category.includes('long_context') || category.includes('composite'),
    context: options.simContext,
    ...(options.agentic !== undefined && { agentic: options.agentic }),
  });

  const inferenceLog: PyValue[] = [];
  const logState = (): void => {
    if (options.excludeStateLog) return;
    const records = stateRecords(executor);
    if (records.length > 0) inferenceLog.push(records);
  };
  // The instances exist before the first query, so the log starts with the initial state.
  logState();

  // BFCL parity: base_handler.py::inference_multi_turn_* — the memory instruction shows the memory
  // as loaded from the snapshot when the entry starts; it is not refreshed later in the entry.
  const memory = isMemory(category) ? memoryInstanceOf(executor) : undefined;
  const startQuestion =
    memory === undefined
      ? entry.question
      : withMemorySystemPrompt(entry.question, memoryInstructionPrompt(category, String(entry.scenario), memory._dumpCoreMemoryToContext()));

  let functions: PyValue[] = [...entry.functionDocs];
  const { conversation, question } = model.startConversation({
    entryId: entry.id,
    functions,
    question: startQuestion,
    multiTurn: true,
  });

  const series: TurnSeries = { responses: [], inputTokens: [], outputTokens: [], latency: [], reasoning: [] };
  for (let turn = 0; turn < question.length; turn++) {
    let messages: readonly Message[] = question[turn]!;
    const heldOut = entry.missedFunction?.get(String(turn));
    if (heldOut !== undefined) {
      if (messages.length !== 0) throw new Error('Holdout turn should not have user message.');
      if (model.mode === 'fc') {
        // FC: the held-out docs join the tools.
        functions = [...functions, ...heldOut];
        conversation.setFunctions(functions);
        messages = [{ role: 'user', content: ADDITIONAL_FUNCTION_PROMPT_FC }];
      } else {
        // BFCL parity: base_handler.py::inference_multi_turn_prompting — the docs appear only in
        // this user message (Python str of the list); the system prompt is not rebuilt.
        messages = [{ role: 'user', content: additionalFunctionPromptPrompting(pyStr([...heldOut])) }];
      }
    }
    if (turn === 0) conversation.addFirstTurnMessages(messages);
    else conversation.addNextTurnMessages(messages);

    const forceQuit = await runTurn(model, conversation, executor, entry.id, messages, series, inferenceLog, options);
    logState();
    if (forceQuit) break;
  }
  // BFCL parity: base_handler.py::inference_multi_turn_* — a prerequisite conversation writes its
  // memory snapshot once its turns are over, force quit included; an exception skips this.
  if (memory !== undefined && isMemoryPrereq(entry.id)) memory._flushSnapshot();

  const line: PyDict = new Map<string, PyValue>([
    ['id', entry.id],
    ['result', series.responses],
    ['input_token_count', series.inputTokens],
    ['output_token_count', series.outputTokens],
    ['latency', series.latency],
    ['inference_log', inferenceLog],
  ]);
  // Reasoning is kept only when some step has any.
  if (series.reasoning.some((turn) => turn.some((text) => text !== ''))) line.set('reasoning_content', series.reasoning);
  return line;
}

/** One turn: steps until the turn ends. Appends to `series` and `inferenceLog`; true on a force quit. */
async function runTurn(
  model: Model,
  conversation: Conversation,
  executor: EntryExecutor,
  entryId: string,
  messages: readonly Message[],
  series: TurnSeries,
  inferenceLog: PyValue[],
  options: LoopOptions,
): Promise<boolean> {
  const turnLog: PyDict = new Map<string, PyValue>([['begin_of_turn_query', messages.map(messageRecord)]]);
  const responses: PyValue[] = [];
  const inputTokens: PyValue[] = [];
  const outputTokens: PyValue[] = [];
  const latency: PyValue[] = [];
  const reasoning: string[] = [];
  let forceQuit = false;

  for (let count = 0; ; ) {
    // The step's list is in the turn log from the start, whatever ends the step.
    const stepLog: PyValue[] = [];
    turnLog.set(`step_${count}`, stepLog);

    throwIfInterrupted(options.signal);
    const step = await conversation.query(queryOptionsOf(options, entryId));
    if (options.includeInputLog) stepLog.push(logRecord('inference_input', [['content', conversation.inferenceInputLog()]]));
    conversation.addAssistantMessage(step);

    inputTokens.push(tokenCount(step.inputTokens));
    outputTokens.push(tokenCount(step.outputTokens));
    latency.push(step.latency);
    responses.push(step.responses);
    reasoning.push(step.reasoningContent);
    const assistant = logRecord('assistant', [['content', step.responses]]);
    if (step.reasoningContent !== '') assistant.set('reasoning_content', step.reasoningContent);
    stepLog.push(assistant);

    const decoded = model.decodeExecute(step.responses);
    if (!decoded.ok) {
      stepLog.push(logRecord('handler_log', [['content', HANDLER_LOG.decodeFailure], ['error', decoded.error]]));
      break;
    }
    stepLog.push(logRecord('handler_log', [['content', HANDLER_LOG.decodeSuccess], ['model_response_decoded', decoded.value]]));
    if (isEmptyExecuteResponse(decoded.value)) {
      stepLog.push(logRecord('handler_log', [['content', HANDLER_LOG.emptyResponse], ['model_response_decoded', decoded.value]]));
      break;
    }

    const results = executor.needsAsync() ? await executor.executeAsync(decoded.value) : executor.execute(decoded.value);
    conversation.addExecutionResults(results, decoded.value, step);
    for (const result of results) stepLog.push(logRecord('tool', [['content', result]]));

    count++;
    // BFCL parity: base_handler.py — the check follows the increment, so 21 executed steps precede the quit.
    if (count > MAXIMUM_STEP_LIMIT) {
      forceQuit = true;
      stepLog.push(logRecord('handler_log', [['content', HANDLER_LOG.forceQuit]]));
      break;
    }
  }

  series.responses.push(responses);
  series.inputTokens.push(inputTokens);
  series.outputTokens.push(outputTokens);
  series.latency.push(latency);
  series.reasoning.push(reasoning);
  inferenceLog.push(turnLog);
  return forceQuit;
}

/** The entry's memory backend (memory entries involve exactly one class). */
function memoryInstanceOf(executor: EntryExecutor): MemoryApi {
  const instances = [...executor.getInstances().values()];
  const memory = instances[0];
  // BFCL parity: base_handler.py — `assert len(involved_instances) == 1`.
  if (instances.length !== 1 || memory === undefined || !isMemoryInstance(memory)) {
    throw new Error('Memory category should only involve one class.');
  }
  return memory;
}

/**
 * `state_info` records of the stateful instances: their public attributes as they are now. The
 * values are made JSON-safe at once (which also copies them), as the reference deep-copies them.
 */
function stateRecords(executor: EntryExecutor): PyDict[] {
  const records: PyDict[] = [];
  for (const [className, instance] of executor.getInstances()) {
    if (STATELESS_CLASSES.has(className) || OMIT_STATE_INFO_CLASSES.has(className)) continue;
    const content = new Map<string, PyValue>(instance._publicState().map(([name, value]) => [name, jsonSafeCopy(value)]));
    records.push(logRecord('state_info', [['class_name', className], ['content', content]]));
  }
  return records;
}

/**
 * `make_json_serializable` of a state value, which also copies its dicts and lists. Simulated
 * objects (files, directories) are never JSON-serialisable, so they go straight to their `str()`.
 */
function jsonSafeCopy(value: PyValue): PyValue {
  if (value instanceof Map) {
    const copy: PyDict = new Map();
    for (const [key, item] of value) copy.set(key, jsonSafeCopy(item));
    return copy;
  }
  if (Array.isArray(value)) return value.map(jsonSafeCopy);
  if (value instanceof PyObject) return pyStr(value);
  return makeJsonSerializable(value);
}

/**
 * What the two OpenAI adapters (chat completions and Responses) share in a conversation: a history
 * that only grows and is sent as is, the FC tools in the API's shape, the input log of the last
 * request, and the way tool results go back (one user message in prompting mode, one message per
 * call id in FC mode).
 */

import { pyRepr } from '../../py/repr.js';
import type { PyDict, PyValue } from '../../py/value.js';
import type { Conversation, ModelStep, QueryOptions } from '../../spec/model.js';
import type { Message } from '../../spec/schemas.js';
import type { ModelStyle } from '../tools/model-style.js';
import { convertToToolCached } from '../tools/tool-cache.js';
import { formatExecutionResultsPrompting, type AdapterSettings } from './provider-model.js';
import { ResponseReader, chatMessage, freezeListForWire, markAppendOnly, messageToPy } from './wire.js';

export abstract class OpenAIConversation implements Conversation {
  /** The messages (or Responses input items) sent with every request. */
  protected readonly history: PyValue[] = markAppendOnly([]);
  protected tools: PyValue[] = [];
  protected readonly reader: ResponseReader;
  private lastInputLog: () => PyValue = () => '';

  constructor(
    protected readonly settings: AdapterSettings,
    functions: readonly PyValue[],
    private readonly toolStyle: ModelStyle,
    apiLabel: string,
  ) {
    this.reader = new ResponseReader(apiLabel);
    if (settings.mode === 'fc') this.setFunctions(functions);
  }

  abstract query(options?: QueryOptions): Promise<ModelStep>;
  abstract addAssistantMessage(step: ModelStep): void;

  /** The call ids of an FC step, in the order of its calls. */
  protected abstract callIds(step: ModelStep): readonly PyValue[];
  /** The history item that answers one tool call. */
  protected abstract toolResult(callId: PyValue, result: string): PyDict;

  /** A question message as it enters the history. */
  protected historyMessage(message: Message): PyDict {
    return messageToPy(message);
  }

  addFirstTurnMessages(messages: readonly Message[]): void {
    for (const message of messages) this.history.push(this.historyMessage(message));
  }

  addNextTurnMessages(messages: readonly Message[]): void {
    this.addFirstTurnMessages(messages);
  }

  setFunctions(functions: readonly PyValue[]): void {
    // Every entry of a category sends the same few docs: each is compiled and encoded once.
    this.tools = freezeListForWire(functions.flatMap((doc) => convertToToolCached(doc, this.toolStyle)));
  }

  /** The tools a request sends: FC mode only, and only when there are any. */
  protected requestTools(): PyValue[] | undefined {
    return this.settings.mode === 'fc' && this.tools.length > 0 ? this.tools : undefined;
  }

  /**
   * Remembers what the request about to go out sends, for `--include-input-log`: the history up to
   * now and the tools in effect. The log text itself is only built when asked for.
   */
  protected recordInputLog(): void {
    const count = this.history.length;
    const tools = this.tools;
    const fc = this.settings.mode === 'fc';
    this.lastInputLog = () => {
      const message = pyRepr(this.history.slice(0, count));
      return new Map<string, PyValue>(fc ? [['message', message], ['tools', tools]] : [['message', message]]);
    };
  }

  addExecutionResults(results: readonly string[], decodedCalls: readonly string[], step: ModelStep): void {
    if (this.settings.mode === 'prompting') {
      this.history.push(chatMessage('user', formatExecutionResultsPrompting(results, decodedCalls)));
      return;
    }
    const callIds = this.callIds(step);
    // Results and call ids are zipped: the shorter list wins, as in Python's `zip`.
    const count = Math.min(results.length, callIds.length);
    for (let i = 0; i < count; i++) this.history.push(this.toolResult(callIds[i]!, results[i]!));
  }

  inferenceInputLog(): PyValue {
    return this.lastInputLog();
  }
}

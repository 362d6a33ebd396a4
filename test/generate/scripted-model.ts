/**
 * Test helper: a `Model` whose answers come from a script, recording every call the loops make on
 * its conversations. FC mode decodes like the OpenAI/Claude FC handlers, prompting mode like the
 * prompting handlers, so the loops see real decoder behaviour.
 */
import { decodeExecuteFC, decodeExecutePrompting } from '../../src/exec/decode/index.js';
import type { PyValue } from '../../src/py/value.js';
import type { Conversation, ConversationStart, FailureCause, InferenceMode, Model, ModelStep, QueryOptions } from '../../src/spec/model.js';
import type { Message } from '../../src/spec/schemas.js';

/** Where the conversation is when the model is asked. */
export interface ScriptPosition {
  readonly entryId: string;
  /** 0-based turn (counted from the turn messages the loop added). */
  readonly turn: number;
  /** 0-based step within the turn. */
  readonly step: number;
}

/** One scripted answer; `fail` makes the query reject with that error instead. */
export interface ScriptedAnswer {
  readonly responses?: PyValue;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly latency?: number;
  readonly reasoning?: string;
  readonly fail?: Error;
  /**
   * Fail as a provider call does after its retries: the attempt is reported with this cause and the
   * error carries it (and `permanent`), as `ProviderCallError` does.
   */
  readonly failCause?: FailureCause;
  readonly permanent?: boolean;
  /** Failed attempts retried before this answer (reported to the attempt and retry hooks). */
  readonly retries?: readonly FailureCause[];
  /** Wait this long (ms) before answering (honours the abort signal). */
  readonly delayMs?: number;
}

export type Script = (position: ScriptPosition) => ScriptedAnswer;

/** The prompting system prompt the fake model inserts (a stand-in for the real one). */
export const FAKE_SYSTEM_PROMPT = 'You are a scripted test model.';

export class ScriptedModel implements Model {
  readonly registryName: string;
  readonly resultDirName: string;
  readonly instanceModelName = 'scripted';
  /** Every call made on any conversation, in order, as short strings. */
  readonly events: string[] = [];
  /** The functions passed to `setFunctions`, per call. */
  readonly setFunctionsCalls: (readonly PyValue[])[] = [];
  /** The execution results handed back, per call. */
  readonly executionResults: (readonly string[])[] = [];

  constructor(
    readonly mode: InferenceMode,
    private readonly script: Script,
    name = `scripted-${mode}`,
    readonly defaultNumThreads?: number,
  ) {
    this.registryName = name;
    this.resultDirName = name.replaceAll('/', '_');
  }

  startConversation(start: ConversationStart): { conversation: Conversation; question: Message[][] } {
    const question = start.question.map((turn) => [...turn]);
    if (this.mode === 'prompting') question[0] = [{ role: 'system', content: FAKE_SYSTEM_PROMPT }, ...(question[0] ?? [])];
    return { conversation: new ScriptedConversation(this, start.entryId, this.script), question };
  }

  decodeExecute(responses: PyValue): { ok: true; value: string[] } | { ok: false; error: string } {
    const decoded = this.mode === 'fc' ? decodeExecuteFC(responses) : decodeExecutePrompting(responses, false);
    return decoded.ok ? { ok: true, value: decoded.value } : { ok: false, error: decoded.error };
  }
}

class ScriptedConversation implements Conversation {
  private turn = -1;
  private step = 0;

  constructor(
    private readonly model: ScriptedModel,
    private readonly entryId: string,
    private readonly script: Script,
  ) {}

  addFirstTurnMessages(messages: readonly Message[]): void {
    this.model.events.push(`first:${messages.map((m) => m.role).join(',')}`);
    this.turn = 0;
    this.step = 0;
  }

  addNextTurnMessages(messages: readonly Message[]): void {
    this.model.events.push(`next:${messages.map((m) => m.role).join(',')}`);
    this.turn++;
    this.step = 0;
  }

  async query(options?: QueryOptions): Promise<ModelStep> {
    this.model.events.push(`query:${this.turn}.${this.step}`);
    const answer = this.script({ entryId: this.entryId, turn: this.turn, step: this.step });
    this.step++;
    let attempt = 1;
    for (const cause of answer.retries ?? []) {
      options?.onAttemptStart?.(attempt);
      options?.onAttemptEnd?.({ ok: false, cause, willRetry: true, message: `scripted ${cause.label}` });
      options?.onRetry?.({ attempt, delayMs: 0, reason: `scripted ${cause.label}`, cause });
      attempt++;
    }
    options?.onAttemptStart?.(attempt);
    if (answer.delayMs !== undefined) await sleep(answer.delayMs, options?.signal);
    if (answer.failCause !== undefined) {
      const message = answer.fail?.message ?? `scripted ${answer.failCause.label}`;
      options?.onAttemptEnd?.({ ok: false, cause: answer.failCause, willRetry: false, message });
      throw Object.assign(new Error(message), { failureCause: answer.failCause, permanent: answer.permanent ?? false });
    }
    if (answer.fail !== undefined) throw answer.fail;
    options?.onAttemptEnd?.({ ok: true });
    return {
      responses: answer.responses ?? [],
      inputTokens: answer.inputTokens ?? 0,
      outputTokens: answer.outputTokens ?? 0,
      latency: answer.latency ?? 0.5,
      reasoningContent: answer.reasoning ?? '',
    };
  }

  addAssistantMessage(): void {
    this.model.events.push('assistant');
  }

  addExecutionResults(results: readonly string[], decodedCalls: readonly string[]): void {
    this.model.events.push(`results:${decodedCalls.length}`);
    this.model.executionResults.push(results);
  }

  setFunctions(functions: readonly PyValue[]): void {
    this.model.events.push(`setFunctions:${functions.length}`);
    this.model.setFunctionsCalls.push(functions);
  }

  inferenceInputLog(): PyValue {
    return new Map<string, PyValue>([['turn', BigInt(this.turn)], ['step', BigInt(this.step - 1)]]);
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });
}

/** An FC call answer `{name: "<json args>"}`. */
export function fcCall(name: string, argsJson = '{}'): Map<string, PyValue> {
  return new Map([[name, argsJson]]);
}

/** Failure causes as the model layer classifies them. */
export const CAUSES = {
  http: (status: number): FailureCause => ({ kind: 'http', status, label: `HTTP ${status}` }),
  timeout: { kind: 'timeout', label: 'timeout' } as FailureCause,
  reset: { kind: 'connection', code: 'ECONNRESET', label: 'connection reset' } as FailureCause,
  malformed: { kind: 'malformed', label: 'malformed answer' } as FailureCause,
};

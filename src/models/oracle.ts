/**
 * `oracle`: a model that answers from the ground truth, so that `generate` and `evaluate` can run
 * offline end to end (and must then score every reachable entry). It behaves like an FC model:
 * single-turn answers are `[{name: "<arguments JSON>"}]`; in multi-turn entries each turn gets one
 * step with that turn's ground-truth calls, then an empty step (`[]`) that ends the turn. Agentic
 * questions (web search, memory) are answered at once in the requested `{'answer': ..., 'context': ...}`
 * text form with an expected answer; memory prerequisite conversations get `[]` in every turn.
 *
 * The ground truth comes in as a lookup (models/ does not read datasets); the CLI builds it.
 */

import { decodeExecuteFC } from '../exec/decode/index.js';
import { jsonDumps } from '../py/json.js';
import type { PyDict, PyValue } from '../py/value.js';
import { containMultiTurnInteraction, isAgentic, isJava, isJs, isMemoryPrereq } from '../spec/categories.js';
import type { Conversation, ConversationStart, Model, ModelStep, QueryOptions } from '../spec/model.js';
import type { Message } from '../spec/schemas.js';
import { type ModelConfig, buildModelConfig } from './model-registry.js';
import { type AnswerLanguage, type ConcreteCall, answerCalls } from './oracle-answers.js';
import { groundTruthCall } from './oracle-calls.js';

/** Registry name of the oracle (`--model oracle`). */
export const ORACLE_MODEL_NAME = 'oracle';

/**
 * The oracle's registry facts, for code that looks models up by name (evaluation settings, leaderboard
 * metadata). It is not part of `MODEL_REGISTRY`, which mirrors the reference's 175 entries. Its
 * handler is recorded as `OpenAICompletionsHandler` only because evaluation decodes it the same way
 * (FC decoders, `_` for `.` in function names); `bfcl generate` never builds it through a provider.
 */
export const ORACLE_MODEL_CONFIG: ModelConfig = buildModelConfig({
  registryName: ORACLE_MODEL_NAME,
  modelName: ORACLE_MODEL_NAME,
  displayName: 'Oracle (ground truth) (FC)',
  url: '',
  org: 'bfcl-ts',
  license: 'Apache-2.0',
  handler: 'OpenAICompletionsHandler',
  inputPrice: null,
  outputPrice: null,
  isFcModel: true,
  underscoreToDot: true,
});

/** The text the oracle answers when no function should be called (irrelevance categories). */
export const ORACLE_NO_CALL_TEXT = 'None of the available functions can answer this request.';

export interface OracleOptions {
  /** The ground truth of an entry id (`possible_answer/`), undefined when the category has none. */
  readonly groundTruth: (entryId: string) => PyValue | undefined;
  /** Simulated latency of every answer, in milliseconds (for tests and benchmarks; default 0). */
  readonly delayMs?: number;
}

/**
 * BFCL parity: the oracle acts as an FC model whose registry flag `underscore_to_dot` is true, like
 * the OpenAI and Anthropic FC models: dotted function names are answered with `_`, as tool
 * compilation would have shown them to a real FC model. (The evaluator also assumes this for FC
 * models it does not know.)
 */
const toolName = (name: string): string => name.replaceAll('.', '_');

/** The oracle as a `Model`. */
export function createOracleModel(options: OracleOptions): Model {
  return {
    registryName: ORACLE_MODEL_NAME,
    resultDirName: ORACLE_MODEL_NAME,
    instanceModelName: ORACLE_MODEL_NAME,
    mode: 'fc',
    // Answers are local: no reason to run one entry at a time.
    defaultNumThreads: 8,
    startConversation(start: ConversationStart) {
      const question = start.question.map((turn) => [...turn]);
      return { conversation: new OracleConversation(start, options), question };
    },
    decodeExecute(responses: PyValue) {
      return decodeExecuteFC(responses);
    },
  };
}

/** An FC answer: `[{name: "<arguments JSON>"}, ...]`. */
function fcResponses(calls: readonly ConcreteCall[]): PyValue[] {
  return calls.map((call) => new Map([[toolName(call.name), jsonDumps(call.args)]]) as PyDict);
}

function languageOf(entryId: string): AnswerLanguage {
  if (isJs(entryId)) return 'javascript';
  return isJava(entryId) ? 'java' : 'python';
}

class OracleConversation implements Conversation {
  private functions: readonly PyValue[];
  private turn = -1;
  private stepInTurn = 0;
  /** Every message received, for `--include-input-log`. */
  private readonly messages: PyDict[] = [];

  constructor(
    private readonly start: ConversationStart,
    private readonly options: OracleOptions,
  ) {
    this.functions = start.functions;
  }

  addFirstTurnMessages(messages: readonly Message[]): void {
    this.beginTurn(messages);
  }

  addNextTurnMessages(messages: readonly Message[]): void {
    this.beginTurn(messages);
  }

  async query(options?: QueryOptions): Promise<ModelStep> {
    // Reported like a provider's request, so the run's progress and heartbeat see the oracle's steps too.
    options?.onAttemptStart?.(1);
    if ((this.options.delayMs ?? 0) > 0) await delay(this.options.delayMs!, options?.signal);
    options?.onAttemptEnd?.({ ok: true });
    const responses = containMultiTurnInteraction(this.start.entryId) ? this.multiTurnAnswer() : this.singleTurnAnswer();
    this.stepInTurn++;
    // No tokens; the latency is the simulated one (0 unless a delay was configured).
    return { responses, inputTokens: 0, outputTokens: 0, latency: (this.options.delayMs ?? 0) / 1000, reasoningContent: '' };
  }

  addAssistantMessage(): void {}

  addExecutionResults(): void {}

  setFunctions(functions: readonly PyValue[]): void {
    this.functions = functions;
  }

  inferenceInputLog(): PyValue {
    return new Map<string, PyValue>([
      ['messages', [...this.messages]],
      ['turn', BigInt(this.turn)],
      ['step', BigInt(this.stepInTurn - 1)],
    ]);
  }

  private beginTurn(messages: readonly Message[]): void {
    this.turn++;
    this.stepInTurn = 0;
    for (const m of messages) this.messages.push(new Map([['role', m.role], ['content', m.content]]));
  }

  /** The turn's ground-truth calls at step 0, then `[]` (an empty answer ends the turn). */
  private multiTurnAnswer(): PyValue {
    if (isAgentic(this.start.entryId)) return this.agenticAnswer();
    if (this.stepInTurn > 0) return [];
    const turns = this.options.groundTruth(this.start.entryId);
    const calls = Array.isArray(turns) ? turns[this.turn] : undefined;
    if (!Array.isArray(calls) || calls.length === 0) return [];
    return fcResponses(calls.map((call) => groundTruthCall(String(call), this.functions)));
  }

  /**
   * A text answer (it does not decode to calls, so it ends the turn and is what the checker reads)
   * naming one of the expected answers; nothing to say in a prerequisite conversation.
   */
  private agenticAnswer(): PyValue {
    if (isMemoryPrereq(this.start.entryId)) return [];
    const answers = this.options.groundTruth(this.start.entryId);
    if (!Array.isArray(answers) || answers.length === 0) throw new Error(`oracle: no ground truth for ${this.start.entryId}`);
    return agenticAnswerText(answers.map(String));
  }

  private singleTurnAnswer(): PyValue {
    const id = this.start.entryId;
    if (id.includes('irrelevance')) return ORACLE_NO_CALL_TEXT;
    if (id.includes('relevance')) {
      // live_relevance has no ground truth: any call of an available function is right.
      const first = this.functions[0];
      const name = first instanceof Map ? String(first.get('name')) : 'unknown_function';
      return fcResponses([{ name, args: new Map() }]);
    }
    const truth = this.options.groundTruth(id);
    if (!Array.isArray(truth)) throw new Error(`oracle: no ground truth for ${id}`);
    return fcResponses(answerCalls(this.functions, truth, languageOf(id)));
  }
}

/** Characters the agentic checker deletes before matching (spec §12.3). */
const IGNORED_BY_CHECKER = /[,./\-_*^()]/g;
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * `{'answer': '<answer>', 'context': ...}` with the first expected answer that the checker's
 * whole-word match finds inside quotes: one that begins and ends with a word character once the
 * ignored punctuation is removed (`$49.99` needs a word character glued before it; its
 * alternative `49.99` does not).
 */
export function agenticAnswerText(answers: readonly string[]): string {
  const matchable = answers.find((answer) => {
    const chars = Array.from(answer.replace(IGNORED_BY_CHECKER, ''));
    return chars.length > 0 && WORD_CHAR.test(chars[0]!) && WORD_CHAR.test(chars.at(-1)!);
  });
  const answer = matchable ?? answers[0]!;
  return `{'answer': '${answer}', 'context': 'The oracle answers from the ground truth.'}`;
}

/** Wait `ms`, or reject as soon as `signal` fires. */
function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new Error('aborted'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

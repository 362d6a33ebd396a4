/**
 * Asking the judge about a run's units: each unit's prompt rendered, its request built, an answer
 * recorded before under the same request reused (unless `reuse` is off, `-o`), the others asked
 * on `numThreads` lanes; every record handed to `onRecord` as soon as it exists. A failed unit is
 * recorded as FAILED and the run goes on (Phoenix's `exit_on_error` is the opt-in `exitOnError`).
 */

import type { JudgeUnit } from './bfcl-units.js';
import type { JudgeAnswer } from './judge-client.js';
import type { JudgeRecord } from './judge-record.js';
import { readLabel, scoreOf } from './judge-reply.js';
import { buildJudgeRequest, type JudgeMode, type JudgeRequest, type JudgeRequestSettings, type StructuredOutput } from './judge-request.js';
import type { JudgeTemplate } from './judge-template.js';

/** What asks the judge (a `JudgeClient`, or a stand-in in tests). */
export interface JudgeAsker {
  ask(request: JudgeRequest, template: JudgeTemplate, mode: JudgeMode): Promise<JudgeAnswer>;
}

/** A unit as the runner needs it (BFCL units and trace records alike). */
export type RunnableUnit = Pick<JudgeUnit, 'id' | 'category' | 'turn' | 'inputs' | 'skipReason' | 'bfcl' | 'entryBfcl' | 'groundTruthCalls'> & {
  /** For a unit without inputs: SKIPPED (default) or MISSING INPUT. */
  readonly skipStatus?: 'SKIPPED' | 'MISSING INPUT';
};

/** How the run asks. */
export interface JudgeRunSettings {
  readonly template: JudgeTemplate;
  /** The request settings other than what the template and mode decide. */
  readonly request: Omit<JudgeRequestSettings, 'kind' | 'explain' | 'rails' | 'mode'>;
  readonly mode: JudgeMode;
  /** The `--judge` name, as records name it. */
  readonly judgeName: string;
  readonly numThreads: number;
  /** Reuse answers recorded before (off with `-o`). */
  readonly reuse: boolean;
  /** Keep each rendered prompt in its record. */
  readonly includePrompt: boolean;
  /** Stop starting units after the first failure (Phoenix's `exit_on_error`). */
  readonly exitOnError: boolean;
  readonly signal?: AbortSignal;
}

/** Progress after each unit. */
export interface JudgeProgress {
  readonly done: number;
  readonly total: number;
  readonly cacheHits: number;
  readonly failed: number;
}

/** What a run did. */
export interface JudgeRunOutcome {
  /** The records made, in unit order (units not reached have none). */
  readonly records: JudgeRecord[];
  /** Interrupted (the signal fired): the units not finished have no record. */
  readonly interrupted: boolean;
  /** `exitOnError` stopped the run after a failure. */
  readonly stoppedOnError: boolean;
  /** Classification prompts on OpenAI fell back from the JSON-schema response format to a tool (HTTP 400). */
  readonly structuredOutputFallback: boolean;
}

/** Ask about every unit; `previous` holds answered records by cache key. */
export async function runJudgeUnits(
  units: readonly RunnableUnit[],
  asker: JudgeAsker,
  settings: JudgeRunSettings,
  previous: ReadonlyMap<string, JudgeRecord>,
  hooks: { readonly onRecord?: (record: JudgeRecord) => void; readonly onProgress?: (progress: JudgeProgress) => void } = {},
): Promise<JudgeRunOutcome> {
  const { template, mode } = settings;
  let structuredOutput: StructuredOutput = 'json_schema';
  let structuredOutputFallback = false;
  const requestSettings = (): JudgeRequestSettings => ({
    ...settings.request,
    kind: template.kind,
    explain: template.explain,
    rails: template.rails,
    mode,
    structuredOutput,
  });
  const records: (JudgeRecord | undefined)[] = new Array(units.length);
  const progress = { done: 0, total: units.length, cacheHits: 0, failed: 0 };
  let next = 0;
  // Shared by the lanes (an object: TypeScript does not track writes made in closures).
  const state = { interrupted: false, stoppedOnError: false };

  const finish = (index: number, record: JudgeRecord): void => {
    records[index] = record;
    progress.done++;
    if (record.cache_hit) progress.cacheHits++;
    if (record.execution_status === 'FAILED') progress.failed++;
    hooks.onRecord?.(record);
    hooks.onProgress?.({ ...progress });
  };

  const judgeOne = async (index: number): Promise<void> => {
    const unit = units[index]!;
    const record = (answer: AnswerFields, extra: Partial<JudgeRecord> = {}): JudgeRecord => makeRecord(unit, settings, answer, extra);
    if (unit.inputs === null) {
      finish(index, record({ ...NO_ANSWER, execution_status: unit.skipStatus ?? 'SKIPPED', cache_key: null }, { skip_reason: unit.skipReason ?? 'not judged' }));
      return;
    }
    // The prompt is not kept while the request is out (it is in the request's bytes), unless it is recorded.
    const prompt = template.render(unit.inputs);
    const withPrompt = settings.includePrompt ? { prompt } : {};
    let request = buildJudgeRequest(prompt, requestSettings());
    const earlier = settings.reuse ? previous.get(request.cacheKey) : undefined;
    if (earlier !== undefined) {
      // The label rules run again on the recorded reply, so a parsing change needs no new calls.
      const reading = readLabel(earlier.response, template, mode);
      if (reading.ok) {
        finish(index, record({
          label: reading.label,
          explanation: reading.explanation,
          score: scoreOf(reading.label),
          execution_status: earlier.execution_status,
          exceptions: earlier.exceptions,
          attempts: earlier.attempts,
          execution_seconds: earlier.execution_seconds,
          prompt_tokens: earlier.prompt_tokens,
          completion_tokens: earlier.completion_tokens,
          total_tokens: earlier.total_tokens,
          latency_s: earlier.latency_s,
          cache_key: request.cacheKey,
          cache_hit: true,
          response: earlier.response,
        }, withPrompt));
        return;
      }
    }
    let answer = await asker.ask(request, template, mode);
    if (answer.status === 'FAILED' && answer.httpStatus === 400 && request.jsonSchemaOutput) {
      // Phoenix's OpenAI adapter: a server that refuses the JSON-schema response format gets a forced tool call instead, from then on.
      if (structuredOutput === 'json_schema') {
        structuredOutput = 'tool';
        structuredOutputFallback = true;
      }
      const refused = answer;
      request = buildJudgeRequest(template.render(unit.inputs), requestSettings());
      const retried = await asker.ask(request, template, mode);
      answer = { ...retried, exceptions: [...refused.exceptions, ...retried.exceptions], attempts: refused.attempts + retried.attempts };
    }
    finish(index, record({
      label: answer.label,
      explanation: answer.explanation,
      score: scoreOf(answer.label),
      execution_status: answer.status,
      exceptions: answer.exceptions,
      attempts: answer.attempts,
      execution_seconds: round(answer.executionSeconds),
      prompt_tokens: answer.usage?.promptTokens ?? null,
      completion_tokens: answer.usage?.completionTokens ?? null,
      total_tokens: answer.usage?.totalTokens ?? null,
      latency_s: answer.latencyS === null ? null : round(answer.latencyS),
      cache_key: request.cacheKey,
      cache_hit: false,
      response: answer.response,
    }, withPrompt));
    if (answer.status === 'FAILED' && settings.exitOnError) state.stoppedOnError = true;
  };

  const lane = async (): Promise<void> => {
    while (!state.interrupted && !state.stoppedOnError) {
      if (isAborted(settings.signal)) {
        state.interrupted = true;
        return;
      }
      const index = next++;
      if (index >= units.length) return;
      try {
        await judgeOne(index);
      } catch (error) {
        if (isAborted(settings.signal)) {
          state.interrupted = true;
          return;
        }
        throw error;
      }
    }
  };
  const lanes = Math.max(1, Math.min(settings.numThreads, units.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return {
    records: records.filter((r): r is JudgeRecord => r !== undefined),
    interrupted: state.interrupted || isAborted(settings.signal),
    stoppedOnError: state.stoppedOnError,
    structuredOutputFallback,
  };
}

const NO_ANSWER = {
  label: null,
  explanation: null,
  score: null,
  exceptions: [] as string[],
  attempts: 0,
  execution_seconds: 0,
  prompt_tokens: null,
  completion_tokens: null,
  total_tokens: null,
  latency_s: null,
  cache_hit: false,
  response: '',
} as const;

/** The fields of a record that come from the answer (or its absence). */
type AnswerFields = Pick<
  JudgeRecord,
  | 'label'
  | 'explanation'
  | 'score'
  | 'execution_status'
  | 'exceptions'
  | 'attempts'
  | 'execution_seconds'
  | 'prompt_tokens'
  | 'completion_tokens'
  | 'total_tokens'
  | 'latency_s'
  | 'cache_key'
  | 'cache_hit'
  | 'response'
>;

/** A unit's record, fields in the order of spec §5.1, BFCL's verdict and the extras last. */
function makeRecord(unit: RunnableUnit, settings: JudgeRunSettings, answer: AnswerFields, extra: Partial<JudgeRecord>): JudgeRecord {
  return {
    id: unit.id,
    category: unit.category,
    turn: unit.turn,
    judge_template: settings.template.id,
    judge_mode: settings.mode,
    judge_model: settings.judgeName,
    ...answer,
    bfcl_valid: unit.bfcl.valid,
    bfcl_error_type: unit.bfcl.errorType,
    ...(unit.entryBfcl !== null && { bfcl_entry_valid: unit.entryBfcl.valid, ground_truth_calls: unit.groundTruthCalls }),
    ...extra,
  };
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function round(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6;
}


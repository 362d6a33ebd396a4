import type { JudgeCalibrationView } from './judge-calibration.js';

/**
 * The data a report page is built from, and that it embeds as JSON for the failure browser.
 * Plain JSON only (no bigint, no Map): the page parses it with `JSON.parse`.
 */

/** One category's score header of one model. */
export interface CategoryScoreView {
  /** Accuracy as a fraction in [0, 1]. */
  readonly accuracy: number;
  readonly correct: number | null;
  readonly total: number;
}

/** One summary column of the accuracy table (Overall Acc, Live Acc, ...), null when "N/A". */
export interface SummaryView {
  readonly label: string;
  readonly accuracy: number | null;
}

/** Cost and latency of one model: the leaderboard's cells as text ("N/A" when unknown). */
export interface CostLatencyView {
  /** Where the numbers come from: the result files, or data_overall.csv of the score folder. */
  readonly source: 'result files' | 'data_overall.csv';
  readonly cost: string;
  readonly latencyMean: string;
  readonly latencyStd: string;
  readonly latency95: string;
  /** Sums of the token counts (result files only). */
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  /** Mean latency per category in seconds (result files only). */
  readonly categoryLatency: Readonly<Record<string, number>>;
}

export interface ModelView {
  /** Model directory name under the score folder. */
  readonly dir: string;
  /** Display name (the registry's, else the directory name). */
  readonly name: string;
  readonly scores: Readonly<Record<string, CategoryScoreView>>;
  readonly summaries: readonly SummaryView[];
  readonly costLatency: CostLatencyView | null;
  /** Failure records found per category. */
  readonly failureCounts: Readonly<Record<string, number>>;
}

/** A chat message as shown: role and text. */
export interface MessageView {
  readonly role: string;
  readonly content: string;
}

/** One model step of a multi-turn conversation. */
export interface StepView {
  /** What the model answered (calls or text), as text. */
  readonly output: string;
  /** The calls the step decoded to, when known (null: not decoded / not a call). */
  readonly decoded: readonly string[] | null;
  /** Tool results returned to the model. */
  readonly toolResults: readonly string[];
  /** Handler events (decode failures, force quit, ...). */
  readonly events: readonly string[];
}

/** How far the checker got with a turn. */
export type TurnStatus = 'passed' | 'failed' | 'not checked';

/** The calls of one decoded model step as the checker executed them, with their results. */
export interface CheckedStepView {
  readonly calls: readonly string[];
  readonly results: readonly string[];
}

export interface TurnView {
  readonly index: number;
  readonly user: readonly MessageView[];
  /** The model's steps: from the inference log when there is one, else the raw result. */
  readonly steps: readonly StepView[];
  /** The decoded steps and their results as the checker ran them (shown when the steps lack them). */
  readonly checked: readonly CheckedStepView[] | null;
  readonly groundTruthCalls: readonly string[];
  /** Execution results of the ground-truth calls (from the checker's record), when recorded. */
  readonly groundTruthResults: readonly string[] | null;
  readonly status: TurnStatus;
}

/** One attribute that differs between the model's and the ground truth's instance. */
export interface StateDiffRow {
  readonly attribute: string;
  readonly model: string;
  readonly groundTruth: string;
}

export interface StateDiffView {
  /** The simulated class whose state differs (from the checker's message), or "" if unknown. */
  readonly className: string;
  /** Turn (0-based) at which the checker compared the states, or null if unknown. */
  readonly turn: number | null;
  readonly rows: readonly StateDiffRow[];
}

/** What every block of the detail view has: a title, and whether it starts unfolded. */
interface SectionBase {
  readonly title: string;
  readonly open: boolean;
}

/** A titled block of the failure's detail view. */
export type SectionView =
  | (SectionBase & { readonly kind: 'messages'; readonly messages: readonly MessageView[] })
  | (SectionBase & { readonly kind: 'text'; readonly text: string })
  | (SectionBase & { readonly kind: 'list'; readonly items: readonly string[] })
  /** A text many failures share (function docs, initial configurations): index into `ReportData.sharedTexts`. */
  | (SectionBase & { readonly kind: 'shared'; readonly ref: number });

/** One tool call of an agentic step: what kind of call, the call, and the tool result. */
export interface AgenticCallView {
  /** `memory`, `search`, `fetch` or `call` (see `agenticToolKind`). */
  readonly kind: string;
  readonly call: string;
  /** The tool result returned to the model (cut to `--max-text`), or null when the log has none. */
  readonly result: string | null;
}

/** One model step of an agentic conversation. */
export interface AgenticStepView {
  /** What the model answered (calls or text), as text. */
  readonly output: string;
  readonly calls: readonly AgenticCallView[];
  /** Handler events other than the routine ones (a force quit, an unusual decode failure). */
  readonly events: readonly string[];
  /** Whether this step is the final answer the checker scored. */
  readonly final: boolean;
}

/** One turn of an agentic conversation. */
export interface AgenticTurnView {
  readonly index: number;
  /** The messages that opened the turn (a long system message shortened to its first line and size). */
  readonly messages: readonly MessageView[];
  readonly steps: readonly AgenticStepView[];
}

/** What the report shows of an agentic failure (web search, memory) besides the record's fields. */
export interface AgenticFailureView {
  /** The final answer as scored (`last_non_fc_message`), or null when the checker found none. */
  readonly finalAnswer: string | null;
  /** The answer and the expected answers after the checker's normalisation, when the record has them. */
  readonly standardizedAnswer: string | null;
  readonly expectedAnswers: readonly string[];
  readonly standardizedExpected: readonly string[];
  /** Memory questions: the scenario and snapshot the question started from. */
  readonly memoryStart: string | null;
  /** Memory questions: the memory content quoted in the system message (label and text). */
  readonly promptMemory: MessageView | null;
  /** The conversation from the inference log (or the raw result), with every call beside its result. */
  readonly turns: readonly AgenticTurnView[];
  /** The tool calls counted by kind, e.g. "3 memory operations, 1 search". */
  readonly toolCalls: string;
}

/** One failed entry, as the page shows it. */
export interface FailureView {
  /** Model directory name. */
  readonly model: string;
  readonly category: string;
  readonly id: string;
  /** The reference's error type (`value_error:string`, `multi_turn:instance_state_mismatch`, ...). */
  readonly errorType: string;
  /** The error class of our taxonomy (parse_failure, wrong_function, ...). */
  readonly errorClass: string;
  /** The checker's messages, as text. */
  readonly reasons: readonly string[];
  /** Multi-turn conversation, turn by turn. */
  readonly turns: readonly TurnView[] | null;
  readonly stateDiff: StateDiffView | null;
  /** Question, model output, expected answer and the other fields of the record, in display order. */
  readonly sections: readonly SectionView[];
  /** Latency and token counts from the result file, when a result folder was given. */
  readonly usage: string | null;
  /** Agentic categories only: the final answer, the expected answers, the memory start and the tool calls. */
  readonly agentic?: AgenticFailureView;
}

/** The taxonomy counts of one model and category. */
export interface ErrorClassCounts {
  readonly model: string;
  readonly category: string;
  readonly counts: Readonly<Record<string, number>>;
}

export interface ReportData {
  readonly title: string;
  /** ISO time of generation, or null (tests keep the output deterministic). */
  readonly generatedAt: string | null;
  readonly scoreDir: string;
  readonly resultDir: string | null;
  /** Models, best Overall Acc first. */
  readonly models: readonly ModelView[];
  /** Categories with a score for at least one model, in the leaderboard's order. */
  readonly categories: readonly string[];
  /** Every error class that occurs, in the taxonomy's order. */
  readonly errorClasses: readonly string[];
  readonly errorClassCounts: readonly ErrorClassCounts[];
  readonly failures: readonly FailureView[];
  /** Texts stored once and referenced by `shared` sections. */
  readonly sharedTexts: readonly string[];
  /** Problems met while reading (unreadable lines, missing files), shown at the top of the page. */
  readonly warnings: readonly string[];
  /** `bfcl judge` calibrations found beside the score files. */
  readonly judges?: readonly JudgeCalibrationView[];
}

/**
 * The end summary of a `generate` run as data: what `--json` prints on stdout for CI, with the same
 * facts as the text summary on stderr (written, errors and retries by cause, what the next run will
 * redo, why the run stopped).
 */

import type { ModelGenerationSummary } from './run-generation.js';

/** How a whole `generate` command ended. */
export type GenerationStatus = 'completed' | 'errors' | 'stopped' | 'interrupted';

/** One model's part of the report (snake_case, like the rest of BFCL's files). */
export interface ModelGenerationReport {
  readonly model: string;
  readonly result_dir: string;
  readonly selected: number;
  readonly already_done: number;
  readonly to_generate: number;
  readonly written: number;
  readonly ok: number;
  readonly errors: number;
  readonly permanent_errors: number;
  readonly errors_by_cause: Readonly<Record<string, number>>;
  readonly retries: number;
  readonly retries_by_cause: Readonly<Record<string, number>>;
  readonly requests: number;
  readonly unfinished: number;
  readonly next_run_redoes: number;
  readonly skipped_permanent_errors: Readonly<Record<string, number>>;
  readonly unreadable_lines: readonly { readonly file: string; readonly line: number; readonly reason: string }[];
  readonly duplicate_ids: readonly { readonly file: string; readonly id: string; readonly lines: readonly number[] }[];
  readonly interrupted: boolean;
  readonly stopped: { readonly kind: string; readonly reason: string } | null;
  readonly seconds: number;
  readonly replaced_files: readonly string[];
  readonly unfinished_overwrite_files: readonly string[];
  readonly warnings: readonly string[];
}

export interface GenerationReport {
  readonly status: GenerationStatus;
  readonly exit_code: number;
  /** The signal that interrupted the run, when one did. */
  readonly interrupted_by: string | null;
  readonly models: readonly ModelGenerationReport[];
  /** Models of the command that did not run because an earlier one stopped or was interrupted. */
  readonly models_not_run: readonly string[];
}

/** Entries of a model's selection that are errors at the end: written by this run, or permanent ones kept from an earlier run. */
export function errorsAtEnd(summary: ModelGenerationSummary): number {
  return summary.errors + Object.values(summary.skippedPermanent).reduce((a, b) => a + b, 0);
}

/** How the command ended, from its models' summaries (interruption first, then a stop, then errors). */
export function generationStatus(summaries: readonly ModelGenerationSummary[]): GenerationStatus {
  if (summaries.some((s) => s.interrupted)) return 'interrupted';
  if (summaries.some((s) => s.stop !== undefined)) return 'stopped';
  if (summaries.some((s) => errorsAtEnd(s) > 0)) return 'errors';
  return 'completed';
}

export function modelGenerationReport(s: ModelGenerationSummary): ModelGenerationReport {
  return {
    model: s.model,
    result_dir: s.modelDir,
    selected: s.selected,
    already_done: s.alreadyDone,
    to_generate: s.toGenerate,
    written: s.written,
    ok: s.ok,
    errors: s.errors,
    permanent_errors: s.permanentErrors,
    errors_by_cause: s.errorsByCause,
    retries: Object.values(s.retriesByCause).reduce((a, b) => a + b, 0),
    retries_by_cause: s.retriesByCause,
    requests: s.requests,
    unfinished: s.unfinished,
    next_run_redoes: s.nextRunRedoes,
    skipped_permanent_errors: s.skippedPermanent,
    unreadable_lines: s.unreadableLines,
    duplicate_ids: s.duplicateIds,
    interrupted: s.interrupted,
    stopped: s.stop === undefined ? null : { kind: s.stop.kind, reason: s.stop.message },
    seconds: Math.round(s.seconds * 1000) / 1000,
    replaced_files: s.replacedFiles,
    unfinished_overwrite_files: s.unfinishedAsideFiles,
    warnings: s.warnings,
  };
}

export function generationReport(
  summaries: readonly ModelGenerationSummary[],
  details: { readonly exitCode: number; readonly interruptedBy: string | undefined; readonly modelsNotRun: readonly string[] },
): GenerationReport {
  return {
    status: generationStatus(summaries),
    exit_code: details.exitCode,
    interrupted_by: details.interruptedBy ?? null,
    models: summaries.map(modelGenerationReport),
    models_not_run: details.modelsNotRun,
  };
}

/**
 * Typed errors of the harness. They are thrown deep in the code and turned into exit codes in
 * exactly one place (`src/cli/main.ts`). Bad *model output* is never an error: it is data.
 */

/** Base of every error the harness raises on purpose; `exitCode` is what the CLI exits with. */
export abstract class BfclError extends Error {
  abstract readonly exitCode: number;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The user asked for something invalid (unknown flag value, category, model...). Exit code 2. */
export class UsageError extends BfclError {
  readonly exitCode = 2;
}

/** Where in a dataset file a problem was found. */
export interface DatasetLocation {
  /** The file being read, when known. */
  readonly file?: string;
  /** 1-based line number (JSON Lines files), when the problem is on one line. */
  readonly line?: number;
  /** The entry's `id`, when it could be read. */
  readonly entryId?: string;
  /** Path of the offending value inside the entry, as zod reports it (e.g. `question.0.1.role`). */
  readonly path?: readonly PropertyKey[];
}

/** A dataset file is missing or malformed. Exit code 1. */
export class DatasetError extends BfclError {
  readonly exitCode = 1;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly entryId: string | undefined;
  readonly path: readonly PropertyKey[] | undefined;
  /** The problem without the location prefix. */
  readonly detail: string;

  constructor(location: DatasetLocation, detail: string, options?: { cause?: unknown }) {
    super(formatDatasetMessage(location, detail), options);
    this.file = location.file;
    this.line = location.line;
    this.entryId = location.entryId;
    this.path = location.path;
    this.detail = detail;
  }
}

/** `file:line: entry <id>: at <path>: <detail>`, leaving out the parts that are unknown. */
function formatDatasetMessage(location: DatasetLocation, detail: string): string {
  const parts: string[] = [];
  if (location.file !== undefined) {
    parts.push(location.line === undefined ? location.file : `${location.file}:${location.line}`);
  }
  if (location.entryId !== undefined) parts.push(`entry ${location.entryId}`);
  if (location.path !== undefined && location.path.length > 0) {
    parts.push(`at ${location.path.map(String).join('.')}`);
  }
  return `${parts.join(': ')}: ${detail}`;
}

/** A call to a model provider failed. Exit code 1. */
export class ProviderError extends BfclError {
  readonly exitCode = 1;
  /** HTTP status, when the failure had one. */
  readonly status: number | undefined;
  /** Whether trying again may succeed (rate limits, 5xx, timeouts). */
  readonly retriable: boolean;
  /** Whether no attempt reached the server (connection refused, unknown host): a wrong endpoint or a server that is down. */
  readonly serverUnreachable: boolean;

  constructor(
    message: string,
    details: { status?: number; retriable?: boolean; serverUnreachable?: boolean } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.status = details.status;
    this.retriable = details.retriable ?? false;
    this.serverUnreachable = details.serverUnreachable ?? false;
  }
}

/** A bug in the harness: an invariant did not hold. Exit code 1. */
export class InternalError extends BfclError {
  readonly exitCode = 1;
}

/** Whether `e` is one of our typed errors. */
export const isBfclError = (e: unknown): e is BfclError => e instanceof BfclError;

import { BfclError } from '../../util/errors.js';

/** A memory snapshot file exists but cannot be loaded (bad JSON, wrong shape, unreadable); names the file. */
export class MemorySnapshotError extends BfclError {
  readonly exitCode = 1;
  /** The snapshot file. */
  readonly file: string;
  /** What is wrong with it, without the file name. */
  readonly detail: string;

  constructor(file: string, detail: string, options?: { cause?: unknown }) {
    super(`Corrupt memory snapshot ${file}: ${detail}`, options);
    this.file = file;
    this.detail = detail;
  }
}

/**
 * Where the memory backends read and write their snapshot files (reference §8): the only I/O they
 * do, behind an interface so that tests and offline runs need no disk.
 */

/** Reads and writes the text of snapshot files by path. */
export interface MemorySnapshotStore {
  /** The text of the file at `path`, or undefined when there is no such file (Python's `Path.exists()` is false). */
  readText(path: string): string | undefined;
  /** Write `text` to `path` exactly (no newline added), creating its folder, replacing any previous file. */
  writeText(path: string, text: string): void;
}

import type { MemorySnapshotStore } from './memory-snapshot-store.js';

/** A snapshot store kept in a Map (tests, offline end-to-end runs); paths are compared as given. */
export class InMemorySnapshotStore implements MemorySnapshotStore {
  /** Every file written or seeded, by path. */
  readonly files = new Map<string, string>();

  readText(path: string): string | undefined {
    return this.files.get(path);
  }

  writeText(path: string, text: string): void {
    this.files.set(path, text);
  }
}

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

import type { MemorySnapshotStore } from './memory-snapshot-store.js';

/** Error codes for which Python's `Path.exists()` answers False instead of raising. */
const MISSING_CODES = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

/** The snapshot store on the local file system (UTF-8 text, plain overwrite as the reference does). */
export class NodeMemorySnapshotStore implements MemorySnapshotStore {
  readText(path: string): string | undefined {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== undefined && MISSING_CODES.has(code)) return undefined;
      // A folder or an unreadable file in its place fails the load, as `open()` does in the reference.
      throw error;
    }
  }

  writeText(path: string, text: string): void {
    // The reference creates the folder when the instance loads; creating it here keeps reads free of side effects.
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text, 'utf8');
  }
}

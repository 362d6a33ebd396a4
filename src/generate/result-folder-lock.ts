/**
 * An exclusive lock per model result folder, held while `generate` writes into it: two runs into
 * one folder would append the same ids twice and lose lines when one re-sorts a file under the
 * other's appends. The lock is a directory made atomically (`proper-lockfile`), kept fresh while the
 * run lives and removed when it ends (also on exit); beside it a small file names the holder (pid,
 * host, start time, command) so that a second run can say who holds the folder.
 *
 * A lock whose holder is gone is stale: on the same host a dead pid shows it at once; otherwise
 * the lock's timestamp, no longer refreshed, does after a minute.
 */

import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

import lockfile from 'proper-lockfile';

import { BfclError } from '../util/errors.js';

/** The lock directory inside a model's result folder. */
export const LOCK_DIR_NAME = '.bfcl-generate.lock';
/** Who holds the lock: written by the holder after it took the lock. */
export const LOCK_OWNER_FILE = '.bfcl-generate.owner.json';
/** A lock not refreshed for this long is stale (the holder refreshes it every 10 s). */
const STALE_MS = 60_000;
const REFRESH_MS = 10_000;

/** The holder of a lock, as its owner file records it. */
export interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  /** ISO 8601. */
  readonly started_at: string;
  readonly command: string;
}

/** Another run holds the folder. Exit code 1. */
export class ResultFolderLockedError extends BfclError {
  readonly exitCode = 1;
  readonly owner: LockOwner | undefined;

  constructor(message: string, owner: LockOwner | undefined) {
    super(message);
    this.owner = owner;
  }
}

/** A held lock. */
export interface ResultFolderLock {
  readonly modelDir: string;
  /** The holder of a stale lock that was removed to take this one, if any. */
  readonly staleOwnerRemoved: LockOwner | undefined;
  /** Gives the folder up (idempotent). */
  release(): Promise<void>;
}

export interface LockOptions {
  /** What the owner file records as the command. */
  readonly command: string;
  readonly startedAt: Date;
  /** Told when the lock was lost while held (its directory removed or not refreshed in time). */
  readonly onCompromised?: (message: string) => void;
}

/**
 * Takes the lock of `modelDir` (created if missing), or throws `ResultFolderLockedError` naming the
 * holder. A stale lock is removed first.
 */
export async function lockResultFolder(modelDir: string, options: LockOptions): Promise<ResultFolderLock> {
  mkdirSync(modelDir, { recursive: true });
  const lockDir = join(modelDir, LOCK_DIR_NAME);
  const ownerFile = join(modelDir, LOCK_OWNER_FILE);
  const take = (): Promise<() => Promise<void>> =>
    lockfile.lock(modelDir, {
      realpath: false,
      lockfilePath: lockDir,
      stale: STALE_MS,
      update: REFRESH_MS,
      onCompromised: (error) => options.onCompromised?.(`the lock ${lockDir} was lost (${error.message}); another run may write into ${modelDir}.`),
    });

  let release: () => Promise<void>;
  let staleOwnerRemoved: LockOwner | undefined;
  try {
    release = await take();
  } catch (error) {
    if (!isLocked(error)) throw error;
    const owner = readLockOwner(modelDir);
    if (owner === undefined || owner.hostname !== hostname() || isProcessAlive(owner.pid)) {
      throw new ResultFolderLockedError(lockedMessage(modelDir, lockDir, owner), owner);
    }
    // The holder died without removing its lock (killed): the lock is stale.
    rmSync(lockDir, { recursive: true, force: true });
    staleOwnerRemoved = owner;
    try {
      release = await take();
    } catch (retryError) {
      if (!isLocked(retryError)) throw retryError;
      const next = readLockOwner(modelDir);
      throw new ResultFolderLockedError(lockedMessage(modelDir, lockDir, next), next);
    }
  }

  const owner: LockOwner = { pid: process.pid, hostname: hostname(), started_at: options.startedAt.toISOString(), command: options.command };
  const tmp = `${ownerFile}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(owner, null, 2)}\n`);
  renameSync(tmp, ownerFile);

  let released = false;
  return {
    modelDir,
    staleOwnerRemoved,
    release: async () => {
      if (released) return;
      released = true;
      if (readLockOwner(modelDir)?.pid === process.pid) rmSync(ownerFile, { force: true });
      try {
        await release();
      } catch {
        // Already released or lost (reported through onCompromised): nothing left to give up.
      }
    },
  };
}

/** The recorded holder of `modelDir`'s lock; undefined when none is recorded or the file is unreadable. */
export function readLockOwner(modelDir: string): LockOwner | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(modelDir, LOCK_OWNER_FILE), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { pid, hostname: host, started_at: startedAt, command } = parsed as Record<string, unknown>;
    if (typeof pid !== 'number' || typeof host !== 'string' || typeof startedAt !== 'string') return undefined;
    return { pid, hostname: host, started_at: startedAt, command: typeof command === 'string' ? command : '' };
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists on this host (one we may not signal exists too). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isLocked(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ELOCKED';
}

function lockedMessage(modelDir: string, lockDir: string, owner: LockOwner | undefined): string {
  const holder =
    owner === undefined
      ? 'another bfcl generate run (it recorded no owner)'
      : `bfcl generate pid ${owner.pid} on ${owner.hostname}, started ${owner.started_at}${owner.command === '' ? '' : ` (${owner.command})`}`;
  return (
    `${modelDir} is being written by ${holder}. Two runs into one result folder would duplicate and lose lines: ` +
    `wait for it to finish, or use another --result-dir. If that run is gone (e.g. on another machine), remove ${lockDir}.`
  );
}

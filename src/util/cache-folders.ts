/**
 * Where bfcl-ts keeps its caches (parsed dataset files), and how a cache keeps one
 * folder per build of the code without growing with every rebuild.
 */

import { readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The cache folder for an environment: `BFCL_CACHE_DIR` when set (relative to `cwd`), else
 * `$XDG_CACHE_HOME/bfcl-ts`, else `$HOME/.cache/bfcl-ts`. Undefined, for no cache, when
 * `BFCL_CACHE_DIR` is `off` (or `0`, `false`, `none`) or the environment names no home.
 */
export function cacheDirOf(env: Readonly<Record<string, string | undefined>>, cwd: string): string | undefined {
  const chosen = env['BFCL_CACHE_DIR']?.trim();
  if (chosen !== undefined && chosen !== '') {
    return ['off', '0', 'false', 'none'].includes(chosen.toLowerCase()) ? undefined : resolve(cwd, chosen);
  }
  const xdg = env['XDG_CACHE_HOME']?.trim();
  if (xdg !== undefined && xdg !== '') return join(resolve(cwd, xdg), 'bfcl-ts');
  const home = env['HOME']?.trim();
  return home !== undefined && home !== '' ? join(home, '.cache', 'bfcl-ts') : undefined;
}

/** What build stamps look like: only folders named so are ever removed. */
export const BUILD_STAMP = /^[0-9a-f]{16}$/;

/** How many other builds' folders are kept besides the running build's (e.g. a global and a local install). */
const OTHER_BUILDS_KEPT = 2;

/**
 * Remove the folders of `buildsDir` that belong to other builds than `keep`, all but the most
 * recently used ones (a folder's modification time, see `markBuildUsed`). Only folders named like
 * a build stamp are touched, so a user-chosen cache folder loses nothing else.
 */
export function pruneOtherBuilds(buildsDir: string, keep: string): void {
  const others = readdirSync(buildsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && BUILD_STAMP.test(entry.name) && entry.name !== keep)
    .map(({ name }) => ({ path: join(buildsDir, name), used: statSync(join(buildsDir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.used - a.used);
  for (const { path } of others.slice(OTHER_BUILDS_KEPT)) rmSync(path, { recursive: true, force: true });
}

/** Record that a build's folder was used now (only the pruning order depends on it). */
export function markBuildUsed(buildDir: string): void {
  try {
    const now = new Date();
    utimesSync(buildDir, now, now);
  } catch {
    // A missing or read-only folder: it is just pruned earlier.
  }
}

/** The file's bytes, or undefined when it cannot be read (a cache file that is not there). */
export function readFileIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Write a cache file aside and rename it into place, so that a concurrent run never reads half of it. */
export function writeFileAtomically(file: string, data: Buffer | Uint8Array): void {
  const partial = `${file}.${process.pid}.${Date.now()}.partial`;
  writeFileSync(partial, data);
  renameSync(partial, file);
}

/**
 * A disk cache of parsed dataset files. Parsing a file losslessly and checking it against its schema
 * is most of what loading the official data costs (about 300 ms of a `bfcl evaluate`), and the
 * files rarely change; so the parsed value is stored (V8's structured serialization) the second time
 * a file is parsed, and later runs read it back in a fraction of the time.
 *
 * The key is the file's bytes (SHA-256), how it was read (schema, whether checked) and the code
 * that read it (a stamp of the running build, see `runningCodeStamp`), so an edited file, another reading or a
 * rebuilt `bfcl` never sees a stale value. Any trouble with the cache itself (missing folder, no
 * permission, a corrupt or truncated blob, a full disk) falls back to parsing: the cache can make a
 * run slower, never different.
 */

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';

import { BUILD_STAMP, markBuildUsed, pruneOtherBuilds, readFileIfPresent, writeFileAtomically } from '../util/cache-folders.js';
import { InternalError } from '../util/errors.js';
import { filesUnder } from '../util/files-under.js';
import { sha256Hex } from '../util/hash.js';

/** Reads a file through a cache of its parsed value. */
export interface ParsedFileCache {
  /**
   * `parse(bytes)` of the file's bytes, or the value an earlier `parse` gave for the same bytes
   * read the same `way`. A file that cannot be read is left to `parse`'s own error (given undefined).
   * `storing` tells `parse` that its value will be kept for later runs (worth adding to what only
   * pays off when read back).
   */
  read<T>(file: string, way: string, parse: (bytes: Buffer | undefined, storing: boolean) => T): T;
}

/** Bump when what is stored changes shape without the code stamp changing (it always changes on rebuild). */
const CACHE_FORMAT = 'bfcl-ts parsed file v1';

/** `parse` itself, every time: for runs with the cache turned off. */
export const NO_CACHE: ParsedFileCache = {
  read: (file, _way, parse) => parse(readFileIfPresent(file), false),
};

export { cacheDirOf } from '../util/cache-folders.js';

/** The cache in `dir` (see `cacheDirOf`), or `NO_CACHE` when there is none. */
export function parsedFileCache(dir: string | undefined, codeStamp: string = runningCodeStamp()): ParsedFileCache {
  return dir === undefined ? NO_CACHE : new DiskParsedFileCache(dir, codeStamp);
}

/** The cache's own sub-folder of the cache folder, which may be any folder the user names. */
const PARSED_FILES_FOLDER = 'parsed-files';
/** Suffix of the marker a run leaves for a file it parsed without storing it. */
const PARSED_MARK = '.parsed';

/**
 * Blobs live in `<dir>/parsed-files/<code stamp>/<key>.v8` (and markers of files parsed once in
 * `<key>.v8.parsed`). A build's folder is touched when a run uses it, and a build's first store
 * removes all but the most recently used folders of other builds, so the cache holds a few builds'
 * files (a few MB per dataset each), not one set per rebuild.
 */
export class DiskParsedFileCache implements ParsedFileCache {
  private readonly buildsDir: string;
  private readonly buildDir: string;
  private buildDirReady = false;
  private buildDirTouched = false;

  constructor(
    dir: string,
    private readonly codeStamp: string,
  ) {
    if (!BUILD_STAMP.test(codeStamp)) throw new InternalError(`Not a code stamp: ${codeStamp}`);
    this.buildsDir = join(dir, PARSED_FILES_FOLDER);
    this.buildDir = join(this.buildsDir, codeStamp);
  }

  read<T>(file: string, way: string, parse: (bytes: Buffer | undefined, storing: boolean) => T): T {
    const bytes = readFileIfPresent(file);
    if (bytes === undefined) return parse(undefined, false);
    const blob = join(this.buildDir, `${keyOf(bytes, way)}.v8`);
    const stored = this.load(blob);
    if (stored !== undefined) {
      this.touchBuildDir();
      return stored.value as T;
    }
    // Stored the second time a file is parsed: a one-off run (a fresh CI machine) only leaves a
    // marker, instead of paying to serialize and write what no later run will read (about 170 ms
    // of a first `bfcl evaluate` of a real run).
    const storing = this.parsedBefore(blob);
    const value = parse(bytes, storing);
    if (storing) this.store(blob, value);
    else this.markParsed(blob);
    return value;
  }

  /** Whether an earlier run parsed the file (its marker), or stored it (a blob that would not load). */
  private parsedBefore(blob: string): boolean {
    return existsSync(`${blob}${PARSED_MARK}`) || existsSync(blob);
  }

  private markParsed(blob: string): void {
    try {
      this.prepareBuildDir();
      writeFileSync(`${blob}${PARSED_MARK}`, '');
    } catch {
      // As for blobs: the cache is only ever a shortcut.
    }
  }

  /** The stored value, or undefined when there is none or it cannot be read back whole. */
  private load(blob: string): { value: unknown } | undefined {
    const data = readFileIfPresent(blob);
    if (data === undefined) return undefined;
    try {
      const stored = deserialize(data) as unknown;
      if (Array.isArray(stored) && stored.length === 2 && stored[0] === CACHE_FORMAT) return { value: stored[1] };
    } catch {
      // A truncated or foreign blob: parse again and overwrite it.
    }
    return undefined;
  }

  private store(blob: string, value: unknown): void {
    if (!isPlainData(value)) return;
    try {
      this.prepareBuildDir();
      writeFileAtomically(blob, serialize([CACHE_FORMAT, value]));
      // The blob now says the file was parsed before.
      rmSync(`${blob}${PARSED_MARK}`, { force: true });
    } catch {
      // No room or no permission: the next run parses again.
    }
  }

  /** Mark the build's folder as used (its modification time), once per run. */
  private touchBuildDir(): void {
    if (this.buildDirTouched) return;
    this.buildDirTouched = true;
    markBuildUsed(this.buildDir);
  }

  private prepareBuildDir(): void {
    if (this.buildDirReady) return;
    this.buildDirReady = true;
    mkdirSync(this.buildDir, { recursive: true });
    this.buildDirTouched = true;
    pruneOtherBuilds(this.buildsDir, this.codeStamp);
  }
}

function keyOf(bytes: Buffer, way: string): string {
  return sha256Hex(`${CACHE_FORMAT}\0${process.versions.v8}\0${way}\0`, bytes);
}

/**
 * Only what JSON parsing makes (null, booleans, numbers, bigints, strings, arrays, Maps), and
 * Buffers, is stored: V8's serialization would turn any other class instance into a plain object.
 */
function isPlainData(value: unknown): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'boolean':
    case 'number':
    case 'bigint':
    case 'string':
      return true;
    case 'object':
      if (Array.isArray(value)) return value.every(isPlainData);
      if (Buffer.isBuffer(value)) return true;
      if (value instanceof Map) {
        for (const [k, v] of value as Map<unknown, unknown>) if (!isPlainData(k) || !isPlainData(v)) return false;
        return true;
      }
      return false;
    default:
      return false;
  }
}

/** The bundled program's files (`dist/bin/*.cjs`); the compiled `src` tree has `.js` files. */
const BUNDLED = /\.[cm]js$/;

let runningStamp: string | undefined;

/**
 * A stamp of the running build, so every rebuild gets a fresh cache: the bundle's content stamp,
 * which the build writes beside it (an installed package's files may all have one modification
 * time), else the names, sizes and modification times of the code's files (the bundle's folder, or
 * the compiled `src` tree).
 */
export function runningCodeStamp(): string {
  if (runningStamp !== undefined) return runningStamp;
  const self = fileURLToPath(import.meta.url);
  const bundled = BUNDLED.test(self);
  const built = bundled ? readFileIfPresent(join(dirname(self), 'build-stamp'))?.toString('latin1').trim() : undefined;
  if (built !== undefined && BUILD_STAMP.test(built)) {
    runningStamp = built;
    return runningStamp;
  }
  // The bundle's files share one folder; compiled or source modules sit one folder below the root.
  const root = bundled ? dirname(self) : dirname(dirname(self));
  const hash = createHash('sha256');
  for (const file of filesUnder(root)) {
    if (!/\.([cm]?js|ts)$/.test(file)) continue;
    const stat = statSync(file);
    hash.update(`${relative(root, file)}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  runningStamp = hash.digest('hex').slice(0, 16);
  return runningStamp;
}

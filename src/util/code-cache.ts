/**
 * Loading the `bfcl` program with V8's code cache. The program is one CommonJS bundle, and a
 * short command spends a good part of its time compiling it: parsing 2 MB of code at start-up,
 * then compiling each function the first time it runs. V8 can hand out what it has compiled (its
 * code cache) and take it back on a later start, so a run stores it for the next run of the same
 * command. `bfcl evaluate` of a real run: about 50 ms less wall time (bench, CLI scenarios).
 *
 * V8 checks that a cache fits (same V8 version and flags, same source length) and rejects one
 * that does not; this module also keys the cache by the bundle's content, since V8 compares only
 * the source's length. A missing, rejected or unreadable cache means compiling as usual and storing
 * a fresh cache at the end of the run: the cache can make a start slower, never different.
 */

import { isAscii } from 'node:buffer';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

import { markBuildUsed, pruneOtherBuilds, readFileIfPresent, writeFileAtomically } from './cache-folders.js';
import { fnv1a64Hex, sha256Hex } from './lazy-builtins.js';

export interface BundleLoadOptions {
  /** Absolute path of the CommonJS bundle to run. */
  readonly bundle: string;
  /** The cache folder (see `cacheDirOf`); undefined to compile without a code cache. */
  readonly cacheDir: string | undefined;
  /**
   * What else decides which functions a run compiles, e.g. the command: runs of one variant share
   * a cache. Node's version and options are added here.
   */
  readonly variant: string;
  /**
   * A stamp of the bundle's content (16 hex digits), when the build knows it; else the SHA-256
   * of the source is taken (about 4 ms for the 2 MB program).
   */
  readonly stamp?: string;
  /**
   * The folder of code caches the build made for this bundle (read-only; see scripts/bundle.mjs),
   * used when the cache folder has none: a first run on a new machine starts compiled too.
   */
  readonly shippedDir?: string;
}

/**
 * What became of the code cache: none asked for, used (from the cache folder, or the one the
 * build shipped), none there yet, or refused by V8 (another node or other flags).
 */
export type CodeCacheUse = 'off' | 'used' | 'shipped' | 'missing' | 'rejected';

export interface LoadedBundle {
  /** The bundle's `module.exports`. */
  readonly exports: unknown;
  readonly cache: CodeCacheUse;
  /**
   * Store what this run compiled for the next run of its variant, when the cache folder had none of
   * its own (the shipped one is made on the package's small data: a run on real results compiles
   * more, and its own cache started the real run about 15 ms sooner). Call at the end of the run
   * (the functions compiled by then are what the cache holds).
   */
  saveCodeCache(): void;
}

/** The code cache's sub-folder of the cache folder: one folder per bundle (`<stamp>/<variant>.bin`). */
export const CODE_CACHE_FOLDER = 'compiled-code';

type CommonJsWrapper = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

/** Compile and run the bundle as a CommonJS module, with the code cache when there is one. */
export function loadBundle({ bundle, cacheDir, variant, stamp, shippedDir }: BundleLoadOptions): LoadedBundle {
  const source = decodeSource(readFileSync(bundle));
  const place = cacheDir === undefined ? undefined : codeCachePlace(cacheDir, stamp ?? contentStamp(source), variant);
  const ownData = place === undefined ? undefined : readFileIfPresent(place.file);
  // The build made its caches without node options (see codeCacheFileName).
  const shippedFile = shippedDir === undefined ? undefined : join(shippedDir, codeCacheFileName(variant, []));
  const cachedData = ownData ?? (shippedFile === undefined ? undefined : readFileIfPresent(shippedFile));
  // Node's own CommonJS wrapper, on the source's first line, so that line numbers stay the bundle's.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, {
    filename: bundle,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const cache = cacheUse(place !== undefined, ownData !== undefined, cachedData !== undefined, script.cachedDataRejected === true);
  const module = { exports: {} as unknown };
  (script.runInThisContext() as CommonJsWrapper).call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  if (cache === 'used') markBuildUsed(place!.buildDir);
  let saved = false;
  return {
    exports: module.exports,
    cache,
    saveCodeCache: () => {
      if (saved || place === undefined || cache === 'used') return;
      saved = true;
      storeCodeCache(place, script.createCachedData());
    },
  };
}

/** The bundle's text: an ASCII file (as the build makes it) needs no UTF-8 decoding. */
function decodeSource(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * What a launcher does with a loaded bundle: report what became of its code cache on stderr when
 * `BFCL_DEBUG_STARTUP=1` (as `bfcl: <label>: <use>`), and store what it compiled when the process
 * or worker thread exits successfully (a usage error compiles next to nothing).
 */
export function keepCodeCacheOfSuccessfulRun(loaded: LoadedBundle, label: string): void {
  if (process.env['BFCL_DEBUG_STARTUP'] === '1') process.stderr.write(`bfcl: ${label}: ${loaded.cache}\n`);
  process.once('exit', (code) => {
    if (code === 0) loaded.saveCodeCache();
  });
}

function cacheUse(hasFolder: boolean, ownFound: boolean, anyFound: boolean, rejected: boolean): CodeCacheUse {
  if (!anyFound) return hasFolder ? 'missing' : 'off';
  if (rejected) return 'rejected';
  return ownFound ? 'used' : 'shipped';
}

interface CodeCachePlace {
  /** `<cache>/compiled-code`, holding one folder per bundle. */
  readonly buildsDir: string;
  readonly buildDir: string;
  readonly stamp: string;
  readonly file: string;
}

/** The stamp of a bundle's content: the first 16 hex digits of its SHA-256. */
export function contentStamp(source: string | Buffer): string {
  return sha256Hex(source).slice(0, 16);
}

/** `<cache>/compiled-code/<bundle content stamp>/<variant and node stamp>.bin`. */
export function codeCachePlace(cacheDir: string, stamp: string, variant: string): CodeCachePlace {
  const buildsDir = join(cacheDir, CODE_CACHE_FOLDER);
  const buildDir = join(buildsDir, stamp);
  return { buildsDir, buildDir, stamp, file: join(buildDir, codeCacheFileName(variant, process.execArgv)) };
}

/**
 * The file name of a variant's cache under this node and its options. A run with node options
 * (`node --cpu-prof bfcl.cjs ...`) keeps a cache of its own; the build's caches are made without any.
 */
export function codeCacheFileName(variant: string, execArgv: readonly string[]): string {
  return `${fnv1a64Hex([variant, process.version, process.arch, process.versions.v8, ...execArgv].join('\0'))}.bin`;
}

function storeCodeCache(place: CodeCachePlace, data: Buffer): void {
  try {
    mkdirSync(place.buildDir, { recursive: true });
    pruneOtherBuilds(place.buildsDir, place.stamp);
    writeFileAtomically(place.file, data);
  } catch {
    // No room or no permission: the next run compiles as usual.
  }
}

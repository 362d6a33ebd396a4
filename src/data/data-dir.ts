import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { InternalError, UsageError } from '../util/errors.js';

/** Name in our package.json, used to recognise the package root when walking up from this file. */
const PACKAGE_NAME = 'bfcl-ts';

let cachedPackageRoot: string | undefined;

/**
 * The directory of this package's package.json. Found by walking up from this module, so it is the
 * same from `src/` (tests) and from `dist/src/` (the built CLI), whatever the cwd.
 */
export function packageRoot(): string {
  if (cachedPackageRoot !== undefined) return cachedPackageRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && readPackageName(manifest) === PACKAGE_NAME) {
      cachedPackageRoot = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new InternalError(`Cannot find the ${PACKAGE_NAME} package root above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

function readPackageName(manifest: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && 'name' in parsed && typeof parsed.name === 'string'
      ? parsed.name
      : undefined;
  } catch {
    return undefined;
  }
}

/** The version field of our package.json. */
export function packageVersion(): string {
  const parsed = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
  return typeof parsed.version === 'string' ? parsed.version : '0.0.0';
}

/** The project's own small dataset (`<package root>/data`), used when no data directory is given. */
export function packageDataDir(): string {
  return join(packageRoot(), 'data');
}

/**
 * The dataset directory to read: `dir` (from `--data-dir` or `BFCL_DATA_DIR`, resolved against
 * `cwd`) when given, else the package's own `data/`. A given directory must exist.
 */
export function resolveDataDir(dir: string | undefined, cwd: string = process.cwd()): string {
  if (dir === undefined || dir === '') return packageDataDir();
  const absolute = resolve(cwd, dir);
  if (!existsSync(absolute) || !statSync(absolute).isDirectory()) {
    throw new UsageError(`Data directory not found: ${absolute} (from --data-dir or BFCL_DATA_DIR)`);
  }
  return absolute;
}

/** Sub-folders of a dataset directory in the official layout. */
export const DATA_LAYOUT = {
  possibleAnswer: 'possible_answer',
  multiTurnFuncDoc: 'multi_turn_func_doc',
  memoryPrereqConversation: 'memory_prereq_conversation',
  longContext: 'long_context.json',
} as const;

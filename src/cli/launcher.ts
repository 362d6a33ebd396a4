#!/usr/bin/env node
/**
 * The `bfcl` binary (bundled alone to `dist/bin/bfcl.cjs`): runs the program bundle
 * (`dist/bin/bfcl-main.cjs`) with V8's code cache of the previous run of the same command (see
 * util/code-cache.ts). It is compiled afresh on every start, so it stays small.
 * `BFCL_DEBUG_STARTUP=1` reports on stderr what became of the code cache.
 */

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { cacheDirOf } from '../util/cache-folders.js';
import { keepCodeCacheOfSuccessfulRun, loadBundle } from '../util/code-cache.js';
import { isBatchCommand, loadBuiltinsBeforeTuning, tuneV8ForBatchWork } from '../util/v8-tuning.js';
import { loadDotEnv } from './dotenv.js';

/** The program bundle's content stamp, which the bundle script writes in at build time. */
declare const __BFCL_PROGRAM_STAMP__: string | undefined;

interface ProgramBundle {
  runBinary(argv: readonly string[]): Promise<void>;
}

const argv = process.argv.slice(2);
const command = argv[0] ?? '';
const helpAsked = argv.some((arg) => arg === '-h' || arg === '--help');
// First: `.env` may choose the cache folder (BFCL_CACHE_DIR), and the program reads its keys.
loadDotEnv(process.cwd());
// Before compiling anything: V8 refuses a code cache made under other flags.
if (isBatchCommand(command)) {
  loadBuiltinsBeforeTuning(command);
  tuneV8ForBatchWork();
}
const bundle = fileURLToPath(new URL('./bfcl-main.cjs', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write(`bfcl: error: the program bundle ${bundle} is missing; reinstall bfcl-ts or run \`npm run build\`\n`);
  process.exit(1);
}
const program = loadBundle({
  bundle,
  cacheDir: cacheDirOf(process.env, process.cwd()),
  // Runs of one command compile the same functions; any other first word shares one variant, and
  // asking for help is not a run of the command (its cache would hold little of the command's code).
  variant: `command ${/^[a-z][a-z-]{0,39}$/.test(command) ? command : '?'}${helpAsked ? ' help' : ''}`,
  stamp: typeof __BFCL_PROGRAM_STAMP__ === 'string' ? __BFCL_PROGRAM_STAMP__ : undefined,
  shippedDir: fileURLToPath(new URL('./code-cache/', import.meta.url)),
});
keepCodeCacheOfSuccessfulRun(program, 'code cache');
void (program.exports as ProgramBundle).runBinary(argv);

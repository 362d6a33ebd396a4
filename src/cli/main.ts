#!/usr/bin/env node
/**
 * The CLI as an ES module, for `node dist/src/cli/main.js`. The `bfcl` binary is the launcher
 * (launcher.ts, bundled to dist/bin/bfcl.cjs), which runs the program bundle.
 */

import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { loadDotEnv } from './dotenv.js';
import { runBinary } from './run-cli.js';

export { loadDotEnv } from './dotenv.js';
export { USAGE_EXIT_CODE, runBinary, runCli } from './run-cli.js';

/** Whether this module is the program being run (also through a symlink). */
function isMainModule(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMainModule()) {
  loadDotEnv(process.cwd());
  await runBinary(process.argv.slice(2));
}

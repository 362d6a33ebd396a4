/**
 * The `bfcl` binary: `node dist/src/cli/main.js`, or its bundle `dist/bin/bfcl.cjs` (package.json's
 * `bin`). Loads `.env` from the working directory, then runs the CLI.
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
  void runBinary(process.argv.slice(2));
}

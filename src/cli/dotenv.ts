import { join } from 'node:path';

import { config as loadDotenvFile } from 'dotenv';

/** Load `<cwd>/.env` into `env` without overriding variables that are already set. */
export function loadDotEnv(cwd: string, env: Record<string, string | undefined> = process.env): void {
  loadDotenvFile({ path: join(cwd, '.env'), processEnv: env as Record<string, string>, override: false, quiet: true });
}

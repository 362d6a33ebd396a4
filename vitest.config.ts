import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'threads',
    // Commands run by the tests keep their dataset parse cache here, not in the user's ~/.cache.
    env: { BFCL_CACHE_DIR: join(tmpdir(), 'bfcl-ts-test-cache') },
  },
});

/** `bfcl generate` options for tests: the oracle on simple_python of our own data, results under `cwd`. */
import { join } from 'node:path';

import { packageDataDir } from '../../src/data/data-dir.js';
import type { GenerateOptions } from '../../src/spec/options.js';

export function generateOptions(cwd: string, overrides: Partial<GenerateOptions> = {}): GenerateOptions {
  return {
    models: ['oracle'],
    testCategories: ['simple_python'],
    temperature: 0.001,
    includeInputLog: false,
    excludeStateLog: false,
    numThreads: undefined,
    resultDir: join(cwd, 'result'),
    allowOverwrite: false,
    runIds: false,
    dataDir: packageDataDir(),
    projectRoot: cwd,
    ...overrides,
  };
}

/** Generation options for tests: `bfcl generate`'s, and `generateForModel`'s for a selection of categories. */
import { join } from 'node:path';

import { packageDataDir } from '../../src/data/data-dir.js';
import type { BfclDataset } from '../../src/data/dataset.js';
import type { GenerationOptions } from '../../src/generate/run-generation.js';
import { selectTestEntries } from '../../src/generate/select-entries.js';
import type { Category } from '../../src/spec/categories.js';
import type { GenerateOptions } from '../../src/spec/options.js';

/** `bfcl generate` options: the oracle on simple_python of our own data, results under `cwd`. */
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

/** `generateForModel` options for every entry of `categories`: one thread, no input log, progress discarded. */
export function generationOptions(
  dataset: BfclDataset,
  resultDir: string,
  categories: readonly Category[],
  overrides: Partial<GenerationOptions> = {},
): GenerationOptions {
  const selection = selectTestEntries(dataset, { categories: [...categories], runIds: false, projectRoot: resultDir });
  return {
    categories: selection.categories,
    entries: selection.entries,
    resultDir,
    allowOverwrite: false,
    runIds: false,
    includeInputLog: false,
    excludeStateLog: false,
    numThreads: 1,
    simContext: { longContext: dataset.longContext() },
    progress: { write: () => {}, isTTY: false },
    ...overrides,
  };
}

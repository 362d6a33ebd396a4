import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { packageDataDir } from '../src/data/data-dir.js';

describe('programmatic API', () => {
  it('exposes the dataset, executor and registry without side effects', () => {
    const dataset = new api.BfclDataset(packageDataDir());
    const entry = dataset.loadTestEntries('multi_turn_base', { includeLanguageHint: false })[0]!;
    const executor = new api.EntryExecutor({
      modelName: 'api_test',
      entryId: entry.id,
      initialConfig: entry.initialConfig!,
      involvedClasses: entry.involvedClasses!,
      longContext: false,
      context: { longContext: dataset.longContext() },
    });
    expect(executor.execute(['pwd()'])[0]).toMatch(/^\{"current_working_directory": "\//);
    expect(api.MODEL_REGISTRY.size).toBe(175);
    expect(api.parseTestCategoryArgument(['multi_turn'])).toHaveLength(4);
  });
});

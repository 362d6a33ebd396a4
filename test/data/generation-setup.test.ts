import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { cleanUpMemoryPrereqEntries, withMemoryInitialConfig, withWebSearchInitialConfig } from '../../src/data/agentic.js';
import { BfclDataset, readIdListFile } from '../../src/data/dataset.js';
import { jsonDumps } from '../../src/py/json.js';
import { DatasetError } from '../../src/util/errors.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mini-dataset', import.meta.url));
const dataset = () => new BfclDataset(FIXTURE);

describe('memory prereq clean-up (clean_up_memory_prereq_entries)', () => {
  it('drops prereqs whose questions are not being generated', () => {
    const prereqsOnly = dataset().loadTestEntries('memory_kv').filter((e) => e.id.includes('prereq'));
    expect(cleanUpMemoryPrereqEntries(prereqsOnly)).toEqual([]);
  });

  it('removes dependencies that are not being generated', () => {
    const ds = dataset();
    const entries = [...ds.loadTestEntries('memory_kv'), ...ds.loadTestEntries('web_search_base')].filter(
      (e) => e.id !== 'memory_kv_prereq_0-student-0',
    );
    const cleaned = cleanUpMemoryPrereqEntries(entries);
    expect(cleaned).toHaveLength(11);
    expect(cleaned.filter((e) => e.id.includes('student')).map((e) => [e.id, e.dependsOn])).toEqual([
      ['memory_kv_prereq_1-student-1', []],
      ['memory_kv_1-student-0', ['memory_kv_prereq_1-student-1']],
    ]);
    expect([...cleaned.find((e) => e.id === 'memory_kv_1-student-0')!.raw.keys()]).toEqual([
      'id', 'question', 'involved_classes', 'scenario', 'depends_on', 'function',
    ]);
  });
});

describe('initial_config of agentic entries', () => {
  it('gives memory entries their backend settings', () => {
    const ds = dataset();
    const prereq = ds.loadTestEntries('memory_kv').find((e) => e.id === 'memory_kv_prereq_1-student-1')!;
    const withConfig = withMemoryInitialConfig(prereq, '/r/model');
    expect(jsonDumps(withConfig.raw.get('initial_config')!)).toBe(
      '{"MemoryAPI_kv": {"model_result_dir": "/r/model", "scenario": "student", "test_id": "memory_kv_prereq_1-student-1", "test_category": "memory_kv_prereq"}}',
    );
    expect(withConfig.initialConfig).toBe(withConfig.raw.get('initial_config'));
    expect([...withConfig.raw.keys()].at(-1)).toBe('initial_config');
    expect(prereq.raw.has('initial_config')).toBe(false);
    const question = ds.loadTestEntries('memory_kv').find((e) => e.id === 'memory_kv_1-student-0')!;
    expect(jsonDumps(withMemoryInitialConfig(question, '/r/model').initialConfig!)).toContain('"test_category": "memory_kv"}');
  });

  it('shows snippets except for web_search_no_snippet', () => {
    const ds = dataset();
    expect(jsonDumps(withWebSearchInitialConfig(ds.loadTestEntries('web_search_base')[0]!).initialConfig!)).toBe('{"WebSearchAPI": {"show_snippet": true}}');
    expect(jsonDumps(withWebSearchInitialConfig(ds.loadTestEntries('web_search_no_snippet')[0]!).initialConfig!)).toBe('{"WebSearchAPI": {"show_snippet": false}}');
  });

  it('leaves other entries alone', () => {
    const entry = dataset().loadTestEntries('multiple')[0]!;
    expect(withWebSearchInitialConfig(entry)).toBe(entry);
    expect(withMemoryInitialConfig(entry, '/r')).toBe(entry);
  });
});

describe('--run-ids id lists (load_test_entries_from_id_file)', () => {
  it('loads the listed entries of the listed categories in dataset order', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bfcl-ids-'));
    const file = join(dir, 'test_case_ids_to_generate.json');
    writeFileSync(file, JSON.stringify({ multiple: ['multiple_2', 'multiple_0'], parallel: [], web_search_no_snippet: ['web_search_no_snippet_1'] }));
    const selected = dataset().loadTestEntriesByIds(readIdListFile(file), file);
    expect(selected.categories).toEqual(['multiple', 'web_search_no_snippet']);
    expect(selected.entries.map((e) => e.id)).toEqual(['multiple_0', 'multiple_2', 'web_search_no_snippet_1']);
  });

  it('names an unknown category', () => {
    expect(() => dataset().loadTestEntriesByIds(new Map([['simple', ['simple_0']]]), 'ids.json')).toThrow(DatasetError);
    expect(() => dataset().loadTestEntriesByIds(new Map([['simple', ['simple_0']]]), 'ids.json')).toThrow('ids.json: at simple: unknown test category "simple"');
  });
});

describe('validation switch', () => {
  it('can skip schema validation of trusted data', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bfcl-novalidate-'));
    writeFileSync(join(dir, 'BFCL_v4_parallel.json'), '{"id": "parallel_0", "question": [], "function": [], "extra": {"x": 1}}\n');
    writeFileSync(join(dir, 'BFCL_v4_irrelevance.json'), '{"id": "irrelevance_0", "question": "not a list", "function": []}\n');
    expect(new BfclDataset(dir, { validate: false }).loadTestEntries('parallel')[0]!.id).toBe('parallel_0');
    expect(() => new BfclDataset(dir).loadTestEntries('irrelevance')).toThrow(/BFCL_v4_irrelevance\.json:1: entry irrelevance_0: at question: /);
  });
});

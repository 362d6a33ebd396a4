import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { AGENTIC_RESPONSE_FORMAT_PROMPT } from '../../src/data/agentic.js';
import { BfclDataset, openDataset } from '../../src/data/dataset.js';
import { packageDataDir } from '../../src/data/data-dir.js';
import { JAVA_HINT, PYTHON_HINT, addLanguageSpecificHint } from '../../src/data/language-hint.js';
import { jsonDumps } from '../../src/py/json.js';
import type { PyDict, PyValue } from '../../src/py/value.js';
import { type Category, FORMAT_SENSITIVITY_CONFIGS } from '../../src/spec/categories.js';
import { DatasetError, InternalError, UsageError } from '../../src/util/errors.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mini-dataset', import.meta.url));
// Produced by the reference's load_dataset_entry / load_ground_truth_entry (gorilla 6ea5797) on FIXTURE.
const EXPECTED = fileURLToPath(new URL('../fixtures/mini-dataset-expected', import.meta.url));

const dataset = () => new BfclDataset(FIXTURE);
const get = (d: PyValue | undefined, ...keys: (string | number)[]): PyValue | undefined => {
  let v = d;
  for (const k of keys) v = typeof k === 'number' ? (v as PyValue[])[k] : (v as PyDict).get(k);
  return v;
};

describe('loading matches the reference byte for byte (json.dumps of each entry)', () => {
  const files = readdirSync(EXPECTED).filter((f) => f.endsWith('.jsonl'));
  it.each(files)('%s', (file) => {
    const [category, variant, prereq] = file.replace('.jsonl', '').split('.') as [Category, string, string | undefined];
    const ds = dataset();
    const lines =
      variant === 'possible_answer'
        ? ds.loadPossibleAnswers(category).map((a) => jsonDumps(a.raw))
        : ds
            .loadTestEntries(category, { includeLanguageHint: variant === 'hint-1', includePrereq: prereq !== 'prereq-0' })
            .map((e) => jsonDumps(e.raw));
    expect(lines).toEqual(readFileSync(join(EXPECTED, file), 'utf8').split('\n').filter(Boolean));
  });
});

describe('single-turn entries', () => {
  it('keeps Python types and key order, and gives a typed view', () => {
    const [entry] = dataset().loadTestEntries('multiple', { includeLanguageHint: false });
    expect(entry!.id).toBe('multiple_0');
    expect(entry!.category).toBe('multiple');
    expect([...entry!.raw.keys()]).toEqual(['id', 'question', 'function']);
    expect(entry!.question).toEqual([[{ role: 'user', content: 'Area of a circle of radius 2.5?' }]]);
    expect(entry!.functionDocs).toBe(entry!.raw.get('function'));
    expect(get(entry!.functionDocs[0], 'parameters', 'properties', 'radius', 'default')).toBe(1.0);
    expect(jsonDumps(get(entry!.functionDocs[0], 'parameters', 'properties', 'radius')!)).toBe(
      '{"type": "float", "description": "Radius.", "default": 1.0}',
    );
    expect(entry!.initialConfig).toBeUndefined();
    expect(entry!.missedFunction).toBeUndefined();
  });

  it('adds the Python hint for generation only', () => {
    const ds = dataset();
    const plain = ds.loadTestEntries('multiple', { includeLanguageHint: false })[0]!;
    const hinted = ds.loadTestEntries('multiple')[0]!;
    expect(get(plain.functionDocs[0], 'description')).toBe('Area of a circle.');
    expect(get(hinted.functionDocs[0], 'description')).toBe(`Area of a circle.${PYTHON_HINT}`);
    // The cached docs were not changed by the hint.
    expect(get(ds.loadTestEntries('multiple', { includeLanguageHint: false })[0]!.functionDocs[0], 'description')).toBe('Area of a circle.');
  });

  it('rewrites Java parameters as strings with the original type in the description', () => {
    const [entry] = dataset().loadTestEntries('simple_java');
    const doc = entry!.functionDocs[0] as PyDict;
    expect(doc.get('description')).toBe(`Makes a list.${JAVA_HINT}`);
    const props = get(doc, 'parameters', 'properties') as PyDict;
    expect(jsonDumps(props.get('items')!)).toBe(
      '{"type": "string", "description": "The items. This is Java ArrayList type parameter in string representation. The list elements are of type String; they are not in string representation."}',
    );
    expect(get(props, 'owner', 'description')).toBe('Owner object. This parameter can be of any type of Java object in string representation.');
    expect(get(props, 'count', 'description')).toBe('How many. This is Java long type parameter in string representation.');
  });

  it('applies the hint again to an already hinted entry (format sensitivity does)', () => {
    const once = dataset().loadTestEntries('multiple')[2]!;
    const twice = addLanguageSpecificHint(once);
    expect(get(twice.functionDocs[0], 'description')).toBe(`Area of a square.${PYTHON_HINT}${PYTHON_HINT}`);
    expect(get(once.functionDocs[0], 'description')).toBe(`Area of a square.${PYTHON_HINT}`);
  });

  it('hints each shared doc once: entries that share a doc share its hinted copy, the source stays as loaded', () => {
    const ds = openDataset(); // our data/: multi-turn entries of several categories use the same class
    const entries = (['multi_turn_base', 'multi_turn_miss_param'] as const).flatMap((c) => ds.loadTestEntries(c));
    const [first, second] = entries.filter((e) => e.involvedClasses?.[0] === entries[0]!.involvedClasses?.[0]);
    expect(second!.id).not.toBe(first!.id);
    const plain = ds.loadTestEntries('multi_turn_base', { includeLanguageHint: false })[0]!;
    expect(first!.functionDocs[0]).toBe(second!.functionDocs[0]);
    expect(get(first!.functionDocs[0], 'description')).toBe(`${String(get(plain.functionDocs[0], 'description'))}${PYTHON_HINT}`);
    expect(get(plain.functionDocs[0], 'description')).not.toContain(PYTHON_HINT);
  });

  it('falls back to v3 file names and renames v3 ids', () => {
    const ds = dataset();
    expect(ds.loadTestEntries('simple_python').map((e) => e.id)).toEqual(['simple_python_0', 'simple_python_1']);
    expect(ds.loadPossibleAnswers('simple_python').map((a) => a.id)).toEqual(['simple_python_0', 'simple_python_1']);
  });

  it('has no ground truth for relevance categories', () => {
    expect(() => dataset().loadPossibleAnswers('irrelevance')).toThrow(InternalError);
  });
});

describe('multi-turn entries', () => {
  it('gets the function docs of its classes, in class order, as the last key', () => {
    const [entry] = dataset().loadTestEntries('multi_turn_base', { includeLanguageHint: false });
    expect([...entry!.raw.keys()]).toEqual(['id', 'question', 'initial_config', 'path', 'involved_classes', 'function']);
    expect(entry!.functionDocs.map((d) => get(d, 'name'))).toEqual(['ls', 'pwd', 'mean', 'ls']);
    expect(entry!.involvedClasses).toEqual(['GorillaFileSystem', 'MathAPI']);
    expect(get(entry!.initialConfig!, 'GorillaFileSystem', 'root', 'alice', 'type')).toBe('directory');
  });

  it('moves the first doc of each held-out name to missed_function; held-out docs get no hint', () => {
    const [entry] = dataset().loadTestEntries('multi_turn_miss_func');
    // MathAPI comes first in involved_classes, so its `ls` is the one held out.
    expect(entry!.functionDocs.map((d) => get(d, 'description'))).toEqual([
      `This tool belongs to the Gorilla file system. List files.${PYTHON_HINT}`,
      `This tool belongs to the Gorilla file system. Where am I.${PYTHON_HINT}`,
    ]);
    const missed = entry!.missedFunction!;
    expect([...missed.keys()]).toEqual(['1', '2']);
    expect(missed.get('1')!.map((d) => get(d, 'description'))).toEqual(['This tool belongs to the Math API. A clashing name.']);
    expect(missed.get('2')!.map((d) => get(d, 'name'))).toEqual(['mean']);
    expect(entry!.question[1]).toEqual([]);
  });

  it('names an unknown class', () => {
    const dir = copyFixture();
    const file = join(dir, 'BFCL_v4_multi_turn_base.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"MathAPI"]', '"AbacusAPI"]'));
    expect(() => new BfclDataset(dir).loadTestEntries('multi_turn_base')).toThrow(
      /entry multi_turn_base_0: at involved_classes: unknown class "AbacusAPI"/,
    );
  });
});

describe('agentic entries', () => {
  it('renames web search ids per category and prepends the answer-format system prompt', () => {
    const ds = dataset();
    const base = ds.loadTestEntries('web_search_base');
    const noSnippet = ds.loadTestEntries('web_search_no_snippet');
    expect(base.map((e) => e.id)).toEqual(['web_search_base_0', 'web_search_base_1']);
    expect(noSnippet.map((e) => e.id)).toEqual(['web_search_no_snippet_0', 'web_search_no_snippet_1']);
    expect(base[0]!.question[0]).toEqual([
      { role: 'system', content: AGENTIC_RESPONSE_FORMAT_PROMPT },
      { role: 'user', content: 'Who won?' },
    ]);
    expect(base[0]!.functionDocs.map((d) => get(d, 'name'))).toEqual(['search_engine_query', 'fetch_url_content']);
    // Ground truth keeps the file's ids.
    expect(ds.loadPossibleAnswers('web_search_no_snippet').map((a) => a.id)).toEqual(['web_search_0', 'web_search_1']);
  });

  it('orders memory prereqs by reverse scenario order, with dependencies', () => {
    const entries = dataset().loadTestEntries('memory_kv');
    expect(entries.map((e) => e.id)).toEqual([
      'memory_kv_prereq_0-notetaker-0',
      'memory_kv_prereq_0-healthcare-0',
      'memory_kv_prereq_0-finance-0',
      'memory_kv_prereq_0-customer-0',
      'memory_kv_prereq_1-customer-1',
      'memory_kv_prereq_0-student-0',
      'memory_kv_prereq_1-student-1',
      'memory_kv_0-customer-0',
      'memory_kv_1-student-0',
      'memory_kv_2-notetaker-0',
    ]);
    const byId = new Map(entries.map((e) => [e.id, e]));
    expect(byId.get('memory_kv_prereq_1-student-1')!.dependsOn).toEqual(['memory_kv_prereq_0-student-0']);
    expect(byId.get('memory_kv_1-student-0')!.dependsOn).toEqual(['memory_kv_prereq_0-student-0', 'memory_kv_prereq_1-student-1']);
    expect(byId.get('memory_kv_1-student-0')!.involvedClasses).toEqual(['MemoryAPI_kv']);
    expect(byId.get('memory_kv_1-student-0')!.category).toBe('memory_kv');
    expect(byId.get('memory_kv_prereq_0-student-0')!.category).toBe('memory_kv_prereq');
    // Prereq conversations get no system prompt; questions do.
    expect(byId.get('memory_kv_prereq_0-student-0')!.question[0]![0]!.role).toBe('user');
    expect(byId.get('memory_kv_1-student-0')!.question[0]![0]!.role).toBe('system');
  });

  it('leaves prereqs out for evaluation but keeps the dependencies', () => {
    const entries = dataset().loadTestEntries('memory_rec_sum', { includePrereq: false, includeLanguageHint: false });
    expect(entries.map((e) => e.id)).toEqual(['memory_rec_sum_0-customer-0', 'memory_rec_sum_1-student-0', 'memory_rec_sum_2-notetaker-0']);
    expect(entries[2]!.dependsOn).toEqual(['memory_rec_sum_prereq_0-notetaker-0']);
    expect(entries[2]!.scenario).toBe('notetaker');
  });
});

describe('format sensitivity', () => {
  it('copies each listed entry (dataset order) for the 26 configs, hint applied twice', () => {
    const entries = dataset().loadTestEntries('format_sensitivity');
    expect(entries).toHaveLength(2 * 26);
    expect(entries[0]!.id).toBe(`format_sensitivity_0:${FORMAT_SENSITIVITY_CONFIGS[0]}:multiple_0`);
    expect(entries[26]!.id).toBe(`format_sensitivity_26:${FORMAT_SENSITIVITY_CONFIGS[0]}:multiple_2`);
    expect(entries[51]!.id).toBe(`format_sensitivity_51:${FORMAT_SENSITIVITY_CONFIGS[25]}:multiple_2`);
    expect(entries[0]!.category).toBe('format_sensitivity');
    expect(get(entries[0]!.functionDocs[0], 'description')).toBe(`Area of a circle.${PYTHON_HINT}${PYTHON_HINT}`);
    const forEval = dataset().loadTestEntries('format_sensitivity', { includeLanguageHint: false });
    expect(get(forEval[0]!.functionDocs[0], 'description')).toBe(`Area of a circle.${PYTHON_HINT}`);
  });

  it('repeats the ground truth of the listed entries', () => {
    const answers = dataset().loadPossibleAnswers('format_sensitivity');
    expect(answers.map((a) => a.id)).toEqual([...Array(26).fill('multiple_0'), ...Array(26).fill('multiple_2')]);
    expect(answers[0]!.raw).not.toBe(answers[1]!.raw);
  });
});

describe('caching and isolation', () => {
  it('parses each file once and hands out fresh top-level dicts', () => {
    const ds = dataset();
    const a = ds.loadTestEntries('multiple', { includeLanguageHint: false });
    const b = ds.loadTestEntries('multiple', { includeLanguageHint: false });
    expect(a[0]!.raw).not.toBe(b[0]!.raw);
    expect(a[0]!.functionDocs).toBe(b[0]!.functionDocs);
    a[0]!.raw.set('id', 'changed');
    expect(ds.loadTestEntries('multiple', { includeLanguageHint: false })[0]!.id).toBe('multiple_0');
  });

  it('returns long_context.json as parsed', () => {
    const ctx = dataset().longContext();
    expect(ctx.get('WATCH_LIST_EXTENSION')).toEqual(['AAA', 'BBB', '...']);
    expect(ctx.get('MA_5_EXTENSION')).toEqual([1.5, 2.0]);
    expect(dataset().formatSensitivityIds()).toEqual(new Map([['multiple', ['multiple_2', 'multiple_0']], ['simple_java', []]]));
  });
});

describe('errors', () => {
  it('names the file, line, entry and path of a malformed entry', () => {
    const dir = copyFixture();
    const file = join(dir, 'BFCL_v4_multiple.json');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"role": "system"', '"role": "narrator"');
    writeFileSync(file, lines.join('\n'));
    let error: unknown;
    try {
      new BfclDataset(dir).loadTestEntries('multiple');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatasetError);
    const e = error as DatasetError;
    expect([e.file, e.line, e.entryId, e.path]).toEqual([file, 2, 'multiple_1', ['question', 0, 0, 'role']]);
    expect(e.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: entry multiple_1: at question\\.0\\.0\\.role: `));
  });

  it('names a missing file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bfcl-empty-'));
    expect(() => new BfclDataset(dir).loadTestEntries('parallel')).toThrow(`${join(dir, 'BFCL_v4_parallel.json')}: file not found`);
  });

  it('resolves data directories', () => {
    expect(openDataset(FIXTURE).dir).toBe(FIXTURE);
    expect(openDataset().dir).toBe(packageDataDir());
    expect(openDataset('mini-dataset', join(FIXTURE, '..')).dir).toBe(FIXTURE);
    expect(() => openDataset('/no/such/bfcl/dir')).toThrow(UsageError);
  });
});

function copyFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bfcl-mini-'));
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

/**
 * The evaluation pipeline on our own dataset: ground-truth-made results score 100%, and bad
 * inputs (malformed lines, missing entries, foreign ids, missing files) fail entries, not the run.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageDataDir } from '../../src/data/data-dir.js';
import { BfclDataset } from '../../src/data/dataset.js';
import { MALFORMED_RESULT_LINE, MISSING_RESULT } from '../../src/evaluate/evaluate-category.js';
import { runEvaluation } from '../../src/evaluate/run-evaluate.js';
import { jsonDumps, parseJsonLossless } from '../../src/py/json.js';
import { pyRepr } from '../../src/py/repr.js';
import type { PyDict, PyValue } from '../../src/py/value.js';
import { getDirectoryStructureByCategory, getFileNameByCategory, type Category } from '../../src/spec/categories.js';
import { seededRandom } from '../helpers/random.js';

const dataset = new BfclDataset(packageDataDir());
const PROMPTING = { decoderMode: 'prompting', underscoreToDot: false } as const;

/** The first acceptable value; a dict's values are themselves lists of acceptable values. */
function firstAcceptable(values: PyValue[]): PyValue {
  const value = values.find((v) => v !== '')!;
  if (!(value instanceof Map)) return value;
  const dict: PyDict = new Map();
  for (const [key, alternatives] of value) {
    const options = alternatives as PyValue[];
    if (!options.every((v) => v === '')) dict.set(key, firstAcceptable(options));
  }
  return dict;
}

/** A prompting-style answer built from the first acceptable value of each parameter. */
function promptingAnswer(groundTruth: PyValue): string {
  const calls = (groundTruth as PyDict[]).map((call) => {
    const [name, params] = [...call][0]!;
    const args = [...(params as PyDict)]
      .filter(([, values]) => !(values as PyValue[]).every((v) => v === ''))
      .map(([param, values]) => `${String(param)}=${pyRepr(firstAcceptable(values as PyValue[]))}`);
    return `${String(name)}(${args.join(', ')})`;
  });
  return `[${calls.join(', ')}]`;
}

function writeResults(resultDir: string, model: string, category: Category, lines: string[]): string {
  const dir = join(resultDir, model, getDirectoryStructureByCategory(category));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, getFileNameByCategory(category, 'result'));
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

function scoreLines(scoreDir: string, model: string, category: Category): PyDict[] {
  const file = join(scoreDir, model, getDirectoryStructureByCategory(category), getFileNameByCategory(category, 'score'));
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => parseJsonLossless(l) as PyDict);
}

function groundTruthLines(category: Category): string[] {
  return dataset.loadPossibleAnswers(category).map((answer) =>
    jsonDumps(new Map<string, PyValue>([['id', answer.id], ['result', promptingAnswer(answer.groundTruth)]])),
  );
}

describe('runEvaluation', () => {
  it('scores results made from the possible answers 100%', () => {
    const resultDir = mkdtempSync(join(tmpdir(), 'bfcl-results-'));
    const scoreDir = mkdtempSync(join(tmpdir(), 'bfcl-scores-'));
    writeResults(resultDir, 'gt-model', 'simple_python', groundTruthLines('simple_python'));
    writeResults(resultDir, 'gt-model', 'parallel', groundTruthLines('parallel'));

    const summary = runEvaluation({
      resultDir,
      scoreDir,
      dataset,
      categories: ['simple_python', 'parallel'],
      partial: false,
      resolveSettings: () => PROMPTING,
    });
    // (Multi-turn ground truth is covered by the oracle model's generate+evaluate tests.)
    for (const evaluated of summary.evaluated) {
      expect(evaluated.taxonomy.entries).toEqual([]);
      expect(evaluated.evaluation.correct).toBe(evaluated.evaluation.total);
    }
    expect(scoreLines(scoreDir, 'gt-model', 'simple_python')[0]).toEqual(
      new Map<string, PyValue>([['accuracy', 1.0], ['correct_count', 6n], ['total_count', 6n]]),
    );
  });

  it('fails malformed lines and missing entries without stopping, and reports foreign ids and missing files', () => {
    const resultDir = mkdtempSync(join(tmpdir(), 'bfcl-results-'));
    const scoreDir = mkdtempSync(join(tmpdir(), 'bfcl-scores-'));
    const lines = groundTruthLines('simple_python');
    lines[1] = '{"id": "simple_python_1", "result": "[convert_temperature(value=98.6'; // cut off mid-line
    lines.splice(2, 1); // simple_python_2 has no result at all
    lines.push(jsonDumps(new Map<string, PyValue>([['id', 'simple_python_999'], ['result', '[]']])));
    writeResults(resultDir, 'broken', 'simple_python', lines);

    const summary = runEvaluation({
      resultDir,
      scoreDir,
      dataset,
      categories: ['simple_python', 'multiple'],
      partial: false,
      resolveSettings: () => PROMPTING,
    });
    const evaluation = summary.evaluated[0]!.evaluation;
    expect(evaluation.total).toBe(6);
    expect(evaluation.correct).toBe(4);
    expect(evaluation.unknownIds).toEqual(['simple_python_999']);
    // Each failure is counted once, under the error type of its score line.
    expect(evaluation.missingIds).toEqual(['simple_python_2']);
    expect(evaluation.malformedIds).toEqual(['simple_python_1']);
    expect(summary.missingResultFiles).toEqual([{ model: 'broken', category: 'multiple' }]);

    const [header, ...failures] = scoreLines(scoreDir, 'broken', 'simple_python');
    expect(header!.get('total_count')).toBe(6n);
    expect(failures.map((f) => [f.get('id'), f.get('error_type')])).toEqual([
      ['simple_python_1', MALFORMED_RESULT_LINE],
      ['simple_python_2', MISSING_RESULT],
    ]);
    expect(String((failures[0]!.get('error') as string[])[0])).toMatch(/BFCL_v4_simple_python_result\.json:2: invalid JSON/);
  });

  it('with --partial-eval scores only the entries present', () => {
    const resultDir = mkdtempSync(join(tmpdir(), 'bfcl-results-'));
    const scoreDir = mkdtempSync(join(tmpdir(), 'bfcl-scores-'));
    writeResults(resultDir, 'partial', 'simple_python', groundTruthLines('simple_python').slice(0, 2));
    const summary = runEvaluation({
      resultDir,
      scoreDir,
      dataset,
      categories: ['simple_python'],
      partial: true,
      resolveSettings: () => PROMPTING,
    });
    expect(summary.evaluated[0]!.evaluation.total).toBe(2);
    expect(summary.evaluated[0]!.evaluation.correct).toBe(2);
  });

  it('scores format sensitivity per prompt configuration, with the spread in the header', () => {
    const resultDir = mkdtempSync(join(tmpdir(), 'bfcl-results-'));
    const scoreDir = mkdtempSync(join(tmpdir(), 'bfcl-scores-'));
    // Python-syntax answers everywhere: only the python return format without a tool-call tag accepts them.
    // Format-sensitivity answers carry the original ids; they pair with the entries by position.
    const answers = dataset.loadPossibleAnswers('format_sensitivity');
    const lines = dataset
      .loadTestEntries('format_sensitivity', { includeLanguageHint: false })
      .map((entry, i) =>
        jsonDumps(new Map<string, PyValue>([['id', entry.id], ['result', promptingAnswer(answers[i]!.groundTruth)]])),
      );
    writeResults(resultDir, 'fs-model', 'format_sensitivity', lines);
    runEvaluation({
      resultDir,
      scoreDir,
      dataset,
      categories: ['format_sensitivity'],
      partial: false,
      resolveSettings: () => PROMPTING,
    });
    const header = scoreLines(scoreDir, 'fs-model', 'format_sensitivity')[0]!;
    const configs = [...header.keys()].filter((k) => typeof k === 'string' && k.startsWith('ret_fmt='));
    expect(configs).toHaveLength(26);
    const passing = configs.filter((c) => ((header.get(c) as PyDict).get('accuracy') as number) === 1.0);
    expect(passing.sort()).toEqual(
      configs.filter((c) => String(c).startsWith('ret_fmt=python&tool_call_tag=False')).sort(),
    );
    expect(passing).toHaveLength(5);
    // Expected values printed by CPython: statistics over [1.0] * 5 + [0.0] * 21.
    expect([header.get('accuracy_max_delta'), header.get('accuracy_variance'), header.get('accuracy_std')]).toEqual([
      100.0, 1615.38, 40.19,
    ]);
  });

  it('survives randomly corrupted result files: every entry gets a verdict, untouched entries still pass', () => {
    const next = seededRandom(20261122);
    const weird = [
      'null', '-1.5e308', 'NaN', '[]', '{}', '[{"a": 1}]', '"' + '['.repeat(5000) + '"', '[' .repeat(2000) + ']'.repeat(2000),
      '"' + 'f('.repeat(3000) + '"', '"[f(a=1e999, b=0x1g)]"', '"\\ud800"', '"' + 'x'.repeat(200_000) + '"', '"[f(a=' + '{'.repeat(3000) + ')]"',
    ];
    const log = '[{"role": "user", "content": "caf\\u00e9 \\n"}, {"role": "assistant", "content": [1, 2.0, {"k": null}]}]';
    const categories: Category[] = ['simple_python', 'parallel', 'multiple'];
    const original = new Map(categories.map((c) => [c, groundTruthLines(c).map((l) => l.slice(0, -1) + `, "inference_log": ${log}}`)]));
    let untouchedChecked = 0;
    let malformedSeen = 0;
    for (let variant = 0; variant < 40; variant++) {
      const resultDir = mkdtempSync(join(tmpdir(), 'bfcl-results-'));
      const scoreDir = mkdtempSync(join(tmpdir(), 'bfcl-scores-'));
      const untouched = new Map<Category, Set<string>>();
      for (const category of categories) {
        const keep = new Set<string>();
        const lines = original.get(category)!.map((line) => {
          const id = /"id": "([^"]+)"/.exec(line)![1]!;
          const i = next(line.length);
          switch (next(8)) {
            case 0:
              return line.slice(0, i);
            case 1:
              return line.slice(0, i) + '"{}[],:\\ a'[next(11)] + line.slice(i + 1);
            case 2:
              return line.replace(/"result": "[^"]*"/, `"result": ${weird[next(weird.length)]}`);
            case 3:
              return line.replace(`"inference_log": ${log}`, `"inference_log": ${weird[next(weird.length)]}`);
            case 4:
              return line + line;
            default:
              keep.add(id);
              return line;
          }
        });
        untouched.set(category, keep);
        writeResults(resultDir, 'fuzzed', category, lines);
      }
      const summary = runEvaluation({ resultDir, scoreDir, dataset, categories, partial: false, resolveSettings: () => PROMPTING });
      for (const { category, evaluation } of summary.evaluated) {
        const size = dataset.loadPossibleAnswers(category).length;
        expect(evaluation.total, `variant ${variant} ${category}`).toBe(size);
        const [header, ...failures] = scoreLines(scoreDir, 'fuzzed', category);
        expect(header!.get('correct_count')).toBe(BigInt(size - failures.length));
        // A corrupted line fails its own entry only (unless it now names another entry's id).
        const failed = new Set(failures.map((f) => f.get('id') as string));
        malformedSeen += failures.filter((f) => f.get('error_type') === MALFORMED_RESULT_LINE).length;
        const allText = readFileSync(join(resultDir, 'fuzzed', getDirectoryStructureByCategory(category), getFileNameByCategory(category, 'result')), 'utf8');
        for (const id of untouched.get(category)!) {
          if (allText.split(`"id": "${id}"`).length !== 2) continue;
          expect(failed.has(id), `variant ${variant} ${id}`).toBe(false);
          untouchedChecked++;
        }
      }
    }
    expect(untouchedChecked).toBeGreaterThan(100);
    expect(malformedSeen).toBeGreaterThan(20);
  });
});

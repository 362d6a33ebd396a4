/**
 * Re-runs the AST checker on every failed entry that the reference recorded in the conformance
 * score files, and expects the same verdict, error type and error list.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { checkAst, type CheckerLanguage } from '../../../src/evaluate/ast/ast-checker.js';
import { languageOf as astLanguageOf } from '../../../src/evaluate/runners/ast-runner.js';
import { SINGLE_TURN_CATEGORY, isRelevanceOrIrrelevance } from '../../../src/spec/categories.js';
import { jsonDumps, parseJsonLossless } from '../../../src/py/json.js';
import type { PyDict, PyValue } from '../../../src/py/value.js';

const CONFORMANCE_DIR = '/work/shared/conformance';
/** The categories the AST checker scores. */
const AST_CATEGORIES = SINGLE_TURN_CATEGORY.filter((category) => !isRelevanceOrIrrelevance(category));
/** Lines that are the decoder's and the runner's business, not the checker's. */
const SKIPPED_ERROR_TYPES = new Set(['ast_decoder:decoder_failed', 'ast_decoder:decoder_wrong_output_format']);
/** The registry's underscore_to_dot flag of each model directory. */
const UNDERSCORE_TO_DOT: Record<string, boolean> = {
  'openai_gpt-oss-20b': true,
  'synthetic-fc-a': false,
  'synthetic-prompt-a': false,
};

const languageOf = (category: string): CheckerLanguage => astLanguageOf(category).language;

interface ScoreFile {
  model: string;
  category: string;
  path: string;
}

function scoreFiles(): ScoreFile[] {
  const files: ScoreFile[] = [];
  for (const run of ['synthetic', 'real-run']) {
    const scoreDir = join(CONFORMANCE_DIR, run, 'score');
    if (!existsSync(scoreDir)) continue;
    for (const model of readdirSync(scoreDir)) {
      for (const group of ['non_live', 'live']) {
        for (const category of AST_CATEGORIES) {
          const path = join(scoreDir, model, group, `BFCL_v4_${category}_score.json`);
          if (existsSync(path)) files.push({ model, category, path });
        }
      }
    }
  }
  return files;
}

const enabled = Boolean(process.env.BFCL_DATA_DIR) && existsSync(CONFORMANCE_DIR);

describe.skipIf(!enabled)('AST checker against the reference score files', () => {
  const files = enabled ? scoreFiles() : [];

  it('finds the score files', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  for (const file of files) {
    it(`${file.model} ${file.category}`, () => {
      const lines = readFileSync(file.path, 'utf8').split('\n').filter(Boolean).slice(1);
      const mismatches: string[] = [];
      let checked = 0;
      for (const line of lines) {
        const entry = parseJsonLossless(line) as PyDict;
        const errorType = entry.get('error_type') as string;
        if (SKIPPED_ERROR_TYPES.has(errorType)) continue;
        checked++;
        const prompt = entry.get('prompt') as PyDict;
        const result = checkAst(
          prompt.get('function') as PyValue[],
          entry.get('model_result_decoded')!,
          entry.get('possible_answer')!,
          languageOf(file.category),
          entry.get('test_category') as string,
          UNDERSCORE_TO_DOT[file.model] ?? false,
        );
        const got = jsonDumps([result.valid, result.errorType, result.error], { ensureAscii: false });
        const want = jsonDumps([entry.get('valid')!, errorType, entry.get('error')!], { ensureAscii: false });
        if (got !== want) mismatches.push(`${String(entry.get('id'))}\n  got  ${got}\n  want ${want}`);
      }
      expect(mismatches, `${mismatches.length}/${checked} lines differ`).toEqual([]);
    });
  }
});

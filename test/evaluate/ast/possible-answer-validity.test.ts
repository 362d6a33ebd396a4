/**
 * The checker must accept a correct answer for every official entry. Correct answers are built from
 * the possible answers (see correct-answer.ts): the first acceptable value of every parameter, once
 * with and once without the parameters marked optional. Java/JavaScript answers are written as
 * source text so that the type converters are exercised too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { checkAst, type CheckerLanguage } from '../../../src/evaluate/ast/ast-checker.js';
import { parseJsonLossless } from '../../../src/py/json.js';
import type { PyDict, PyValue } from '../../../src/py/value.js';
import { correctAnswer } from './correct-answer.js';

const DATA_DIR = process.env.BFCL_DATA_DIR ?? '';
const AST_CATEGORIES = [
  'simple_python',
  'simple_java',
  'simple_javascript',
  'multiple',
  'parallel',
  'parallel_multiple',
  'live_simple',
  'live_multiple',
  'live_parallel',
  'live_parallel_multiple',
];

/**
 * Entries that no answer can pass, because of their data or the reference checker itself; the
 * Python reference gives the same verdicts for these answers. Value: the error_type (both variants).
 */
const UNREACHABLE: Record<string, string> = {
  // ArrayList of `any`: elements stay strings, but the possible answer holds ints and bools.
  simple_java_36: 'value_error:list/tuple',
  simple_java_65: 'value_error:list/tuple',
  // The possible dict's value is a string, not a list of values, so it is compared per character.
  simple_java_64: 'value_error:dict_value',
  // The doc requires parameters that the possible answer does not allow.
  'live_simple_106-63-0': 'simple_function_checker:missing_required',
  'live_simple_112-68-0': 'simple_function_checker:missing_required',
  'live_multiple_507-149-4': 'simple_function_checker:missing_required',
  'live_multiple_964-207-0': 'simple_function_checker:missing_required',
  // The possible answer requires a parameter that the doc does not have.
  'live_multiple_862-181-3': 'simple_function_checker:missing_optional',
};

function languageOf(category: string): CheckerLanguage {
  if (category.includes('javascript')) return 'javascript';
  return category.includes('java') ? 'java' : 'python';
}

function readLines(path: string): PyDict[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => parseJsonLossless(line) as PyDict);
}

describe.skipIf(!DATA_DIR || !existsSync(DATA_DIR))('correct answers built from the possible answers', () => {
  for (const category of AST_CATEGORIES) {
    it(category, () => {
      const entries = readLines(join(DATA_DIR, `BFCL_v4_${category}.json`));
      const answers = readLines(join(DATA_DIR, 'possible_answer', `BFCL_v4_${category}.json`));
      expect(answers.length).toBe(entries.length);
      const language = languageOf(category);
      const failures: Record<string, string> = {};
      let checked = 0;
      entries.forEach((entry, i) => {
        const id = entry.get('id') as string;
        expect(answers[i]!.get('id')).toBe(id);
        const docs = entry.get('function') as PyValue[];
        const groundTruth = answers[i]!.get('ground_truth') as PyValue[];
        for (const omitOptional of [false, true]) {
          const decoded = correctAnswer(docs, groundTruth, language, { omitOptional });
          const result = checkAst(docs, decoded, groundTruth, language, category, false);
          checked++;
          if (!result.valid) failures[id] = result.errorType;
          // The same answer from a model that writes `.` as `_` (underscore_to_dot).
          const underscored = decoded.map(
            (call) => new Map([...(call as PyDict)].map(([name, args]) => [String(name).replace(/\./g, '_'), args])),
          );
          const resultUnderscored = checkAst(docs, underscored, groundTruth, language, category, true);
          expect(resultUnderscored.valid).toBe(result.valid);
        }
      });
      const expected = Object.fromEntries(Object.entries(UNREACHABLE).filter(([id]) => id.startsWith(`${category}_`)));
      expect(checked).toBe(2 * entries.length);
      expect(failures).toEqual(expected);
    });
  }
});

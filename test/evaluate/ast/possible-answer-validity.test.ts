/**
 * The checker must accept a correct answer for every official entry. Correct answers are built from
 * the possible answers by the oracle's answer builder: the first acceptable value of every
 * parameter, once with and once without the parameters marked optional. Java/JavaScript answers are
 * written as source text so that the type converters are exercised too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { checkAst, type CheckerLanguage } from '../../../src/evaluate/ast/ast-checker.js';
import { languageOf as astLanguageOf } from '../../../src/evaluate/runners/ast-runner.js';
import { SINGLE_TURN_CATEGORY, isRelevanceOrIrrelevance } from '../../../src/spec/categories.js';
import { parseJsonLossless } from '../../../src/py/json.js';
import type { PyDict, PyValue } from '../../../src/py/value.js';
import { answerCalls } from '../../../src/models/oracle-answers.js';
import { UNPASSABLE_OFFICIAL_ENTRIES } from '../../../src/conformance/unpassable-entries.js';

const DATA_DIR = process.env.BFCL_DATA_DIR ?? '';
/** The categories the AST checker scores. */
const AST_CATEGORIES = SINGLE_TURN_CATEGORY.filter((category) => !isRelevanceOrIrrelevance(category));

const languageOf = (category: string): CheckerLanguage => astLanguageOf(category).language;

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
        for (const includeOptional of [true, false]) {
          const decoded = answerCalls(docs, groundTruth, language, { includeOptional }).map(
            (call): PyDict => new Map([[call.name, call.args]]),
          );
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
      const expected = Object.fromEntries(Object.entries(UNPASSABLE_OFFICIAL_ENTRIES).filter(([id]) => id.startsWith(`${category}_`)));
      expect(checked).toBe(2 * entries.length);
      expect(failures).toEqual(expected);
    });
  }
});

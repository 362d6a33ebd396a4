import { describe, expect, it } from 'vitest';

import { LineTexts, lineTextsOf } from '../../src/data/line-texts.js';
import { jsonDumps, parseJsonLossless } from '../../src/py/json.js';
import { KnownJsonText } from '../../src/py/known-json-text.js';
import type { PyDict, PyValue } from '../../src/py/value.js';

const LINES = [
  '{"id": "simple_python_0", "question": [[{"role": "user", "content": "caf\\u00e9 \\u4e2d\\u6587 \\ud83d\\ude00"}]], "function": [{"name": "f", "parameters": {"x": 1.5}}]}',
  '{"id": "simple_python_1", "question": [[{"role": "user", "content": "lone \\udc00 surrogate"}]], "function": []}',
  '{"id": "simple_python_2", "ground_truth": [{"f": {"x": [1, 2.0, "\\u00e9"]}}], "extra": {}}',
];

function load(): { dicts: PyDict[]; texts: LineTexts } {
  const dicts = LINES.map((line) => parseJsonLossless(line) as PyDict);
  const stored = lineTextsOf(dicts);
  expect(LineTexts.fits(dicts, stored)).toBe(true);
  return { dicts, texts: new LineTexts(dicts, stored) };
}

/** What a score file writes for a value. */
const scoreText = (value: PyValue): string => jsonDumps(value, { ensureAscii: false, strFallback: true });

describe('LineTexts', () => {
  it("gives a member's json.dumps text only for the very object the line holds", () => {
    const { dicts, texts } = load();
    const question = dicts[0]!.get('question')!;
    expect(texts.memberText(0, 'question', question)).toBe(jsonDumps(question, { ensureAscii: false }));
    expect(texts.memberText(0, 'question', [...(question as PyValue[])])).toBeUndefined(); // an equal copy
    expect(texts.memberText(1, 'question', question)).toBeUndefined(); // another line
    expect(texts.memberText(0, 'id', 'simple_python_0')).toBeUndefined(); // strings are cheap to write
    // A text UTF-8 cannot carry (a lone surrogate) is not kept.
    expect(texts.memberText(1, 'question', dicts[1]!.get('question')!)).toBeUndefined();
  });

  it('writes a copied, trimmed or changed entry dict exactly as json.dumps does, with the kept texts where they apply', () => {
    const { dicts, texts } = load();
    const copy: PyDict = new Map(dicts[0]!);
    const withoutDocs: PyDict = new Map(copy);
    withoutDocs.delete('function');
    const changed: PyDict = new Map(copy);
    changed.set('question', [[new Map([['role', 'user'], ['content', 'changed']])]]);
    changed.set('added', [1n, 'two']);
    for (const dict of [copy, withoutDocs, changed]) {
      const known = texts.withKnownText(0, dict);
      expect(known).toBeInstanceOf(KnownJsonText);
      expect(scoreText(known)).toBe(scoreText(dict));
      // Everything but the score file's json.dumps sees the dict itself.
      expect(jsonDumps(known)).toBe(jsonDumps(dict));
    }
    // Nothing known: the dict as it is.
    const unrelated: PyDict = new Map<string, PyValue>([['id', 'x'], ['question', []]]);
    expect(texts.withKnownText(0, unrelated)).toBe(unrelated);
    // A line with only an unkept text gives the plain dict.
    const lone: PyDict = new Map(dicts[1]!);
    lone.delete('function');
    expect(texts.withKnownText(1, lone)).toBe(lone);
  });

  it("gives a line's member value (a ground truth) its text", () => {
    const { dicts, texts } = load();
    const groundTruth = dicts[2]!.get('ground_truth')!;
    const known = texts.withKnownText(2, groundTruth);
    expect(known).toBeInstanceOf(KnownJsonText);
    expect(scoreText(known)).toBe('[{"f": {"x": [1, 2.0, "é"]}}]');
    expect(texts.withKnownText(2, [...(groundTruth as PyValue[])])).not.toBeInstanceOf(KnownJsonText);
    expect(texts.withKnownText(7, groundTruth)).toBe(groundTruth);
  });

  it('refuses stored texts that do not fit the lines', () => {
    const { dicts } = load();
    const stored = lineTextsOf(dicts);
    expect(LineTexts.fits(dicts.slice(1), stored)).toBe(false);
    expect(LineTexts.fits(dicts, [stored[0].subarray(1), stored[1]])).toBe(false);
    expect(LineTexts.fits(dicts, ['text' as unknown as Buffer, stored[1]])).toBe(false);
  });
});

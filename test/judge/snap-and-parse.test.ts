import { describe, expect, it } from 'vitest';

import { loadsNonStrict, parseLabelFromChainOfThought, readFunctionCallArguments } from '../../src/judge/parse-label.js';
import { NOT_PARSABLE, TOOL_CALLING_RAILS, snapToRail } from '../../src/judge/snap-to-rail.js';

const snap = (raw: string | null): string => snapToRail(raw, TOOL_CALLING_RAILS);

// Every case of spec §3.4 (snap_to_rail), expected values as Phoenix 2.13.0 gives them.
describe('snapToRail (spec §3.4)', () => {
  it.each([
    ['Correct.', 'correct'],
    ['INCORRECT', 'incorrect'],
    ['incorrectly', 'incorrect'],
    ['correctness', 'correct'],
    ['not correct', 'correct'],
    ['"correct"', 'correct'],
    ['`correct`', 'correct'],
    ['correct or incorrect', NOT_PARSABLE],
    ['Correct\nIncorrect', NOT_PARSABLE],
    ['The answer is correct, not incorrect', NOT_PARSABLE],
    [' ', NOT_PARSABLE],
    ['', NOT_PARSABLE],
    ['LABEL: "incorrect"', 'incorrect'],
    ['no verdict at all', NOT_PARSABLE],
    // One pass of str.replace: "incor" + "incorrect" + "rect" loses the inner "incorrect" and leaves "incorrect"... which is not searched again for "incorrect", but "correct" is then found.
    ['incorincorrectrect', NOT_PARSABLE],
    ['Это correct', 'correct'],
    ['正确 (correct)', 'correct'],
  ])('%j → %s', (raw, expected) => {
    expect(snap(raw)).toBe(expected);
  });

  it('gives NOT_PARSABLE for null', () => {
    expect(snap(null)).toBe(NOT_PARSABLE);
  });

  it('lower-cases the rail it returns and de-duplicates rails', () => {
    expect(snapToRail('yes', ['YES', 'No', 'yes'])).toBe('yes');
    expect(snapToRail('a big thing', ['big', 'a big'])).toBe('a big');
  });

  it('snaps a huge reply by the same rule', () => {
    expect(snap('x'.repeat(1_000_000) + ' correct')).toBe('correct');
  });
});

// Every example of spec §3.5, then snapped.
describe('parseLabelFromChainOfThought (spec §3.5)', () => {
  it.each([
    ['The tool call matches.\nLABEL: correct', 'correct', 'correct'],
    ['The call is wrong.\nLABEL: "incorrect"', '"incorrect"', 'incorrect'],
    ['LABEL:\ncorrect', 'correct', 'correct'],
    ['LABEL: correct\nEXPLANATION: because', 'correct', 'correct'],
    ['Label: - incorrect.', 'incorrect.', 'incorrect'],
    ['labels: correct', 'labels: correct', 'correct'],
    ['The label_x is incorrect\nLABEL: correct', 'correct', 'correct'],
    ['I would label this correct because...\nLABEL: incorrect', 'this correct because...', 'correct'],
    ['no delimiter here, it is incorrect', 'no delimiter here, it is incorrect', 'incorrect'],
    ['label', '', NOT_PARSABLE],
    ['LABEL:   \n  ', '', NOT_PARSABLE],
    ['EXPLANATION: fine\nLABEL: correct EXPLANATION: again', 'correct', 'correct'],
    // Python's IGNORECASE matches i with İ and ı: the label stops there too.
    ['LABEL: correct EXPLANATİON: x incorrect', 'correct', 'correct'],
    ['LABEL: incorrect explanatıon: correct', 'incorrect', 'incorrect'],
    // Python's \b: a letter of any script joins the word, a combining mark does not.
    ['ÉLABEL: incorrect\nlabel: correct', 'correct', 'correct'],
    ['\u0301label: incorrect', 'incorrect', 'incorrect'],
    ['label\t:.- correct', 'correct', 'correct'],
  ])('%j → %j → %s', (raw, parsed, snapped) => {
    expect(parseLabelFromChainOfThought(raw)).toBe(parsed);
    expect(snap(parseLabelFromChainOfThought(raw))).toBe(snapped);
  });
});

describe('function-calling replies (spec §3.2)', () => {
  it.each([
    ['{"explanation": "ok", "response": "correct"}', { ok: true, label: 'correct', explanation: 'ok' }],
    ['{"response": "incorrect"}', { ok: true, label: 'incorrect', explanation: null }],
    ['{"explanation": "no response"}', { ok: true, label: '', explanation: 'no response' }],
    ['{"response": null}', { ok: true, label: null, explanation: null }],
    ['{"response": 0}', { ok: true, label: null, explanation: null }],
    ['{"response": []}', { ok: true, label: null, explanation: null }],
    ['{"response": "correct", "explanation": 3}', { ok: true, label: 'correct', explanation: '3' }],
    ['correct', { ok: true, label: 'correct', explanation: null }],
    ['{"response": "correct"', { ok: true, label: '{"response": "correct"', explanation: null }],
    ['{"response": "line\nbreak correct"}', { ok: true, label: 'line\nbreak correct', explanation: null }],
  ])('%j', (text, expected) => {
    expect(readFunctionCallArguments(text)).toEqual(expected);
  });

  it.each([['["correct"]'], ['"correct"'], ['null'], ['{"response": 1}'], ['{"response": ["correct"]}']])('%j is an error Phoenix retries', (text) => {
    expect(readFunctionCallArguments(text).ok).toBe(false);
  });

  it('reads JSON as json.loads(strict=False) does: raw control characters inside strings, NaN', () => {
    expect(loadsNonStrict('{"a": "x\ty\u0001"}')).toEqual(new Map([['a', 'x\ty\u0001']]));
    expect(loadsNonStrict('[NaN]')).toEqual([NaN]);
    expect(() => loadsNonStrict('{"a": "x\\\ny"}')).toThrow();
    expect(() => loadsNonStrict('{"a": 1}\n{}')).toThrow();
  });
});

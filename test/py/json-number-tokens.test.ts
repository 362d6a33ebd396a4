/**
 * The hand-written number scanners of the JSON reader against their definitions: `numberTokenEnd`
 * against json.loads's NUMBER_RE, `canonicalFloatEnd` against `json.dumps(json.loads(token))`.
 */
import { describe, expect, it } from 'vitest';

import { canonicalFloatEnd, floatText, numberTokenEnd } from '../../src/py/json.js';

const NUMBER_RE = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;

function regexEnd(text: string, start: number): number {
  NUMBER_RE.lastIndex = start;
  const m = NUMBER_RE.exec(text);
  return m === null ? -1 : start + m[0].length;
}

/** A deterministic stream of pseudo-random integers (xorshift), so failures reproduce. */
function* randomInts(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    yield x >>> 0;
  }
}

/** Number-like texts: digits, signs, points, exponents and stray characters in every arrangement. */
function numberLikeTexts(count: number): string[] {
  const pieces = ['0', '1', '9', '00', '05', '12', '000', '123456789', '1234567890123456', '-', '+', '.', 'e', 'E', 'e-', 'E+', 'x', ',', ' ', ']', 'I', 'N'];
  const random = randomInts(20261122);
  const texts: string[] = [];
  for (let n = 0; n < count; n++) {
    const length = 1 + (random.next().value! % 7);
    let text = '';
    for (let k = 0; k < length; k++) text += pieces[random.next().value! % pieces.length];
    texts.push(text);
  }
  return texts;
}

/** Float tokens of every shape json.dumps can meet: digit counts, zeros, magnitudes, signs. */
function floatTokens(count: number): string[] {
  const random = randomInts(7);
  const digits = (n: number): string => Array.from({ length: n }, () => String(random.next().value! % 10)).join('');
  const tokens = ['0.0', '-0.0', '5.0', '10.0', '5.00', '5.10', '0.0001', '0.00001', '0.00010', '1.5e3', '1e5', '0.1', '-0.1', '123456789012345.0', '1234567890123456.0', '12345678901234567.0', '9007199254740993.0', '0.123456789012345', '0.1234567890123456', '1.0709099769592285', '999999999999999.9'];
  for (let n = 0; n < count; n++) {
    const intPart = random.next().value! % 4 === 0 ? '0' : String(1 + (random.next().value! % 9)) + digits(random.next().value! % 17);
    const zeros = '0'.repeat(random.next().value! % 6);
    const frac = zeros + digits(1 + (random.next().value! % 18));
    const sign = random.next().value! % 3 === 0 ? '-' : '';
    tokens.push(`${sign}${intPart}.${frac}`);
  }
  return tokens;
}

describe('numberTokenEnd', () => {
  it("ends every token where json.loads's NUMBER_RE does", () => {
    for (const text of numberLikeTexts(8000)) {
      for (let start = 0; start < text.length; start++) expect(numberTokenEnd(text, start), `${text} @${start}`).toBe(regexEnd(text, start));
    }
  });
});

describe('canonicalFloatEnd', () => {
  it('claims a token only when json.dumps writes its value as written, and then ends it where the number ends', () => {
    let claimed = 0;
    for (const token of floatTokens(20000)) {
      for (const text of [token, `${token},`, `${token}e5`, `${token}]`]) {
        const end = canonicalFloatEnd(text, 0);
        if (end === -1) continue;
        claimed++;
        expect(end, text).toBe(token.length);
        expect(text.slice(end, end + 1), text).not.toMatch(/[eE0-9]/);
        expect(floatText(Number(token)), text).toBe(token);
      }
    }
    // The fast path must cover the usual tokens, not only be safe.
    expect(claimed).toBeGreaterThan(8000);
  });

  it('claims the usual canonical floats and none of the rewritten ones', () => {
    for (const token of ['0.0', '-0.0', '5.0', '32.0', '12.6', '3.12', '0.5', '0.0001', '-123.456', '123456789012345.0']) {
      expect(canonicalFloatEnd(token, 0), token).toBe(token.length);
    }
    for (const token of ['5.00', '5.10', '0.00001', '1e5', '1.5e3', '05.5', '1.', '.5', '1234567890123456.0', '1.0709099769592285']) {
      expect(canonicalFloatEnd(token, 0), token).toBe(-1);
    }
  });
});

import { describe, expect, it } from 'vitest';

import { utf8Concat } from '../../src/util/utf8-concat.js';

describe('utf8Concat', () => {
  const texts = ['{"a": 1}', '', 'caf\u00e9', 'auto\u2011generated', '\ud83d\ude00 \ud800', 'x'.repeat(3000)];

  it('gives the bytes of the joined texts and where each one ends', () => {
    const { bytes, ends } = utf8Concat(texts);
    expect(bytes.equals(Buffer.from(texts.join(''), 'utf8'))).toBe(true);
    let end = 0;
    expect(ends).toEqual(texts.map((text) => (end += Buffer.from(text, 'utf8').length)));
  });

  it('puts the terminator after each text, its byte counted in the ends', () => {
    const { bytes, ends } = utf8Concat(texts, 0x0a);
    expect(bytes.equals(Buffer.from(texts.map((text) => text + '\n').join(''), 'utf8'))).toBe(true);
    expect(ends[ends.length - 1]).toBe(bytes.length);
    expect(ends[0]).toBe(9);
  });
});

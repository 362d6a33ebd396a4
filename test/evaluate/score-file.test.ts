import { describe, expect, it } from 'vitest';

import { utf8Lines } from '../../src/evaluate/score-file.js';

describe('utf8Lines', () => {
  it('gives the UTF-8 bytes of the lines, each ended by a newline, whatever characters each line has', () => {
    const lines = [
      '{"id": "a", "valid": false}',
      '',
      'caf\u00e9 \u00ff', // Latin-1, past ASCII: a one-byte string that is not ASCII
      'auto\u2011generated', // U+2011: its low byte alone would be an ASCII control character
      'emoji \ud83d\ude00 and a lone \ud800 surrogate',
      'x'.repeat(5000),
      '\x00\x7f',
    ];
    expect(utf8Lines(lines).equals(Buffer.from(lines.map((line) => line + '\n').join(''), 'utf8'))).toBe(true);
    expect(utf8Lines([]).length).toBe(0);
  });
});

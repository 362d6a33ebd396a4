import { describe, expect, it } from 'vitest';

import { utf8Lines } from '../../src/evaluate/score-file.js';

describe('utf8Lines', () => {
  it('gives the UTF-8 bytes of the joined lines, whatever characters each line has', () => {
    const lines = [
      '{"id": "a", "valid": false}\n',
      '',
      'caf\u00e9 \u00ff\n', // Latin-1, past ASCII: a one-byte string that is not ASCII
      'auto\u2011generated\n', // U+2011: its low byte alone would be an ASCII control character
      'emoji \ud83d\ude00 and a lone \ud800 surrogate\n',
      'x'.repeat(5000) + '\n',
      '\x00\x7f\n',
    ];
    expect(utf8Lines(lines).equals(Buffer.from(lines.join(''), 'utf8'))).toBe(true);
    expect(utf8Lines([]).length).toBe(0);
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { countLines } from '../../src/data/dataset-size.js';

/** What countLines stands for: the non-blank lines of the decoded text. */
const byText = (text: string): number => text.split('\n').filter((line) => line.trim() !== '').length;

describe('countLines', () => {
  it('counts the non-blank lines as the decoded text would, whitespace of any kind included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bfcl-count-lines-'));
    const texts = [
      '',
      '\n',
      '{"id": 1}',
      '{"id": 1}\n{"id": 2}\n',
      '{"id": 1}\r\n\r\n  \t\n{"id": 2}',
      '\u00a0\u3000\n\ufeff\n{"é": "ü"}\n  \u00a0x\n\u2028',
      '\n\n{"id": 3}\n\n',
    ];
    texts.forEach((text, i) => {
      const file = join(dir, `f${i}.json`);
      writeFileSync(file, text);
      expect(countLines(file), JSON.stringify(text)).toBe(byText(text));
    });
    expect(countLines(join(dir, 'missing.json'))).toBe(0);
  });
});

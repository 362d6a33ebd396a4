import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFirstLine } from '../../src/util/first-line.js';

function fileWith(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'bfcl-first-line-')), 'f.json');
  writeFileSync(file, text);
  return file;
}

describe('readFirstLine', () => {
  it('reads up to the first \\n or \\r, as text.split(/\\r\\n|\\r|\\n/)[0] would', () => {
    for (const text of ['{"a": 1}\n{"b": 2}\n', '{"a": 1}\r\n{"b": 2}', '{"a": 1}\rrest', 'no break', '', '\nsecond']) {
      expect(readFirstLine(fileWith(text))).toBe(text.split(/\r\n|\r|\n/)[0]);
    }
  });

  it('reads first lines longer than one chunk, with multi-byte characters across chunk borders', () => {
    const first = 'é'.repeat(70_000) + '😀'.repeat(20_000);
    expect(readFirstLine(fileWith(`${first}\n${'x'.repeat(100)}`))).toBe(first);
    expect(readFirstLine(fileWith(first))).toBe(first);
  });
});

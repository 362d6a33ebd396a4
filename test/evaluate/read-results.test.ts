import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { eachLine, formatResultFileWarning, readResultFile } from '../../src/evaluate/read-results.js';

describe('eachLine', () => {
  it('gives the lines the decoded text splits into, invalid and multi-byte sequences included', () => {
    const samples = [
      '',
      '\n',
      'a\nb',
      'a\nb\n',
      '\n\nx\n',
      'ascii\n€ and 𝄞\nmore ascii\r\nend',
    ].map((text) => Buffer.from(text, 'utf8'));
    // Truncated and stray UTF-8 bytes, next to line breaks.
    samples.push(Buffer.from([0x61, 0xe2, 0x82, 0x0a, 0x80, 0x62, 0x0a, 0xf0, 0x9d]), Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0a]));
    for (const bytes of samples) {
      const lines: [string, number][] = [];
      eachLine(bytes, (text, index) => {
        lines.push([text, index]);
      });
      expect(lines).toEqual(bytes.toString('utf8').split('\n').map((text, index) => [text, index]));
    }
  });
});

describe('readResultFile', () => {
  it('reads entries and reports malformed lines by their line numbers, around non-ASCII lines', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bfcl-read-results-')), 'r.json');
    const lines = [
      '{"id": "simple_python_0", "result": "caf\u00e9 \u2014 ok"}',
      '',
      '{"id": "simple_python_1", "result": [1.0, 2]}',
      '{"id": "simple_python_2", "result": oops}',
      '["not an object"]',
      '{"id": "simple_python_3", "result": "\ud834\udd1e"}',
    ];
    writeFileSync(file, lines.join('\n') + '\n');
    const { entries, malformed } = readResultFile(file);
    expect(entries.map((e) => [e.id, e.result])).toEqual([
      ['simple_python_0', 'café — ok'],
      ['simple_python_1', [1.0, 2n]],
      ['simple_python_3', '𝄞'],
    ]);
    expect(malformed.map((m) => [m.line, m.id])).toEqual([
      [4, 'simple_python_2'],
      [5, undefined],
    ]);
  });

  it('stops after maxEntries usable entries (a settings sample), malformed lines before them still reported', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bfcl-read-results-')), 'r.json');
    const lines = ['{"id": "a", "result": 1}', 'oops', '', '{"id": "b", "result": 2}', '{"id": "c", "result": 3}', 'also bad'];
    writeFileSync(file, lines.join('\n') + '\n');
    const sample = readResultFile(file, { maxEntries: 2 });
    expect(sample.entries.map((e) => e.id)).toEqual(['a', 'b']);
    expect(sample.malformed.map((m) => m.line)).toEqual([2]);
    expect(readResultFile(file).entries.map((e) => e.id)).toEqual(['a', 'b', 'c']);
  });

  it('reports a malformed line whose text has a huge unterminated id (no regex stack overflow), with no id', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bfcl-read-results-')), 'r.json');
    const lines = ['{"id": "simple_python_0", "result": "ok"}', `{"id": "${'x'.repeat(20_000_000)}`, '{"id": "simple_python_1", "result": [tru'];
    writeFileSync(file, lines.join('\n') + '\n');
    const { entries, malformed } = readResultFile(file);
    expect(entries.map((e) => e.id)).toEqual(['simple_python_0']);
    expect(malformed.map((m) => [m.line, m.id])).toEqual([
      [2, undefined],
      [3, 'simple_python_1'],
    ]);
  });

  it('uses one line per id: the first that is not an inference error, else the first; every duplicated id is reported with its lines', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bfcl-read-results-')), 'r.json');
    const lines = [
      '{"id": "a", "result": "Error during inference: timeout", "traceback": "..."}',
      '{"id": "b", "result": "first b"}',
      '{"id": "a", "result": "a answered"}',
      '{"id": "b", "result": "second b"}',
      '{"id": "c", "result": "Error during inference: 500"}',
      '{"id": "a", "result": "a again"}',
      '{"id": "c", "result": "Error during inference: 502"}',
      '{"id": 7, "result": "numeric id"}',
    ];
    writeFileSync(file, lines.join('\n') + '\n');
    const content = readResultFile(file);
    expect(content.entries.map((e) => [e.id, e.result])).toEqual([
      ['b', 'first b'],
      ['a', 'a answered'],
      ['c', 'Error during inference: 500'],
    ]);
    expect(content.duplicates).toEqual([
      { id: 'a', lines: [1, 3, 6], usedLine: 3 },
      { id: 'b', lines: [2, 4], usedLine: 2 },
      { id: 'c', lines: [5, 7], usedLine: 5 },
    ]);
    expect(content.malformed).toEqual([{ file, line: 8, id: undefined, problem: 'its "id" is not a string (7)' }]);
    expect(formatResultFileWarning(content)).toBe(
      [
        `Warning: ${file}: 1 unreadable line, 3 ids on more than one line`,
        '  line 8: its "id" is not a string (7)',
        '  a: lines 1, 3, 6; line 3 is used',
        '  b: lines 2, 4; line 2 is used',
        '  c: lines 5, 7; line 5 is used',
        '  Of an id on several lines the first line that is not an inference error is used (the one the next `bfcl generate` keeps).',
        '',
      ].join('\n'),
    );
  });

  it('has nothing to warn about in a clean file, and lists at most 10 lines of each kind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bfcl-read-results-'));
    const clean = join(dir, 'clean.json');
    writeFileSync(clean, '{"id": "a", "result": 1}\n{"id": "b", "result": 2}\n');
    expect(formatResultFileWarning(readResultFile(clean))).toBeUndefined();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, Array.from({ length: 12 }, (_, i) => `{"id": "x_${i}", "result": [tru`).join('\n'));
    const warning = formatResultFileWarning(readResultFile(bad))!;
    expect(warning.split('\n')[0]).toBe(`Warning: ${bad}: 12 unreadable lines`);
    expect(warning).toContain('  line 10: invalid JSON: ');
    expect(warning).not.toContain('  line 11:');
    expect(warning).toContain('  ... and 2 more unreadable lines\n');
  });
});

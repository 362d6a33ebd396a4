import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, test } from 'vitest';

import { formatPercent, pyNumberStr, renderScoreCsv, writeCsvFiles } from '../../src/report/csv-writer.js';

describe('cell formatting', () => {
  test('percentages are "{:.2f}%".format(v * 100), rounding the exact binary value half to even', () => {
    expect(formatPercent(0.5125)).toBe('51.25%');
    expect(formatPercent(0.810077519379845)).toBe('81.01%');
    expect(formatPercent(0.0)).toBe('0.00%');
    expect(formatPercent(1n)).toBe('100.00%');
    expect(formatPercent(0n)).toBe('0.00%');
    // 0.38125 * 100 = 38.125 exactly → ties to even → 38.12
    expect(formatPercent(0.38125)).toBe('38.12%');
  });

  test('raw columns are Python str()', () => {
    expect(pyNumberStr(22.4)).toBe('22.4');
    expect(pyNumberStr(2.0)).toBe('2.0');
    expect(pyNumberStr(3n)).toBe('3');
    expect(pyNumberStr(1e-5)).toBe('1e-05');
  });
});

describe('renderScoreCsv', () => {
  const header = ['Rank', 'Model', 'Score', 'Cost'];

  test('sorted descending, N/A last, stable ties, rank column, no quoting, no trailing newline', () => {
    const csv = renderScoreCsv({
      header,
      rows: [
        ['N/A', 'a, with comma', 0.5, 1.5],
        ['N/A', 'b', 'N/A', 'N/A'],
        ['N/A', 'c', 0.75, 2n],
        ['N/A', 'd', 0.5, 0.25],
        ['N/A', 'e', 0.0, 'N/A'],
      ],
      sortColumn: 2,
      rawColumns: [3],
    });
    expect(csv).toBe(
      [
        'Rank,Model,Score,Cost',
        '1,c,75.00%,2',
        '2,a, with comma,50.00%,1.5',
        '3,d,50.00%,0.25',
        '4,e,0.00%,N/A',
        '5,b,N/A,N/A',
      ].join('\n'),
    );
  });

  test('a table without rows is the header alone', () => {
    expect(renderScoreCsv({ header, rows: [], sortColumn: 2 })).toBe('Rank,Model,Score,Cost');
  });

  test('all-N/A rows keep their input order', () => {
    const rows = [
      ['N/A', 'z', 'N/A'],
      ['N/A', 'a', 'N/A'],
    ];
    expect(renderScoreCsv({ header: ['Rank', 'Model', 'S'], rows, sortColumn: 2 })).toBe('Rank,Model,S\n1,z,N/A\n2,a,N/A');
  });

  test('writeCsvFiles writes the exact text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bfcl-csv-'));
    try {
      writeCsvFiles(join(dir, 'score'), new Map([['data_x.csv', 'A,B\n1,2']]));
      expect(readFileSync(join(dir, 'score', 'data_x.csv'), 'utf8')).toBe('A,B\n1,2');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

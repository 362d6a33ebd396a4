import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { describe, expect, test } from 'vitest';

import { parseLeaderboardCsv, renderGrid, renderScoreTable } from '../../src/report/score-table.js';

// Expected grids printed by Python tabulate 0.10 (`tablefmt="grid"`).
describe('renderGrid', () => {
  test('int column right-aligned with its header; text columns left-aligned; headers padded by 2', () => {
    expect(
      renderGrid(
        ['Rank', 'Model', 'X'],
        [
          ['1', 'Modèle ü', 'N/A'],
          ['12', 'b', '1.0'],
        ],
      ),
    ).toBe(
      [
        '+--------+----------+-----+',
        '|   Rank | Model    | X   |',
        '+========+==========+=====+',
        '|      1 | Modèle ü | N/A |',
        '+--------+----------+-----+',
        '|     12 | b        | 1.0 |',
        '+--------+----------+-----+',
      ].join('\n'),
    );
  });

  test('float column printed with "g" and aligned on the decimal point', () => {
    expect(renderGrid(['Rank', 'Model', 'Latency'], [['1', 'a', '1.0'], ['2', 'b', '22.25'], ['3', 'c', '1e-7']])).toBe(
      [
        '+--------+---------+-----------+',
        '|   Rank | Model   |   Latency |',
        '+========+=========+===========+',
        '|      1 | a       |     1     |',
        '+--------+---------+-----------+',
        '|      2 | b       |    22.25  |',
        '+--------+---------+-----------+',
        '|      3 | c       |     1e-07 |',
        '+--------+---------+-----------+',
      ].join('\n'),
    );
  });

  test('no rows: header between rules', () => {
    expect(renderGrid(['A', 'Bb'], [])).toBe(['+-----+------+', '| A   | Bb   |', '+=====+======+', '+-----+------+'].join('\n'));
  });
});

describe('renderScoreTable', () => {
  const csv = [
    'Rank,Overall Acc,Model,Model Link,Non-Live AST Acc,Live Acc,Multi Turn Acc,Relevance Detection,Irrelevance Detection',
    '1,34.83%,synthetic-prompt-a (Prompt),https://x,56.81%,54.40%,53.75%,62.50%,75.88%',
    '2,33.81%,synthetic-fc-a (FC),https://y,49.85%,48.63%,56.50%,43.75%,70.15%',
  ].join('\n');

  test('selected columns of data_overall.csv, last two headings shortened', () => {
    expect(renderScoreTable(csv)).toBe(
      [
        '+--------+-----------------------------+---------------+--------------------+------------+------------------+-------------+---------------+',
        '|   Rank | Model                       | Overall Acc   | Non-Live AST Acc   | Live Acc   | Multi Turn Acc   | Relevance   | Irrelevance   |',
        '+========+=============================+===============+====================+============+==================+=============+===============+',
        '|      1 | synthetic-prompt-a (Prompt) | 34.83%        | 56.81%             | 54.40%     | 53.75%           | 62.50%      | 75.88%        |',
        '+--------+-----------------------------+---------------+--------------------+------------+------------------+-------------+---------------+',
        '|      2 | synthetic-fc-a (FC)         | 33.81%        | 49.85%             | 48.63%     | 56.50%           | 43.75%      | 70.15%        |',
        '+--------+-----------------------------+---------------+--------------------+------------+------------------+-------------+---------------+',
      ].join('\n'),
    );
  });

  test('a CSV without a needed column is an error', () => {
    expect(() => renderScoreTable('Rank,Model\n1,a')).toThrow('data_overall.csv has no "Overall Acc" column');
  });

  test('parseLeaderboardCsv splits rows and cells without quoting rules', () => {
    expect(parseLeaderboardCsv('a,b\r\n1,"x"\n')).toEqual([
      ['a', 'b'],
      ['1', '"x"'],
    ]);
  });

  const dataDir = process.env.BFCL_DATA_DIR;
  test.skipIf(dataDir === undefined)('the reference CSV of the real run', () => {
    const file = resolve(dataDir ?? '', '..', 'conformance', 'real-run', 'score', 'data_overall.csv');
    expect(renderScoreTable(readFileSync(file, 'utf8')).split('\n')[3]).toBe(
      '|      1 | openai/gpt-oss-20b (FC) (vLLM) | 29.36%        | 38.12%             | 73.80%     | 32.50%           | 87.50%      | 84.13%        |',
    );
  });
});

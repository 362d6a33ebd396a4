import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, test } from 'vitest';

import { parseJsonLossless } from '../../src/py/json.js';
import { collectCostLatency } from '../../src/report/cost-latency.js';
import {
  assembleLeaderboardTable,
  categoryScoreFromHeader,
  loadScoreHeaders,
  parseScoreHeader,
} from '../../src/report/score-files.js';
import { DatasetError } from '../../src/util/errors.js';

const CONFIG = 'ret_fmt=python&tool_call_tag=True&func_doc_fmt=python&prompt_fmt=plaintext&style=classic';

describe('categoryScoreFromHeader', () => {
  test('a plain header keeps Python number types', () => {
    expect(categoryScoreFromHeader(parseJsonLossless('{"accuracy": 0.5125, "correct_count": 205, "total_count": 400}'))).toEqual({
      accuracy: 0.5125,
      correctCount: 205n,
      totalCount: 400n,
      formatSensitivity: undefined,
    });
  });

  test('a format-sensitivity header carries its statistics and per-configuration scores', () => {
    const h = categoryScoreFromHeader(
      parseJsonLossless(
        `{"accuracy": 0.7, "correct_count": 14, "total_count": 20, "accuracy_max_delta": 12.5, "accuracy_variance": 40.33, "accuracy_std": 6.35, "${CONFIG}": {"accuracy": 0.75, "correct_count": 15, "total_count": 20}}`,
      ),
    );
    expect(h.formatSensitivity?.maxDelta).toBe(12.5);
    expect(h.formatSensitivity?.variance).toBe(40.33);
    expect(h.formatSensitivity?.std).toBe(6.35);
    expect(h.formatSensitivity?.configs.get(CONFIG)).toEqual({ accuracy: 0.75, correctCount: 15n, totalCount: 20n, formatSensitivity: undefined });
  });

  test('bad headers are rejected', () => {
    expect(() => categoryScoreFromHeader([])).toThrow('a score header must be a JSON object');
    expect(() => categoryScoreFromHeader(parseJsonLossless('{"total_count": 1}'))).toThrow('no numeric "accuracy"');
    expect(() => parseScoreHeader('not json\n{}', 'x.json')).toThrow(DatasetError);
  });

  test('parseScoreHeader reads only the first line', () => {
    expect(parseScoreHeader('{"accuracy": 1.0, "correct_count": 1, "total_count": 1}\n{"id": "x"}\n').accuracy).toBe(1.0);
  });
});

describe('loadScoreHeaders and assembleLeaderboardTable', () => {
  const root = mkdtempSync(join(tmpdir(), 'bfcl-score-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string): void => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('score/zeta/live/BFCL_v4_live_simple_score.json', '{"accuracy": 0.25, "correct_count": 1, "total_count": 4}\n{"id": "live_simple_0-0-0"}');
  write('score/alpha/non_live/BFCL_v4_simple_python_score.json', '{"accuracy": 1.0, "correct_count": 2, "total_count": 2}');
  write('score/alpha/agentic/memory/kv/BFCL_v4_memory_kv_score.json', '{"accuracy": 0.5, "correct_count": 1, "total_count": 2}');
  write('score/alpha/non_live/notes.json', '{}');
  write('score/alpha/non_live/BFCL_v3_simple_score.json', '{"accuracy": 0.0, "correct_count": 0, "total_count": 2}');
  write('score/empty/live/readme.txt', '');
  write('score/data_overall.csv', 'Rank');

  test('every v4 score header by model and category; other files and empty models ignored', () => {
    const table = loadScoreHeaders(join(root, 'score'));
    expect([...table.keys()]).toEqual(['alpha', 'zeta']);
    expect([...table.get('alpha')!.keys()]).toEqual(['memory_kv', 'simple_python']);
    expect(table.get('zeta')!.get('live_simple')!.accuracy).toBe(0.25);
  });

  test('a missing score folder gives an empty table', () => {
    expect(loadScoreHeaders(join(root, 'nope')).size).toBe(0);
  });

  test('models of this run first, score files override, score-only models appended without cost data', () => {
    const scoreFiles = loadScoreHeaders(join(root, 'score'));
    const latencies = collectCostLatency([parseJsonLossless('{"id": "simple_python_0", "latency": 1.5}')]);
    const table = assembleLeaderboardTable(
      [{ modelDir: 'alpha', scores: new Map([['simple_python', { accuracy: 0.5, totalCount: 2n }]]), costLatency: [latencies, latencies] }],
      scoreFiles,
    );
    expect(table.map((e) => e.modelDir)).toEqual(['alpha', 'zeta']);
    expect(table[0]!.scores.get('simple_python')!.accuracy).toBe(1.0);
    expect(table[0]!.costLatency!.latency).toEqual([1.5, 1.5]);
    expect(table[1]!.costLatency).toBeNull();
  });
});

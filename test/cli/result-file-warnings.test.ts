/**
 * Issue #24, item 9: a result file with unreadable lines and duplicated ids. `evaluate`, `show`,
 * `report` and `diff` each warn once about the file, in the same words and with the same counts;
 * evaluate's progress line, its `--json` counts and the error types of its score file agree; an id
 * on several lines is scored from its first line that is not an inference error.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { jsonDumps } from '../../src/py/json.js';
import type { PyDict, PyValue } from '../../src/py/value.js';
import { cli, fcCall, singleTurnResults, tempProject, writeResults } from '../inspect/helpers.js';

let root = '';
let file = '';
let warning = '';

/**
 * `messy`'s simple_python file: simple_python_1 cut short (its id still legible), an id-less line
 * where simple_python_2 should be, simple_python_3 first failed then answered, simple_python_5
 * answered and then written again with a wrong answer.
 */
beforeAll(async () => {
  root = tempProject();
  const good = singleTurnResults('simple_python');
  writeResults(root, 'good', 'simple_python', good);
  const byId = new Map(good.map((line) => [line.get('id') as string, line]));
  const text = (line: PyDict): string => jsonDumps(line);
  const error = new Map<string, PyValue>([['id', 'simple_python_3'], ['result', 'Error during inference: HTTP 502'], ['traceback', 'Traceback (most recent call last):\n  boom']]);
  const wrong = new Map<string, PyValue>([['id', 'simple_python_5'], ['result', [fcCall('nothing_like_it', new Map())]]]);
  const lines = [
    text(byId.get('simple_python_0')!),
    text(byId.get('simple_python_1')!).slice(0, 60),
    '{"result": "a line without its id"}',
    text(error),
    text(byId.get('simple_python_3')!),
    text(byId.get('simple_python_4')!),
    text(byId.get('simple_python_5')!),
    text(wrong),
  ];
  file = writeResults(root, 'messy', 'simple_python', []);
  writeFileSync(file, lines.join('\n') + '\n');
  warning = [
    `Warning: ${file}: 2 unreadable lines, 2 ids on more than one line`,
    '  line 2: invalid JSON: ',
  ].join('\n');
});

/** The file's warning as a command printed it (from its first line to the line after the duplicate rule). */
function warningIn(stderr: string): string {
  const start = stderr.indexOf(`Warning: ${file}:`);
  expect(start, stderr).toBeGreaterThanOrEqual(0);
  expect(stderr.indexOf(`Warning: ${file}:`, start + 1), 'warned once').toBe(-1);
  const end = stderr.indexOf('(the one the next `bfcl generate` keeps).\n', start);
  return stderr.slice(start, end);
}

describe('a result file with unreadable lines and duplicated ids', () => {
  let evaluateWarning = '';

  it('evaluate: one warning, and the same counts in its progress line, --json and the score file', async () => {
    const r = await cli(['evaluate', '--model', 'messy', '--test-category', 'simple_python', '--json'], root);
    expect(r.code, r.stderr).toBe(0);
    evaluateWarning = warningIn(r.stderr);
    expect(evaluateWarning.startsWith(warning)).toBe(true);
    expect(evaluateWarning).toContain('\n  line 3: no "id"\n');
    expect(evaluateWarning).toContain('\n  simple_python_3: lines 4, 5; line 5 is used\n  simple_python_5: lines 7, 8; line 7 is used\n');
    expect(r.stderr).toContain('messy simple_python: 66.67% (4/6)  [1 unreadable result line; 1 missing result]\n');

    const summary = JSON.parse(r.stdout);
    const category = summary.models[0].categories.simple_python;
    expect(category).toMatchObject({
      correct: 4,
      total: 6,
      inference_errors: 0,
      malformed: 1,
      missing: 1,
      malformed_lines: 2,
      duplicate_ids: 2,
      error_types: { 'bfcl_ts:malformed_result_line': 1, 'bfcl_ts:missing_result': 1 },
    });

    const scoreLines = readFileSync(join(root, 'score', 'messy', 'non_live', 'BFCL_v4_simple_python_score.json'), 'utf8').trim().split('\n');
    expect(scoreLines.slice(1).map((l) => [JSON.parse(l).id, JSON.parse(l).error_type])).toEqual([
      ['simple_python_1', 'bfcl_ts:malformed_result_line'],
      ['simple_python_2', 'bfcl_ts:missing_result'],
    ]);
  });

  it('show: the same warning on stderr, and the line it shows is the one evaluate scored', async () => {
    const r = await cli(['show', '--model', 'messy', '--id', 'simple_python_3'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(warningIn(r.stderr)).toBe(evaluateWarning);
    expect(r.stdout).toContain('note: simple_python_3 is on lines 4, 5 of the result file; shown: line 5, the one evaluate scores\nVerdict: PASS');
    expect(r.stdout).not.toContain('Error during inference');
  });

  it('report: the same warning', async () => {
    const r = await cli(['report', '--result-dir', 'result'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(warningIn(r.stderr)).toBe(evaluateWarning);
  });

  it('diff of result folders: the same warning', async () => {
    const r = await cli(['diff', 'result/good', 'result/messy'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(warningIn(r.stderr)).toBe(evaluateWarning);
    expect(r.stdout).toContain('simple_python_1, simple_python_2');
  });
});

/**
 * Issue #24, item 12: `bfcl show` shows what was scored. A multi-turn entry whose inference log
 * tells another story than its `result` is shown from the result (replayed), saying where the log
 * differs; a failed inference prints its error text and traceback.
 */

import { beforeAll, describe, expect, it } from 'vitest';

import type { PyValue } from '../../src/py/value.js';
import {
  MULTI_TURN_BASE_0_CALLS,
  cli,
  inferenceLog,
  multiTurnLine,
  multiTurnResult,
  singleTurnResults,
  tempProject,
  writeResults,
} from '../inspect/helpers.js';

let root = '';

const TRACEBACK = 'Traceback (most recent call last):\n  File "infer.ts", line 1, in entry\nProviderError: HTTP 502 Bad Gateway';

beforeAll(async () => {
  root = tempProject();
  // The log records the good conversation; the scored result has another answer in turn 3.
  const badCalls = MULTI_TURN_BASE_0_CALLS.map((turn) => [...turn]);
  badCalls[3]![1] = ['echo', { content: 'Robin average: 17.7', file_name: 'may_summary.txt' }];
  writeResults(root, 'edited', 'multi_turn_base', [
    multiTurnLine('multi_turn_base_0', multiTurnResult(badCalls), inferenceLog('multi_turn_base', 'multi_turn_base_0', MULTI_TURN_BASE_0_CALLS)),
  ]);
  writeResults(root, 'failing', 'simple_python', [
    ...singleTurnResults('simple_python', { simple_python_2: 'Error during inference: HTTP 502 Bad Gateway' }).map((line) =>
      line.get('id') === 'simple_python_2' ? new Map<string, PyValue>([['id', 'simple_python_2'], ['result', line.get('result')!], ['traceback', TRACEBACK]]) : line,
    ),
  ]);
  writeResults(root, 'failing', 'multi_turn_base', [
    new Map<string, PyValue>([['id', 'multi_turn_base_0'], ['result', 'Error during inference: connection reset'], ['traceback', TRACEBACK]]),
  ]);
  for (const model of ['edited', 'failing']) expect((await cli(['evaluate', '--model', model], root)).code).toBe(0);
});

describe('bfcl show: the scored result', () => {
  it('says where the inference log differs from the scored result, and shows the result replayed', async () => {
    const r = await cli(['show', '--model', 'edited', '--id', 'multi_turn_base_0'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Verdict: FAIL  multi_turn:instance_state_mismatch');
    expect(r.stdout).toContain(
      [
        '',
        'The inference log differs from the scored result (turn 3 step 0, [-log-]{+scored result+}: …ontent\\": \\"Robin average: 17.[-6-]7\\", \\"file_name\\": \\"may_summ…).',
        'The conversation below is the scored result; the log is not used.',
        '',
        'Conversation from the result, decoded and replayed; states replayed from the decoded calls.',
      ].join('\n'),
    );
    // The turn shown is the scored one.
    expect(r.stdout).toContain('    + GorillaFileSystem.root.survey["may_summary.txt"]: "Robin average: 17.7"\n');
    expect(r.stdout).not.toContain('"Robin average: 17.67"\n');
  });

  it('prints the error text and the traceback of a failed single-turn inference', async () => {
    const r = await cli(['show', '--model', 'failing', '--id', 'simple_python_2'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      [
        'note: the inference failed for this entry',
        'Verdict: FAIL  ast_decoder:decoder_failed  [infrastructure_error]',
      ].join('\n'),
    );
    expect(r.stdout).toContain(
      [
        '',
        'Inference error',
        '  Error during inference: HTTP 502 Bad Gateway',
        '  traceback:',
        '    Traceback (most recent call last):',
        '      File "infer.ts", line 1, in entry',
        '    ProviderError: HTTP 502 Bad Gateway',
        '',
      ].join('\n'),
    );
  });

  it('prints the error of a failed multi-turn inference', async () => {
    const r = await cli(['show', '--model', 'failing', '--id', 'multi_turn_base_0'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Inference error\n  Error during inference: connection reset\n  traceback:\n    Traceback (most recent call last):\n');
  });
});

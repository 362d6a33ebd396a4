/**
 * `bfcl ground-truth`, `show`, `diff` and the `evaluate` gates / `--json`, run in-process on the
 * project's data/ with result files built in the test (see test/inspect/helpers.ts).
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';
import type { PyValue } from '../../src/py/value.js';

import {
  MULTI_TURN_BASE_0_CALLS,
  cli,
  fcCall,
  inferenceLog,
  multiTurnLine,
  multiTurnResult,
  singleTurnResults,
  tempProject,
  writeResults,
} from '../inspect/helpers.js';

const FIXTURES = fileURLToPath(new URL('../inspect/fixtures/ground-truth-conversation/', import.meta.url));

let root = '';

/** `good` answers simple_python and multi_turn_base_0 correctly; `bad` breaks two single-turn entries and the multi-turn one. */
beforeAll(async () => {
  root = tempProject();
  writeResults(root, 'good', 'simple_python', singleTurnResults('simple_python'));
  writeResults(root, 'good', 'multi_turn_base', [
    multiTurnLine('multi_turn_base_0', multiTurnResult(MULTI_TURN_BASE_0_CALLS), inferenceLog('multi_turn_base', 'multi_turn_base_0', MULTI_TURN_BASE_0_CALLS)),
  ]);
  writeResults(
    root,
    'bad',
    'simple_python',
    singleTurnResults('simple_python', {
      simple_python_1: [fcCall('convert_temperature', new Map<string, PyValue>([['value', 98.6], ['from_unit', 'kelvin'], ['to_unit', 'celsius']]))],
      simple_python_2: 'Error during inference: connection reset',
    }),
  );
  const badCalls = MULTI_TURN_BASE_0_CALLS.map((turn) => [...turn]);
  badCalls[3]![1] = ['echo', { content: 'Robin average: 17.7', file_name: 'may_summary.txt' }];
  writeResults(root, 'bad', 'multi_turn_base', [multiTurnLine('multi_turn_base_0', multiTurnResult(badCalls))]);
  for (const model of ['good', 'bad']) {
    const r = await cli(['evaluate', '--model', model, '--test-category', 'simple_python,multi_turn_base'], root);
    expect(r.code, r.stderr).toBe(0);
  }
});

describe('bfcl evaluate: taxonomy sidecars, gates and --json', () => {
  it('writes a taxonomy sidecar beside each score file', () => {
    const sidecar = JSON.parse(readFileSync(join(root, 'score', 'bad', 'non_live', 'BFCL_v4_simple_python_taxonomy.json'), 'utf8'));
    expect(sidecar).toMatchObject({ model: 'bad', test_category: 'simple_python', total_count: 6, failed_count: 2 });
    expect(sidecar.entries).toEqual([
      { id: 'simple_python_1', class: 'value_mismatch', error_type: 'value_error:string' },
      { id: 'simple_python_2', class: 'infrastructure_error', error_type: 'ast_decoder:decoder_failed' },
    ]);
    const multiTurn = JSON.parse(readFileSync(join(root, 'score', 'bad', 'multi_turn', 'BFCL_v4_multi_turn_base_taxonomy.json'), 'utf8'));
    // Entries without a result fail as missing (infrastructure); entry 0 fails on the state.
    expect(multiTurn.classes).toMatchObject({ state_mismatch: 1, infrastructure_error: 3 });
  });

  it('exits 0 when every threshold is met', async () => {
    const r = await cli(['evaluate', '--model', 'good', '--test-category', 'simple_python', '--min-accuracy', '0.02,simple_python=100%'], root);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('All 2 accuracy thresholds met.\n');
  });

  it('exits 3 and names each missed threshold', async () => {
    const r = await cli(
      ['evaluate', '--model', 'good,bad', '--test-category', 'simple_python,multi_turn_base', '--min-accuracy', '0.03', '--min-accuracy', 'simple_python=0.9,multi_turn=0.05'],
      root,
    );
    expect(r.code).toBe(3);
    const report = r.stderr.slice(r.stderr.indexOf('bfcl evaluate: '));
    expect(report).toBe(
      [
        'bfcl evaluate: 4 accuracy thresholds missed (exit code 3):',
        // Models in evaluation order (result folders sorted by name); bad's simple AST is 4/6 ÷ 3, its Non-Live 1/4 of that.
        '  bad: overall accuracy 0.56% is below the minimum 3.00% (Overall Acc)',
        '  bad: simple_python accuracy 66.67% is below the minimum 90.00% (simple_python accuracy)',
        '  bad: multi_turn accuracy 0.00% is below the minimum 5.00% (Multi Turn Overall Acc)',
        '  good: overall accuracy 2.71% is below the minimum 3.00% (Overall Acc)',
        '',
      ].join('\n'),
    );
  });

  it('fails a gate on a category that was not evaluated', async () => {
    const r = await cli(['evaluate', '--model', 'good', '--test-category', 'simple_python', '--min-accuracy', 'simple_java=0.5'], root);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('  good: simple_java was not evaluated (minimum 50.00%)\n');
  });

  it.each([['nonsense=0.5'], ['1.5'], ['simple_python=abc'], ['150%']])('rejects --min-accuracy %s as a usage error', async (value) => {
    const r = await cli(['evaluate', '--model', 'good', '--min-accuracy', value], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Invalid --min-accuracy');
  });

  it('--json prints a machine-readable summary instead of the table', async () => {
    const r = await cli(['evaluate', '--model', 'bad', '--test-category', 'simple_python,multi_turn_base', '--json', '--min-accuracy', 'simple_python=0.5'], root);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    const model = summary.models[0];
    expect(model.model).toBe('bad');
    // 10% weight on Non-Live: (4/6 ÷ 3 simple AST) ÷ 4.
    expect(model.overall_accuracy).toBeCloseTo(0.1 * (4 / 6 / 3 / 4), 12);
    expect(model.categories.simple_python).toMatchObject({
      accuracy: 4 / 6,
      correct: 4,
      total: 6,
      inference_errors: 1,
      missing: 0,
      error_classes: { value_mismatch: 1, infrastructure_error: 1 },
      error_types: { 'ast_decoder:decoder_failed': 1, 'value_error:string': 1 },
    });
    expect(model.categories.multi_turn_base).toMatchObject({ correct: 0, total: 4, missing: 3 });
    expect(summary.gates).toEqual({
      passed: true,
      checks: [{ model: 'bad', target: 'simple_python', min_accuracy: 0.5, accuracy: 4 / 6, measure: 'simple_python accuracy', passed: true }],
    });
  });
});

describe('bfcl show', () => {
  it('shows a failed single-turn entry with the checker reason and the expected call', async () => {
    const r = await cli(['show', '--model', 'bad', '--id', 'simple_python_1'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      [
        'simple_python_1  ·  model bad  ·  simple_python',
        `result: ${join(root, 'result/bad/non_live/BFCL_v4_simple_python_result.json')}`,
        "Verdict: FAIL  value_error:string  [value_mismatch]",
        "  Invalid value for parameter 'from_unit': 'kelvin'. Expected one of ['fahrenheit']. Case insensitive.",
        '',
        'Question',
        '  user: Convert a body temperature of 98.6 °F into Celsius.',
        '',
        'Functions: convert_temperature',
        '',
        'Model output',
        '  [{"convert_temperature": "{\\"value\\": 98.6, \\"from_unit\\": \\"kelvin\\", \\"to_unit\\": \\"celsius\\"}"}]',
        '',
        'Decoded',
        "  convert_temperature(value=98.6, from_unit='kelvin', to_unit='celsius')",
        '',
        'Expected',
        "  convert_temperature(value=98.6, from_unit='fahrenheit', to_unit='celsius')",
        '',
      ].join('\n'),
    );
  });

  it('marks a passed entry and an inference error', async () => {
    const pass = await cli(['show', '--model', 'good', '--id', 'simple_python_1'], root);
    expect(pass.stdout).toContain('Verdict: PASS (not among the failures in ');
    const failed = await cli(['show', '--model', 'bad', '--id', 'simple_python_2'], root);
    expect(failed.stdout).toContain('note: the inference failed for this entry\nVerdict: FAIL  ast_decoder:decoder_failed  [infrastructure_error]\n');
  });

  it('follows the inference log of a multi-turn entry, with the state changes of each turn', async () => {
    const r = await cli(['show', '--model', 'good', '--id', 'multi_turn_base_0'], root);
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out).toContain('Verdict: PASS');
    expect(out).toContain('Conversation from the inference log; states logged.\nInitial state: GorillaFileSystem\n');
    expect(out).toContain(
      [
        'Turn 0',
        '  user: Hop into my survey folder and tell me how many lines the April counts file has.',
        "  ground truth: cd('survey'); wc(file_name='counts_april.txt', mode='l')",
        '  step 0',
        '    assistant: [{"cd": "{\\"folder\\": \\"survey\\"}"}, {"wc": "{\\"file_name\\": \\"counts_april.txt\\", \\"mode\\": \\"l\\"}"}]',
        "    ▸ cd(folder='survey')",
        '      → {"current_working_directory": "survey"}',
        "    ▸ wc(file_name='counts_april.txt',mode='l')",
        '      → {"count": 4, "type": "lines"}',
        '  step 1',
        '    assistant: []',
        '    no function call (the turn ends)',
        '  state: unchanged',
      ].join('\n'),
    );
    expect(out).toContain(
      [
        '  state changes:',
        '    - GorillaFileSystem.root.survey["counts_march.txt"]: "robin 14\\nsparrow 22\\nheron 3\\nfinch 9"',
        '    + GorillaFileSystem.root.survey.archive["counts_march.txt"]: "robin 14\\nsparrow 22\\nheron 3\\nfinch 9"',
        '    + GorillaFileSystem.root.survey["may_summary.txt"]: "Robin average: 17.67"',
      ].join('\n'),
    );
  });

  it('replays a multi-turn result without a log, and shows the state difference that failed it', async () => {
    const r = await cli(['show', '--model', 'bad', '--id', 'multi_turn_base_0'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      [
        'Verdict: FAIL  multi_turn:instance_state_mismatch  [state_mismatch]',
        '  Model instance for GorillaFileSystem does not match the state with ground truth instance.',
        '  state differences (- ground truth, + model):',
        '    ~ GorillaFileSystem.root.survey["may_summary.txt"]: "Robin average: 17.67" → "Robin average: 17.7"',
        '',
        'Conversation from the result, decoded and replayed; states replayed from the decoded calls.',
      ].join('\n'),
    );
    expect(r.stdout).toContain('    + GorillaFileSystem.root.survey["may_summary.txt"]: "Robin average: 17.7"\n');
  });

  it('reads a result file given directly and finds its model for the verdict', async () => {
    const r = await cli(['show', '--result-file', 'result/bad/multi_turn/BFCL_v4_multi_turn_base_result.json', '--id', 'multi_turn_base_0'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('multi_turn_base_0  ·  model bad  ·  multi_turn_base');
    expect(r.stdout).toContain('[state_mismatch]');
  });

  it('colours only when asked (not a terminal here), and honours NO_COLOR', async () => {
    expect((await cli(['show', '--model', 'bad', '--id', 'simple_python_1'], root)).stdout).not.toContain('\u001b[');
    expect((await cli(['show', '--model', 'bad', '--id', 'simple_python_1', '--color', 'always'], root)).stdout).toContain('\u001b[31mFAIL\u001b[39m');
  });

  it('says when there is no score file', async () => {
    const r = await cli(['show', '--model', 'bad', '--id', 'simple_python_1', '--score-dir', 'elsewhere'], root);
    expect(r.stdout).toContain('Verdict: not evaluated (no score file ');
  });

  it.each([
    [['show', '--model', 'bad', '--id', 'simple_python_99'], 'No result for simple_python_99'],
    [['show', '--model', 'nobody', '--id', 'simple_python_1'], 'No result file for simple_python_1 of nobody'],
    [['show', '--id', 'simple_python_1'], 'Name the entry'],
  ])('usage errors: %j', async (argv, message) => {
    const r = await cli(argv, root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe('bfcl diff', () => {
  it('compares two models per category with the flipped entries and McNemar p', async () => {
    const r = await cli(['diff', 'good', 'bad'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      [
        `A: good  (${join(root, 'score', 'good')}, score files)`,
        `B: bad  (${join(root, 'score', 'bad')}, score files)`,
        '',
        'Category                  A       B  Δ (pp)  pass→fail  fail→pass  McNemar p',
        'simple_python       100.00%  66.67%  -33.33          2          0        0.5',
        'multi_turn_base      25.00%   0.00%  -25.00          1          0          1',
        'all paired entries                                   3          0       0.25',
        '',
        'simple_python',
        '  pass→fail (2):',
        '    simple_python_1, simple_python_2',
        '',
        'multi_turn_base',
        '  pass→fail (1):',
        '    multi_turn_base_0',
        '',
        'McNemar p: exact two-sided binomial test on the entries that flipped; small values mean the change is unlikely to be chance.',
        '',
      ].join('\n'),
    );
  });

  it('takes folders, evaluates result folders in memory, and prints JSON', async () => {
    const r = await cli(['diff', 'result/bad', 'score/good', '--test-category', 'simple_python', '--json'], root);
    expect(r.code, r.stderr).toBe(0);
    const diff = JSON.parse(r.stdout);
    expect(diff.a).toEqual({ label: 'result/bad', dir: join(root, 'result', 'bad'), source: 'results' });
    expect(diff.categories).toEqual([
      {
        category: 'simple_python',
        a: { accuracy: 4 / 6, correct: 4, total: 6 },
        b: { accuracy: 1, correct: 6, total: 6 },
        accuracy_delta: 1 - 4 / 6,
        paired: 6,
        pass_to_fail: [],
        fail_to_pass: ['simple_python_1', 'simple_python_2'],
        mcnemar_p: 0.5,
        note: null,
      },
    ]);
  });

  it('is a usage error for a run it cannot find', async () => {
    const r = await cli(['diff', 'good', 'nobody'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('No run named "nobody"');
  });
});

describe('bfcl ground-truth', () => {
  it('writes the reference visualizer output for a category', async () => {
    const r = await cli(['ground-truth', '--test-category', 'multi_turn_base', '--out-dir', 'gt'], root);
    expect(r.code, r.stderr).toBe(0);
    const file = join(root, 'gt', 'multi_turn_base_conversation.json');
    expect(r.stdout).toBe(`Wrote 4 conversations to ${file}\n`);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(join(FIXTURES, 'multi_turn_base_conversation.json'), 'utf8'));
  });

  it('keeps the multi-turn members of a group', async () => {
    const r = await cli(['ground-truth', '--test-category', 'all', '--out-dir', 'gt-all'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(4);
  });

  it('writes only the requested ids, by default under ground_truth_conversation/', async () => {
    const r = await cli(['ground-truth', '--id', 'multi_turn_miss_func_1,multi_turn_base_2'], root);
    expect(r.code, r.stderr).toBe(0);
    const dir = join(root, 'ground_truth_conversation');
    expect(r.stdout).toBe(`Wrote 1 conversation to ${join(dir, 'multi_turn_base_conversation.json')}\nWrote 1 conversation to ${join(dir, 'multi_turn_miss_func_conversation.json')}\n`);
    const line = JSON.parse(readFileSync(join(dir, 'multi_turn_miss_func_conversation.json'), 'utf8'));
    expect(line.id).toBe('multi_turn_miss_func_1');
    expect(existsSync(join(dir, 'multi_turn_miss_param_conversation.json'))).toBe(false);
  });

  it.each([
    [['ground-truth', '--test-category', 'simple_python'], 'exist only for multi-turn categories'],
    [['ground-truth', '--test-category', 'live'], 'No multi-turn category in --test-category live'],
    [['ground-truth', '--id', 'simple_python_1'], 'exist only for multi-turn entries'],
    [['ground-truth', '--id', 'multi_turn_base_99'], 'Unknown entry id(s) in multi_turn_base: multi_turn_base_99'],
  ])('usage errors: %j', async (argv, message) => {
    const r = await cli(argv, root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

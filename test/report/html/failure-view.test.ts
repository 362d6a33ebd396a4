import { describe, expect, it } from 'vitest';

import { parseJsonLossless } from '../../../src/py/json.js';
import type { PyDict } from '../../../src/py/value.js';
import {
  TextPool,
  buildFailureView,
  callsText,
  failingTurnOf,
  indentRepr,
  possibleAnswerText,
  reasonsOf,
  truncateText,
  usageText,
  valueText,
} from '../../../src/report/html/failure-view.js';

/** A score-file line as the evaluator writes it (Python JSON). */
const record = (json: string): PyDict => parseJsonLossless(json) as PyDict;

const context = (category: string, errorType: string) => ({ model: 'm', category, errorType, errorClass: 'x' });

describe('text helpers', () => {
  it('shows strings as they are and other values as indented JSON (Python number forms kept)', () => {
    expect(valueText('a\nb')).toBe('a\nb');
    expect(valueText(parseJsonLossless('{"a": [1, 2.0], "b": null}'))).toBe('{\n  "a": [\n    1,\n    2.0\n  ],\n  "b": null\n}');
    expect(valueText(parseJsonLossless('"é"'))).toBe('é');
    expect(valueText(undefined)).toBe('');
  });

  it('truncates long text and says how much is missing', () => {
    expect(truncateText('abcdef', 10)).toBe('abcdef');
    expect(truncateText('abcdef', 4)).toBe('abcd\n… [2 more characters not shown]');
    expect(valueText('x'.repeat(50), 10)).toBe(`${'x'.repeat(10)}\n… [40 more characters not shown]`);
  });

  it('writes decoded calls and possible answers as Python-like calls', () => {
    expect(callsText(parseJsonLossless('[{"f": {"a": 1, "b": "x", "c": [1.5, true, null]}}, {"g": {}}]'), 1000)).toBe("f(a=1, b='x', c=[1.5, True, None])\ng()");
    expect(callsText(parseJsonLossless('[]'), 1000)).toBe('[] (no calls)');
    expect(callsText('not calls', 1000)).toBe('not calls');
    expect(possibleAnswerText(parseJsonLossless('[{"f": {"city": ["Paris", "paris"], "unit": ["", "C"], "n": [2.0]}}]'), 1000)).toBe(
      "f(city='Paris' | 'paris', unit=<may be omitted> | 'C', n=2.0)",
    );
    // Multi-turn answers (call strings per turn) stay JSON.
    expect(possibleAnswerText(parseJsonLossless('[["ls()"]]'), 1000)).toBe('[\n  [\n    "ls()"\n  ]\n]');
  });

  it('breaks a long object repr into indented lines without touching quoted text', () => {
    const repr = "<Directory: root, Parent: None, Contents: {'a.txt': <<File: a.txt, Content: x>>, 'b': <Directory: b, Parent: root, Contents: {}>, 'q': 'k, {v}'}>";
    expect(indentRepr(repr)).toBe(
      [
        '<Directory: root, Parent: None, Contents: {',
        "  'a.txt': <<File: a.txt,",
        '  Content: x>>,',
        "  'b': <Directory: b,",
        '  Parent: root,',
        '  Contents: {}>,',
        "  'q': 'k, {v}'",
        '}>',
      ].join('\n'),
    );
    expect(indentRepr('short {a, b}')).toBe('short {a, b}');
  });

  it('sums multi-turn usage from the result line', () => {
    expect(usageText(record('{"latency": [[1.5, 0.25], [1]], "input_token_count": [[10, 5], [1]], "output_token_count": 3}'))).toBe(
      'From the result file: latency 2.75 s · 16 input tokens · 3 output tokens',
    );
    expect(usageText(record('{"id": "x"}'))).toBeNull();
    expect(usageText(undefined)).toBeNull();
  });

  it('stores each shared text once', () => {
    const pool = new TextPool();
    expect([pool.share('a'), pool.share('b'), pool.share('a')]).toEqual([0, 1, 0]);
    expect(pool.texts).toEqual(['a', 'b']);
  });
});

describe('reasons', () => {
  it('reads error lists, parallel sub-errors and error dicts', () => {
    expect(reasonsOf(record('{"error": ["Wrong number of functions."]}'), 1000)).toEqual(['Wrong number of functions.']);
    expect(reasonsOf(record('{"error": ["No match.", {"Model Result Index 0": {"sub_error": ["x"]}}]}'), 1000)).toEqual([
      'No match.',
      '{\n  "Model Result Index 0": {\n    "sub_error": [\n      "x"\n    ]\n  }\n}',
    ]);
    expect(reasonsOf(record('{"error": {"error_message": "State differs.", "error_type": "t"}}'), 1000)).toEqual(['State differs.']);
    expect(reasonsOf(record('{"error": {"error_message": ["Inference failed."]}}'), 1000)).toEqual(['Inference failed.']);
    expect(reasonsOf(record('{"id": "x"}'), 1000)).toEqual([]);
  });
});

describe('AST and relevance records', () => {
  const ast = record(
    JSON.stringify({
      id: 'simple_python_1',
      model_name: 'm',
      test_category: 'simple_python',
      valid: false,
      error: ["Invalid value for parameter 'value': 37.0. Expected one of [98.6]."],
      error_type: 'value_error:others',
      prompt: { id: 'simple_python_1', question: [[{ role: 'user', content: 'Convert 98.6 F.' }]], function: [{ name: 'convert_temperature', parameters: {} }] },
      model_result_raw: [{ convert_temperature: '{"value": 37.0}' }],
      model_result_decoded: [{ convert_temperature: { value: 37.5 } }],
      possible_answer: [{ convert_temperature: { value: [98.6] } }],
      extra_field: 1,
    }),
  );

  it('shows question, output, decoded calls, expected answer, docs and leftovers in order', () => {
    const view = buildFailureView(ast, context('simple_python', 'value_error:others'));
    expect(view).toMatchObject({ model: 'm', id: 'simple_python_1', errorType: 'value_error:others', turns: null, stateDiff: null, usage: null });
    expect(view.reasons).toEqual(["Invalid value for parameter 'value': 37.0. Expected one of [98.6]."]);
    expect(view.sections.map((s) => [s.kind, s.title, s.open])).toEqual([
      ['messages', 'Question', true],
      ['text', 'Model output', true],
      ['text', 'Decoded calls', true],
      ['text', 'Expected (possible answer)', true],
      ['text', 'Functions offered (1): convert_temperature', false],
      ['text', 'Other fields', false],
    ]);
    expect(view.sections[0]).toMatchObject({ messages: [{ role: 'user', content: 'Convert 98.6 F.' }] });
    expect(view.sections[2]).toMatchObject({ text: 'convert_temperature(value=37.5)' });
    expect(view.sections[3]).toMatchObject({ text: 'convert_temperature(value=98.6)' });
    expect(view.sections[5]).toMatchObject({ text: '{\n  "extra_field": 1\n}' });
  });

  it('shares function docs through the pool and falls back on the result file log', () => {
    const pool = new TextPool();
    const entry = record('{"id": "simple_python_1", "inference_log": [{"role": "inference_input", "content": "hi"}], "latency": 2}');
    const view = buildFailureView(ast, { ...context('simple_python', 't'), share: (t) => pool.share(t), resultEntry: entry });
    expect(view.sections.find((s) => s.title.startsWith('Functions offered'))).toMatchObject({ kind: 'shared', ref: 0 });
    expect(pool.texts[0]).toContain('"name": "convert_temperature"');
    expect(view.sections.find((s) => s.title === 'Inference log')).toMatchObject({ kind: 'text', open: false });
    expect(view.usage).toBe('From the result file: latency 2.00 s');
  });

  it('reads relevance records (model_result / decoded_result)', () => {
    const view = buildFailureView(
      record(
        '{"id": "irrelevance_0", "model_name": "m", "test_category": "irrelevance", "valid": false, "prompt": {"question": [[{"role": "user", "content": "q"}]], "function": []}, "model_result": [{"f": "{}"}], "decoded_result": [{"f": {}}], "error": ["Valid syntax. Successfully decode AST when it should not."], "error_type": "irrelevance_error:decoder_success"}',
      ),
      context('irrelevance', 'irrelevance_error:decoder_success'),
    );
    expect(view.sections.map((s) => s.title)).toEqual(['Question', 'Model output', 'Decoded calls']);
    expect(view.sections[2]).toMatchObject({ text: 'f()' });
  });

  it('reads agentic records whose prompt is the question itself', () => {
    const view = buildFailureView(
      record(
        '{"id": "web_search_0", "valid": false, "error": {"error_message": "None of the expected answers were found in the model response.", "error_type": "agentic:answer_not_found", "details": {"model_response": "Paris", "possible_answers": ["Lyon"]}}, "prompt": [[{"role": "user", "content": "Where?"}]], "model_result_raw": [["Paris"]], "last_non_fc_message": "Paris", "possible_answer": ["Lyon"], "inference_log": ""}',
      ),
      context('web_search_base', 'agentic:answer_not_found'),
    );
    expect(view.reasons).toEqual(['None of the expected answers were found in the model response.']);
    expect(view.sections.map((s) => s.title)).toEqual([
      'Question',
      'Model output',
      'Final answer (last non-call message)',
      'Expected (possible answer)',
      'model_response',
      'possible_answers',
    ]);
  });
});

describe('multi-turn records', () => {
  const base = {
    id: 'multi_turn_base_5',
    model_name: 'm',
    test_category: 'multi_turn_base',
    valid: false,
    prompt: {
      id: 'multi_turn_base_5',
      question: [[{ role: 'user', content: 'turn zero' }], [{ role: 'user', content: 'turn one' }], [{ role: 'user', content: 'turn two' }]],
      initial_config: { TwitterAPI: { username: 'u' } },
      involved_classes: ['TwitterAPI'],
    },
    possible_answer: [['a()'], ['post_tweet(content="x")'], ['b()']],
  };

  const stateMismatch = record(
    JSON.stringify({
      ...base,
      error: {
        error_message: 'Model instance for TwitterAPI does not match the state with ground truth instance.',
        error_type: 'multi_turn:instance_state_mismatch',
        details: {
          differences: { tweet_counter: { model: 0, ground_truth: 1 } },
          model_instance_state: { tweet_counter: 0 },
          ground_truth_instance_state: { tweet_counter: 1 },
        },
        execution_result: [
          { model: [['ok']], ground_truth: ['ok'] },
          { model: [['{"error": "no"}']], ground_truth: ['{"id": 0}'] },
        ],
      },
      model_result_raw: [[[{ a: '{}' }]], [[{ post_tweet: '{"content": 3}' }], 'Done.'], [[{ b: '{}' }]]],
      model_result_decoded: [[['a()']], [['post_tweet(content=3)']], [['b()']]],
      inference_log: [
        [{ role: 'state_info', class_name: 'TwitterAPI', content: {} }],
        {
          begin_of_turn_query: [{ role: 'user', content: 'turn zero' }],
          step_0: [
            { role: 'assistant', content: [{ a: '{}' }] },
            { role: 'handler_log', content: 'Successfully decoded model response.', model_response_decoded: ['a()'] },
            { role: 'tool', content: 'ok' },
          ],
          step_1: [
            { role: 'assistant', content: 'Done.' },
            { role: 'handler_log', content: 'Error decoding the model response. Proceed to next turn.', error: 'invalid syntax' },
          ],
        },
      ],
    }),
  );

  it('finds the failing turn from execution_result or the message', () => {
    expect(failingTurnOf(stateMismatch)).toBe(1);
    expect(failingTurnOf(record('{"error": {"error_message": "Model response execution results so far does not contain all the ground truth response execution results for turn 2.", "details": {}}}'))).toBe(2);
    // Force-terminated: the last turn the model reached (the step limit ended it).
    expect(failingTurnOf(record('{"error": {"error_message": ["Model was force-terminated during inference phase."], "error_type": "multi_turn:force_terminated"}, "model_result": [[], []]}'))).toBe(1);
    expect(failingTurnOf(record('{"error": {"error_message": ["x"], "error_type": "multi_turn:force_terminated"}, "model_result": "oops"}'))).toBeNull();
    expect(failingTurnOf(record('{"error": {"error_message": ["x"], "error_type": "multi_turn:inference_error"}, "model_result": [[]]}'))).toBeNull();
  });

  it('builds the state diff and the turns (log steps, checker results, statuses)', () => {
    const view = buildFailureView(stateMismatch, context('multi_turn_base', 'multi_turn:instance_state_mismatch'));
    expect(view.stateDiff).toEqual({ className: 'TwitterAPI', turn: 1, rows: [{ attribute: 'tweet_counter', model: '0', groundTruth: '1' }] });
    const turns = view.turns!;
    expect(turns.map((t) => t.status)).toEqual(['passed', 'failed', 'not checked']);
    // Turn 0 from the inference log: the routine decode message is left out, the decode error kept.
    expect(turns[0]!.steps).toEqual([
      { output: 'a({})', decoded: ['a()'], toolResults: ['ok'], events: [] },
      { output: 'Done.', decoded: null, toolResults: [], events: ['Error decoding the model response. Proceed to next turn.', 'invalid syntax'] },
    ]);
    // Turn 1 has no log: raw steps, plus what the checker decoded and executed.
    expect(turns[1]!.user).toEqual([{ role: 'user', content: 'turn one' }]);
    expect(turns[1]!.steps.map((s) => s.output)).toEqual(['post_tweet({"content": 3})', 'Done.']);
    expect(turns[1]!.checked).toEqual([{ calls: ['post_tweet(content=3)'], results: ['{"error": "no"}'] }]);
    expect(turns[1]!.groundTruthCalls).toEqual(['post_tweet(content="x")']);
    expect(turns[1]!.groundTruthResults).toEqual(['{"id": 0}']);
    expect(turns[2]!.groundTruthResults).toBeNull();
    // Whole states stay available, folded; the entry's configuration too.
    expect(view.sections.map((s) => [s.title, s.open])).toEqual([
      ['model_instance_state (whole state)', false],
      ['ground_truth_instance_state (whole state)', false],
      ['Entry (initial configuration, classes)', false],
    ]);
  });

  it('takes the failing turn of a response mismatch from the message and its results from the details', () => {
    const view = buildFailureView(
      record(
        JSON.stringify({
          ...base,
          error: {
            error_message: 'Model response execution results so far does not contain all the ground truth response execution results for turn 0.',
            error_type: 'multi_turn:execution_response_mismatch',
            details: { missing_items: ['ok'], 'model_response (including all previous turns)': ['nope'], 'ground_truth_response (only the current turn)': ['ok'] },
          },
          model_result_raw: [[[{ a: '{}' }]]],
          model_result_decoded: [[['a()']]],
          inference_log: [],
        }),
      ),
      context('multi_turn_base', 'multi_turn:execution_response_mismatch'),
    );
    expect(view.turns!.map((t) => t.status)).toEqual(['failed', 'not checked', 'not checked']);
    expect(view.turns![0]!.groundTruthResults).toEqual(['ok']);
    expect(view.sections.slice(0, 3)).toEqual([
      { kind: 'list', title: 'missing_items', open: true, items: ['ok'] },
      { kind: 'list', title: 'model_response (including all previous turns)', open: true, items: ['nope'] },
      { kind: 'list', title: 'ground_truth_response (only the current turn)', open: true, items: ['ok'] },
    ]);
  });

  it('shows a result that is not a list of turns whole, with no turn checked', () => {
    const view = buildFailureView(
      record(
        JSON.stringify({
          ...base,
          error: { error_message: ['Error during inference phase. Model did not output a list of model responses.'], error_type: 'multi_turn:inference_error' },
          model_result: { '0': 'x' },
          inference_log: '',
        }),
      ),
      context('multi_turn_base', 'multi_turn:inference_error'),
    );
    expect(view.reasons).toEqual(['Error during inference phase. Model did not output a list of model responses.']);
    expect(view.turns!.map((t) => [t.status, t.steps.length, t.checked])).toEqual([
      ['not checked', 0, null],
      ['not checked', 0, null],
      ['not checked', 0, null],
    ]);
    expect(view.sections.find((s) => s.title === 'Model output')).toMatchObject({ text: '{\n  "0": "x"\n}' });
  });
});

import { describe, expect, it } from 'vitest';

import { openDataset } from '../../src/data/dataset.js';
import { inferEntry } from '../../src/generate/infer-entry.js';
import { ADDITIONAL_FUNCTION_PROMPT_FC, HANDLER_LOG, MAXIMUM_STEP_LIMIT } from '../../src/generate/inference-log.js';
import type { LoopOptions } from '../../src/generate/loop-options.js';
import { inferMultiTurn } from '../../src/generate/multi-turn.js';
import { resultLineText } from '../../src/generate/result-store.js';
import { inferSingleTurn } from '../../src/generate/single-turn.js';
import { pyStr } from '../../src/py/repr.js';
import type { PyDict, PyValue } from '../../src/py/value.js';
import type { TestEntry } from '../../src/spec/schemas.js';
import { FAKE_SYSTEM_PROMPT, type Script, ScriptedModel, fcCall } from './scripted-model.js';

const dataset = openDataset();
const simContext = { longContext: dataset.longContext() };
const options = (overrides: Partial<LoopOptions> = {}): LoopOptions => ({
  includeInputLog: false,
  excludeStateLog: false,
  simContext,
  ...overrides,
});

function entry(category: Parameters<typeof dataset.loadTestEntries>[0], id: string): TestEntry {
  const found = dataset.loadTestEntries(category).find((e) => e.id === id);
  if (found === undefined) throw new Error(`no entry ${id}`);
  return found;
}

/** Roles of a step's log records (handler logs by their content). */
function roles(step: PyValue): string[] {
  return (step as PyDict[]).map((r) => {
    const role = r.get('role') as string;
    if (role !== 'handler_log') return role;
    const content = r.get('content');
    if (content === HANDLER_LOG.decodeSuccess) return 'decode_success';
    if (content === HANDLER_LOG.emptyResponse) return 'empty_response';
    if (content === HANDLER_LOG.decodeFailure) return 'decode_failure';
    if (content === HANDLER_LOG.forceQuit) return 'force_quit';
    return `handler_log:${String(content)}`;
  });
}

const get = (d: PyValue, key: string): PyValue => (d as PyDict).get(key)!;

describe('single-turn loop', () => {
  const simple = entry('simple_python', 'simple_python_0');

  it('writes id, result, token counts (ints), latency and non-empty reasoning, in the reference order', async () => {
    const model = new ScriptedModel('fc', () => ({
      responses: [fcCall('finance_compound_interest', '{"principal": 2500.0}')],
      inputTokens: 12,
      outputTokens: 7,
      latency: 0.25,
      reasoning: 'thinking',
    }));
    const line = await inferSingleTurn(model, simple, options());
    expect(resultLineText(line)).toBe(
      '{"id": "simple_python_0", "result": [{"finance_compound_interest": "{\\"principal\\": 2500.0}"}], ' +
        '"input_token_count": 12, "output_token_count": 7, "latency": 0.25, "reasoning_content": "thinking"}',
    );
    expect(model.events).toEqual(['first:user', 'query:0.0']);
  });

  it('puts the inference input log after the result with --include-input-log, and leaves empty reasoning out', async () => {
    const model = new ScriptedModel('prompting', () => ({ responses: '[f(a=1)]', inputTokens: 3, outputTokens: 2, latency: 1 }));
    const line = await inferSingleTurn(model, simple, options({ includeInputLog: true }));
    expect(resultLineText(line)).toBe(
      '{"id": "simple_python_0", "result": "[f(a=1)]", "inference_log": [{"role": "inference_input", "content": {"turn": 0, "step": 0}}], ' +
        '"input_token_count": 3, "output_token_count": 2, "latency": 1.0}',
    );
    // Prompting: the first turn given to the conversation is the system-prompted one.
    expect(model.events).toEqual(['first:system,user', 'query:0.0']);
  });
});

describe('multi-turn loop', () => {
  // GorillaFileSystem + MathAPI; `diff` is held out until turn 2 (whose question is empty).
  const missFunc = entry('multi_turn_miss_func', 'multi_turn_miss_func_0');
  const heldOut = missFunc.missedFunction!.get('2')!;

  const fcScript: Script = ({ turn, step }) => {
    if (turn === 0 && step === 0) return { responses: [fcCall('cd', '{"folder": "survey"}')], inputTokens: 10, outputTokens: 3 };
    if (turn === 1) return { responses: 'I think we are done.' };
    if (turn === 2 && step === 0) {
      return { responses: [fcCall('diff', '{"file_name1": "counts_march.txt", "file_name2": "counts_april.txt"}')], reasoning: 'compare' };
    }
    return { responses: [] };
  };

  it('runs FC turns and steps, executes calls, logs every record, and adds held-out functions to the tools', async () => {
    const model = new ScriptedModel('fc', fcScript);
    const line = await inferMultiTurn(model, missFunc, options());
    expect([...line.keys()]).toEqual(['id', 'result', 'input_token_count', 'output_token_count', 'latency', 'inference_log', 'reasoning_content']);

    const cd = fcCall('cd', '{"folder": "survey"}');
    const diff = fcCall('diff', '{"file_name1": "counts_march.txt", "file_name2": "counts_april.txt"}');
    expect(pyStr(get(line, 'result'))).toBe(pyStr([[[cd], []], ['I think we are done.'], [[diff], []], [[]], [[]], [[]]]));
    expect(resultLineText(new Map([['t', get(line, 'input_token_count')]]))).toBe('{"t": [[10, 0], [0], [0, 0], [0], [0], [0]]}');
    expect(resultLineText(new Map([['l', get(line, 'latency')]]))).toBe('{"l": [[0.5, 0.5], [0.5], [0.5, 0.5], [0.5], [0.5], [0.5]]}');
    expect(pyStr(get(line, 'reasoning_content'))).toBe(pyStr([['', ''], [''], ['compare', ''], [''], [''], ['']]));

    const log = get(line, 'inference_log') as PyValue[];
    // Initial state, then per turn: the turn dict and the state after it. MathAPI is stateless: no state_info.
    expect(log).toHaveLength(1 + 2 * 6);
    for (const i of [0, 2, 4, 6, 8, 10, 12]) {
      const states = log[i] as PyDict[];
      expect(states.map((s) => [s.get('role'), s.get('class_name')])).toEqual([['state_info', 'GorillaFileSystem']]);
      expect([...(states[0]!.get('content') as PyDict).keys()]).toEqual(['long_context', 'root']);
    }

    const turn0 = log[1] as PyDict;
    expect([...turn0.keys()]).toEqual(['begin_of_turn_query', 'step_0', 'step_1']);
    expect(pyStr(turn0.get('begin_of_turn_query')!)).toBe(pyStr([new Map([['role', 'user'], ['content', missFunc.question[0]![0]!.content]])]));
    expect(roles(turn0.get('step_0')!)).toEqual(['assistant', 'decode_success', 'tool']);
    expect(roles(turn0.get('step_1')!)).toEqual(['assistant', 'decode_success', 'empty_response']);
    const step0 = turn0.get('step_0') as PyDict[];
    expect(pyStr(step0[1]!.get('model_response_decoded')!)).toBe(pyStr(["cd(folder='survey')"]));
    expect(step0[2]!.get('content')).toBe('{"current_working_directory": "survey"}');

    // A text reply from an FC model fails to decode (a str is iterated), which ends the turn.
    const turn1 = log[3] as PyDict;
    expect(roles(turn1.get('step_0')!)).toEqual(['assistant', 'decode_failure']);
    expect((turn1.get('step_0') as PyDict[])[1]!.get('error')).toBe("'str' object has no attribute 'items'");

    // The hold-out turn: the FC user prompt, and the held-out doc joins the functions.
    const turn2 = log[5] as PyDict;
    expect(pyStr(turn2.get('begin_of_turn_query')!)).toBe(pyStr([new Map([['role', 'user'], ['content', ADDITIONAL_FUNCTION_PROMPT_FC]])]));
    const assistant = (turn2.get('step_0') as PyDict[])[0]!;
    expect([...assistant.keys()]).toEqual(['role', 'content', 'reasoning_content']);
    expect(model.setFunctionsCalls).toHaveLength(1);
    expect(model.setFunctionsCalls[0]).toEqual([...missFunc.functionDocs, ...heldOut]);
    expect(roles(turn2.get('step_0')!)).toEqual(['assistant', 'decode_success', 'tool']);

    expect(model.events.slice(0, 12)).toEqual([
      'first:user', 'query:0.0', 'assistant', 'results:1', 'query:0.1', 'assistant',
      'next:user', 'query:1.0', 'assistant',
      'setFunctions:' + String(missFunc.functionDocs.length + 1), 'next:user', 'query:2.0',
    ]);
  });

  it('leaves state_info out with --exclude-state-log and logs the inference input of every step with --include-input-log', async () => {
    const model = new ScriptedModel('fc', fcScript);
    const line = await inferMultiTurn(model, missFunc, options({ excludeStateLog: true, includeInputLog: true }));
    const log = get(line, 'inference_log') as PyValue[];
    expect(log).toHaveLength(6);
    const turn0 = log[0] as PyDict;
    expect(roles(turn0.get('step_0')!)).toEqual(['inference_input', 'assistant', 'decode_success', 'tool']);
    expect(resultLineText((turn0.get('step_1') as PyDict[])[0]!)).toBe('{"role": "inference_input", "content": {"turn": 0, "step": 1}}');
    // No reasoning anywhere: the key is left out.
    const plain = await inferMultiTurn(new ScriptedModel('fc', () => ({ responses: [] })), missFunc, options({ excludeStateLog: true }));
    expect(plain.has('reasoning_content')).toBe(false);
  });

  it('gives prompting models the held-out docs as text in the user message, without touching the tools', async () => {
    const script: Script = ({ turn, step }) => {
      if (turn === 0 && step === 0) return { responses: "[cd(folder='survey')]" };
      if (turn === 1) return { responses: 'not python at all (' };
      return { responses: '' };
    };
    const model = new ScriptedModel('prompting', script);
    const line = await inferMultiTurn(model, missFunc, options({ excludeStateLog: true }));
    const log = get(line, 'inference_log') as PyDict[];
    // Turn 0 starts from the system-prompted question.
    expect((log[0]!.get('begin_of_turn_query') as PyDict[]).map((m) => m.get('role'))).toEqual(['system', 'user']);
    expect((log[0]!.get('begin_of_turn_query') as PyDict[])[0]!.get('content')).toBe(FAKE_SYSTEM_PROMPT);
    expect(roles(log[0]!.get('step_0')!)).toEqual(['assistant', 'decode_success', 'tool']);
    // An empty text decodes to no call.
    expect(roles(log[0]!.get('step_1')!)).toEqual(['assistant', 'decode_success', 'empty_response']);
    expect(roles(log[1]!.get('step_0')!)).toEqual(['assistant', 'decode_failure']);
    const holdOut = (log[2]!.get('begin_of_turn_query') as PyDict[])[0]!;
    expect(holdOut.get('content')).toBe(`${pyStr([...heldOut])}\n${ADDITIONAL_FUNCTION_PROMPT_FC}`);
    expect(holdOut.get('content')).toMatch(/^\[\{'name': 'diff', /);
    expect(model.setFunctionsCalls).toHaveLength(0);
    expect(model.executionResults[0]).toEqual(['{"current_working_directory": "survey"}']);
  });

  it(`forces a quit after ${MAXIMUM_STEP_LIMIT + 1} executed steps and processes no further turn`, async () => {
    const model = new ScriptedModel('fc', () => ({ responses: [fcCall('pwd')] }));
    const line = await inferMultiTurn(model, missFunc, options());
    expect(pyStr(get(line, 'result'))).toBe(pyStr([Array.from({ length: 21 }, () => [fcCall('pwd')])]));
    const log = get(line, 'inference_log') as PyValue[];
    expect(log).toHaveLength(3); // initial state, turn 0, state after turn 0
    const turn0 = log[1] as PyDict;
    expect([...turn0.keys()]).toEqual(['begin_of_turn_query', ...Array.from({ length: 21 }, (_, i) => `step_${i}`)]);
    expect(roles(turn0.get('step_19')!)).toEqual(['assistant', 'decode_success', 'tool']);
    expect(roles(turn0.get('step_20')!)).toEqual(['assistant', 'decode_success', 'tool', 'force_quit']);
    expect((turn0.get('step_20') as PyDict[])[3]!.get('content')).toBe('Model has been forced to quit after 20 steps.');
    expect(model.events.filter((e) => e.startsWith('query'))).toHaveLength(21);
  });
});

describe('entry outcomes', () => {
  const base = entry('multi_turn_base', 'multi_turn_base_0');

  it('writes a failed entry as an error line with its traceback', async () => {
    const model = new ScriptedModel('fc', ({ turn }) => (turn === 1 ? { fail: new Error('boom: 500 from the server') } : { responses: [] }));
    const outcome = await inferEntry(model, base, options());
    expect(outcome.kind).toBe('error');
    if (outcome.kind !== 'error') return;
    expect([...outcome.line.keys()]).toEqual(['id', 'result', 'traceback']);
    expect(outcome.line.get('result')).toBe('Error during inference: boom: 500 from the server');
    expect(outcome.line.get('traceback')).toContain('boom: 500 from the server');
  });

  it('discards an entry interrupted by Ctrl-C', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel('fc', ({ turn }) => {
      if (turn === 1) controller.abort();
      return { responses: [] };
    });
    expect(await inferEntry(model, base, options({ signal: controller.signal }))).toEqual({ kind: 'interrupted' });
  });

  it('runs single-turn ids through the single-turn loop and multi-turn ids through the multi-turn loop', async () => {
    const model = new ScriptedModel('fc', () => ({ responses: [] }));
    const single = await inferEntry(model, entry('simple_python', 'simple_python_1'), options());
    const multi = await inferEntry(model, base, options());
    expect(single.kind === 'done' && single.line.has('inference_log')).toBe(false);
    expect(multi.kind === 'done' && multi.line.has('inference_log')).toBe(true);
  });
});

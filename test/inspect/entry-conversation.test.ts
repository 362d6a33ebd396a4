import { describe, expect, it } from 'vitest';

import { modelDecoder } from '../../src/evaluate/model-decoder.js';
import { conversationFromLog, replayConversation, withReplayedStates } from '../../src/inspect/entry-conversation.js';
import { renderEntryReport, type EntryReport } from '../../src/inspect/render-entry.js';
import { createTextStyle } from '../../src/inspect/text-style.js';
import { parseJsonLossless } from '../../src/py/json.js';
import { MULTI_TURN_BASE_0_CALLS, dataset, multiTurnResult } from './helpers.js';

const log = parseJsonLossless(
  JSON.stringify([
    {
      begin_of_turn_query: [{ role: 'user', content: 'Hi' }],
      step_0: [
        { role: 'inference_input', content: { message: 'ignored' } },
        { role: 'assistant', content: 'thinking aloud', reasoning_content: 'why not' },
        { role: 'handler_log', content: 'Error decoding the model response. Proceed to next turn.', error: "invalid syntax (<unknown>, line 1)" },
      ],
    },
    [],
    {
      begin_of_turn_query: [],
      step_0: [
        { role: 'assistant', content: '[ls()]' },
        { role: 'handler_log', content: 'Successfully decoded model response.', model_response_decoded: ['ls()'] },
        { role: 'tool', content: '{"current_directory_content": []}' },
        { role: 'handler_log', content: 'Model has been forced to quit after 20 steps.' },
      ],
    },
  ]),
);

describe('conversationFromLog', () => {
  it('reads turns, steps and handler events; empty state lists are no states', () => {
    const conversation = conversationFromLog(log)!;
    expect(conversation).toMatchObject({ source: 'log', stateSource: 'none', initialState: undefined });
    expect(conversation.turns.map((t) => t.steps.map((s) => s.events))).toEqual([
      [
        [
          { kind: 'assistant', content: 'thinking aloud', reasoning: 'why not' },
          { kind: 'decode_error', error: 'invalid syntax (<unknown>, line 1)' },
        ],
      ],
      [
        [
          { kind: 'assistant', content: '[ls()]' },
          { kind: 'decoded', calls: ['ls()'] },
          { kind: 'tool', content: '{"current_directory_content": []}', call: 'ls()' },
          { kind: 'force_quit', text: 'Model has been forced to quit after 20 steps.' },
        ],
      ],
    ]);
  });

  it('is undefined for logs without turns (single-turn input logs, error texts)', () => {
    expect(conversationFromLog(parseJsonLossless('[{"role": "inference_input", "content": "x"}]'))).toBeUndefined();
    expect(conversationFromLog('Error during inference')).toBeUndefined();
    expect(conversationFromLog(undefined)).toBeUndefined();
  });
});

describe('replayConversation', () => {
  const entry = dataset.loadTestEntries('multi_turn_base')[0]!;
  const context = { longContext: dataset.longContext() };
  const replayed = replayConversation({ entry, result: multiTurnResult(MULTI_TURN_BASE_0_CALLS), decoder: modelDecoder('fc'), context });

  it('decodes and executes every step, with a state after each turn', () => {
    expect(replayed.stateSource).toBe('replay');
    expect(replayed.turns).toHaveLength(5);
    expect(replayed.turns[0]!.steps[0]!.events.slice(1)).toEqual([
      { kind: 'decoded', calls: ["cd(folder='survey')", "wc(file_name='counts_april.txt',mode='l')"] },
      { kind: 'tool', content: '{"current_working_directory": "survey"}', call: "cd(folder='survey')" },
      { kind: 'tool', content: '{"count": 4, "type": "lines"}', call: "wc(file_name='counts_april.txt',mode='l')" },
    ]);
    expect(replayed.turns[0]!.steps[1]!.events).toEqual([{ kind: 'assistant', content: [] }, { kind: 'empty' }]);
    expect([...replayed.initialState!.keys()]).toEqual(['GorillaFileSystem']);
  });

  it('lends its states to a log that has none, and renders the whole entry', () => {
    const logged = conversationFromLog(log)!;
    const merged = withReplayedStates(logged, replayed);
    expect(merged.stateSource).toBe('replay');
    const report: EntryReport = {
      id: 'multi_turn_base_0',
      category: 'multi_turn_base',
      model: undefined,
      resultFile: 'r.json',
      verdict: { kind: 'unknown', reason: 'not evaluated' },
      notes: [],
      view: { kind: 'multi', conversation: logged, groundTruthTurns: [['ls()'], [], []], expectedAnswer: undefined },
    };
    const text = renderEntryReport(report, createTextStyle(false));
    expect(text).toBe(
      [
        'multi_turn_base_0  ·  multi_turn_base',
        'result: r.json',
        'Verdict: not evaluated',
        '',
        'Conversation from the inference log; states not available.',
        '',
        'Turn 0',
        '  user: Hi',
        '  ground truth: ls()',
        '  step 0',
        '    assistant: thinking aloud',
        '    reasoning: why not',
        '    not decodable as function calls (the turn ends): invalid syntax (<unknown>, line 1)',
        '',
        'Turn 1',
        '  ground truth: (no call)',
        '  step 0',
        '    assistant: [ls()]',
        '    ▸ ls()',
        '      → {"current_directory_content": []}',
        '    Model has been forced to quit after 20 steps.',
        '',
        'The result has 2 turns; the ground truth has 3.',
        '',
      ].join('\n'),
    );
  });
});

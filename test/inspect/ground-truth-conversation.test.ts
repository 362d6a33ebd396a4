import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { openDataset } from '../../src/data/dataset.js';
import {
  buildGroundTruthConversation,
  groundTruthConversationFileName,
  isGroundTruthErrorResult,
  renderGroundTruthConversationLine,
} from '../../src/inspect/ground-truth-conversation.js';
import type { Category } from '../../src/spec/categories.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/ground-truth-conversation/', import.meta.url));

/**
 * The reference's visualizer loop (scripts/visualize_multi_turn_ground_truth_conversation.py) run
 * with the reference's backends (gorilla 6ea57973, CPython 3.11, this repository's long_context.json
 * patched in) on the project's data/. Two files are kept whole, the other two as sha256.
 */
const REFERENCE_SHA256: Record<string, string> = {
  multi_turn_base: '02b51d3c243b6f0c1e6a2fa878cbb02cfb4a4012b6024c3bd09278c6e3efdaa9',
  multi_turn_long_context: 'e9948fd27c4e9e7baca9137a73e0561c2ac5f8698517a90a551302e74f3e7d9e',
  multi_turn_miss_func: '3e36f0b7b22cd234479a5529326e871cf23b41c116b4d23605782d208d198e78',
  multi_turn_miss_param: '200048e5aa2062a2cb8b32c25fa1e78eeb56241d5b3d8b0091eca746c42eacd0',
};

const dataset = openDataset();
const context = { longContext: dataset.longContext() };

function conversationFile(category: Category): string {
  const entries = dataset.loadTestEntries(category);
  const answers = dataset.loadPossibleAnswers(category);
  return entries.map((entry, i) => renderGroundTruthConversationLine(buildGroundTruthConversation(entry, answers[i]!, context).line) + '\n').join('');
}

describe('ground-truth conversations of data/', () => {
  it.each(['multi_turn_base', 'multi_turn_miss_func'] as const)('%s is byte-identical to the reference visualizer', (category) => {
    expect(conversationFile(category)).toBe(readFileSync(`${FIXTURES}${groundTruthConversationFileName(category)}`, 'utf8'));
  });

  it.each(Object.entries(REFERENCE_SHA256))('%s has the sha256 of the reference output', (category, sha) => {
    expect(createHash('sha256').update(conversationFile(category as Category)).digest('hex')).toBe(sha);
  });

  it('logs the initial state, then per turn the query, call/result pairs and the state', () => {
    const entry = dataset.loadTestEntries('multi_turn_miss_func')[0]!;
    const answer = dataset.loadPossibleAnswers('multi_turn_miss_func')[0]!;
    const { line, errors } = buildGroundTruthConversation(entry, answer, context);
    expect(errors).toEqual([]);
    const log = line.get('ground_truth_log') as unknown[];
    const turns = (answer.groundTruth as unknown[]).length;
    expect(log).toHaveLength(1 + 2 * turns);
    const holdOutTurn = log[1 + 2 * 2] as Map<string, unknown>[];
    // The hold-out turn has no user message; its ground truth holds the held-out call.
    expect(holdOutTurn[0]!.get('begin_of_turn_query')).toEqual([]);
    expect(holdOutTurn[1]!.get('content')).toBe("diff(file_name1='counts_march.txt', file_name2='counts_april.txt')");
  });

  it('reports ground-truth calls whose execution fails', () => {
    const entry = dataset.loadTestEntries('multi_turn_base')[0]!;
    const answer = { ...dataset.loadPossibleAnswers('multi_turn_base')[0]!, groundTruth: [["cd(folder='nowhere')", 'no_such_function()']] };
    const { errors } = buildGroundTruthConversation(entry, answer, context);
    expect(errors.map((e) => [e.turn, e.call])).toEqual([
      [0, "cd(folder='nowhere')"],
      [0, 'no_such_function()'],
    ]);
    expect(errors[1]!.result).toBe("Error during execution: name 'no_such_function' is not defined");
  });
});

describe('isGroundTruthErrorResult', () => {
  it.each([
    ['{"error": "No such directory"}', true],
    ['Error during execution: boom', true],
    ['"Error during execution: quoted"', true],
    ['{"result": 1}', false],
    ['None', false],
    ['5', false],
  ])('%s → %s', (result, expected) => {
    expect(isGroundTruthErrorResult(result)).toBe(expected);
  });
});

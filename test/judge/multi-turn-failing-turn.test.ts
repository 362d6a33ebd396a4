import { describe, expect, it } from 'vitest';

import { checkMultiTurn, type MultiTurnCheckInput } from '../../src/evaluate/multi-turn/multi-turn-checker.js';
import { pyDict } from '../../src/py/value.js';
import { EMPTY_CONTEXT } from '../helpers/sim.js';

function input(decodedTurns: string[][][], groundTruthTurns: string[][]): MultiTurnCheckInput {
  return {
    entryId: 'multi_turn_base_0',
    initialConfig: pyDict({ TwitterAPI: pyDict({ username: 'alice', password: 'pw', authenticated: true }) }),
    involvedClasses: ['TwitterAPI'],
    modelName: 'm',
    decodedTurns,
    groundTruthTurns,
    context: EMPTY_CONTEXT,
  };
}

const follow = (name: string): string => `follow_user(username_to_follow='${name}')`;

// The judge compares its per-turn labels with a per-turn BFCL verdict: the checker names the turn it stopped at.
describe('checkMultiTurn: the failing turn', () => {
  it.each([
    ['an empty turn', [[[follow('bob')]], []], [[follow('bob')], [follow('carol')]], 'multi_turn:empty_turn_model_response', 1],
    ['a state mismatch', [[[follow('bob')]], [[follow('dave')]], [[follow('x')]]], [[follow('bob')], [follow('carol')], [follow('x')]], 'multi_turn:instance_state_mismatch', 1],
    ['a state mismatch after turns without ground truth', [[[follow('carol')]], [], [[follow('bob')]]], [[], [], [follow('bob')]], 'multi_turn:instance_state_mismatch', 2],
    ['the first turn', [[[follow('dave')]]], [[follow('bob')]], 'multi_turn:instance_state_mismatch', 0],
  ])('%s', (_name, decoded, groundTruth, errorType, turn) => {
    const check = checkMultiTurn(input(decoded, groundTruth));
    expect(check.valid).toBe(false);
    if (check.valid) return;
    expect(check.errorType).toBe(errorType);
    expect(check.turn).toBe(turn);
  });

  it('an execution response mismatch names its turn', () => {
    // Same end state, but the ground truth's result (a listing) is not among the model's results.
    const check = checkMultiTurn(input([[[follow('bob')]], [[follow('bob')]]], [[follow('bob')], ['get_user_tweets(username=\'alice\')']]));
    expect(check.valid).toBe(false);
    if (check.valid) return;
    expect(check.errorType).toBe('multi_turn:execution_response_mismatch');
    expect(check.turn).toBe(1);
  });
});

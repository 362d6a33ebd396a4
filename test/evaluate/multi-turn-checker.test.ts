import { describe, expect, it } from 'vitest';

import { checkMultiTurn, type MultiTurnCheckInput } from '../../src/evaluate/multi-turn/multi-turn-checker.js';
import { jsonDumps } from '../../src/py/json.js';
import { pyDict, type PyDict } from '../../src/py/value.js';
import { lazySimContext } from '../../src/sim/simulated-api.js';

const context = lazySimContext(() => {
  throw new Error('no long-context data in this test');
});

function input(decodedTurns: string[][][], groundTruthTurns: string[][]): MultiTurnCheckInput {
  return {
    entryId: 'multi_turn_base_0',
    initialConfig: pyDict({ TwitterAPI: pyDict({ username: 'alice', password: 'pw', authenticated: true }) }),
    involvedClasses: ['TwitterAPI'],
    modelName: 'm',
    decodedTurns,
    groundTruthTurns,
    context,
  };
}

const details = (error: PyDict): PyDict => error.get('details') as PyDict;

describe('checkMultiTurn state check', () => {
  it('passes when the model reaches the ground truth state and results', () => {
    const calls = ["follow_user(username_to_follow='bob')"];
    expect(checkMultiTurn(input([[calls]], [calls])).valid).toBe(true);
  });

  it('reports every differing public attribute, in attribute order, with both full states', () => {
    const check = checkMultiTurn(
      input([[["post_tweet(content='hi')", "follow_user(username_to_follow='carol')"]]], [["follow_user(username_to_follow='bob')"]]),
    );
    expect(check.valid).toBe(false);
    if (check.valid) return;
    expect(check.errorType).toBe('multi_turn:instance_state_mismatch');
    const differences = details(check.error).get('differences') as PyDict;
    expect([...differences.keys()]).toEqual(['tweets', 'following_list', 'tweet_counter']);
    expect(jsonDumps((differences.get('tweet_counter') as PyDict))).toBe('{"model": 1, "ground_truth": 0}');
    const modelState = details(check.error).get('model_instance_state') as PyDict;
    expect([...modelState.keys()]).toEqual(['username', 'password', 'authenticated', 'tweets', 'comments', 'retweets', 'following_list', 'tweet_counter']);
    expect(check.error.get('execution_result')).toBeDefined();
  });

  it('checks the state only after turns with ground-truth calls, and then sees what the earlier turns changed', () => {
    // Turn 0 has no ground-truth calls: the model's extra follow is not checked there, but the
    // state it leaves is still different at turn 1.
    const check = checkMultiTurn(
      input([[["follow_user(username_to_follow='carol')"]], [["follow_user(username_to_follow='bob')"]]], [[], ["follow_user(username_to_follow='bob')"]]),
    );
    expect(check.valid).toBe(false);
    if (check.valid) return;
    expect([...(details(check.error).get('differences') as PyDict).keys()]).toEqual(['following_list']);
  });
});

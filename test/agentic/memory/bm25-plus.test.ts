import { describe, expect, it } from 'vitest';

import { Bm25Plus, tokenizeKeyText } from '../../../src/agentic/memory/bm25-plus.js';
import { raised } from '../../helpers/python.js';

const KEYS = ['user_first_name', 'user_age', 'user_city', 'favorite_coffee_drink', 'espresso_machine_preference', 'user_name_alias'];

/** Scores of every key for `query`, paired with the key, best first (stable), cut to `k`. */
function ranked(keys: readonly string[], query: string, k = 5): [number, string][] {
  const scores = new Bm25Plus(keys.map(tokenizeKeyText)).scores(tokenizeKeyText(query));
  return keys
    .map((key, i): [number, string] => [scores[i]!, key])
    .sort((a, b) => (a[0] === b[0] ? 0 : a[0] > b[0] ? -1 : 1))
    .slice(0, k);
}

describe('BM25+ (rank_bm25 0.2.2) on key names', () => {
  it.each([
    [
      'user name',
      [
        [3.5282403009806513, 'user_first_name'],
        [3.5282403009806513, 'user_name_alias'],
        [2.442931756921408, 'user_age'],
        [2.442931756921408, 'user_city'],
        [1.8123787564307907, 'favorite_coffee_drink'],
      ],
    ],
    [
      'coffee',
      [
        [3.7881919469775034, 'favorite_coffee_drink'],
        [1.9459101490553132, 'user_first_name'],
        [1.9459101490553132, 'user_age'],
        [1.9459101490553132, 'user_city'],
        [1.9459101490553132, 'espresso_machine_preference'],
      ],
    ],
    [
      'user user',
      [
        [2.38033757685208, 'user_age'],
        [2.38033757685208, 'user_city'],
        [2.1788591033225333, 'user_first_name'],
        [2.1788591033225333, 'user_name_alias'],
        [1.1192315758708453, 'favorite_coffee_drink'],
      ],
    ],
    [
      'nothing matches',
      [
        [0, 'user_first_name'],
        [0, 'user_age'],
        [0, 'user_city'],
        [0, 'favorite_coffee_drink'],
        [0, 'espresso_machine_preference'],
      ],
    ],
  ])('scores and orders %j as the spec vectors', (query, expected) => {
    expect(ranked(KEYS, query)).toEqual(expected);
  });

  it('keeps ties in insertion order and cuts at k', () => {
    expect(ranked(['a_name', 'b_name', 'c_other'], 'name', 2)).toEqual([
      [1.3862943611198906, 'a_name'],
      [1.3862943611198906, 'b_name'],
    ]);
  });

  it('gives idf·delta to keys without the term (BM25+), and 0 for unknown query tokens', () => {
    const scores = new Bm25Plus([['a'], ['b']]).scores(['a', 'zzz']);
    // ln(3) as CPython prints it (V8's Math.log(3) is 1.0986122886681096).
    expect(scores[1]).toBe(1.0986122886681098);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
  });

  it('raises division by zero on an empty corpus', () => {
    expect(raised(() => new Bm25Plus([]))).toBe('ZeroDivisionError: division by zero');
  });

  it.each([
    ['Favorite_Coffee  drink', ['favorite', 'coffee', 'drink']],
    ["user's_name", ["user's", 'name']],
    ['tab\there\u3000wide', ['tab', 'here', 'wide']],
    ['__', []],
  ])('tokenises %j as the reference (replace _, lower, split)', (text, tokens) => {
    expect(tokenizeKeyText(text)).toEqual(tokens);
  });

  it('refuses a non-str query as Python does', () => {
    expect(raised(() => tokenizeKeyText(5n))).toBe("AttributeError: 'int' object has no attribute 'replace'");
  });
});

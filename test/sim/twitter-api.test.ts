import { afterEach, describe, expect, it } from 'vitest';
import { pyDict, type PyValue } from '../../src/py/value.js';
import { POST_TWEET_DEFAULT_MENTIONS, POST_TWEET_DEFAULT_TAGS, TwitterAPI } from '../../src/sim/twitter-api.js';
import { callMethod, loadSim, raised, show } from '../helpers/sim.js';

const api = (scenario: Record<string, PyValue> = {}): TwitterAPI => loadSim((ctx) => new TwitterAPI(ctx), scenario);

const tweet = (id: bigint, username: string, content: string, tags: PyValue[] = [], mentions: PyValue[] = []) =>
  pyDict({ id, username, content, tags, mentions });

/** A scenario shaped like the dataset's: string tweet keys, string comment keys. */
function scenario(): Record<string, PyValue> {
  return {
    username: 'analyst',
    password: 'pw',
    authenticated: true,
    tweets: pyDict({
      '0': tweet(0n, 'analyst', 'Reports are done!', ['#Analysis']),
      '1': tweet(1n, 'analyst', 'Budget insights soon', ['#budget'], ['@boss']),
      '2': tweet(2n, 'other', 'Weekend plans', ['#fun']),
    }),
    comments: pyDict({ '1': [pyDict({ username: 'fan', comment: 'Nice!' })] }),
    tweet_counter: 3n,
  };
}

afterEach(() => {
  // The shared defaults are process-wide on purpose; keep tests independent of each other.
  POST_TWEET_DEFAULT_TAGS.length = 0;
  POST_TWEET_DEFAULT_MENTIONS.length = 0;
});

describe('TwitterAPI state', () => {
  it('lists the public state in the reference order with the default values', () => {
    expect(show(pyDict(api()._publicState()))).toBe(
      '{"username": "john", "password": "john123", "authenticated": false, "tweets": {}, "comments": {}, ' +
        '"retweets": {}, "following_list": ["alice", "bob"], "tweet_counter": 0}',
    );
  });

  it('converts scenario tweet keys to int but keeps comment keys as strings', () => {
    const t = api(scenario());
    expect([...t.tweets.keys()]).toEqual([0n, 1n, 2n]);
    expect([...t.comments.keys()]).toEqual(['1']);
  });

  it('rejects a tweet key that int() cannot parse', () => {
    expect(raised(() => api({ tweets: pyDict({ abc: tweet(0n, 'a', 'b') }) }))).toBe(
      "ValueError: invalid literal for int() with base 10: 'abc'",
    );
  });

  it('does not share the default following list between instances', () => {
    const a = api({ authenticated: true });
    a.follow_user('carol');
    expect(api().following_list).toEqual(['alice', 'bob']);
  });
});

describe('TwitterAPI authentication', () => {
  it('authenticate_twitter and posting_get_login_status', () => {
    const t = api();
    expect(show(t.posting_get_login_status())).toBe('{"login_status": false}');
    expect(show(t.authenticate_twitter('john', 'wrong'))).toBe('{"authentication_status": false}');
    expect(t.authenticated).toBe(false);
    expect(show(t.authenticate_twitter('john', 'john123'))).toBe('{"authentication_status": true}');
    expect(show(t.posting_get_login_status())).toBe('{"login_status": true}');
  });

  it('methods that need authentication say so', () => {
    const t = api({ tweets: scenario()['tweets']! });
    const error = (verb: string) => `{"error": "User not authenticated. Please authenticate before ${verb}."}`;
    expect(show(t.post_tweet('x', [], []))).toBe(error('posting'));
    expect(show(t.retweet(0n))).toBe(error('retweeting'));
    expect(show(t.comment(0n, 'x'))).toBe(error('commenting'));
    expect(show(t.follow_user('x'))).toBe(error('following'));
    expect(show(t.list_all_following())).toBe(error('listing following'));
    expect(show(t.unfollow_user('x'))).toBe(error('unfollowing'));
  });
});

describe('TwitterAPI tweets', () => {
  it('post_tweet stores and returns the tweet with the next id', () => {
    const t = api(scenario());
    expect(show(t.post_tweet('Hello', ['#hi'], ['@bob']))).toBe(
      '{"id": 3, "username": "analyst", "content": "Hello", "tags": ["#hi"], "mentions": ["@bob"]}',
    );
    expect(t.tweet_counter).toBe(4n);
    expect(show(t.get_tweet(3n))).toContain('"content": "Hello"');
  });

  it('post_tweet defaults are the shared lists of _signatures', () => {
    const t = api({ authenticated: true });
    const first = callMethod(t, 'post_tweet', { content: 'one' });
    expect(show(first)).toBe('{"id": 0, "username": "john", "content": "one", "tags": [], "mentions": []}');
    expect((first as Map<string, PyValue>).get('mentions')).toBe(POST_TWEET_DEFAULT_MENTIONS);
    expect((first as Map<string, PyValue>).get('tags')).toBe(POST_TWEET_DEFAULT_TAGS);
  });

  it('mention() on a default-mention tweet pollutes later tweets, in every instance (mutable default)', () => {
    const t = api({ authenticated: true });
    callMethod(t, 'post_tweet', { content: 'one' });
    expect(show(t.mention(0n, ['@alice']))).toBe('{"mention_status": "Users mentioned successfully"}');
    expect(show(callMethod(t, 'post_tweet', { content: 'two' }))).toBe(
      '{"id": 1, "username": "john", "content": "two", "tags": [], "mentions": ["@alice"]}',
    );
    const fresh = api({ authenticated: true });
    expect(show(callMethod(fresh, 'post_tweet', { content: 'three' }))).toContain('"mentions": ["@alice"]');
    // An explicit list is the tweet's own.
    expect(show(callMethod(fresh, 'post_tweet', { content: 'four', mentions: [] }))).toContain('"mentions": []');
  });

  it('mention extends the list in place, without an authentication check', () => {
    const t = api({ ...scenario(), authenticated: false });
    expect(show(t.mention(1n, ['@a', '@b']))).toBe('{"mention_status": "Users mentioned successfully"}');
    expect(show(t.get_tweet(1n))).toContain('"mentions": ["@boss", "@a", "@b"]');
    t.mention(1n, '@c'); // a str is iterated character by character
    expect(show(t.get_tweet(1n))).toContain('"mentions": ["@boss", "@a", "@b", "@", "c"]');
    expect(show(t.mention(9n, ['@x']))).toBe('{"error": "Tweet with ID 9 not found."}');
    expect(raised(() => t.mention(1n, 5n))).toBe("TypeError: 'int' object is not iterable");
  });

  it('mention of a tweet with its own list doubles it like list.extend(self)', () => {
    const t = api({ authenticated: true });
    const mentions: PyValue[] = ['@x'];
    t.post_tweet('c', [], mentions);
    t.mention(0n, mentions);
    expect(mentions).toEqual(['@x', '@x']);
  });

  it('get_tweet looks ids up with Python equality: a str id never matches', () => {
    const t = api(scenario());
    expect(show(t.get_tweet(1n))).toBe(
      '{"id": 1, "username": "analyst", "content": "Budget insights soon", "tags": ["#budget"], "mentions": ["@boss"]}',
    );
    expect(show(t.get_tweet(1))).toContain('"id": 1'); // 1.0 == 1
    expect(show(t.get_tweet(true))).toContain('"id": 1'); // True == 1
    expect(show(t.get_tweet('1'))).toBe('{"error": "Tweet with ID 1 not found."}');
    expect(raised(() => t.get_tweet([1n]))).toBe("TypeError: unhashable type: 'list'");
  });

  it('get_user_tweets returns a list', () => {
    const t = api(scenario());
    expect(show(t.get_user_tweets('other'))).toBe(
      "[{'id': 2, 'username': 'other', 'content': 'Weekend plans', 'tags': ['#fun'], 'mentions': []}]",
    );
    expect(show(t.get_user_tweets('nobody'))).toBe('[]');
  });

  it('search_tweets matches a content substring or a whole tag, case-insensitively', () => {
    const t = api(scenario());
    const ids = (v: PyValue) => (v as Map<string, PyValue>[]).map((x) => x.get('id'));
    expect(ids(t.search_tweets('REPORTS'))).toEqual([0n]);
    expect(ids(t.search_tweets('#analysis'))).toEqual([0n]);
    expect(ids(t.search_tweets('#analy'))).toEqual([]);
    expect(ids(t.search_tweets('e'))).toEqual([0n, 1n, 2n]);
    expect(raised(() => t.search_tweets(1n))).toBe("AttributeError: 'int' object has no attribute 'lower'");
  });
});

describe('TwitterAPI retweets and comments', () => {
  it('retweet records the id once per user', () => {
    const t = api(scenario());
    expect(show(t.retweet(2n))).toBe('{"retweet_status": "Successfully retweeted"}');
    expect(show(t.retweet(2n))).toBe('{"retweet_status": "Already retweeted"}');
    expect(show(t.retweets)).toBe('{"analyst": [2]}');
    expect(show(t.retweet('2'))).toBe('{"error": "Tweet with ID 2 not found."}');
  });

  it('comment adds under the int id, next to string-keyed scenario comments', () => {
    const t = api(scenario());
    expect(show(t.comment(1n, 'Great'))).toBe('{"comment_status": "Comment added successfully"}');
    expect([...t.comments.keys()]).toEqual(['1', 1n]);
    expect(show(t.comments)).toBe(
      '{"1": [{"username": "fan", "comment": "Nice!"}], "1": [{"username": "analyst", "content": "Great"}]}',
    );
    expect(show(t.comment(7n, 'x'))).toBe('{"error": "Tweet with ID 7 not found."}');
  });

  it('get_tweet_comments finds only int-keyed comments and returns a list', () => {
    const t = api(scenario());
    expect(show(t.get_tweet_comments(1n))).toBe('[]'); // the scenario's '1' key is a str
    t.comment(1n, 'Great');
    t.comment(1n, 'Again');
    expect(show(t.get_tweet_comments(1n))).toBe(
      "[{'username': 'analyst', 'content': 'Great'}, {'username': 'analyst', 'content': 'Again'}]",
    );
    expect(show(t.get_tweet_comments(5n))).toBe('{"error": "Tweet with ID 5 not found."}');
  });
});

describe('TwitterAPI following and stats', () => {
  it('follow_user, unfollow_user and list_all_following', () => {
    const t = api({ authenticated: true });
    expect(show(t.follow_user('carol'))).toBe('{"follow_status": true}');
    expect(show(t.follow_user('alice'))).toBe('{"follow_status": false}');
    expect(show(t.list_all_following())).toBe('{"following_list": ["alice", "bob", "carol"]}');
    expect(show(t.unfollow_user('bob'))).toBe('{"unfollow_status": true}');
    expect(show(t.unfollow_user('bob'))).toBe('{"unfollow_status": false}');
    expect(show(t.list_all_following())).toBe('{"following_list": ["alice", "carol"]}');
  });

  it('get_user_stats counts following only for the account owner', () => {
    const t = api(scenario());
    t.retweet(2n);
    expect(show(t.get_user_stats('analyst'))).toBe('{"tweet_count": 2, "following_count": 2, "retweet_count": 1}');
    expect(show(t.get_user_stats('other'))).toBe('{"tweet_count": 1, "following_count": 0, "retweet_count": 0}');
    expect(raised(() => t.get_user_stats(['x']))).toBe("TypeError: unhashable type: 'list'");
  });
});

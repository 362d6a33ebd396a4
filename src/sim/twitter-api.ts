/**
 * TwitterAPI: the simulated social-media account of the multi-turn categories.
 *
 * Port of the reference's `posting_api.py` (spec §6.4). Tweets live in a dict keyed by int id,
 * comments in a dict keyed by tweet id, retweets in a dict username → list of tweet ids.
 */
import { pyLen } from '../py/builtins.js';
import {
  augmented,
  dictGetOr,
  dictLookup,
  dictSet,
  expectListFor,
  getItem,
  lower,
  pyIntConvert,
  pyIterate,
} from '../py/ops.js';
import { pyStr } from '../py/repr.js';
import { listContains, pyDict, pyEquals, pyTruthy, type PyDict, type PyValue } from '../py/value.js';
import { SimulatedApi, opt, req, type MethodSignatures } from './simulated-api.js';

/**
 * BFCL parity: posting_api.py::post_tweet — `tags: List[str] = []` and `mentions: List[str] = []`
 * are Python mutable defaults: one list object per process, shared by every tweet posted without
 * that argument. `mention()` extends a tweet's `mentions` list in place, so mentioning users on
 * such a tweet also changes the default for every later default-mention tweet, in every instance.
 * The executor passes these very arrays as the defaults, which reproduces that sharing.
 */
export const POST_TWEET_DEFAULT_TAGS: PyValue[] = [];
export const POST_TWEET_DEFAULT_MENTIONS: PyValue[] = [];

/** The reference's DEFAULT_STATE scalars. */
const DEFAULT_USERNAME = 'john';
const DEFAULT_PASSWORD = 'john123';
const defaultFollowingList = (): PyValue[] => ['alice', 'bob'];

const notAuthenticated = (verb: string): PyDict =>
  pyDict({ error: `User not authenticated. Please authenticate before ${verb}.` });
const tweetNotFound = (tweetId: PyValue): PyDict => pyDict({ error: `Tweet with ID ${pyStr(tweetId)} not found.` });

/** Python signatures of the public methods (one table for every instance). */
const SIGNATURES: MethodSignatures = {
  authenticate_twitter: [req('username'), req('password')],
  posting_get_login_status: [],
  post_tweet: [req('content'), opt('tags', POST_TWEET_DEFAULT_TAGS), opt('mentions', POST_TWEET_DEFAULT_MENTIONS)],
  retweet: [req('tweet_id')],
  comment: [req('tweet_id'), req('comment_content')],
  mention: [req('tweet_id'), req('mentioned_usernames')],
  follow_user: [req('username_to_follow')],
  list_all_following: [],
  unfollow_user: [req('username_to_unfollow')],
  get_tweet: [req('tweet_id')],
  get_user_tweets: [req('username')],
  search_tweets: [req('keyword')],
  get_tweet_comments: [req('tweet_id')],
  get_user_stats: [req('username')],
};

export class TwitterAPI extends SimulatedApi {
  readonly _className = 'TwitterAPI';

  // Public state, in the order the reference's `_load_scenario` assigns it (= `vars()` order).
  username: PyValue = DEFAULT_USERNAME;
  password: PyValue = DEFAULT_PASSWORD;
  authenticated: PyValue = false;
  /** tweet id (int) → tweet dict `{id, username, content, tags, mentions}`. */
  tweets: PyDict = new Map();
  /** tweet id → list of `{username, content}`; ids from the scenario stay strings, new ones are ints. */
  comments: PyDict = new Map();
  /** username → list of retweeted tweet ids. */
  retweets: PyDict = new Map();
  following_list: PyValue[] = defaultFollowingList();
  /** Next tweet id; may differ from the number of tweets. */
  tweet_counter: PyValue = 0n;

  readonly _signatures = SIGNATURES;

  _loadScenario(scenario: PyDict, _longContext: boolean): void {
    const get = (key: string, fallback: PyValue): PyValue => dictGetOr(scenario, key, fallback);
    this.username = get('username', DEFAULT_USERNAME);
    this.password = get('password', DEFAULT_PASSWORD);
    this.authenticated = get('authenticated', false);
    // Scenario JSON keys are strings; the reference converts the tweet ids (only those) to int.
    const tweets = this._scenarioDict(scenario, 'tweets', () => new Map());
    this.tweets = new Map();
    for (const [key, tweet] of tweets) dictSet(this.tweets, pyIntConvert(key), tweet);
    this.comments = this._scenarioDict(scenario, 'comments', () => new Map());
    this.retweets = this._scenarioDict(scenario, 'retweets', () => new Map());
    this.following_list = this._scenarioList(scenario, 'following_list', () => defaultFollowingList());
    this.tweet_counter = get('tweet_counter', 0n);
  }

  authenticate_twitter(username: PyValue, password: PyValue): PyValue {
    if (pyEquals(username, this.username) && pyEquals(password, this.password)) {
      this.authenticated = true;
      return pyDict({ authentication_status: true });
    }
    return pyDict({ authentication_status: false });
  }

  posting_get_login_status(): PyValue {
    return pyDict({ login_status: pyTruthy(this.authenticated) });
  }

  post_tweet(content: PyValue, tags: PyValue, mentions: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) return notAuthenticated('posting');
    // The tweet keeps the very list objects it was given (see POST_TWEET_DEFAULT_MENTIONS).
    const tweet = pyDict({ id: this.tweet_counter, username: this.username, content, tags, mentions });
    dictSet(this.tweets, this.tweet_counter, tweet);
    this.tweet_counter = augmented('+', this.tweet_counter, 1n);
    return tweet;
  }

  retweet(tweet_id: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) return notAuthenticated('retweeting');
    if (dictLookup(this.tweets, tweet_id) === undefined) return tweetNotFound(tweet_id);
    if (dictLookup(this.retweets, this.username) === undefined) dictSet(this.retweets, this.username, []);
    const userRetweets = expectListFor(dictLookup(this.retweets, this.username)!, 'append');
    if (listContains(userRetweets, tweet_id)) return pyDict({ retweet_status: 'Already retweeted' });
    userRetweets.push(tweet_id);
    return pyDict({ retweet_status: 'Successfully retweeted' });
  }

  comment(tweet_id: PyValue, comment_content: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) return notAuthenticated('commenting');
    if (dictLookup(this.tweets, tweet_id) === undefined) return tweetNotFound(tweet_id);
    // BFCL parity: posting_api.py::comment — the int id is looked up as is, so comments loaded
    // from the scenario under string keys are not found and a new int-keyed list is started.
    if (dictLookup(this.comments, tweet_id) === undefined) dictSet(this.comments, tweet_id, []);
    const tweetComments = expectListFor(dictLookup(this.comments, tweet_id)!, 'append');
    tweetComments.push(pyDict({ username: this.username, content: comment_content }));
    return pyDict({ comment_status: 'Comment added successfully' });
  }

  mention(tweet_id: PyValue, mentioned_usernames: PyValue): PyValue {
    // No authentication check in the reference.
    const tweet = dictLookup(this.tweets, tweet_id);
    if (tweet === undefined) return tweetNotFound(tweet_id);
    const mentions = expectListFor(getItem(tweet, 'mentions'), 'extend');
    // Materialise first: `l.extend(l)` doubles the list in Python instead of looping forever.
    mentions.push(...pyIterate(mentioned_usernames));
    return pyDict({ mention_status: 'Users mentioned successfully' });
  }

  follow_user(username_to_follow: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) return notAuthenticated('following');
    if (listContains(this.following_list, username_to_follow)) return pyDict({ follow_status: false });
    this.following_list.push(username_to_follow);
    return pyDict({ follow_status: true });
  }

  list_all_following(): PyValue {
    if (!pyTruthy(this.authenticated)) return notAuthenticated('listing following');
    return pyDict({ following_list: this.following_list });
  }

  unfollow_user(username_to_unfollow: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) return notAuthenticated('unfollowing');
    const index = this.following_list.findIndex((name) => pyEquals(name, username_to_unfollow));
    if (index < 0) return pyDict({ unfollow_status: false });
    this.following_list.splice(index, 1);
    return pyDict({ unfollow_status: true });
  }

  get_tweet(tweet_id: PyValue): PyValue {
    return dictLookup(this.tweets, tweet_id) ?? tweetNotFound(tweet_id);
  }

  /** LIST: every tweet whose author is `username`. */
  get_user_tweets(username: PyValue): PyValue {
    return [...this.tweets.values()].filter((tweet) => pyEquals(getItem(tweet, 'username'), username));
  }

  /** LIST: tweets whose content contains the keyword or that have it as a tag (case-insensitive). */
  search_tweets(keyword: PyValue): PyValue {
    const matches: PyValue[] = [];
    for (const tweet of this.tweets.values()) {
      // Evaluated in the reference's order: keyword, content, then (only if needed) the tags.
      const needle = lower(keyword);
      const inContent = lower(getItem(tweet, 'content')).includes(needle);
      if (inContent || pyIterate(getItem(tweet, 'tags')).map(lower).includes(needle)) {
        matches.push(tweet);
      }
    }
    return matches;
  }

  /** LIST of `{username, content}` (the not-found error is a dict). */
  get_tweet_comments(tweet_id: PyValue): PyValue {
    if (dictLookup(this.tweets, tweet_id) === undefined) return tweetNotFound(tweet_id);
    return dictLookup(this.comments, tweet_id) ?? [];
  }

  get_user_stats(username: PyValue): PyValue {
    const tweetCount = [...this.tweets.values()].filter((tweet) => pyEquals(getItem(tweet, 'username'), username)).length;
    // Only the account's own user has a following list.
    const followingCount = pyEquals(username, this.username) ? this.following_list.length : 0;
    const retweetCount = pyLen(dictLookup(this.retweets, username) ?? []);
    return pyDict({
      tweet_count: BigInt(tweetCount),
      following_count: BigInt(followingCount),
      retweet_count: BigInt(retweetCount),
    });
  }
}

/**
 * TwitterAPI: the simulated social-media account of the multi-turn categories.
 *
 * Port of the reference's `posting_api.py` (spec §6.4). Tweets live in a dict keyed by int id,
 * comments in a dict keyed by tweet id, retweets in a dict username → list of tweet ids.
 */
import { pyRepr, pyStr } from '../py/repr.js';
import {
  PyException,
  PyObject,
  PySet,
  PyTuple,
  listContains,
  pyDict,
  pyEquals,
  pyTruthy,
  pyTypeName,
  type PyDict,
  type PyKey,
  type PyValue,
} from '../py/value.js';
import { SimulatedApi, opt, req, type MethodSignatures, type SimContext } from './simulated-api.js';

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

  readonly _signatures: MethodSignatures = {
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

  constructor(_ctx: SimContext) {
    super();
  }

  _loadScenario(scenario: PyDict, _longContext: boolean): void {
    this.username = scenarioGet(scenario, 'username', DEFAULT_USERNAME);
    this.password = scenarioGet(scenario, 'password', DEFAULT_PASSWORD);
    this.authenticated = scenarioGet(scenario, 'authenticated', false);
    // Scenario JSON keys are strings; the reference converts the tweet ids (only those) to int.
    const tweets = expectDict(scenarioGet(scenario, 'tweets', new Map()), 'tweets');
    this.tweets = new Map();
    for (const [key, tweet] of tweets) dictSet(this.tweets, pyIntOf(key), tweet);
    this.comments = expectDict(scenarioGet(scenario, 'comments', new Map()), 'comments');
    this.retweets = expectDict(scenarioGet(scenario, 'retweets', new Map()), 'retweets');
    this.following_list = expectList(scenarioGet(scenario, 'following_list', defaultFollowingList()), 'following_list');
    this.tweet_counter = scenarioGet(scenario, 'tweet_counter', 0n);
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
    this.tweet_counter = increment(this.tweet_counter);
    return tweet;
  }

  retweet(tweet_id: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) return notAuthenticated('retweeting');
    if (lookup(this.tweets, tweet_id) === undefined) return tweetNotFound(tweet_id);
    if (lookup(this.retweets, this.username) === undefined) dictSet(this.retweets, this.username, []);
    const userRetweets = expectListValue(lookup(this.retweets, this.username)!, 'append');
    if (listContains(userRetweets, tweet_id)) return pyDict({ retweet_status: 'Already retweeted' });
    userRetweets.push(tweet_id);
    return pyDict({ retweet_status: 'Successfully retweeted' });
  }

  comment(tweet_id: PyValue, comment_content: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) return notAuthenticated('commenting');
    if (lookup(this.tweets, tweet_id) === undefined) return tweetNotFound(tweet_id);
    // BFCL parity: posting_api.py::comment — the int id is looked up as is, so comments loaded
    // from the scenario under string keys are not found and a new int-keyed list is started.
    if (lookup(this.comments, tweet_id) === undefined) dictSet(this.comments, tweet_id, []);
    const tweetComments = expectListValue(lookup(this.comments, tweet_id)!, 'append');
    tweetComments.push(pyDict({ username: this.username, content: comment_content }));
    return pyDict({ comment_status: 'Comment added successfully' });
  }

  mention(tweet_id: PyValue, mentioned_usernames: PyValue): PyValue {
    // No authentication check in the reference.
    const tweet = lookup(this.tweets, tweet_id);
    if (tweet === undefined) return tweetNotFound(tweet_id);
    const mentions = expectListValue(getItem(tweet, 'mentions'), 'extend');
    // Materialise first: `l.extend(l)` doubles the list in Python instead of looping forever.
    mentions.push(...iterate(mentioned_usernames));
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
    return lookup(this.tweets, tweet_id) ?? tweetNotFound(tweet_id);
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
      if (inContent || iterate(getItem(tweet, 'tags')).map(lower).includes(needle)) {
        matches.push(tweet);
      }
    }
    return matches;
  }

  /** LIST of `{username, content}` (the not-found error is a dict). */
  get_tweet_comments(tweet_id: PyValue): PyValue {
    if (lookup(this.tweets, tweet_id) === undefined) return tweetNotFound(tweet_id);
    return lookup(this.comments, tweet_id) ?? [];
  }

  get_user_stats(username: PyValue): PyValue {
    const tweetCount = [...this.tweets.values()].filter((tweet) => pyEquals(getItem(tweet, 'username'), username)).length;
    // Only the account's own user has a following list.
    const followingCount = pyEquals(username, this.username) ? this.following_list.length : 0;
    const retweetCount = pyLen(lookup(this.retweets, username) ?? []);
    return pyDict({
      tweet_count: BigInt(tweetCount),
      following_count: BigInt(followingCount),
      retweet_count: BigInt(retweetCount),
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Python operations used above

/** `scenario.get(key, fallback)`: a key present with value None gives None, not the fallback. */
function scenarioGet(scenario: PyDict, key: string, fallback: PyValue): PyValue {
  return scenario.has(key) ? scenario.get(key)! : fallback;
}

function expectDict(v: PyValue, name: string): PyDict {
  if (v instanceof Map) return v;
  throw new PyException('TypeError', `TwitterAPI scenario '${name}' must be a dict, not ${pyTypeName(v)}`);
}

function expectList(v: PyValue, name: string): PyValue[] {
  if (Array.isArray(v)) return v;
  throw new PyException('TypeError', `TwitterAPI scenario '${name}' must be a list, not ${pyTypeName(v)}`);
}

/** A value on which the reference calls a list method (`append`, `extend`). */
function expectListValue(v: PyValue, method: string): PyValue[] {
  if (Array.isArray(v)) return v;
  throw new PyException('AttributeError', `'${pyTypeName(v)}' object has no attribute '${method}'`);
}

/** Python `int(k)` for a scenario dict key (a digit string in every scenario). */
function pyIntOf(k: PyKey): bigint {
  if (typeof k === 'bigint') return k;
  if (typeof k === 'boolean') return k ? 1n : 0n;
  if (typeof k === 'number' && Number.isFinite(k)) return BigInt(Math.trunc(k));
  if (typeof k === 'string') {
    const trimmed = k.trim();
    if (/^[+-]?\d+(?:_\d+)*$/.test(trimmed)) return BigInt(trimmed.replaceAll('_', ''));
    throw new PyException('ValueError', `invalid literal for int() with base 10: ${pyRepr(k)}`);
  }
  throw new PyException('TypeError', `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(k)}'`);
}

/** The value as a dict key; Python raises TypeError for lists, dicts and sets. */
function hashable(v: PyValue): PyKey {
  if (Array.isArray(v) || v instanceof Map || v instanceof PySet) {
    throw new PyException('TypeError', `unhashable type: '${pyTypeName(v)}'`);
  }
  if (v instanceof PyTuple) {
    v.items.forEach(hashable);
    return v;
  }
  // Other objects (only Ellipsis can come from a call) hash by identity in Python.
  if (v instanceof PyObject) return v as unknown as PyKey;
  return v;
}

/** `d.get(k)` with Python key equality (`1`, `1.0` and `True` are the same key; `'1'` is not). */
function lookup(d: PyDict, key: PyValue): PyValue | undefined {
  const k = hashable(key);
  if (d.has(k)) return d.get(k);
  if (typeof k === 'string' || k === null) return undefined;
  for (const [existing, value] of d) if (pyEquals(existing, k)) return value;
  return undefined;
}

/** `d[k] = v`: an equal existing key keeps its identity and position. */
function dictSet(d: PyDict, key: PyValue, value: PyValue): void {
  const k = hashable(key);
  if (!d.has(k)) {
    for (const existing of d.keys()) {
      if (pyEquals(existing, k)) {
        d.set(existing, value);
        return;
      }
    }
  }
  d.set(k, value);
}

/** `obj[key]` on a tweet dict; a missing key raises KeyError. */
function getItem(obj: PyValue, key: string): PyValue {
  if (!(obj instanceof Map)) {
    throw new PyException('TypeError', `'${pyTypeName(obj)}' object is not subscriptable`);
  }
  const value = lookup(obj, key);
  if (value === undefined) throw new PyException('KeyError', pyRepr(key));
  return value;
}

/** The items of a Python iterable (a str yields its characters, a dict its keys). */
function iterate(v: PyValue): PyValue[] {
  if (Array.isArray(v)) return [...v];
  if (typeof v === 'string') return Array.from(v);
  if (v instanceof PyTuple) return [...v.items];
  if (v instanceof Map) return [...v.keys()];
  if (v instanceof PySet) return [...v.items];
  throw new PyException('TypeError', `'${pyTypeName(v)}' object is not iterable`);
}

/** Python `len(x)` of a container. */
function pyLen(v: PyValue): number {
  if (Array.isArray(v)) return v.length;
  if (typeof v === 'string') return Array.from(v).length;
  if (v instanceof PyTuple) return v.items.length;
  if (v instanceof Map) return v.size;
  if (v instanceof PySet) return v.items.size;
  throw new PyException('TypeError', `object of type '${pyTypeName(v)}' has no len()`);
}

/** `s.lower()`; any other type has no `lower` attribute. */
function lower(s: PyValue): string {
  if (typeof s !== 'string') {
    throw new PyException('AttributeError', `'${pyTypeName(s)}' object has no attribute 'lower'`);
  }
  return s.toLowerCase();
}

/** `x += 1` on the tweet counter (an int in every scenario). */
function increment(v: PyValue): PyValue {
  if (typeof v === 'bigint') return v + 1n;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return (v ? 1n : 0n) + 1n;
  throw new PyException('TypeError', `unsupported operand type(s) for +=: '${pyTypeName(v)}' and 'int'`);
}

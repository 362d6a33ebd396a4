import { describe, expect, it } from 'vitest';
import { EntryExecutor } from '../../src/exec/executor.js';
import { canonicalJson, canonicalStateJson } from '../../src/exec/state-snapshot.js';
import { parseJsonLossless } from '../../src/py/json.js';
import type { PyDict } from '../../src/py/value.js';
import { POST_TWEET_DEFAULT_MENTIONS, POST_TWEET_DEFAULT_TAGS } from '../../src/sim/twitter-api.js';

const CONFIG = parseJsonLossless(
  JSON.stringify({
    GorillaFileSystem: {
      root: {
        alex: {
          type: 'directory',
          contents: {
            'notes.txt': { type: 'file', content: 'line one\nline two' },
            docs: { type: 'directory', contents: {} },
          },
        },
      },
    },
    TwitterAPI: { username: 'alex', password: 'pw', authenticated: true, tweets: {}, comments: {}, retweets: {}, following_list: [], tweet_counter: 0 },
  }),
) as PyDict;

function executor(modelName = 'tester_eval', classes = ['GorillaFileSystem', 'MathAPI', 'TwitterAPI']): EntryExecutor {
  return new EntryExecutor({
    modelName,
    entryId: 'multi_turn_base_7',
    initialConfig: CONFIG,
    involvedClasses: classes,
    longContext: false,
    context: { longContext: new Map() },
  });
}

describe('EntryExecutor', () => {
  it('runs calls in order with keyword and positional arguments, keeping state across calls', () => {
    const ex = executor();
    expect(ex.execute(["cd(folder='docs')", "touch('a.txt')", 'ls()', 'pwd()'])).toEqual([
      '{"current_working_directory": "docs"}',
      'None',
      '{"current_directory_content": ["a.txt"]}',
      '{"current_working_directory": "/alex/docs"}',
    ]);
    expect(ex.execute(['ls()'])).toEqual(['{"current_directory_content": ["a.txt"]}']);
  });

  it('serialises results like the reference: dicts as JSON, other values with str()', () => {
    const ex = executor();
    expect(ex.execute(['add(a=2, b=3)', 'add(a=2.0, b=3)', 'divide(a=1, b=4)'])).toEqual([
      '{"result": 5}',
      '{"result": 5.0}',
      '{"result": 0.25}',
    ]);
  });

  it('reports Python binding errors with CPython wording', () => {
    const ex = executor();
    expect(ex.execute(['cd(dir="x")', 'cd()', "cd('a', 'b')", "cd('a', folder='b')"])).toEqual([
      "Error during execution: GorillaFileSystem.cd() got an unexpected keyword argument 'dir'",
      "Error during execution: GorillaFileSystem.cd() missing 1 required positional argument: 'folder'",
      'Error during execution: GorillaFileSystem.cd() takes 2 positional arguments but 3 were given',
      "Error during execution: GorillaFileSystem.cd() got multiple values for argument 'folder'",
    ]);
  });

  it('turns unknown functions, syntax errors and forbidden names into error strings', () => {
    const ex = executor();
    expect(ex.execute(['make_coffee(size=2)', 'cd(folder=', "kill(pid=1)", 'exit()'])).toEqual([
      "Error during execution: name 'make_coffee' is not defined",
      "Error during execution: '(' was never closed (<string>, line 1)",
      'Error during execution: Function call kill is not allowed.',
      'Error during execution: Function call exit is not allowed.',
    ]);
  });

  it('runs calls the fast parser turns down in the rewritten form the reference evaluates', () => {
    const ex = executor();
    // A chat-template token leaked into the name (seen in real runs), a keyword without a name,
    // adjacent literals (valid: they concatenate) and a nested call as an argument.
    expect(
      ex.execute(["echo<|channel|>commentary(content='x')", "pwd(='')", "touch(file_name='a' '.txt')", "cat(file_name='a' + '.txt')", 'ls()']),
    ).toEqual([
      'Error during execution: invalid syntax (<string>, line 1)',
      'Error during execution: invalid syntax (<string>, line 1)',
      'None',
      '{"file_content": ""}',
      '{"current_directory_content": ["notes.txt", "docs", "a.txt"]}',
    ]);
  });

  it('leaves the initial config as it was, though the file system loads from it without a copy', () => {
    const config = parseJsonLossless(
      JSON.stringify({
        GorillaFileSystem: {
          root: { alex: { type: 'directory', contents: { 'a.txt': { type: 'file', content: 'x' }, 'l.txt': { type: 'file', content: ['p', 'q'] } } } },
        },
        TwitterAPI: { username: 'alex', password: 'pw', authenticated: true, tweets: {}, comments: {}, retweets: {}, following_list: ['bob'], tweet_counter: 0 },
      }),
    ) as PyDict;
    const before = canonicalJson(config);
    const run = (): string[] =>
      new EntryExecutor({
        modelName: 'm',
        entryId: 'multi_turn_base_1',
        initialConfig: config,
        involvedClasses: ['GorillaFileSystem', 'TwitterAPI'],
        longContext: false,
        context: { longContext: new Map() },
      }).execute(["echo(content='new', file_name='a.txt')", "mv(source='a.txt', destination='b.txt')", "touch(file_name='c.txt')", "post_tweet(content='hi')", "follow_user(username_to_follow='zed')", 'ls()']);
    const first = run();
    expect(canonicalJson(config)).toBe(before);
    // A second executor on the same config starts from the same state.
    expect(run()).toEqual(first);
  });

  it('never reaches anything but public methods of the involved instances', () => {
    const ex = executor();
    const results = ex.execute([
      "__import__('os').system('echo hacked')",
      'ls.__class__',
      "cd(folder=open('x'))",
      '_load_scenario({})',
      'ls.__globals__',
      "getattr(ls, '__self__')",
    ]);
    for (const result of results) expect(result.startsWith('Error during execution: ')).toBe(true);
    expect(results[0]).toBe("Error during execution: name '__import__' is not defined");
    expect(results[2]).toBe("Error during execution: name 'open' is not defined");
    expect(results[3]).toBe("Error during execution: name '_load_scenario' is not defined");
  });

  it('evaluates nested calls and literal arithmetic', () => {
    const ex = executor();
    // The inner call really runs: it returns a dict, which `add` rejects, as in Python.
    expect(ex.execute(['add(a=1 + 2, b=10 * 2)', 'add(a=add(a=1, b=2), b=1)', 'mean(numbers=[1, 2, 3, 4])'])).toEqual([
      '{"result": 23}',
      '{"error": "Both inputs must be numbers"}',
      '{"result": 2.5}',
    ]);
  });

  it('rejects unhashable dict keys and set members as Python does', () => {
    const ex = executor();
    expect(ex.execute(["mean(numbers={([1], 2): 3})", 'mean(numbers={[1]})', 'mean(numbers={...: 1})'])).toEqual([
      "Error during execution: unhashable type: 'list'",
      "Error during execution: unhashable type: 'list'",
      // Ellipsis is hashable: the dict reaches the method, which rejects it.
      '{"error": "All elements in the list must be numbers"}',
    ]);
  });

  it('reproduces the reference rewrite inside string literals (quirk)', () => {
    // BFCL parity: the rewrite prefixes `name(` and drops the space in `word (` even inside strings.
    const ex = executor('quirk');
    ex.execute(["echo(content='run ls() and see (maybe)', file_name='notes.txt')"]);
    const state = canonicalStateJson(ex.snapshot());
    expect(state).toContain('run quirk_multi_turn_base_7_GorillaFileSystem_instance.ls() and see(maybe)');
  });

  it('shares the mutable post_tweet defaults across instances, as Python does (quirk)', () => {
    const first = executor('a_eval', ['TwitterAPI']);
    const second = executor('b_eval', ['TwitterAPI']);
    try {
      first.execute(["post_tweet(content='hello')", "mention(tweet_id=0, mentioned_usernames=['bob'])"]);
      expect(second.execute(["post_tweet(content='again')"])).toEqual([
        '{"id": 0, "username": "alex", "content": "again", "tags": [], "mentions": ["bob"]}',
      ]);
    } finally {
      POST_TWEET_DEFAULT_TAGS.length = 0;
      POST_TWEET_DEFAULT_MENTIONS.length = 0;
    }
  });
});

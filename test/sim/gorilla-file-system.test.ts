import { describe, expect, it } from 'vitest';
import { jsonDumps } from '../../src/py/json.js';
import { pyStr } from '../../src/py/repr.js';
import { PyException, pyDict, pyEquals, type PyDict, type PyValue } from '../../src/py/value.js';
import { Directory, File, GorillaFileSystem } from '../../src/sim/gorilla-file-system.js';

// Expected strings below were produced by running the reference gorilla_file_system.py under CPython.

/** A small stand-in for long_context.json with the three lists this class reads. */
const FILLER: PyDict = pyDict({
  FILE_CONTENT_EXTENSION: ' [padding]',
  FILES_TAIL_USED: ['log.txt'],
  POPULATE_FILE_EXTENSION: ['img_1.jpg', 'img_2.jpg'],
});

type Spec = { type: 'file'; content: string } | { type: 'directory'; contents: Record<string, Spec> };

const file = (content: string): Spec => ({ type: 'file', content });
const dir = (contents: Record<string, Spec> = {}): Spec => ({ type: 'directory', contents });

/** A scenario dict as the dataset's JSON parses into Python values. */
function scenario(rootName: string, contents: Record<string, Spec>): PyDict {
  const toPy = (spec: Spec): PyDict =>
    spec.type === 'file'
      ? pyDict({ type: 'file', content: spec.content })
      : pyDict({ type: 'directory', contents: new Map(Object.entries(spec.contents).map(([k, v]): [string, PyValue] => [k, toPy(v)])) });
  return pyDict({ root: pyDict([[rootName, toPy(dir(contents))]]) });
}

function makeFs(rootName: string, contents: Record<string, Spec>, longContext = false): GorillaFileSystem {
  const fs = new GorillaFileSystem({ longContext: FILLER });
  fs._loadScenario(scenario(rootName, contents), longContext);
  return fs;
}

/** Calls a method and shows the outcome as the executor would. */
function run(fs: GorillaFileSystem, method: string, ...args: PyValue[]): string {
  const params = fs._signatures[method]!;
  const bound = params.map((p, i) => (i < args.length ? args[i]! : (p.default as PyValue)));
  const fn = (fs as unknown as Record<string, (...a: PyValue[]) => PyValue>)[method]!;
  try {
    const value = fn.apply(fs, bound);
    return value instanceof Map ? jsonDumps(value) : pyStr(value);
  } catch (error) {
    if (error instanceof PyException) return `Error during execution: ${error.message}`;
    throw error;
  }
}

const sample = (): GorillaFileSystem =>
  makeFs('home', {
    proj: dir({ 'main.py': file('print(1)\n') }),
    'a.txt': file('alpha\nbeta\ngamma'),
    'b.txt': file('alpha\nBETA\ngamma\ndelta'),
    empty: dir(),
  });

describe('GorillaFileSystem state and scenario', () => {
  it('lists long_context before root and keeps _current_dir private', () => {
    const fs = sample();
    expect(fs._publicState().map(([name]) => name)).toEqual(['long_context', 'root']);
    expect(fs.long_context).toBe(false);
    expect(fs.root.name).toBe('home');
    expect([...fs.root.contents.keys()]).toEqual(['proj', 'a.txt', 'b.txt', 'empty']);
  });

  it('uses a root named "/" without a root in the scenario', () => {
    const fs = new GorillaFileSystem({ longContext: FILLER });
    fs._loadScenario(new Map(), true);
    expect(fs.root.name).toBe('/');
    expect(fs.root.contents.size).toBe(0); // not populated, even in long context
    expect(run(fs, 'pwd')).toBe('{"current_working_directory": "//"}');
    expect(run(fs, 'cd', '..')).toBe('{"error": "Current directory is already the root. Cannot go back."}');
  });

  it('sets parent pointers while loading', () => {
    const fs = sample();
    const proj = fs.root.contents.get('proj') as Directory;
    expect(proj.parent).toBe(fs.root);
    expect(fs.root.parent).toBeNull();
  });

  it('pads files and populates directories without subdirectories in long context', () => {
    const fs = makeFs(
      'ws',
      {
        sub: dir({ 'log.txt': file('tail me'), 'r.txt': file('body') }),
        emptyDir: dir(),
        'top.txt': file('top'),
      },
      true,
    );
    expect(fs.long_context).toBe(true);
    const sub = fs.root.contents.get('sub') as Directory;
    expect([...sub.contents.keys()]).toEqual(['log.txt', 'r.txt', 'img_1.jpg', 'img_2.jpg']);
    expect((sub.contents.get('log.txt') as File).content).toBe('tail me');
    expect((sub.contents.get('r.txt') as File).content).toBe('body [padding]');
    expect((sub.contents.get('img_1.jpg') as File).content).toBe('');
    expect([...(fs.root.contents.get('emptyDir') as Directory).contents.keys()]).toEqual(['img_1.jpg', 'img_2.jpg']);
    // The root has a subdirectory, so it is not populated.
    expect([...fs.root.contents.keys()]).toEqual(['sub', 'emptyDir', 'top.txt']);
    expect((fs.root.contents.get('top.txt') as File).content).toBe('top [padding]');
  });

  it('populates a root with files only', () => {
    const fs = makeFs('ws', { 'a.txt': file('x') }, true);
    expect([...fs.root.contents.keys()]).toEqual(['a.txt', 'img_1.jpg', 'img_2.jpg']);
  });

  it('raises when a populated name already exists', () => {
    const fs = new GorillaFileSystem({ longContext: FILLER });
    expect(() => fs._loadScenario(scenario('ws', { 'img_1.jpg': file('x') }), true)).toThrow(
      "File 'img_1.jpg' already exists in directory 'ws'.",
    );
  });
});

describe('navigation', () => {
  it('pwd includes the root name', () => {
    const fs = sample();
    expect(run(fs, 'pwd')).toBe('{"current_working_directory": "/home"}');
    run(fs, 'cd', 'proj');
    expect(run(fs, 'pwd')).toBe('{"current_working_directory": "/home/proj"}');
  });

  it('ls hides dot files unless a is truthy', () => {
    const fs = makeFs('r', { '.hidden': file(''), 'v.txt': file('') });
    expect(run(fs, 'ls')).toBe('{"current_directory_content": ["v.txt"]}');
    expect(run(fs, 'ls', true)).toBe('{"current_directory_content": [".hidden", "v.txt"]}');
    expect(run(fs, 'ls', 1n)).toBe('{"current_directory_content": [".hidden", "v.txt"]}');
  });

  it('cd moves one level and reports errors', () => {
    const fs = sample();
    expect(run(fs, 'cd', 'proj/')).toBe('{"current_working_directory": "proj"}');
    expect(run(fs, 'cd', '..')).toBe('{}');
    expect(run(fs, 'cd', '../')).toBe('{"error": "Current directory is already the root. Cannot go back."}');
    expect(run(fs, 'cd', 'proj/x')).toBe(
      '{"error": "cd: proj/x: Unsupported path. Only one folder level at a time is supported."}',
    );
    expect(run(fs, 'cd', 'missing')).toBe('{"error": "cd: \'missing\': No such file or directory"}');
    expect(run(fs, 'cd', 'a.txt')).toBe('{"error": "cd: \'a.txt\': No such file or directory"}');
    expect(run(fs, 'cd', '')).toBe('{"current_working_directory": "home"}');
    expect(run(fs, 'cd', '.')).toBe('{"current_working_directory": "home"}');
    run(fs, 'cd', 'proj');
    expect(run(fs, 'cd', '/')).toBe('{"current_working_directory": "home"}');
    expect(run(fs, 'pwd')).toBe('{"current_working_directory": "/home"}');
    expect(run(fs, 'cd', 5n)).toBe("Error during execution: 'int' object has no attribute 'rstrip'");
  });

  it('find walks the tree from a path', () => {
    const fs = makeFs('r', {
      docs: dir({ 'a.txt': file('') }),
      'notes.md': file(''),
      '.hidden': file(''),
    });
    expect(run(fs, 'find')).toBe('{"matches": ["./docs", "./docs/a.txt", "./notes.md", "./.hidden"]}');
    expect(run(fs, 'find', '/', 'a')).toBe('{"matches": ["/docs/a.txt"]}');
    expect(run(fs, 'find', 'docs/')).toBe('{"matches": ["docs/a.txt"]}');
    expect(run(fs, 'find', './docs/')).toBe('{"matches": ["./docs/a.txt"]}');
    expect(run(fs, 'find', 'docs//')).toBe('{"matches": ["docs/a.txt"]}');
    expect(run(fs, 'find', 'nope')).toBe('{"error": "find: \'nope\': No such file or directory"}');
    expect(run(fs, 'find', 'docs/a.txt')).toBe('{"error": "find: \'docs/a.txt\': No such file or directory"}');
    expect(run(fs, 'find', null)).toBe("Error during execution: 'NoneType' object has no attribute 'rstrip'");
    expect(run(fs, 'find', '.', 3n)).toBe(
      "Error during execution: 'in <string>' requires string as left operand, not int",
    );
  });
});

describe('creating and writing', () => {
  it('mkdir and touch', () => {
    const fs = sample();
    expect(run(fs, 'mkdir', 'new')).toBe('None');
    expect((fs.root.contents.get('new') as Directory).parent).toBe(fs.root);
    expect(run(fs, 'mkdir', 'new')).toBe('{"error": "mkdir: cannot create directory \'new\': File exists"}');
    expect(run(fs, 'mkdir', 'a/b')).toBe('{"error": "mkdir: cannot create directory \'a/b\': Invalid character"}');
    expect(run(fs, 'touch', 't.txt')).toBe('None');
    expect((fs.root.contents.get('t.txt') as File).content).toBe('');
    expect(run(fs, 'touch', 't.txt')).toBe('{"error": "touch: cannot touch \'t.txt\': File exists"}');
    expect(run(fs, 'touch', 'x?')).toBe('{"error": "touch: cannot touch \'x?\': Invalid character"}');
    expect(run(fs, 'mkdir', 5n)).toBe("Error during execution: argument of type 'int' is not iterable");
    expect(run(fs, 'touch', ['a'])).toBe("Error during execution: unhashable type: 'list'");
  });

  it('rejects every invalid character', () => {
    const fs = sample();
    for (const ch of '|/\\?%*:"><') {
      expect(run(fs, 'touch', `x${ch}`)).toContain('Invalid character');
    }
  });

  it('echo prints or overwrites an existing file', () => {
    const fs = sample();
    run(fs, 'touch', 't.txt');
    expect(run(fs, 'echo', 'hi')).toBe('{"terminal_output": "hi"}');
    expect(run(fs, 'echo', 'hi', 't.txt')).toBe('None');
    expect(run(fs, 'cat', 't.txt')).toBe('{"file_content": "hi"}');
    expect(run(fs, 'echo', 'hi', 'missing')).toBe('{"error": "echo: cannot write to \'missing\': No such file"}');
    expect(run(fs, 'echo', 'hi', '')).toBe('{"terminal_output": "hi"}');
    expect(run(fs, 'echo', 'hi', 'a>b')).toBe('{"error": "echo: cannot write to \'a>b\': Invalid character"}');
    expect(run(fs, 'echo', 'hi', 'proj')).toBe("Error during execution: 'Directory' object has no attribute '_write'");
  });

  it('echo stores non-str content as given', () => {
    const fs = sample();
    expect(run(fs, 'echo', 42n, 'a.txt')).toBe('None');
    expect(run(fs, 'cat', 'a.txt')).toBe('{"file_content": 42}');
    expect(run(fs, 'wc', 'a.txt')).toBe("Error during execution: 'int' object has no attribute 'splitlines'");
    expect(run(fs, 'du')).toBe("Error during execution: 'int' object has no attribute 'encode'");
  });
});

describe('reading', () => {
  const textFs = (): GorillaFileSystem =>
    makeFs('workspace', {
      docs: dir({ 'a.txt': file('b\nA\n\u{1F600}\n\uffff\nccc') }),
      'notes.md': file('x y  z\r\nline2\vline3\n'),
      '.hidden': file(''),
    });

  it('cat', () => {
    const fs = sample();
    expect(run(fs, 'cat', 'a.txt')).toBe('{"file_content": "alpha\\nbeta\\ngamma"}');
    expect(run(fs, 'cat', 'proj')).toBe('{"error": "cat: \'proj\': Is a directory"}');
    expect(run(fs, 'cat', 'zz')).toBe('{"error": "cat: \'zz\': No such file or directory"}');
    expect(run(fs, 'cat', 'a:b')).toBe('{"error": "cat: \'a:b\': Invalid character"}');
    expect(run(fs, 'cat', null)).toBe("Error during execution: argument of type 'NoneType' is not iterable");
  });

  it('wc counts lines, words and code points', () => {
    const fs = textFs();
    expect(run(fs, 'wc', 'notes.md')).toBe('{"count": 3, "type": "lines"}');
    expect(run(fs, 'wc', 'notes.md', 'w')).toBe('{"count": 5, "type": "words"}');
    expect(run(fs, 'wc', 'notes.md', 'c')).toBe('{"count": 20, "type": "characters"}');
    run(fs, 'cd', 'docs');
    expect(run(fs, 'wc', 'a.txt', 'c')).toBe('{"count": 11, "type": "characters"}'); // 12 UTF-16 units
    expect(run(fs, 'wc', 'a.txt', 'x')).toBe('{"error": "wc: invalid mode \'x\'"}');
    expect(run(fs, 'wc', 'a.txt', 1n)).toBe('{"error": "wc: invalid mode \'1\'"}');
    expect(run(fs, 'wc', 'nope')).toBe('{"error": "wc: nope: No such file or directory"}');
    expect(run(fs, 'wc', 5n)).toBe('{"error": "wc: 5: No such file or directory"}');
    expect(run(fs, 'cd', '..')).toBe('{}');
    expect(run(fs, 'wc', 'docs')).toBe('{"error": "wc: docs: No such file or directory"}');
  });

  it('sort orders lines by code point', () => {
    const fs = textFs();
    run(fs, 'cd', 'docs');
    expect(run(fs, 'sort', 'a.txt')).toBe('{"sorted_content": "A\\nb\\nccc\\n\\uffff\\n\\ud83d\\ude00"}');
    expect(run(fs, 'sort', 'zz')).toBe('{"error": "sort: zz: No such file or directory"}');
  });

  it('grep', () => {
    const fs = sample();
    expect(run(fs, 'grep', 'a.txt', 'a')).toBe('{"matching_lines": ["alpha", "beta", "gamma"]}');
    expect(run(fs, 'grep', 'a.txt', 'et')).toBe('{"matching_lines": ["beta"]}');
    expect(run(fs, 'grep', 'proj', 'a')).toBe('{"error": "grep: proj: No such file or directory"}');
    expect(run(fs, 'grep', 'a.txt', 5n)).toBe(
      "Error during execution: 'in <string>' requires string as left operand, not int",
    );
  });

  it('tail', () => {
    const fs = textFs();
    run(fs, 'cd', 'docs');
    expect(run(fs, 'tail', 'a.txt', 2n)).toBe('{"last_lines": "\\uffff\\nccc"}');
    expect(run(fs, 'tail', 'a.txt')).toBe('{"last_lines": "b\\nA\\n\\ud83d\\ude00\\n\\uffff\\nccc"}');
    expect(run(fs, 'tail', 'a.txt', 0n)).toBe('{"last_lines": "b\\nA\\n\\ud83d\\ude00\\n\\uffff\\nccc"}');
    expect(run(fs, 'tail', 'a.txt', -3n)).toBe('{"last_lines": "\\uffff\\nccc"}');
    expect(run(fs, 'tail', 'a.txt', 9.0)).toBe('{"last_lines": "b\\nA\\n\\ud83d\\ude00\\n\\uffff\\nccc"}');
    expect(run(fs, 'tail', 'a.txt', true)).toBe('{"last_lines": "ccc"}');
    expect(run(fs, 'tail', 'a.txt', 2.0)).toBe(
      'Error during execution: slice indices must be integers or None or have an __index__ method',
    );
    expect(run(fs, 'tail', 'a.txt', '2')).toBe(
      "Error during execution: '>' not supported between instances of 'str' and 'int'",
    );
    expect(run(fs, 'tail', 'a.txt', null)).toBe(
      "Error during execution: '>' not supported between instances of 'NoneType' and 'int'",
    );
    expect(run(fs, 'tail', 'zz')).toBe('{"error": "tail: zz: No such file or directory"}');
  });

  it('diff compares zipped lines', () => {
    const fs = sample();
    expect(run(fs, 'diff', 'a.txt', 'b.txt')).toBe('{"diff_lines": "- beta\\n+ BETA"}');
    expect(run(fs, 'diff', 'a.txt', 'a.txt')).toBe('{"diff_lines": ""}');
    expect(run(fs, 'diff', 'a.txt', 'zz')).toBe('{"error": "diff: a.txt or zz: No such file or directory"}');
    expect(run(fs, 'diff', 'a.txt', 'proj')).toBe('{"error": "diff: a.txt or proj: No such file or directory"}');
  });

  it('du counts UTF-8 bytes of the current directory', () => {
    const fs = textFs();
    expect(run(fs, 'du')).toBe('{"disk_usage": "36 bytes"}');
    expect(run(fs, 'du', true)).toBe('{"disk_usage": "36.00 B"}');
    const big = makeFs('r', { f: file('x'.repeat(1536)), g: file('\u00e9'.repeat(1_000_000)) });
    expect(run(big, 'du')).toBe('{"disk_usage": "2001536 bytes"}');
    expect(run(big, 'du', true)).toBe('{"disk_usage": "1.91 MB"}');
    const kb = makeFs('r', { f: file('x'.repeat(1536)) });
    expect(run(kb, 'du', true)).toBe('{"disk_usage": "1.50 KB"}');
  });
});

describe('moving, copying and removing', () => {
  it('follows the reference through a sequence of operations', () => {
    const fs = sample();
    const steps: [string, PyValue[], string][] = [
      ['touch', ['t.txt'], 'None'],
      ['echo', ['hi', 't.txt'], 'None'],
      ['mv', ['t.txt', 'u.txt'], '{"result": "\'t.txt\' moved to \'u.txt\'"}'],
      ['mv', ['u.txt', 'proj'], '{"result": "\'u.txt\' moved to \'proj/u.txt\'"}'],
      ['mv', ['zz', 'proj'], '{"error": "mv: cannot move \'zz\': No such file or directory"}'],
      ['mv', ['a.txt', 'x/y'], '{"error": "mv: path not allowed in destination. Provide only a file or directory name."}'],
      ['mv', ['a.txt', 'b.txt'], '{"error": "mv: cannot move \'a.txt\' to \'b.txt\': Not a directory"}'],
      ['cp', ['a.txt', 'proj'], '{"result": "\'a.txt\' copied to \'proj/a.txt\'"}'],
      ['cp', ['a.txt', 'proj'], "Error during execution: File 'a.txt' already exists in directory 'proj'."],
      ['cp', ['a.txt', 'c.txt'], '{"result": "\'a.txt\' copied to \'c.txt\'"}'],
      ['cp', ['a.txt', 'b.txt'], '{"error": "cp: cannot copy \'a.txt\' to \'b.txt\': Not a directory"}'],
      ['cp', ['zz', 'q'], '{"error": "cp: cannot copy \'zz\': No such file or directory"}'],
      ['cp', ['a.txt', 'p/q'], '{"error": "cp: path not allowed in destination. Provide only a file or directory name."}'],
      ['cp', ['proj', 'proj2'], '{"result": "\'proj\' copied to \'proj2\'"}'],
      ['mv', ['proj', 'empty'], '{"result": "\'proj\' moved to \'empty/proj\'"}'],
      ['ls', [], '{"current_directory_content": ["a.txt", "b.txt", "empty", "c.txt", "proj2"]}'],
      ['cd', ['empty'], '{"current_working_directory": "empty"}'],
      ['cd', ['proj'], '{"current_working_directory": "proj"}'],
      ['pwd', [], '{"current_working_directory": "/home/empty/proj"}'],
      ['ls', [], '{"current_directory_content": ["main.py", "u.txt", "a.txt"]}'],
      ['cd', ['..'], '{}'],
      ['cd', ['..'], '{}'],
      ['rm', ['c.txt'], '{"result": "\'c.txt\' removed"}'],
      ['rm', ['zz'], '{"error": "rm: cannot remove \'zz\': No such file or directory"}'],
      ['rmdir', ['empty'], '{"error": "rmdir: cannot remove \'empty\': Directory not empty"}'],
      ['rmdir', ['a.txt'], '{"error": "rmdir: cannot remove \'a.txt\': Not a directory"}'],
      ['rmdir', ['zz'], '{"error": "rmdir: cannot remove \'zz\': No such file or directory"}'],
      ['mkdir', ['new'], 'None'],
      ['rmdir', ['new'], '{"result": "\'new\' removed"}'],
      ['rm', ['empty'], '{"result": "\'empty\' removed"}'],
      ['ls', [], '{"current_directory_content": ["a.txt", "b.txt", "proj2"]}'],
      ['find', ['proj2'], '{"matches": ["proj2/main.py", "proj2/u.txt", "proj2/a.txt"]}'],
      ['du', [], '{"disk_usage": "65 bytes"}'],
      ['mv', ['a.txt', 5n], "Error during execution: argument of type 'int' is not iterable"],
      ['cp', ['a.txt', ['x']], "Error during execution: unhashable type: 'list'"],
      ['rm', [['x']], "Error during execution: unhashable type: 'list'"],
    ];
    for (const [method, args, expected] of steps) {
      expect(`${method} ${run(fs, method, ...args)}`).toBe(`${method} ${expected}`);
    }
  });

  it('mv and cp re-create files; directory copies share children', () => {
    const fs = sample();
    const original = fs.root.contents.get('a.txt') as File;
    run(fs, 'mv', 'a.txt', 'z.txt');
    const moved = fs.root.contents.get('z.txt') as File;
    expect(moved).not.toBe(original);
    expect(moved.content).toBe('alpha\nbeta\ngamma');
    expect([...fs.root.contents.keys()]).toEqual(['proj', 'b.txt', 'empty', 'z.txt']);

    const proj = fs.root.contents.get('proj') as Directory;
    run(fs, 'cp', 'proj', 'copy');
    const copy = fs.root.contents.get('copy') as Directory;
    expect(copy.contents).not.toBe(proj.contents);
    expect(copy.contents.get('main.py')).toBe(proj.contents.get('main.py'));

    run(fs, 'mv', 'proj', 'renamed');
    expect((fs.root.contents.get('renamed') as Directory).contents).toBe(proj.contents);
  });

  it('moved directories keep their children pointing at the old parent', () => {
    const fs = makeFs('home', { proj: dir({ src: dir({ 'm.py': file('x') }) }), dest: dir() });
    const steps: [string, PyValue[], string][] = [
      ['mv', ['proj', 'dest'], '{"result": "\'proj\' moved to \'dest/proj\'"}'],
      ['cd', ['dest'], '{"current_working_directory": "dest"}'],
      ['cd', ['proj'], '{"current_working_directory": "proj"}'],
      ['cd', ['src'], '{"current_working_directory": "src"}'],
      ['pwd', [], '{"current_working_directory": "/home/proj/src"}'],
      ['cd', ['..'], '{}'],
      ['pwd', [], '{"current_working_directory": "/home/proj"}'],
      ['ls', [], '{"current_directory_content": ["src"]}'],
      ['cd', ['..'], '{}'],
      ['pwd', [], '{"current_working_directory": "/home"}'],
      ['ls', [], '{"current_directory_content": ["dest"]}'],
    ];
    for (const [method, args, expected] of steps) {
      expect(`${method} ${run(fs, method, ...args)}`).toBe(`${method} ${expected}`);
    }
  });

  it('copying a directory into itself nests a self-referencing copy', () => {
    const fs = makeFs('home', { d: dir() });
    expect(run(fs, 'cp', 'd', 'd')).toBe('{"result": "\'d\' copied to \'d/d\'"}');
    expect(fs.root.pyRepr()).toBe(
      "<Directory: home, Parent: None, Contents: {'d': <Directory: d, Parent: home, Contents: " +
        "{'d': <Directory: d, Parent: d, Contents: {'d': <Directory: d, Parent: d, Contents: {...}>}>}>}>",
    );
  });

  it('moving a directory into itself detaches it', () => {
    const fs = makeFs('home', { d: dir() });
    expect(run(fs, 'mv', 'd', 'd')).toBe('{"result": "\'d\' moved to \'d/d\'"}');
    expect(run(fs, 'ls')).toBe('{"current_directory_content": []}');
  });
});

describe('File and Directory objects', () => {
  it('repr as Python prints them', () => {
    const fs = makeFs('workspace', {
      docs: dir({ 'a.txt': file('b\nA') }),
      '.hidden': file(''),
    });
    expect(fs.root.pyRepr()).toBe(
      "<Directory: workspace, Parent: None, Contents: {'docs': <Directory: docs, Parent: workspace, " +
        "Contents: {'a.txt': <<File: a.txt, Content: b\nA>>}>, '.hidden': <<File: .hidden, Content: >>}>",
    );
    expect(new File("it's", 5n).pyRepr()).toBe("<<File: it's, Content: 5>>");
  });

  it('compare by name and content, ignoring the parent', () => {
    const a = new Directory('x', null);
    const b = new Directory('x', new Directory('p', null));
    expect(a.pyEquals(b)).toBe(true);
    a._addFile('f', 'c');
    expect(a.pyEquals(b)).toBe(false);
    b._addFile('f', 'c');
    expect(pyEquals(a, b)).toBe(true);
    expect(new File('f', 'c').pyEquals(new File('f', 'd'))).toBe(false);
    expect(new File('f', 'c').pyEquals('c')).toBe(false);
    expect(a.pyEquals(new File('x'))).toBe(false);
  });

  it('expose public attributes in vars() order', () => {
    const parent = new Directory('p', null);
    parent._addDirectory('c');
    const child = parent.contents.get('c') as Directory;
    expect(child.publicAttributes().map(([k]) => k)).toEqual(['name', 'parent', 'contents']);
    expect(child.publicAttributes()[1]![1]).toBe(parent);
    expect(new File('f', 'c').publicAttributes()).toEqual([
      ['name', 'f'],
      ['content', 'c'],
    ]);
  });

  it('raise ValueError on duplicate names', () => {
    const d = new Directory('d', null);
    d._addDirectory('x');
    expect(() => d._addFile('x')).toThrow("File 'x' already exists in directory 'd'.");
    expect(() => d._addDirectory('x')).toThrow("Directory 'x' already exists in directory 'd'.");
  });
});

describe('signatures', () => {
  it('list every public method with Python defaults', () => {
    const fs = sample();
    expect(Object.keys(fs._signatures)).toEqual([
      'pwd', 'ls', 'cd', 'mkdir', 'touch', 'echo', 'cat', 'find', 'wc', 'sort', 'grep', 'du', 'tail', 'diff', 'mv',
      'rm', 'rmdir', 'cp',
    ]);
    expect(fs._signatures.tail).toEqual([
      { name: 'file_name', default: expect.anything() as unknown },
      { name: 'lines', default: 10n },
    ]);
    for (const name of Object.keys(fs._signatures)) {
      expect(typeof (fs as unknown as Record<string, unknown>)[name]).toBe('function');
    }
  });
});

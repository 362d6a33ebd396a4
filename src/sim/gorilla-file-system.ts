/**
 * GorillaFileSystem: the simulated in-memory file system of the multi-turn categories.
 *
 * Port of the reference's `gorilla_file_system.py` (spec §6.1). Files and directories are Python
 * objects (`File`, `Directory`) so that state snapshots, equality and `repr` behave as in Python.
 */
import { compareCodePoints, formatFixed, pyLen, pySplitlines, pySplitWhitespace, utf8Length } from '../py/builtins.js';
import { expectDictFor, expectStr, getItem, noAttribute, pyCompare, pyContains, requireHashable } from '../py/ops.js';
import { pyRepr, pyStr } from '../py/repr.js';
import { PyObject, PyException, listContains, pyDict, pyEquals, pyTruthy, pyTypeName, type PyDict, type PyValue } from '../py/value.js';
import { SimulatedApi, opt, req, type LongContextData, type MethodSignatures } from './simulated-api.js';

// ---------------------------------------------------------------------------------------------
// File and Directory

/** A file: a name and its content (normally a str; `echo` can store any value the model passes). */
export class File extends PyObject {
  readonly pyTypeName = 'File';
  name: string;
  content: PyValue;

  // The reference also keeps a private `_last_modified = datetime.now()`; it is never read, compared
  // or logged, so it is left out to keep the simulation clock-free.
  constructor(name: string, content: PyValue = '') {
    super();
    this.name = name;
    this.content = content;
  }

  _write(newContent: PyValue): void {
    this.content = newContent;
  }

  _read(): PyValue {
    return this.content;
  }

  override pyRepr(): string {
    return `<<File: ${this.name}, Content: ${pyStr(this.content)}>>`;
  }

  /** Equal to another File with the same name and content. */
  override pyEquals(other: PyValue): boolean {
    return other instanceof File && this.name === other.name && pyEquals(this.content, other.content);
  }

  override publicAttributes(): [string, PyValue][] {
    return [
      ['name', this.name],
      ['content', this.content],
    ];
  }
}

/** A file-system node. */
export type FsNode = File | Directory;

/** Dicts whose repr is in progress, so that a self-containing dict prints `{...}` as CPython does. */
const reprInProgress = new Set<Map<string, FsNode>>();

/** A directory: a name, a parent pointer and an insertion-ordered dict of child nodes. */
export class Directory extends PyObject {
  readonly pyTypeName = 'Directory';
  name: string;
  parent: Directory | null;
  contents: Map<string, FsNode>;

  constructor(name: string, parent: Directory | null = null) {
    super();
    this.name = name;
    this.parent = parent;
    this.contents = new Map();
  }

  _addFile(fileName: string, content: PyValue = ''): void {
    if (this.contents.has(fileName)) {
      throw new PyException('ValueError', `File '${fileName}' already exists in directory '${this.name}'.`);
    }
    this.contents.set(fileName, new File(fileName, content));
  }

  _addDirectory(dirName: string): void {
    if (this.contents.has(dirName)) {
      throw new PyException('ValueError', `Directory '${dirName}' already exists in directory '${this.name}'.`);
    }
    this.contents.set(dirName, new Directory(dirName, this));
  }

  /** The named child, or the directory itself for `"."`. */
  _getItem(itemName: string): FsNode | null {
    if (itemName === '.') return this;
    return this.contents.get(itemName) ?? null;
  }

  _listContents(): string[] {
    return [...this.contents.keys()];
  }

  override pyRepr(): string {
    const parentName = this.parent ? this.parent.name : 'None';
    return `<Directory: ${this.name}, Parent: ${parentName}, Contents: ${reprContents(this.contents)}>`;
  }

  /** Equal to another Directory with the same name and equal contents; the parent is ignored. */
  override pyEquals(other: PyValue): boolean {
    return other instanceof Directory && this.name === other.name && pyEquals(this.contentsDict, other.contentsDict);
  }

  override publicAttributes(): [string, PyValue][] {
    return [
      ['name', this.name],
      ['parent', this.parent],
      ['contents', this.contentsDict],
    ];
  }

  /** `contents` seen as a Python dict (the same Map object). */
  get contentsDict(): PyDict {
    return this.contents;
  }
}

/** Python `repr(dict)` of a directory's contents. */
function reprContents(contents: Map<string, FsNode>): string {
  if (reprInProgress.has(contents)) return '{...}';
  reprInProgress.add(contents);
  try {
    const items = [...contents].map(([name, node]) => `${pyRepr(name)}: ${node.pyRepr()}`);
    return `{${items.join(', ')}}`;
  } finally {
    reprInProgress.delete(contents);
  }
}

// ---------------------------------------------------------------------------------------------
// Python operations on arbitrary argument values

/** Characters `_validate_file_or_directory_name` rejects. */
const INVALID_NAME_CHARS = '|/\\?%*:"><';
/** `wc` modes. */
const WC_MODES: PyValue[] = ['l', 'w', 'c'];
/** `du -h` units, below PB. */
const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Python `key in contents`: unhashable keys raise; only str keys can match. */
function hasChild(contents: Map<string, FsNode>, key: PyValue): key is string {
  requireHashable(key);
  return typeof key === 'string' && contents.has(key);
}

/**
 * A name about to become a dict key. Python would also accept a tuple here (the only non-str value
 * that passes the earlier checks); that is not supported and raised instead.
 */
function newName(value: PyValue): string {
  if (typeof value !== 'string') {
    throw new PyException('TypeError', `file and directory names must be str, not '${pyTypeName(value)}'`);
  }
  return value;
}

/** Python `str.rstrip("/")`. */
const rstripSlashes = (s: string): string => s.replace(/\/+$/, '');
/** Python `str.strip("/")`. */
const stripSlashes = (s: string): string => s.replace(/^\/+|\/+$/g, '');

/** Python `int` value of a slice index (int or bool). */
function sliceIndex(v: PyValue): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  throw new PyException('TypeError', 'slice indices must be integers or None or have an __index__ method');
}

/** `{key: value}` as a Python dict. */
const one = (key: string, value: PyValue): PyDict => pyDict([[key, value]]);
/** `{"error": message}`. */
const error = (message: string): PyDict => one('error', message);

// ---------------------------------------------------------------------------------------------
// GorillaFileSystem

/** Python signatures of the public methods, in the reference's definition order. */
const SIGNATURES: MethodSignatures = {
  pwd: [],
  ls: [opt('a', false)],
  cd: [req('folder')],
  mkdir: [req('dir_name')],
  touch: [req('file_name')],
  echo: [req('content'), opt('file_name', null)],
  cat: [req('file_name')],
  find: [opt('path', '.'), opt('name', null)],
  wc: [req('file_name'), opt('mode', 'l')],
  sort: [req('file_name')],
  grep: [req('file_name'), req('pattern')],
  du: [opt('human_readable', false)],
  tail: [req('file_name'), opt('lines', 10n)],
  diff: [req('file_name1'), req('file_name2')],
  mv: [req('source'), req('destination')],
  rm: [req('file_name')],
  rmdir: [req('dir_name')],
  cp: [req('source'), req('destination')],
};

/** Name of the root directory when the scenario has no `root`. */
const DEFAULT_ROOT_NAME = '/';

/** The long-context filler used by this class. */
interface FileSystemFiller {
  fileContentExtension: string;
  filesTailUsed: PyValue[];
  populateFileNames: string[];
}

function readFiller(data: LongContextData): FileSystemFiller {
  const fileContentExtension = data.get('FILE_CONTENT_EXTENSION');
  const filesTailUsed = data.get('FILES_TAIL_USED');
  const populate = data.get('POPULATE_FILE_EXTENSION');
  if (typeof fileContentExtension !== 'string' || !Array.isArray(filesTailUsed) || !Array.isArray(populate)) {
    throw new Error('long_context.json lacks the GorillaFileSystem filler lists');
  }
  return { fileContentExtension, filesTailUsed, populateFileNames: populate.map((n) => String(n)) };
}

export class GorillaFileSystem extends SimulatedApi {
  readonly _className = 'GorillaFileSystem';
  readonly _signatures = SIGNATURES;

  // Public state, in the order of the reference's `vars()`: `_load_scenario` assigns `long_context`
  // before `root` (the constructor only annotates `root`).
  long_context = false;
  root: Directory = new Directory(DEFAULT_ROOT_NAME, null);

  private _current_dir: Directory = this.root;

  _loadScenario(scenario: PyDict, longContext: boolean): void {
    this.long_context = longContext;
    this.root = new Directory(DEFAULT_ROOT_NAME, null);
    if (scenario.has('root')) {
      const rootSpec = scenario.get('root')!;
      if (!(rootSpec instanceof Map) || rootSpec.size === 0) {
        throw new PyException('IndexError', 'list index out of range');
      }
      const rootName = String([...rootSpec.keys()][0]);
      const filler = longContext ? readFiller(this._filler) : null;
      this.root = this._loadDirectory(getItem(getItem(rootSpec, rootName), 'contents'), new Directory(rootName, null), filler);
    }
    this._current_dir = this.root;
  }

  /** Fills `parent` from a scenario `contents` dict and returns it. */
  private _loadDirectory(current: PyValue, parent: Directory, filler: FileSystemFiller | null): Directory {
    let isBottommost = true;
    for (const [key, data] of expectDictFor(current, 'items')) {
      const name = String(key);
      const type = getItem(data, 'type');
      if (type === 'directory') {
        isBottommost = false;
        const dir = this._loadDirectory(getItem(data, 'contents'), new Directory(name, parent), filler);
        parent.contents.set(name, dir);
      } else if (type === 'file') {
        let content = getItem(data, 'content');
        // BFCL parity: gorilla_file_system.py::_load_directory — long context pads every file except
        // the few whose tail the ground truth reads.
        if (filler && !listContains(filler.filesTailUsed, name)) {
          if (typeof content !== 'string') {
            throw new PyException('TypeError', `unsupported operand type(s) for +=: '${pyTypeName(content)}' and 'str'`);
          }
          content += filler.fileContentExtension;
        }
        parent.contents.set(name, new File(name, content));
      }
    }
    // BFCL parity: gorilla_file_system.py::_load_directory — "bottommost" means no subdirectory among
    // the entries (files do not count), so empty directories and file-only ones are populated.
    if (isBottommost && filler) {
      for (const fileName of filler.populateFileNames) parent._addFile(fileName);
    }
    return parent;
  }

  pwd(): PyValue {
    // BFCL parity: gorilla_file_system.py::pwd — the loop's `dir.name != self.root` compares a str
    // with a Directory and never stops early, so the root's name is part of the path ("/workspace/x";
    // "//" for the default root "/").
    const names: string[] = [];
    for (let dir: Directory | null = this._current_dir; dir !== null; dir = dir.parent) names.push(dir.name);
    return one('current_working_directory', '/' + names.reverse().join('/'));
  }

  ls(a: PyValue = false): PyValue {
    let contents = this._current_dir._listContents();
    if (!pyTruthy(a)) contents = contents.filter((name) => !name.startsWith('.'));
    return one('current_directory_content', contents);
  }

  cd(folder: PyValue): PyValue {
    let target = rstripSlashes(expectStr(folder, 'rstrip'));
    if (target === '') target = '/';

    if (target !== '.' && target !== '..' && target !== '/' && target.includes('/')) {
      return error(`cd: ${target}: Unsupported path. Only one folder level at a time is supported.`);
    }

    if (target === '..') {
      if (this._current_dir.parent) {
        this._current_dir = this._current_dir.parent;
      } else if (this.root.pyEquals(this._current_dir)) {
        return error('Current directory is already the root. Cannot go back.');
      } else {
        return error('cd: ..: No such directory');
      }
      return new Map();
    }

    const dir = this._navigateToDirectory(target);
    if (dir instanceof Map) return dir;
    this._current_dir = dir;
    return one('current_working_directory', dir.name);
  }

  /** The reference's `_validate_file_or_directory_name`. */
  private _isValidName(name: PyValue): boolean {
    return ![...INVALID_NAME_CHARS].some((ch) => pyContains(name, ch));
  }

  mkdir(dir_name: PyValue): PyValue {
    if (!this._isValidName(dir_name)) {
      return error(`mkdir: cannot create directory '${pyStr(dir_name)}': Invalid character`);
    }
    if (hasChild(this._current_dir.contents, dir_name)) {
      return error(`mkdir: cannot create directory '${dir_name}': File exists`);
    }
    this._current_dir._addDirectory(newName(dir_name));
    return null;
  }

  touch(file_name: PyValue): PyValue {
    if (!this._isValidName(file_name)) {
      return error(`touch: cannot touch '${pyStr(file_name)}': Invalid character`);
    }
    if (hasChild(this._current_dir.contents, file_name)) {
      return error(`touch: cannot touch '${file_name}': File exists`);
    }
    this._current_dir._addFile(newName(file_name));
    return null;
  }

  echo(content: PyValue, file_name: PyValue = null): PyValue {
    if (file_name === null) return one('terminal_output', content);
    if (!this._isValidName(file_name)) {
      return error(`echo: cannot write to '${pyStr(file_name)}': Invalid character`);
    }
    // BFCL parity: gorilla_file_system.py::echo — an empty file name prints instead of writing.
    if (!pyTruthy(file_name)) return one('terminal_output', content);
    if (!hasChild(this._current_dir.contents, file_name)) {
      return error(`echo: cannot write to '${pyStr(file_name)}': No such file`);
    }
    const target = this._current_dir._getItem(file_name);
    if (!(target instanceof File)) throw noAttribute(target, '_write');
    target._write(content);
    return null;
  }

  cat(file_name: PyValue): PyValue {
    if (!this._isValidName(file_name)) return error(`cat: '${pyStr(file_name)}': Invalid character`);
    if (!hasChild(this._current_dir.contents, file_name)) {
      return error(`cat: '${pyStr(file_name)}': No such file or directory`);
    }
    const node = this._current_dir._getItem(file_name);
    if (node instanceof File) return one('file_content', node._read());
    return error(`cat: '${file_name}': Is a directory`);
  }

  find(path: PyValue = '.', name: PyValue = null): PyValue {
    const start = this._navigateToDirectory(path);
    if (start instanceof Map) {
      const message = start.get('error');
      // BFCL parity: gorilla_file_system.py::find — the navigation error names `cd:`; find renames it.
      if (typeof message === 'string' && message.startsWith('cd:')) return error(message.replace('cd:', 'find:'));
      return start;
    }
    const matches: string[] = [];
    const search = (dir: Directory, basePath: string): void => {
      for (const [itemName, node] of dir.contents) {
        const itemPath = `${basePath}/${itemName}`;
        if (name === null || pyContains(itemName, name)) matches.push(itemPath);
        if (node instanceof Directory) search(node, itemPath);
      }
    };
    search(start, rstripSlashes(expectStr(path, 'rstrip')));
    return one('matches', matches);
  }

  wc(file_name: PyValue, mode: PyValue = 'l'): PyValue {
    if (!listContains(WC_MODES, mode)) return error(`wc: invalid mode '${pyStr(mode)}'`);
    const content = this._fileContent(file_name);
    if (content !== undefined) {
      if (mode === 'l') return this._count(pySplitlines(expectStr(content, 'splitlines')).length, 'lines');
      if (mode === 'w') return this._count(pySplitWhitespace(expectStr(content, 'split')).length, 'words');
      return this._count(pyLen(content), 'characters');
    }
    return error(`wc: ${pyStr(file_name)}: No such file or directory`);
  }

  private _count(count: number, type: string): PyDict {
    return pyDict([
      ['count', BigInt(count)],
      ['type', type],
    ]);
  }

  sort(file_name: PyValue): PyValue {
    const content = this._fileContent(file_name);
    if (content === undefined) return error(`sort: ${pyStr(file_name)}: No such file or directory`);
    const lines = pySplitlines(expectStr(content, 'splitlines'));
    return one('sorted_content', lines.sort(compareCodePoints).join('\n'));
  }

  grep(file_name: PyValue, pattern: PyValue): PyValue {
    const content = this._fileContent(file_name);
    if (content === undefined) return error(`grep: ${pyStr(file_name)}: No such file or directory`);
    const lines = pySplitlines(expectStr(content, 'splitlines'));
    return one(
      'matching_lines',
      lines.filter((line) => pyContains(line, pattern)),
    );
  }

  du(human_readable: PyValue = false): PyValue {
    const sizeOf = (node: FsNode): number => {
      if (node instanceof File) return utf8Length(expectStr(node._read(), 'encode'));
      let total = 0;
      for (const child of node.contents.values()) total += sizeOf(child);
      return total;
    };
    const totalBytes = sizeOf(this._current_dir);
    if (!pyTruthy(human_readable)) return one('disk_usage', `${totalBytes} bytes`);

    let size = totalBytes;
    for (const unit of SIZE_UNITS) {
      if (size < 1024) return one('disk_usage', `${formatFixed(size, 2)} ${unit}`);
      size /= 1024;
    }
    return one('disk_usage', `${formatFixed(size, 2)} PB`);
  }

  tail(file_name: PyValue, lines: PyValue = 10n): PyValue {
    const content = this._fileContent(file_name);
    if (content === undefined) return error(`tail: ${pyStr(file_name)}: No such file or directory`);
    const allLines = pySplitlines(expectStr(content, 'splitlines'));
    let count: PyValue = lines;
    if (pyCompare('>', count, BigInt(allLines.length))) count = BigInt(allLines.length);
    // BFCL parity: gorilla_file_system.py::tail — `content[-lines:]`: 0 gives every line and a
    // negative count drops lines from the start.
    const start = -sliceIndex(count);
    return one('last_lines', allLines.slice(Number(start)).join('\n'));
  }

  diff(file_name1: PyValue, file_name2: PyValue): PyValue {
    const contents = this._current_dir.contents;
    if (hasChild(contents, file_name1) && hasChild(contents, file_name2)) {
      const file1 = this._current_dir._getItem(file_name1);
      const file2 = this._current_dir._getItem(file_name2);
      if (file1 instanceof File && file2 instanceof File) {
        const lines1 = pySplitlines(expectStr(file1._read(), 'splitlines'));
        const lines2 = pySplitlines(expectStr(file2._read(), 'splitlines'));
        const differing: string[] = [];
        // zip() stops at the shorter file: extra lines are not reported.
        for (let i = 0; i < Math.min(lines1.length, lines2.length); i++) {
          if (lines1[i] !== lines2[i]) differing.push(`- ${lines1[i]}\n+ ${lines2[i]}`);
        }
        return one('diff_lines', differing.join('\n'));
      }
    }
    return error(`diff: ${pyStr(file_name1)} or ${pyStr(file_name2)}: No such file or directory`);
  }

  mv(source: PyValue, destination: PyValue): PyValue {
    const cwd = this._current_dir;
    if (!hasChild(cwd.contents, source)) return error(`mv: cannot move '${pyStr(source)}': No such file or directory`);
    const node = cwd._getItem(source)!;
    if (pyContains(destination, '/')) {
      return error('mv: path not allowed in destination. Provide only a file or directory name.');
    }

    if (hasChild(cwd.contents, destination)) {
      const dest = cwd._getItem(destination);
      if (!(dest instanceof Directory)) {
        return error(`mv: cannot move '${source}' to '${destination}': Not a directory`);
      }
      if (dest.contents.has(source)) {
        return error(`mv: cannot move '${source}' to '${destination}/${source}': File exists`);
      }
      cwd.contents.delete(source);
      this._recreate(node, dest, source, false);
      return one('result', `'${source}' moved to '${destination}/${source}'`);
    }

    // Not an existing directory: rename.
    const newNameValue = newName(destination);
    cwd.contents.delete(source);
    this._recreate(node, cwd, newNameValue, false);
    return one('result', `'${source}' moved to '${newNameValue}'`);
  }

  rm(file_name: PyValue): PyValue {
    if (!hasChild(this._current_dir.contents, file_name)) {
      return error(`rm: cannot remove '${pyStr(file_name)}': No such file or directory`);
    }
    this._current_dir.contents.delete(file_name);
    return one('result', `'${file_name}' removed`);
  }

  rmdir(dir_name: PyValue): PyValue {
    const cwd = this._current_dir;
    if (!hasChild(cwd.contents, dir_name)) {
      return error(`rmdir: cannot remove '${pyStr(dir_name)}': No such file or directory`);
    }
    const node = cwd._getItem(dir_name);
    if (!(node instanceof Directory)) return error(`rmdir: cannot remove '${dir_name}': Not a directory`);
    if (node.contents.size > 0) return error(`rmdir: cannot remove '${dir_name}': Directory not empty`);
    cwd.contents.delete(dir_name);
    return one('result', `'${dir_name}' removed`);
  }

  cp(source: PyValue, destination: PyValue): PyValue {
    const cwd = this._current_dir;
    if (!hasChild(cwd.contents, source)) return error(`cp: cannot copy '${pyStr(source)}': No such file or directory`);
    const node = cwd._getItem(source)!;
    if (pyContains(destination, '/')) {
      return error('cp: path not allowed in destination. Provide only a file or directory name.');
    }

    if (hasChild(cwd.contents, destination)) {
      const dest = cwd._getItem(destination);
      if (!(dest instanceof Directory)) {
        return error(`cp: cannot copy '${source}' to '${destination}': Not a directory`);
      }
      // BFCL parity: gorilla_file_system.py::cp — the clash check looks up "<dest>/<source>", a key that
      // never exists, so a clash surfaces as the ValueError of _add_file/_add_directory instead.
      if (dest.contents.has(`${destination}/${source}`)) {
        return error(`cp: cannot copy '${source}' to '${destination}/${source}': File exists`);
      }
      this._recreate(node, dest, source, true);
      return one('result', `'${source}' copied to '${destination}/${source}'`);
    }

    const copyName = newName(destination);
    this._recreate(node, cwd, copyName, true);
    return one('result', `'${source}' copied to '${copyName}'`);
  }

  /**
   * Re-creates `node` as `name` inside `into`, as mv and cp do: a new File with the same content, or a
   * new Directory that takes the old one's contents dict (mv: the same dict; cp: a shallow copy, so
   * children are shared). Children keep their old `parent` pointers.
   */
  private _recreate(node: FsNode, into: Directory, name: string, copy: boolean): void {
    if (node instanceof File) {
      into._addFile(name, node.content);
      return;
    }
    into._addDirectory(name);
    // Read after adding: copying a directory into itself copies the new entry too, as in Python.
    const created = into.contents.get(name) as Directory;
    created.contents = copy ? new Map(node.contents) : node.contents;
  }

  /** Content of the named file of the current directory; undefined if absent or a directory. */
  private _fileContent(fileName: PyValue): PyValue | undefined {
    if (!hasChild(this._current_dir.contents, fileName)) return undefined;
    const node = this._current_dir._getItem(fileName);
    return node instanceof File ? node._read() : undefined;
  }

  /** The directory at `path` (absolute, or relative to the current one), or an error dict. */
  private _navigateToDirectory(path: PyValue): Directory | PyDict {
    if (path === null || path === '.') return this._current_dir;
    if (path === '/') return this.root;

    const text = expectStr(path, 'strip');
    let dir = text.startsWith('/') ? this.root : this._current_dir;
    for (const dirName of stripSlashes(text).split('/')) {
      const next = dir._getItem(dirName);
      if (!(next instanceof Directory)) return error(`cd: '${text}': No such file or directory`);
      dir = next;
    }
    return dir;
  }
}

/**
 * Reading back the `str()` of a GorillaFileSystem `Directory`, which is how logs and score files
 * hold the file system's state: `<Directory: name, Parent: p, Contents: {'f': <<File: f, Content: text>>, ...}>`.
 * Parsed into nested maps (entry name → file content, or → the sub-directory's entries) so that
 * state changes can name the file that changed. File contents are free text, so the parse is a best
 * effort: it gives up (undefined) rather than guess.
 */

import type { PyDict, PyValue } from '../py/value.js';

const DIRECTORY_OPEN = '<Directory: ';
const FILE_OPEN = '<<File: ';

class ReprReader {
  pos = 0;
  constructor(readonly text: string) {}

  expect(token: string): void {
    if (!this.text.startsWith(token, this.pos)) throw new SyntaxError(`expected ${token} at ${this.pos}`);
    this.pos += token.length;
  }

  /** Text up to the next `token` (not consumed). */
  until(token: string): string {
    const end = this.text.indexOf(token, this.pos);
    if (end === -1) throw new SyntaxError(`missing ${token}`);
    const s = this.text.slice(this.pos, end);
    this.pos = end;
    return s;
  }

  /** A Python string literal as `repr()` writes dict keys. */
  pyString(): string {
    const quote = this.text[this.pos];
    if (quote !== "'" && quote !== '"') throw new SyntaxError(`expected a string at ${this.pos}`);
    this.pos++;
    let out = '';
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (c === quote) {
        this.pos++;
        return out;
      }
      if (c === '\\') {
        const next = this.text[this.pos + 1] ?? '';
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };
        if (next in simple) {
          out += simple[next];
          this.pos += 2;
          continue;
        }
        const hex = /^(?:x([0-9a-f]{2})|u([0-9a-f]{4})|U([0-9a-f]{8}))/.exec(this.text.slice(this.pos + 1));
        if (hex === null) throw new SyntaxError('unsupported escape');
        out += String.fromCodePoint(parseInt(hex[1] ?? hex[2] ?? hex[3]!, 16));
        this.pos += 1 + hex[0].length;
        continue;
      }
      out += c;
      this.pos++;
    }
    throw new SyntaxError('unterminated string');
  }

  /** The content of a file: text up to a `>>` that closes the file entry. */
  fileContent(): string {
    let from = this.pos;
    for (;;) {
      const end = this.text.indexOf('>>', from);
      if (end === -1) throw new SyntaxError('unterminated file');
      const after = this.text.slice(end + 2, end + 5);
      // The entry ends where the dict goes on (", '" / ', "') or closes ("}").
      if (after.startsWith('}') || after === ", '" || after === ', "') {
        const content = this.text.slice(this.pos, end);
        this.pos = end;
        return content;
      }
      from = end + 1;
    }
  }

  node(): PyValue {
    if (this.text.startsWith(FILE_OPEN, this.pos)) {
      this.expect(FILE_OPEN);
      this.until(', Content: ');
      this.expect(', Content: ');
      const content = this.fileContent();
      this.expect('>>');
      return content;
    }
    return this.directory();
  }

  directory(): PyDict {
    this.expect(DIRECTORY_OPEN);
    this.until(', Parent: ');
    this.expect(', Parent: ');
    this.until(', Contents: {');
    this.expect(', Contents: {');
    const entries: PyDict = new Map();
    while (!this.text.startsWith('}', this.pos)) {
      if (entries.size > 0) this.expect(', ');
      const name = this.pyString();
      this.expect(': ');
      entries.set(name, this.node());
    }
    this.expect('}>');
    return entries;
  }
}

/**
 * The entries of a `Directory` repr as nested maps (file → content, directory → map), or
 * undefined when `text` is not one or cannot be read unambiguously.
 */
export function parseDirectoryRepr(text: string): PyDict | undefined {
  if (!text.startsWith(DIRECTORY_OPEN)) return undefined;
  const reader = new ReprReader(text);
  try {
    const tree = reader.directory();
    return reader.pos === text.length ? tree : undefined;
  } catch {
    return undefined;
  }
}

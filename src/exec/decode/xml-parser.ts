/**
 * A small, strict XML parser standing in for Python's `xml.etree.ElementTree.fromstring` (expat)
 * on the XML answers of prompting models.
 *
 * It builds the element tree as ElementTree exposes it (tag, attrib, text, children; comments and
 * processing instructions dropped, namespaces resolved to `{uri}local`) and rejects what expat
 * rejects, with expat's message and position for the common mistakes:
 * `ParseError: mismatched tag: line 1, column 16` (line 1-based, column 0-based in characters).
 */
import { PyException } from '../../py/value.js';

/** An element as ElementTree shows it. `text` is the character data before the first child. */
export interface XmlElement {
  readonly tag: string;
  readonly attrib: Map<string, string>;
  text: string | null;
  readonly children: XmlElement[];
}

/** `xml.etree.ElementTree.ParseError`. */
export class XmlParseError extends PyException {
  constructor(reason: string, line: number, column: number) {
    super('ParseError', `${reason}: line ${line}, column ${column}`);
  }
}

const INVALID_TOKEN = 'not well-formed (invalid token)';
const PREDEFINED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

function isNameStart(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const cp = ch.codePointAt(0)!;
  if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || ch === '_' || ch === ':') return true;
  if (cp < 0xc0) return false;
  return (
    (cp <= 0xd6 || (cp >= 0xd8 && cp <= 0xf6) || (cp >= 0xf8 && cp <= 0x2ff)) ||
    (cp >= 0x370 && cp <= 0x37d) ||
    (cp >= 0x37f && cp <= 0x1fff) ||
    cp === 0x200c ||
    cp === 0x200d ||
    (cp >= 0x2070 && cp <= 0x218f) ||
    (cp >= 0x2c00 && cp <= 0x2fef) ||
    (cp >= 0x3001 && cp <= 0xd7ff) ||
    (cp >= 0xf900 && cp <= 0xfdcf) ||
    (cp >= 0xfdf0 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0xeffff)
  );
}

function isNameChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  if (isNameStart(ch)) return true;
  const cp = ch.codePointAt(0)!;
  return (
    (cp >= 0x30 && cp <= 0x39) ||
    ch === '-' ||
    ch === '.' ||
    cp === 0xb7 ||
    (cp >= 0x300 && cp <= 0x36f) ||
    (cp >= 0x203f && cp <= 0x2040)
  );
}

const isSpace = (ch: string | undefined): boolean => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';

/** A start tag before namespace resolution. */
interface RawTag {
  readonly name: string;
  readonly start: number;
  readonly attributes: { name: string; value: string; start: number }[];
  readonly selfClosing: boolean;
}

/** One element being built, with the namespace declarations in scope. */
interface OpenElement {
  readonly element: XmlElement;
  readonly rawName: string;
  readonly namespaces: Map<string, string>;
  /** Whether a child element has started (later text goes to the child's tail, which we drop). */
  hasChild: boolean;
}

class XmlScanner {
  /** The input as code points, so positions count characters as expat's columns do. */
  private readonly chars: string[];
  private pos = 0;
  /** Whether the start tag being read has an undefined entity in an attribute value. */
  private undefinedEntityInTag = false;

  constructor(text: string) {
    this.chars = [...text];
  }

  parse(): XmlElement {
    this.skipMisc(true);
    if (this.pos >= this.chars.length) this.fail('no element found', this.pos);
    if (this.peek() !== '<') this.fail(INVALID_TOKEN, this.pos);
    const root = this.parseRoot();
    this.skipMisc(false);
    if (this.pos < this.chars.length) this.fail('junk after document element', this.pos);
    return root;
  }

  // -------------------------------------------------------------------------------------------
  // Positions and errors

  private peek(offset = 0): string | undefined {
    return this.chars[this.pos + offset];
  }

  private startsWith(text: string, at = this.pos): boolean {
    for (let i = 0; i < text.length; i++) if (this.chars[at + i] !== text[i]) return false;
    return true;
  }

  private fail(reason: string, at: number): never {
    let line = 1;
    let column = 0;
    for (let i = 0; i < at && i < this.chars.length; i++) {
      const ch = this.chars[i];
      if (ch === '\n' || (ch === '\r' && this.chars[i + 1] !== '\n')) {
        line++;
        column = 0;
      } else if (ch !== '\r') {
        column++;
      }
    }
    throw new XmlParseError(reason, line, column);
  }

  private checkChar(at: number): void {
    const ch = this.chars[at]!;
    if (!isXmlChar(ch.codePointAt(0)!) || (ch.length === 1 && ch >= '\ud800' && ch <= '\udfff')) {
      this.fail(INVALID_TOKEN, at);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Markup outside and inside elements

  /** Whitespace, comments and processing instructions around the root element. */
  private skipMisc(beforeRoot: boolean): void {
    for (;;) {
      while (isSpace(this.peek())) this.pos++;
      if (this.startsWith('<!--')) this.skipComment();
      else if (this.startsWith('<?')) this.skipProcessingInstruction(beforeRoot && this.pos === 0);
      else return;
    }
  }

  private skipComment(): void {
    const start = this.pos;
    this.pos += 4;
    for (;;) {
      if (this.pos >= this.chars.length) this.fail('unclosed token', start);
      if (this.startsWith('--')) {
        if (this.peek(2) !== '>') this.fail(INVALID_TOKEN, this.pos + 2);
        this.pos += 3;
        return;
      }
      this.checkChar(this.pos);
      this.pos++;
    }
  }

  private skipProcessingInstruction(atDocumentStart: boolean): void {
    const start = this.pos;
    this.pos += 2;
    if (!isNameStart(this.peek())) this.fail(INVALID_TOKEN, this.pos);
    let target = '';
    while (isNameChar(this.peek())) target += this.chars[this.pos++];
    if (target === 'xml' && !atDocumentStart) this.fail('XML or text declaration not at start of entity', start);
    // Other spellings of "xml" are reserved; the target must be followed by a space or `?>`.
    if ((target.toLowerCase() === 'xml' && target !== 'xml') || !(isSpace(this.peek()) || this.startsWith('?>'))) {
      this.fail(this.pos >= this.chars.length ? 'unclosed token' : INVALID_TOKEN, this.pos);
    }
    for (;;) {
      if (this.pos >= this.chars.length) this.fail('unclosed token', start);
      if (this.startsWith('?>')) {
        this.pos += 2;
        return;
      }
      this.checkChar(this.pos);
      this.pos++;
    }
  }

  private parseName(): string {
    if (!isNameStart(this.peek())) this.fail(INVALID_TOKEN, this.pos);
    let name = '';
    while (isNameChar(this.peek())) name += this.chars[this.pos++];
    return name;
  }

  /**
   * A qualified name (element or attribute in a start tag): with namespace processing, expat
   * rejects a leading colon, a second colon and a trailing colon.
   */
  private parseQualifiedName(): string {
    const start = this.pos;
    const name = this.parseName();
    const chars = [...name];
    const colons = chars.flatMap((ch, i) => (ch === ':' ? [i] : []));
    if (colons.length > 0) {
      if (colons[0] === 0) this.fail(INVALID_TOKEN, start);
      if (colons.length > 1) this.fail(INVALID_TOKEN, start + colons[1]!);
      if (colons[0] === chars.length - 1) this.fail(INVALID_TOKEN, start + chars.length);
    }
    return name;
  }

  /** A start tag from its `<`; the position is left after `>` or `/>`. */
  private parseStartTag(): RawTag {
    const start = this.pos;
    this.pos++;
    const name = this.parseQualifiedName();
    const attributes: RawTag['attributes'] = [];
    // expat resolves entities after reading the whole tag, so a later syntax error wins.
    this.undefinedEntityInTag = false;
    for (;;) {
      const hadSpace = isSpace(this.peek());
      while (isSpace(this.peek())) this.pos++;
      const ch = this.peek();
      if (ch === undefined) this.fail('unclosed token', start);
      if (ch === '>' || ch === '/') {
        if (ch === '/' && this.peek(1) !== '>') this.fail(this.pos + 1 >= this.chars.length ? 'unclosed token' : INVALID_TOKEN, this.pos + 1);
        this.pos += ch === '>' ? 1 : 2;
        if (this.undefinedEntityInTag) this.fail('undefined entity', start);
        return { name, start, attributes, selfClosing: ch === '/' };
      }
      if (!hadSpace || !isNameStart(ch)) this.fail(INVALID_TOKEN, this.pos);
      const attrStart = this.pos;
      const attrName = this.parseQualifiedName();
      while (isSpace(this.peek())) this.pos++;
      if (this.peek() !== '=') this.fail(this.pos >= this.chars.length ? 'unclosed token' : INVALID_TOKEN, this.pos);
      this.pos++;
      while (isSpace(this.peek())) this.pos++;
      const value = this.parseAttributeValue(start);
      attributes.push({ name: attrName, value, start: attrStart });
    }
  }

  private parseAttributeValue(tagStart: number): string {
    const quote = this.peek();
    if (quote !== '"' && quote !== "'") this.fail(this.pos >= this.chars.length ? 'unclosed token' : INVALID_TOKEN, this.pos);
    this.pos++;
    let value = '';
    for (;;) {
      const ch = this.peek();
      if (ch === undefined) this.fail('unclosed token', tagStart);
      if (ch === quote) {
        this.pos++;
        return value;
      }
      if (ch === '<') this.fail(INVALID_TOKEN, this.pos);
      if (ch === '&') {
        value += this.parseReference(true);
        continue;
      }
      this.checkChar(this.pos);
      // Attribute-value normalisation: each literal tab/newline becomes a space (CRLF counts once).
      if (ch === '\r' && this.peek(1) === '\n') this.pos++;
      value += ch === '\t' || ch === '\n' || ch === '\r' ? ' ' : ch;
      this.pos++;
    }
  }

  /**
   * `&name;`, `&#N;` or `&#xN;` from its `&`; returns the replacement text. In an attribute
   * value an undefined entity is only noted: expat reports it at the start of the tag once the
   * tag has been read.
   */
  private parseReference(inAttribute = false): string {
    const start = this.pos;
    this.pos++;
    if (this.peek() === '#') {
      this.pos++;
      const hex = this.peek() === 'x';
      if (hex) this.pos++;
      const digitPattern = hex ? /[0-9a-fA-F]/ : /[0-9]/;
      let digits = '';
      while (this.peek() !== undefined && digitPattern.test(this.peek()!)) digits += this.chars[this.pos++];
      if (this.peek() === undefined) this.fail('unclosed token', start);
      if (digits === '' || this.peek() !== ';') this.fail(INVALID_TOKEN, this.pos);
      this.pos++;
      const cp = digits.length > 8 ? Infinity : parseInt(digits, hex ? 16 : 10);
      if (!Number.isFinite(cp) || !isXmlChar(cp)) this.fail('reference to invalid character number', start);
      return String.fromCodePoint(cp);
    }
    if (this.peek() === undefined) this.fail('unclosed token', start);
    if (!isNameStart(this.peek())) this.fail(INVALID_TOKEN, this.pos);
    let name = '';
    while (isNameChar(this.peek())) name += this.chars[this.pos++];
    if (this.peek() === undefined) this.fail('unclosed token', start);
    if (this.peek() !== ';') this.fail(INVALID_TOKEN, this.pos);
    this.pos++;
    const replacement = PREDEFINED_ENTITIES[name];
    if (replacement !== undefined) return replacement;
    if (!inAttribute) this.fail('undefined entity', start);
    this.undefinedEntityInTag = true;
    return '';
  }

  // -------------------------------------------------------------------------------------------
  // Elements

  private parseRoot(): XmlElement {
    const stack: OpenElement[] = [];
    let root: XmlElement | undefined;
    const open = (tag: RawTag): OpenElement => {
      const parentNs = stack.length > 0 ? stack[stack.length - 1]!.namespaces : new Map([['xml', XML_NAMESPACE]]);
      const entry = this.resolveTag(tag, parentNs);
      if (stack.length > 0) {
        const parent = stack[stack.length - 1]!;
        parent.element.children.push(entry.element);
        parent.hasChild = true;
      } else {
        root = entry.element;
      }
      return entry;
    };

    if (this.startsWith('<!') || !isNameStart(this.peek(1))) this.fail(INVALID_TOKEN, this.pos + 1);
    const first = this.parseStartTag();
    const firstEntry = open(first);
    if (first.selfClosing) return root!;
    stack.push(firstEntry);

    while (stack.length > 0) {
      const current = stack[stack.length - 1]!;
      const ch = this.peek();
      if (ch === undefined) this.fail('no element found', this.pos);
      if (ch === '<') {
        if (this.startsWith('</')) {
          this.parseEndTag(current.rawName);
          stack.pop();
        } else if (this.startsWith('<!--')) {
          this.skipComment();
        } else if (this.startsWith('<![CDATA[')) {
          this.appendText(current, this.parseCData());
        } else if (this.startsWith('<?')) {
          this.skipProcessingInstruction(false);
        } else if (this.startsWith('<!')) {
          this.failMalformedDeclaration();
        } else {
          if (!isNameStart(this.peek(1))) this.fail(this.pos + 1 >= this.chars.length ? 'unclosed token' : INVALID_TOKEN, this.pos + 1);
          const tag = this.parseStartTag();
          const entry = open(tag);
          if (!tag.selfClosing) stack.push(entry);
        }
      } else if (ch === '&') {
        this.appendText(current, this.parseReference());
      } else {
        this.appendText(current, this.parseCharData());
      }
    }
    return root!;
  }

  /** `<!` that starts neither a comment nor a CDATA section: fail where the spelling goes wrong. */
  private failMalformedDeclaration(): never {
    const expected = this.peek(2) === '[' ? '<![CDATA[' : this.peek(2) === '-' ? '<!--' : '<!';
    let i = 0;
    while (i < expected.length && this.chars[this.pos + i] === expected[i]) i++;
    return this.fail(this.pos + i >= this.chars.length ? 'unclosed token' : INVALID_TOKEN, this.pos + i);
  }

  private parseCharData(): string {
    let text = '';
    for (;;) {
      const ch = this.peek();
      if (ch === undefined || ch === '<' || ch === '&') return text;
      if (this.startsWith(']]>')) this.fail(INVALID_TOKEN, this.pos + 2);
      this.checkChar(this.pos);
      // Line-end normalisation: CRLF and lone CR become LF.
      if (ch === '\r') {
        if (this.peek(1) === '\n') this.pos++;
        text += '\n';
      } else {
        text += ch;
      }
      this.pos++;
    }
  }

  private parseCData(): string {
    this.pos += '<![CDATA['.length;
    let text = '';
    for (;;) {
      if (this.pos >= this.chars.length) this.fail('unclosed CDATA section', this.pos);
      if (this.startsWith(']]>')) {
        this.pos += 3;
        return text;
      }
      this.checkChar(this.pos);
      const ch = this.chars[this.pos]!;
      if (ch === '\r') {
        if (this.peek(1) === '\n') this.pos++;
        text += '\n';
      } else {
        text += ch;
      }
      this.pos++;
    }
  }

  private parseEndTag(expected: string): void {
    this.pos += 2;
    const nameStart = this.pos;
    if (this.pos >= this.chars.length) this.fail('unclosed token', nameStart - 2);
    if (this.peek() === ':') this.fail(INVALID_TOKEN, nameStart);
    const name = this.parseName();
    while (isSpace(this.peek())) this.pos++;
    if (this.peek() === undefined) this.fail('unclosed token', nameStart - 2);
    if (this.peek() !== '>') this.fail(INVALID_TOKEN, this.pos);
    if (name !== expected) this.fail('mismatched tag', nameStart);
    this.pos++;
  }

  /** ElementTree keeps only the text before the first child as `text`; tails are not needed. */
  private appendText(entry: OpenElement, text: string): void {
    if (entry.hasChild || text === '') return;
    entry.element.text = (entry.element.text ?? '') + text;
  }

  /** Apply namespace declarations, check duplicates, and build the element. */
  private resolveTag(tag: RawTag, parentNs: Map<string, string>): OpenElement {
    const seen = new Set<string>();
    for (const attr of tag.attributes) {
      if (seen.has(attr.name)) this.fail('duplicate attribute', attr.start);
      seen.add(attr.name);
    }
    const namespaces = new Map(parentNs);
    for (const attr of tag.attributes) {
      if (attr.name === 'xmlns') {
        if (attr.value === '') namespaces.delete('');
        else namespaces.set('', attr.value);
      } else if (attr.name.startsWith('xmlns:')) {
        if (attr.value === '') this.fail('must not undeclare prefix', tag.start);
        namespaces.set(attr.name.slice(6), attr.value);
      }
    }
    const qualify = (name: string, useDefault: boolean): string => {
      const colon = name.indexOf(':');
      if (colon < 0) {
        const uri = useDefault ? namespaces.get('') : undefined;
        return uri === undefined ? name : `{${uri}}${name}`;
      }
      const uri = namespaces.get(name.slice(0, colon));
      if (uri === undefined) this.fail('unbound prefix', tag.start);
      return `{${uri}}${name.slice(colon + 1)}`;
    };
    const attrib = new Map<string, string>();
    for (const attr of tag.attributes) {
      if (attr.name === 'xmlns' || attr.name.startsWith('xmlns:')) continue;
      attrib.set(qualify(attr.name, false), attr.value);
    }
    const element: XmlElement = { tag: qualify(tag.name, true), attrib, text: null, children: [] };
    return { element, rawName: tag.name, namespaces, hasChild: false };
  }
}

/** Python `xml.etree.ElementTree.fromstring(text)`: the root element, or a `ParseError`. */
export function parseXml(text: string): XmlElement {
  return new XmlScanner(text).parse();
}

/** `element.findall(tag)` / `element.find(tag)` for a plain tag name: direct children only. */
export function findAll(element: XmlElement, tag: string): XmlElement[] {
  return element.children.filter((child) => child.tag === tag);
}

export function find(element: XmlElement, tag: string): XmlElement | undefined {
  return element.children.find((child) => child.tag === tag);
}

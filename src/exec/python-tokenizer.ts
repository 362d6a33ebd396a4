/**
 * Tokenizer for Python 3.12 source, as CPython's `Parser/tokenizer.c` splits an `ast.parse` input.
 *
 * The parser asks for tokens lazily in CPython, so a tokenizer error is only reported when the
 * parser reaches it. Here the whole input is tokenized up front; the result keeps the tokens
 * before the first error and the error itself, and the parser raises the error when it asks for
 * the token at that index. Both give the same verdicts and messages.
 */

/** A Python `SyntaxError` (or one of its subclasses) as `ast.parse` would raise it. */
export class PythonSyntaxError {
  constructor(
    /**
     * `SyntaxError`, `IndentationError` or `TabError`; `UnicodeEncodeError` when the source
     * holds lone surrogates, which CPython cannot encode to UTF-8 for its tokenizer.
     */
    readonly pyType: 'SyntaxError' | 'IndentationError' | 'TabError' | 'UnicodeEncodeError',
    /** The bare message, e.g. `invalid syntax`. */
    readonly msg: string,
    /** 1-based line, or null when CPython reports none (null bytes, lone surrogates). */
    readonly lineno: number | null,
  ) {}

  /** Python's `str(e)` for the given file name: `msg (<filename>, line N)`. */
  format(filename = '<unknown>'): string {
    return this.lineno === null ? this.msg : `${this.msg} (${filename}, line ${this.lineno})`;
  }

  /** `str(e)` as `ast.parse` reports it (file name `<unknown>`). */
  get message(): string {
    return this.format('<unknown>');
  }
}

export type TokenType =
  | 'NAME'
  | 'NUMBER'
  | 'STRING'
  | 'FSTRING'
  | 'OP'
  | 'NEWLINE'
  | 'INDENT'
  | 'DEDENT'
  | 'ENDMARKER';

/** A replacement field of an f-string, located in the tokenizer's text. */
export interface FStringField {
  /** Code-point range of the expression text (up to a `=`, `!` or `:` suffix). */
  readonly exprStart: number;
  readonly exprEnd: number;
  /** Whether the expression is followed by a self-documenting `=`. */
  readonly debug: boolean;
  /** End of the `expr=` text (with the whitespace after `=`) that a debug field prints. */
  readonly debugTextEnd: number;
  /** Code point after `!`, or -1. */
  readonly conversion: number;
  /** Text position of the conversion character (for error messages). */
  readonly conversionName: string | null;
  /** Format spec parts, or null when there is no `:`. */
  readonly formatSpec: FStringPart[] | null;
  /** Position of the opening `{` and after the closing `}`. */
  readonly start: number;
  readonly end: number;
}
/** A literal piece (raw source text, escapes not yet decoded) or a replacement field. */
export type FStringPart =
  | { readonly kind: 'text'; readonly start: number; readonly end: number }
  | { readonly kind: 'field'; readonly field: FStringField };

export interface Token {
  readonly type: TokenType;
  /** The token's text (after CPython's newline translation). */
  readonly string: string;
  /** Code-point offsets in the tokenizer text. */
  readonly cpStart: number;
  readonly cpEnd: number;
  /** Offsets in the caller's source string (UTF-16 indices). */
  readonly start: number;
  readonly end: number;
  readonly lineno: number;
  readonly endLineno: number;
  /** Parenthesis nesting level after this token (CPython's `token->level`). */
  readonly level: number;
  /** Whether the tokenizer had tried to read past the end of the input by then (`tok->done == E_EOF`). */
  readonly sawEnd: boolean;
  /** For FSTRING tokens: prefix flags and the parts between the quotes. */
  readonly fstring?: { readonly raw: boolean; readonly parts: FStringPart[] };
}

/**
 * How tokenization ended after the last token of `tokens`: cleanly (ENDMARKER is the last
 * token), or with the error the parser raises when it asks for the next token.
 */
export interface TokenizeEnd {
  readonly error: PythonSyntaxError | null;
  /**
   * Whether CPython's tokenizer raised the error itself (as opposed to only flagging a state
   * such as "unexpected EOF"). Only those errors replace a parser error when CPython tokenizes
   * the rest of the source after a failed parse.
   */
  readonly raisedByTokenizer: boolean;
  /** The innermost unclosed bracket at that point, if any. */
  readonly openBracket: { readonly char: string; readonly lineno: number } | null;
  /**
   * Whether the error arose inside an f-string. CPython has already handed out the f-string's
   * start token then, and does not let such an error replace a parser error.
   */
  readonly insideFString: boolean;
}
export interface TokenizeResult {
  readonly tokens: Token[];
  readonly end: TokenizeEnd;
  /** The text the tokenizer worked on, as code points (newlines translated). */
  readonly text: TokenizerText;
}

/** The tokenizer's view of the source: code points with a map back to source offsets. */
export class TokenizerText {
  readonly cps: ArrayLike<number>;
  /** The source index of each code point (`[cps.length]` is the source length). */
  private readonly offsetTable: number[];
  /** Code-point index where each line starts (line 1 at index 0). */
  readonly lineStarts: number[];

  constructor(source: string) {
    // CPython's translate_newlines: "\r\n" and "\r" both become "\n", everywhere.
    const cps: number[] = [];
    const offsets: number[] = [];
    const lineStarts = [0];
    let i = 0;
    while (i < source.length) {
      const cp = source.codePointAt(i)!;
      offsets.push(i);
      i += cp === 0x0d && source[i + 1] === '\n' ? 2 : cp > 0xffff ? 2 : 1;
      cps.push(cp === 0x0d ? 0x0a : cp);
      if (cp === 0x0d || cp === 0x0a) lineStarts.push(cps.length);
    }
    offsets.push(source.length);
    this.cps = cps;
    this.offsetTable = offsets;
    this.lineStarts = lineStarts;
  }

  /** The source index of code point `i` (`i` up to `cps.length`). */
  offset(i: number): number {
    return this.offsetTable[i]!;
  }

  /** The 1-based line holding code point `i`. */
  lineOf(i: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** The line CPython's tokenizer is on once it has read everything: the last line read. */
  get eofLine(): number {
    const n = this.cps.length;
    if (n === 0) return 0;
    return this.cps[n - 1] === 0x0a ? this.lineStarts.length - 1 : this.lineStarts.length;
  }

  slice(start: number, end: number): string {
    return String.fromCodePoint(...Array.prototype.slice.call(this.cps, start, end));
  }
}

// ---------------------------------------------------------------------------------------------
// Character classes (C-locale ASCII semantics, as tokenizer.c uses)

const EOF = -1;
const TAB_SIZE = 8;
const MAX_LEVEL = 200;
const MAX_INDENT = 100;

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isXDigit = (c: number): boolean =>
  isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const isLetter = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const isPotentialIdentifierStart = (c: number): boolean => isLetter(c) || c === 0x5f || c >= 128;
const isPotentialIdentifierChar = (c: number): boolean =>
  isLetter(c) || isDigit(c) || c === 0x5f || c >= 128;
const ch = (s: string): number => s.charCodeAt(0);

const XID_START = /^[\p{XID_Start}_]$/u;
const XID_CONTINUE = /^\p{XID_Continue}$/u;
const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/** Python's `str.isprintable()` for one code point. */
export function isPrintableCodePoint(c: number): boolean {
  return c === 0x20 || !NOT_PRINTABLE.test(String.fromCodePoint(c));
}

const hex4 = (c: number): string => c.toString(16).toUpperCase().padStart(4, '0');

const TWO_CHAR_OPS = new Set([
  '!=', '%=', '&=', '**', '*=', '+=', '-=', '->', '//', '/=', ':=', '<<', '<=', '<>', '==', '>=',
  '>>', '@=', '^=', '|=',
]);
const THREE_CHAR_OPS = new Set(['**=', '//=', '<<=', '>>=']);

class TokenizerError {
  constructor(
    readonly error: PythonSyntaxError,
    readonly raisedByTokenizer: boolean,
    /** Set when the error happened inside an f-string that starts at this token. */
    public fstringStart: Token | null = null,
  ) {}
}

/** The "'(' was never closed" error for a bracket. */
export function unclosedBracketError(bracket: { readonly char: string; readonly lineno: number }): PythonSyntaxError {
  return new PythonSyntaxError('SyntaxError', `'${bracket.char}' was never closed`, bracket.lineno);
}

export interface TokenizeOptions {
  /**
   * Tokenize as the inside of an f-string replacement field: as if within brackets (newlines
   * and indentation are insignificant) and with no bracket left to close at the end.
   */
  readonly insideBrackets?: boolean;
}

/** Tokenize `source` as CPython 3.12 does for `ast.parse(source, mode="eval")`. */
export function tokenizePython(source: string, options: TokenizeOptions = {}): TokenizeResult {
  const text = new TokenizerText(source);
  return new Tokenizer(text, options.insideBrackets ?? false).run();
}

class Tokenizer {
  private readonly cps: ArrayLike<number>;
  private pos = 0;
  private level = 0;
  private readonly parens: { char: number; lineno: number }[] = [];
  private atBol = true;
  private readonly indStack = [0];
  private readonly altIndStack = [0];
  private pendingIndents = 0;
  private sawEnd = false;
  private readonly tokens: Token[] = [];

  /** Number of brackets that were open before the input started (f-string fields). */
  private readonly baseLevel: number;

  constructor(
    private readonly text: TokenizerText,
    insideBrackets: boolean,
  ) {
    this.cps = text.cps;
    if (insideBrackets) {
      this.parens.push({ char: ch('{'), lineno: 1 });
      this.level = 1;
      this.atBol = false;
    }
    this.baseLevel = this.level;
  }

  run(): TokenizeResult {
    const end = (error: PythonSyntaxError | null, raisedByTokenizer: boolean, insideFString = false): TokenizeResult => ({
      tokens: this.tokens,
      end: { error, raisedByTokenizer, openBracket: this.openBracket(), insideFString },
      text: this.text,
    });
    try {
      for (;;) {
        const tok = this.next();
        if (tok === 'unclosed') return end(unclosedBracketError(this.openBracket()!), false);
        this.tokens.push(tok);
        if (tok.type === 'ENDMARKER') return end(null, false);
      }
    } catch (e) {
      if (!(e instanceof TokenizerError)) throw e;
      if (e.fstringStart) {
        // CPython emits FSTRING_START before it finds the problem inside the f-string.
        this.tokens.push(e.fstringStart);
        return end(e.error, e.raisedByTokenizer, true);
      }
      return end(e.error, e.raisedByTokenizer);
    }
  }

  private openBracket(): { char: string; lineno: number } | null {
    const open = this.parens[this.parens.length - 1];
    return open ? { char: String.fromCharCode(open.char), lineno: open.lineno } : null;
  }

  // -------------------------------------------------------------------------------------------
  // Reading

  private nextc(): number {
    if (this.pos < this.cps.length) return this.cps[this.pos++]!;
    this.pos++;
    this.sawEnd = true;
    return EOF;
  }
  private backup(c: number): void {
    this.pos--;
    if (c !== EOF && this.cps[this.pos] !== c) throw new Error('tokenizer backup mismatch');
  }
  private peek(offset = 0): number {
    const i = this.pos + offset;
    if (i < this.cps.length) return this.cps[i]!;
    this.sawEnd = true;
    return EOF;
  }
  /** The line the tokenizer is on: the line of the last character read. */
  private currentLine(): number {
    const last = Math.min(this.pos, this.cps.length) - 1;
    if (last < 0) return this.cps.length === 0 ? 0 : 1;
    if (this.pos > this.cps.length) return this.text.eofLine;
    return this.text.lineOf(last);
  }
  /** A tokenizer error raised with an exception (CPython's `syntaxerror()`). */
  private fail(msg: string, lineno = this.currentLine()): never {
    throw new TokenizerError(new PythonSyntaxError('SyntaxError', msg, lineno), true);
  }
  /** A tokenizer state error (`tok->done = E_...`) that the parser turns into an exception. */
  private failState(
    msg: string,
    lineno = this.currentLine(),
    pyType: PythonSyntaxError['pyType'] = 'SyntaxError',
  ): never {
    throw new TokenizerError(new PythonSyntaxError(pyType, msg, lineno), false);
  }

  private makeToken(type: TokenType, start: number, end: number, extra?: Token['fstring']): Token {
    const startLine = this.text.lineOf(Math.min(start, Math.max(this.cps.length - 1, 0)));
    const endLine = end > start ? this.text.lineOf(end - 1) : startLine;
    const token: Token = {
      type,
      string: this.text.slice(start, end),
      cpStart: start,
      cpEnd: end,
      start: this.text.offset(Math.min(start, this.cps.length)),
      end: this.text.offset(Math.min(end, this.cps.length)),
      lineno: start >= this.cps.length ? this.text.eofLine : startLine,
      endLineno: start >= this.cps.length ? this.text.eofLine : endLine,
      level: this.level,
      sawEnd: this.sawEnd,
      ...(extra ? { fstring: extra } : {}),
    };
    return token;
  }

  // -------------------------------------------------------------------------------------------
  // The main loop (tok_get_normal_mode)

  private next(): Token | 'unclosed' {
    let blankLine = false;
    for (;;) {
      if (this.atBol) {
        blankLine = this.readIndentation();
      }
      if (this.pendingIndents !== 0) {
        const here = this.pos;
        if (this.pendingIndents < 0) {
          this.pendingIndents++;
          return this.makeToken('DEDENT', here, here);
        }
        this.pendingIndents--;
        return this.makeToken('INDENT', here, here);
      }

      let c: number;
      // `again:` skip spaces, then comments, possibly after line continuations.
      for (;;) {
        do c = this.nextc();
        while (c === 0x20 || c === 0x09 || c === 0x0c);
        if (c === ch('#')) {
          while (c !== EOF && c !== 0x0a) c = this.nextc();
        }
        if (c === ch('\\')) {
          this.continuationLine();
          continue;
        }
        break;
      }
      const start = this.pos - 1;

      if (c === EOF) {
        if (this.level > this.baseLevel) return 'unclosed';
        return this.makeToken('ENDMARKER', this.cps.length, this.cps.length);
      }

      if (isPotentialIdentifierStart(c)) {
        const str = this.identifierOrString(c, start);
        if (str) return str;
        return this.makeToken('NAME', start, this.pos);
      }

      if (c === 0x0a) {
        this.atBol = true;
        if (blankLine || this.level > 0) {
          blankLine = false;
          continue; // nextline
        }
        return this.makeToken('NEWLINE', start, this.pos);
      }

      if (c === ch('.')) {
        const c2 = this.nextc();
        if (isDigit(c2)) return this.number(start, 'fraction', c2);
        if (c2 === ch('.')) {
          const c3 = this.nextc();
          if (c3 === ch('.')) return this.makeToken('OP', start, this.pos);
          this.backup(c3);
        }
        this.backup(c2);
        return this.makeToken('OP', start, this.pos);
      }

      if (isDigit(c)) return this.number(start, 'start', c);

      if (c === ch('"') || c === ch("'")) return this.string(start, c, { raw: false, bytes: false, f: false });

      return this.operator(c, start);
    }
  }

  /** Indentation at the beginning of a line; returns whether the line is blank. */
  private readIndentation(): boolean {
    let col = 0;
    let altCol = 0;
    let contLineCol = 0;
    this.atBol = false;
    let c: number;
    for (;;) {
      c = this.nextc();
      if (c === 0x20) {
        col++;
        altCol++;
      } else if (c === 0x09) {
        col = (Math.floor(col / TAB_SIZE) + 1) * TAB_SIZE;
        altCol = altCol + 1;
      } else if (c === 0x0c) {
        col = altCol = 0;
      } else if (c === ch('\\')) {
        contLineCol = contLineCol || col;
        this.continuationLine();
      } else break;
    }
    this.backup(c);
    const blank = c === ch('#') || c === 0x0a;
    if (!blank && this.level === 0) {
      col = contLineCol || col;
      altCol = contLineCol || altCol;
      const top = this.indStack.length - 1;
      if (col === this.indStack[top]) {
        if (altCol !== this.altIndStack[top]) this.indentError();
      } else if (col > this.indStack[top]!) {
        if (this.indStack.length >= MAX_INDENT) this.failState('too many levels of indentation', undefined, 'IndentationError');
        if (altCol <= this.altIndStack[top]!) this.indentError();
        this.pendingIndents++;
        this.indStack.push(col);
        this.altIndStack.push(altCol);
      } else {
        while (this.indStack.length > 1 && col < this.indStack[this.indStack.length - 1]!) {
          this.pendingIndents--;
          this.indStack.pop();
          this.altIndStack.pop();
        }
        if (col !== this.indStack[this.indStack.length - 1]) {
          this.failState('unindent does not match any outer indentation level', undefined, 'IndentationError');
        }
        if (altCol !== this.altIndStack[this.altIndStack.length - 1]) this.indentError();
      }
    }
    return blank;
  }

  private indentError(): never {
    this.failState('inconsistent use of tabs and spaces in indentation', undefined, 'TabError');
  }

  /** After a backslash: it must end the line, and input must go on. */
  private continuationLine(): void {
    const backslashLine = this.text.lineOf(this.pos - 1);
    const c = this.nextc();
    if (c !== 0x0a) this.failState('unexpected character after line continuation character', backslashLine);
    const c2 = this.nextc();
    if (c2 === EOF) {
      const open = this.openBracket();
      if (open) throw new TokenizerError(unclosedBracketError(open), false);
      this.failState('unexpected EOF while parsing', this.text.eofLine);
    }
    this.backup(c2);
  }

  // -------------------------------------------------------------------------------------------
  // Names and string prefixes

  private identifierOrString(first: number, start: number): Token | null {
    let c = first;
    let sawB = false;
    let sawR = false;
    let sawU = false;
    let sawF = false;
    for (;;) {
      const lower = c | 0x20;
      if (!(sawB || sawU || sawF) && lower === ch('b')) sawB = true;
      else if (!(sawB || sawU || sawR || sawF) && lower === ch('u')) sawU = true;
      else if (!(sawR || sawU) && lower === ch('r')) sawR = true;
      else if (!(sawF || sawB || sawU) && lower === ch('f')) sawF = true;
      else break;
      c = this.nextc();
      if (c === ch('"') || c === ch("'")) {
        return this.string(start, c, { raw: sawR, bytes: sawB, f: sawF });
      }
    }
    let nonAscii = false;
    while (isPotentialIdentifierChar(c)) {
      if (c >= 128) nonAscii = true;
      c = this.nextc();
    }
    this.backup(c);
    if (nonAscii) this.verifyIdentifier(start);
    return null;
  }

  private verifyIdentifier(start: number): void {
    const end = this.pos;
    for (let i = 0; i < end - start; i++) {
      const c = this.cps[start + i]!;
      const s = String.fromCodePoint(c);
      const ok = i === 0 ? XID_START.test(s) : XID_CONTINUE.test(s);
      if (!ok) {
        this.pos = start + i + 1;
        if (isPrintableCodePoint(c)) this.fail(`invalid character '${s}' (U+${hex4(c)})`);
        this.fail(`invalid non-printable character U+${hex4(c)}`);
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Numbers

  private number(start: number, entry: 'start' | 'fraction', first: number): Token {
    let c = first;
    const done = (): Token => {
      this.backup(c);
      return this.makeToken('NUMBER', start, this.pos);
    };
    if (entry === 'fraction') {
      c = this.decimalTail();
      return this.afterFraction(start, c);
    }
    if (c === ch('0')) {
      c = this.nextc();
      const lower = c | 0x20;
      if (lower === ch('x')) {
        c = this.nextc();
        do {
          if (c === ch('_')) c = this.nextc();
          if (!isXDigit(c)) {
            this.backup(c);
            this.fail('invalid hexadecimal literal');
          }
          do c = this.nextc();
          while (isXDigit(c));
        } while (c === ch('_'));
        this.verifyEndOfNumber(c, 'hexadecimal');
        return done();
      }
      if (lower === ch('o') || lower === ch('b')) {
        const octal = lower === ch('o');
        const kind = octal ? 'octal' : 'binary';
        const inRange = (d: number): boolean => (octal ? d >= 0x30 && d < 0x38 : d === 0x30 || d === 0x31);
        c = this.nextc();
        do {
          if (c === ch('_')) c = this.nextc();
          if (!inRange(c)) {
            if (isDigit(c)) this.fail(`invalid digit '${String.fromCharCode(c)}' in ${kind} literal`);
            this.backup(c);
            this.fail(`invalid ${kind} literal`);
          }
          do c = this.nextc();
          while (inRange(c));
        } while (c === ch('_'));
        if (isDigit(c)) this.fail(`invalid digit '${String.fromCharCode(c)}' in ${kind} literal`);
        this.verifyEndOfNumber(c, kind);
        return done();
      }
      // Maybe old-style octal; a plain 0 is fine.
      let nonzero = false;
      for (;;) {
        if (c === ch('_')) {
          c = this.nextc();
          if (!isDigit(c)) {
            this.backup(c);
            this.fail('invalid decimal literal');
          }
        }
        if (c !== ch('0')) break;
        c = this.nextc();
      }
      if (isDigit(c)) {
        nonzero = true;
        c = this.decimalTail();
      }
      if (c === ch('.')) {
        c = this.nextc();
        if (isDigit(c)) c = this.decimalTail();
        return this.afterFraction(start, c);
      }
      if ((c | 0x20) === ch('e')) return this.exponent(start, c);
      if ((c | 0x20) === ch('j')) return this.imaginary(start);
      if (nonzero) {
        this.backup(c);
        this.fail(
          'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers',
        );
      }
      this.verifyEndOfNumber(c, 'decimal');
      return done();
    }
    // Decimal
    this.backup(c);
    c = this.decimalTail();
    if (c === ch('.')) {
      c = this.nextc();
      if (isDigit(c)) c = this.decimalTail();
    }
    return this.afterFraction(start, c);
  }

  /** After the integer and fraction parts: optional exponent and imaginary suffix. */
  private afterFraction(start: number, c: number): Token {
    if ((c | 0x20) === ch('e')) return this.exponent(start, c);
    if ((c | 0x20) === ch('j')) return this.imaginary(start);
    this.verifyEndOfNumber(c, 'decimal');
    this.backup(c);
    return this.makeToken('NUMBER', start, this.pos);
  }

  private exponent(start: number, e: number): Token {
    let c = this.nextc();
    if (c === ch('+') || c === ch('-')) {
      c = this.nextc();
      if (!isDigit(c)) {
        this.backup(c);
        this.fail('invalid decimal literal');
      }
    } else if (!isDigit(c)) {
      this.backup(c);
      this.verifyEndOfNumber(e, 'decimal');
      this.backup(e);
      return this.makeToken('NUMBER', start, this.pos);
    }
    this.backup(c);
    c = this.decimalTail();
    if ((c | 0x20) === ch('j')) return this.imaginary(start);
    this.verifyEndOfNumber(c, 'decimal');
    this.backup(c);
    return this.makeToken('NUMBER', start, this.pos);
  }

  private imaginary(start: number): Token {
    const c = this.nextc();
    this.verifyEndOfNumber(c, 'imaginary');
    this.backup(c);
    return this.makeToken('NUMBER', start, this.pos);
  }

  /** Digits with single underscores between them; returns the first character after. */
  private decimalTail(): number {
    let c: number;
    for (;;) {
      do c = this.nextc();
      while (isDigit(c));
      if (c !== ch('_')) break;
      c = this.nextc();
      if (!isDigit(c)) {
        this.backup(c);
        this.fail('invalid decimal literal');
      }
    }
    return c;
  }

  /**
   * A number directly followed by a name: an error, except before the keywords that may follow a
   * number in valid code (`1if x else y`), which CPython only warns about.
   */
  private verifyEndOfNumber(c: number, kind: string): void {
    // tokenizer.c's lookahead(): the rest of the keyword, then a character that cannot continue a name.
    const lookahead = (rest: string): boolean => {
      for (let i = 0; ; i++) {
        const c2 = this.peek(i);
        if (i === rest.length) return c2 === EOF || !isPotentialIdentifierChar(c2);
        if (c2 !== rest.charCodeAt(i)) return false;
      }
    };
    let keyword = false;
    if (c === ch('a')) keyword = lookahead('nd');
    else if (c === ch('e')) keyword = lookahead('lse');
    else if (c === ch('f')) keyword = lookahead('or');
    else if (c === ch('i')) {
      const c2 = this.peek();
      keyword = c2 === ch('f') || c2 === ch('n') || c2 === ch('s');
    } else if (c === ch('o')) keyword = lookahead('r');
    else if (c === ch('n')) keyword = lookahead('ot');
    if (keyword) return;
    if (c < 128 && c !== EOF && isPotentialIdentifierChar(c)) {
      this.backup(c);
      this.fail(`invalid ${kind} literal`);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Strings

  private string(start: number, quote: number, prefix: { raw: boolean; bytes: boolean; f: boolean }): Token {
    if (prefix.f) {
      const level = this.level;
      try {
        const parts = this.fstringBody(start, quote, prefix.raw);
        return this.makeToken('FSTRING', start, this.pos, { raw: prefix.raw, parts });
      } catch (e) {
        // The outermost f-string's start token is the one the parser sees first.
        if (e instanceof TokenizerError) {
          this.level = level;
          e.fstringStart = { ...this.makeToken('FSTRING', start, start + 1), fstring: { raw: prefix.raw, parts: [] } };
        }
        throw e;
      }
    }
    const firstLine = this.text.lineOf(start);
    let quoteSize = 1;
    let endQuoteSize = 0;
    let c = this.nextc();
    if (c === quote) {
      c = this.nextc();
      if (c === quote) quoteSize = 3;
      else endQuoteSize = 1; // empty string
    }
    if (c !== quote) this.backup(c);
    while (endQuoteSize !== quoteSize) {
      c = this.nextc();
      if (c === EOF || (quoteSize === 1 && c === 0x0a)) {
        const detected = c === EOF ? this.text.eofLine : this.text.lineOf(this.pos - 1);
        const what = quoteSize === 3 ? 'unterminated triple-quoted string literal' : 'unterminated string literal';
        this.fail(`${what} (detected at line ${detected})`, firstLine);
      }
      if (c === quote) endQuoteSize++;
      else {
        endQuoteSize = 0;
        if (c === ch('\\')) this.nextc();
      }
    }
    return this.makeToken('STRING', start, this.pos);
  }

  /**
   * The body of an f-string after its opening quote character. Replacement fields are scanned
   * with Python's token rules (nested strings and brackets) so that the closing quote is found
   * where CPython 3.12 finds it.
   */
  private fstringBody(tokenStart: number, quote: number, raw: boolean): FStringPart[] {
    const firstLine = this.text.lineOf(tokenStart);
    let quoteSize = 1;
    if (this.peek() === quote && this.peek(1) === quote) {
      this.pos += 2;
      quoteSize = 3;
    }
    const unterminated = (detected: number): never =>
      this.fail(
        `unterminated ${quoteSize === 3 ? 'triple-quoted ' : ''}f-string literal (detected at line ${detected})`,
        firstLine,
      );
    const atClosingQuote = (): boolean => {
      for (let i = 0; i < quoteSize; i++) if (this.peek(i) !== quote) return false;
      return true;
    };
    const literal = (inSpec: boolean): FStringPart[] => {
      const parts: FStringPart[] = [];
      let textStart = this.pos;
      const flush = (end: number): void => {
        if (end > textStart) parts.push({ kind: 'text', start: textStart, end });
      };
      for (;;) {
        const c = this.peek();
        if (c === EOF) unterminated(this.text.eofLine);
        if (atClosingQuote()) {
          if (inSpec) this.fail("f-string: expecting '}'");
          flush(this.pos);
          return parts;
        }
        if (c === 0x0a && quoteSize === 1) {
          if (inSpec) this.fail("f-string: newlines are not allowed in format specifiers for single quoted f-strings");
          unterminated(this.text.lineOf(this.pos));
        }
        if (c === ch('\\')) {
          const next = this.peek(1);
          if (next === ch('{') || next === ch('}')) {
            this.pos += 1;
            continue;
          }
          if (!raw && next === ch('N') && this.peek(2) === ch('{')) {
            this.pos += 3;
            while (this.peek() !== ch('}') && this.peek() !== EOF && !atClosingQuote()) this.pos++;
            if (this.peek() === ch('}')) this.pos++;
            continue;
          }
          this.pos += next === EOF ? 1 : 2;
          continue;
        }
        if (c === ch('{')) {
          if (this.peek(1) === ch('{') && !inSpec) {
            flush(this.pos + 1);
            this.pos += 2;
            textStart = this.pos;
            continue;
          }
          flush(this.pos);
          parts.push({ kind: 'field', field: this.fstringField(quote, quoteSize) });
          textStart = this.pos;
          continue;
        }
        if (c === ch('}')) {
          if (inSpec) {
            flush(this.pos);
            return parts;
          }
          if (this.peek(1) === ch('}')) {
            flush(this.pos + 1);
            this.pos += 2;
            textStart = this.pos;
            continue;
          }
          this.pos++;
          this.fail("f-string: single '}' is not allowed");
        }
        this.pos++;
      }
    };
    const parts = literal(false);
    this.pos += quoteSize;
    return parts;
  }

  /** One `{...}` replacement field; the tokenizer is on the `{`. */
  private fstringField(quote: number, quoteSize: number): FStringField {
    const start = this.pos;
    this.pos++; // '{'
    const exprStart = this.pos;
    const depth: number[] = [];
    let exprEnd = -1;
    let debug = false;
    let debugTextEnd = -1;
    for (;;) {
      const c = this.peek();
      if (c === EOF) this.fail("f-string: expecting '}'");
      if (depth.length === 0) {
        if (c === ch('}') || c === ch(':') || (c === ch('!') && this.peek(1) !== ch('='))) break;
        if (c === ch('=') && this.peek(1) !== ch('=')) {
          const prev = this.cps[this.pos - 1];
          if (prev !== ch('=') && prev !== ch('!') && prev !== ch('<') && prev !== ch('>')) {
            exprEnd = this.pos;
            debug = true;
            this.pos++;
            // Only whitespace may follow a debug '='.
            while (this.peek() === 0x20 || this.peek() === 0x09 || this.peek() === 0x0a) this.pos++;
            debugTextEnd = this.pos;
            break;
          }
        }
      }
      if (c === ch('#')) this.fail("f-string expression part cannot include '#'");
      if (c === ch('(') || c === ch('[') || c === ch('{')) {
        depth.push(c);
        this.pos++;
        continue;
      }
      if (c === ch(')') || c === ch(']') || c === ch('}')) {
        depth.pop();
        this.pos++;
        continue;
      }
      if (c === ch('"') || c === ch("'")) {
        const size = this.peekQuoteSize(this.pos, c);
        this.pos++;
        try {
          this.string(this.pos - 1, c, { raw: false, bytes: false, f: false });
        } catch (e) {
          // An unterminated string with the f-string's own quotes means the '}' is missing.
          if (e instanceof TokenizerError && c === quote && size === quoteSize && e.error.msg.startsWith('unterminated')) {
            this.fail("f-string: expecting '}'");
          }
          throw e;
        }
        continue;
      }
      if (isPotentialIdentifierStart(c)) {
        // A nested prefixed string (f'...', rb"...") or a name.
        const s = this.pos;
        this.pos++;
        this.identifierOrString(c, s);
        continue;
      }
      this.pos++;
    }
    if (exprEnd < 0) exprEnd = this.pos;
    let conversion = -1;
    let conversionName: string | null = null;
    if (this.peek() === ch('!')) {
      this.pos++;
      const nameStart = this.pos;
      while (isPotentialIdentifierChar(this.peek())) this.pos++;
      conversionName = this.text.slice(nameStart, this.pos);
      if (conversionName.length === 0) this.fail("f-string: missing conversion character");
      if (conversionName.length !== 1 || !'sra'.includes(conversionName)) {
        this.fail(`f-string: invalid conversion character '${conversionName}': expected 's', 'r', or 'a'`);
      }
      conversion = conversionName.charCodeAt(0);
    }
    let formatSpec: FStringPart[] | null = null;
    if (this.peek() === ch(':')) {
      this.pos++;
      formatSpec = this.fstringSpec(quote, quoteSize);
    }
    if (this.peek() !== ch('}')) this.fail("f-string: expecting '}'");
    this.pos++;
    return { exprStart, exprEnd, debug, debugTextEnd, conversion, conversionName, formatSpec, start, end: this.pos };
  }

  /** Whether the string starting at `start` opens with a triple quote. */
  private peekQuoteSize(start: number, quote: number): number {
    return this.cps[start + 1] === quote && this.cps[start + 2] === quote ? 3 : 1;
  }

  /** A format spec: literal text with nested fields, up to the closing `}` of its field. */
  private fstringSpec(quote: number, quoteSize: number): FStringPart[] {
    const parts: FStringPart[] = [];
    let textStart = this.pos;
    for (;;) {
      const c = this.peek();
      if (c === EOF) this.fail("f-string: expecting '}'");
      if (c === ch('}')) break;
      if (c === ch('{')) {
        if (this.pos > textStart) parts.push({ kind: 'text', start: textStart, end: this.pos });
        parts.push({ kind: 'field', field: this.fstringField(quote, quoteSize) });
        textStart = this.pos;
        continue;
      }
      if (c === ch('"') || c === ch("'")) this.fail("f-string: expecting '}'");
      this.pos++;
    }
    if (this.pos > textStart) parts.push({ kind: 'text', start: textStart, end: this.pos });
    return parts;
  }

  // -------------------------------------------------------------------------------------------
  // Operators and brackets

  private operator(c: number, start: number): Token {
    const c2 = this.nextc();
    const two = String.fromCodePoint(c) + (c2 === EOF ? '' : String.fromCodePoint(c2));
    if (TWO_CHAR_OPS.has(two)) {
      const c3 = this.nextc();
      const three = two + (c3 === EOF ? '' : String.fromCodePoint(c3));
      if (!THREE_CHAR_OPS.has(three)) this.backup(c3);
      return this.makeToken('OP', start, this.pos);
    }
    this.backup(c2);

    if (c === ch('(') || c === ch('[') || c === ch('{')) {
      if (this.level >= MAX_LEVEL) this.fail('too many nested parentheses');
      this.parens.push({ char: c, lineno: this.text.lineOf(start) });
      this.level++;
    } else if (c === ch(')') || c === ch(']') || c === ch('}')) {
      const closing = String.fromCharCode(c);
      if (this.level === 0) this.fail(`unmatched '${closing}'`);
      this.level--;
      const open = this.parens.pop()!;
      const matches =
        (open.char === ch('(') && c === ch(')')) ||
        (open.char === ch('[') && c === ch(']')) ||
        (open.char === ch('{') && c === ch('}'));
      if (!matches) {
        const opening = String.fromCharCode(open.char);
        const here = this.text.lineOf(start);
        if (open.lineno !== here) {
          this.fail(
            `closing parenthesis '${closing}' does not match opening parenthesis '${opening}' on line ${open.lineno}`,
          );
        }
        this.fail(`closing parenthesis '${closing}' does not match opening parenthesis '${opening}'`);
      }
    }
    if (!isPrintableCodePoint(c)) this.fail(`invalid non-printable character U+${hex4(c)}`);
    return this.makeToken('OP', start, this.pos);
  }
}

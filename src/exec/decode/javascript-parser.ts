/**
 * A hand-made parser for the JavaScript that model answers contain, producing a tree shaped like
 * tree-sitter-javascript 0.21's at the levels the reference decoder reads (program → statements →
 * call expression → arguments). Everything the grammar does not cover is rejected, standing for
 * tree-sitter's ERROR nodes. Statements end with `;` or by automatic semicolon insertion (a line
 * break, a `}` or the end of the input), as tree-sitter-javascript's scanner decides.
 */
import { utf8Length } from '../../py/builtins.js';
import { CstSyntaxError, attachComments, escapeLength, leaf, node, type CstNode } from './cst.js';
import { TokenCursor } from './token-cursor.js';

type TokenKind = 'word' | 'number' | 'string' | 'template' | 'regex' | 'op' | 'private';

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly newlineBefore: boolean;
}

const RESERVED = new Set([
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else',
  'export', 'extends', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'return',
  'super', 'switch', 'this', 'throw', 'try', 'typeof', 'var', 'void', 'while', 'with', 'null', 'true',
  'false', 'enum',
]);

const PUNCTUATORS = [
  '>>>=', '...', '===', '!==', '**=', '<<=', '>>=', '>>>', '&&=', '||=', '??=', '=>', '==', '!=', '<=', '>=',
  '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '**',
  '{', '}', '(', ')', '[', ']', ';', ',', '<', '>', '+', '-', '*', '/', '%', '&', '|', '^', '!', '~', '?',
  ':', '=', '.', '@',
];

const IDENT_START = /[\p{ID_Start}_$]/u;
const IDENT_PART = /[\p{ID_Continue}$\u200c\u200d]/u;
const NUMBER =
  /(?:0[xX][0-9a-fA-F](?:_?[0-9a-fA-F])*n?|0[bB][01](?:_?[01])*n?|0[oO][0-7](?:_?[0-7])*n?|(?:(?:[0-9](?:_?[0-9])*)?\.[0-9](?:_?[0-9])*|[0-9](?:_?[0-9])*\.?)(?:[eE][+-]?[0-9](?:_?[0-9])*)?|[0-9](?:_?[0-9])*n)/y;

/** Tokens after which a `/` is a division, not the start of a regex. */
function endsExpression(t: Token | undefined): boolean {
  if (t === undefined) return false;
  if (t.kind === 'number' || t.kind === 'string' || t.kind === 'template' || t.kind === 'regex' || t.kind === 'private') return true;
  if (t.kind === 'word') return !RESERVED.has(t.text) || ['this', 'super', 'null', 'true', 'false'].includes(t.text);
  return t.text === ')' || t.text === ']' || t.text === '}' || t.text === '++' || t.text === '--';
}

function tokenize(source: string): { tokens: Token[]; comments: CstNode[] } {
  const tokens: Token[] = [];
  const comments: CstNode[] = [];
  let i = 0;
  let newline = false;
  const push = (kind: TokenKind, start: number, end: number): void => {
    tokens.push({ kind, text: source.slice(start, end), start, end, newlineBefore: newline });
    newline = false;
  };
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\n' || ch === '\r' || ch === '\u2028' || ch === '\u2029') {
      newline = true;
      i++;
      continue;
    }
    if (/[\s\ufeff]/.test(ch)) {
      i++;
      continue;
    }
    if (source.startsWith('//', i)) {
      let end = i;
      while (end < source.length && !/[\n\r\u2028\u2029]/.test(source[end]!)) end++;
      comments.push(leaf('comment', i, end));
      i = end;
      continue;
    }
    if (source.startsWith('/*', i)) {
      const close = source.indexOf('*/', i + 2);
      if (close < 0) throw new CstSyntaxError(i);
      if (/[\n\r\u2028\u2029]/.test(source.slice(i, close))) newline = true;
      comments.push(leaf('comment', i, close + 2));
      i = close + 2;
      continue;
    }
    const cpText = String.fromCodePoint(source.codePointAt(i)!);
    if (IDENT_START.test(cpText) || ch === '\\' || ch === '#') {
      const start = i;
      if (ch === '#') i++;
      const identStart = i;
      while (i < source.length) {
        const c = String.fromCodePoint(source.codePointAt(i)!);
        if (c === '\\') {
          const m = /^\\u(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]+\})/.exec(source.slice(i));
          if (m === null) throw new CstSyntaxError(i);
          i += m[0].length;
        } else if ((i === identStart ? IDENT_START : IDENT_PART).test(c)) {
          i += c.length;
        } else {
          break;
        }
      }
      if (i === identStart) throw new CstSyntaxError(start);
      push(ch === '#' ? 'private' : 'word', start, i);
      continue;
    }
    if ((ch >= '0' && ch <= '9') || (ch === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(source);
      if (m === null) throw new CstSyntaxError(i);
      const end = i + m[0].length;
      // A number directly followed by an identifier character (`5.0f`, `3px`) is invalid.
      if (end < source.length && IDENT_PART.test(String.fromCodePoint(source.codePointAt(end)!))) throw new CstSyntaxError(end);
      push('number', i, end);
      i = end;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const end = scanString(source, i);
      push('string', i, end);
      i = end;
      continue;
    }
    if (ch === '`') {
      const end = scanTemplate(source, i);
      push('template', i, end);
      i = end;
      continue;
    }
    if (ch === '/' && !endsExpression(tokens[tokens.length - 1])) {
      const end = scanRegex(source, i);
      push('regex', i, end);
      i = end;
      continue;
    }
    const op = PUNCTUATORS.find((candidate) => source.startsWith(candidate, i));
    if (op === undefined) throw new CstSyntaxError(i);
    // `?.` followed by a digit is `?` then a number (`a?.5:0`).
    if (op === '?.' && /[0-9]/.test(source[i + 2] ?? '')) {
      push('op', i, i + 1);
      i += 1;
      continue;
    }
    push('op', i, i + op.length);
    i += op.length;
  }
  return { tokens, comments };
}

function scanString(source: string, start: number): number {
  const quote = source[start]!;
  let i = start + 1;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\\') {
      const length = escapeLength(source, i);
      if (length < 0) throw new CstSyntaxError(i);
      i += length;
      continue;
    }
    if (ch === '\n' || ch === '\r') break;
    if (ch === quote) return i + 1;
    i++;
  }
  throw new CstSyntaxError(start);
}

/** End of a template literal, skipping `${ ... }` substitutions (which may nest). */
function scanTemplate(source: string, start: number): number {
  let i = start + 1;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (ch === '`') return i + 1;
    if (ch === '$' && source[i + 1] === '{') {
      i = scanSubstitution(source, i + 2);
      continue;
    }
    i++;
  }
  throw new CstSyntaxError(start);
}

function scanSubstitution(source: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '"' || ch === "'") i = scanString(source, i);
    else if (ch === '`') i = scanTemplate(source, i);
    else if (ch === '{') (depth++, i++);
    else if (ch === '}') {
      depth--;
      i++;
      if (depth === 0) return i;
    } else i++;
  }
  throw new CstSyntaxError(start);
}

function scanRegex(source: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\n' || ch === '\r') break;
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    else if (ch === '/' && !inClass) {
      i++;
      while (i < source.length && /[a-z]/.test(source[i]!)) i++;
      return i;
    }
    i++;
  }
  throw new CstSyntaxError(start);
}

// ---------------------------------------------------------------------------------------------
// Parser

const ASSIGNMENT_OPERATORS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '**=', '<<=', '>>=', '>>>=', '&=', '|=', '^=', '&&=', '||=', '??=']);

const BINARY_PRECEDENCE: Record<string, number> = {
  '??': 1,
  '||': 2,
  '&&': 3,
  '|': 4,
  '^': 5,
  '&': 6,
  '==': 7,
  '!=': 7,
  '===': 7,
  '!==': 7,
  '<': 8,
  '>': 8,
  '<=': 8,
  '>=': 8,
  instanceof: 8,
  in: 8,
  '<<': 9,
  '>>': 9,
  '>>>': 9,
  '+': 10,
  '-': 10,
  '*': 11,
  '/': 11,
  '%': 11,
  '**': 12,
};

const UNARY_OPERATORS = new Set(['!', '~', '-', '+']);
const UNARY_KEYWORDS = new Set(['typeof', 'void', 'delete', 'await']);
/** Left-hand sides tree-sitter-javascript accepts in an assignment. */
const ASSIGNABLE = new Set(['identifier', 'member_expression', 'subscript_expression', 'parenthesized_expression', 'undefined', 'object_pattern', 'array_pattern']);

class JavascriptParser extends TokenCursor<Token> {
  /** Completed top-level statements, and how the last statement ended (see `semicolon`). */
  private statementCount = 0;
  private lastEnd: 'semicolon' | 'asi' | 'same-line' = 'asi';

  constructor(source: string, tokens: Token[]) {
    super(source, tokens, RESERVED);
  }

  protected take(type?: string): CstNode {
    const t = this.peek();
    if (t === undefined) this.fail();
    this.pos++;
    return leaf(type ?? (t.kind === 'op' || t.kind === 'word' ? t.text : t.kind), t.start, t.end);
  }

  private identifier(): CstNode {
    if (!this.isIdentifier()) this.fail();
    return this.take(this.peek()!.text === 'undefined' ? 'undefined' : 'identifier');
  }

  /** A property name after `.` or in an object literal: any word, including reserved ones. */
  private propertyName(): CstNode {
    const t = this.peek();
    if (t === undefined || (t.kind !== 'word' && t.kind !== 'private')) this.fail();
    return this.take('property_identifier');
  }

  // ---- statements

  program(): CstNode {
    const children: CstNode[] = [];
    while (this.pos < this.tokens.length) {
      children.push(this.statement());
      this.statementCount++;
    }
    return { type: 'program', start: 0, end: this.source.length, children, fields: new Map() };
  }

  /**
   * The end of a statement: `;`, or an automatic semicolon (line break, `}` or end of input).
   * On the same line, tree-sitter's error recovery inserts a MISSING `;` when that is cheaper
   * than an ERROR; measured on tree-sitter-javascript 0.21: not after a first statement shorter
   * than 6 bytes, not twice in a row, and not before a name of at most 4 bytes followed by `(`
   * or `.` (skipping that name is cheaper).
   */
  private semicolon(children: CstNode[]): CstNode[] {
    if (this.is(';')) {
      this.lastEnd = 'semicolon';
      return [...children, this.take()];
    }
    const next = this.peek();
    if (next === undefined || next.newlineBefore || (next.kind === 'op' && next.text === '}')) {
      this.lastEnd = 'asi';
      return children;
    }
    const first = children[0]!;
    const last = children[children.length - 1]!;
    const length = utf8Length(this.source.slice(first.start, last.end));
    if (this.statementCount === 0 && length < 6) this.fail();
    if (this.lastEnd === 'same-line') this.fail();
    if (next.kind === 'word' && utf8Length(next.text) <= 4 && (this.is('(', 1) || this.is('.', 1) || this.is(':', 1))) {
      this.fail();
    }
    this.lastEnd = 'same-line';
    return children;
  }

  private statement(): CstNode {
    if (this.peek() === undefined) this.fail();
    if (this.is(';')) return node('empty_statement', [this.take()]);
    if (this.is('{')) {
      // A block, unless only an object literal fits (`{"key": "value"}`).
      const block = this.tryParse(() => this.statementBlock());
      if (block !== undefined) return block;
    }
    if (this.isIdentifier() && this.is(':', 1)) {
      const label = this.take('statement_identifier');
      const colon = this.take();
      return node('labeled_statement', [label, colon, this.statement()]);
    }
    const t = this.peek()!;
    if (t.kind === 'word') {
      switch (t.text) {
        case 'var':
        case 'const':
          return this.variableDeclaration();
        case 'let':
          if (this.isIdentifier(1) || this.is('[', 1) || this.is('{', 1)) return this.variableDeclaration();
          break;
        case 'return':
        case 'throw': {
          const keyword = this.take();
          const children = [keyword];
          const next = this.peek();
          if (next !== undefined && !next.newlineBefore && !this.is(';') && !this.is('}')) children.push(this.expressions());
          return node(`${t.text}_statement`, this.semicolon(children));
        }
        case 'if':
          return this.ifStatement();
        case 'function':
          return this.functionExpression('function_declaration');
        case 'async':
          if (this.is('function', 1) && !this.peek(1)!.newlineBefore) return this.functionExpression('function_declaration');
          break;
      }
    }
    const expression = this.expressions();
    return node('expression_statement', this.semicolon([expression]));
  }

  private statementBlock(): CstNode {
    const children = [this.expect('{')];
    while (!this.is('}')) {
      if (this.peek() === undefined) this.fail();
      children.push(this.statement());
    }
    children.push(this.take());
    return node('statement_block', children);
  }

  private ifStatement(): CstNode {
    const children = [this.take(), this.parenthesized(), this.statement()];
    if (this.is('else')) children.push(this.take(), this.statement());
    return node('if_statement', children);
  }

  private variableDeclaration(): CstNode {
    const keyword = this.take();
    const children = [keyword];
    for (;;) {
      const name = this.is('[') || this.is('{') ? this.primary() : this.identifier();
      const declarator = [name];
      if (this.is('=')) declarator.push(this.take(), this.assignment());
      children.push(node('variable_declarator', declarator));
      if (!this.is(',')) break;
      children.push(this.take());
    }
    return node(keyword.type === 'var' ? 'variable_declaration' : 'lexical_declaration', this.semicolon(children));
  }

  // ---- expressions

  /** `a, b` (a sequence expression) or a single expression. */
  private expressions(): CstNode {
    const first = this.assignment();
    if (!this.is(',')) return first;
    const children = [first];
    while (this.is(',')) children.push(this.take(), this.assignment());
    return node('sequence_expression', children);
  }

  private assignment(): CstNode {
    const arrow = this.tryArrowFunction();
    if (arrow !== undefined) return arrow;
    if (this.is('yield')) {
      const keyword = this.take();
      return node('yield_expression', [keyword, this.assignment()]);
    }
    const left = this.ternary();
    const t = this.peek();
    if (t === undefined || t.kind !== 'op' || !ASSIGNMENT_OPERATORS.has(t.text)) return left;
    if (!ASSIGNABLE.has(left.type) && !(t.text === '=' && (left.type === 'object' || left.type === 'array'))) this.fail();
    const operator = this.take();
    const right = this.assignment();
    const type = t.text === '=' ? 'assignment_expression' : 'augmented_assignment_expression';
    return node(type, [left, operator, right], { left, right });
  }

  /** `x => ...`, `(a, b) => ...`, `async x => ...`, `async (a) => ...`. */
  private tryArrowFunction(): CstNode | undefined {
    const start = this.pos;
    const prefix: CstNode[] = [];
    if (this.is('async') && !this.is('=>', 1) && (this.isIdentifier(1) || this.is('(', 1)) && !this.peek(1)!.newlineBefore) {
      prefix.push(this.take());
    }
    if (this.isIdentifier() && this.is('=>', 1)) {
      const param = this.identifier();
      return this.arrowRest([...prefix, param]);
    }
    // Only try parameters when the parenthesis is followed by `=>` (keeps nesting linear).
    if (!this.is('(') || !this.closedAndFollowedBy('=>')) {
      this.pos = start;
      return undefined;
    }
    const result = this.tryParse(() => {
      const params = this.formalParameters();
      if (!this.is('=>') || this.peek()!.newlineBefore) this.fail();
      return this.arrowRest([...prefix, params]);
    });
    if (result === undefined) this.pos = start;
    return result;
  }

  private arrowRest(head: CstNode[]): CstNode {
    const arrow = this.expect('=>');
    const body = this.is('{') ? this.statementBlock() : this.assignment();
    return node('arrow_function', [...head, arrow, body]);
  }

  /** `(a, b = 1, ...rest)` with destructuring patterns allowed. */
  private formalParameters(): CstNode {
    const children = [this.expect('(')];
    while (!this.is(')')) {
      if (this.is('...')) {
        const dots = this.take();
        children.push(node('rest_pattern', [dots, this.bindingTarget()]));
      } else {
        const target = this.bindingTarget();
        children.push(this.is('=') ? node('assignment_pattern', [target, this.take(), this.assignment()]) : target);
      }
      if (this.is(')')) break;
      children.push(this.expect(','));
    }
    children.push(this.take());
    return node('formal_parameters', children);
  }

  private bindingTarget(): CstNode {
    if (this.is('[') || this.is('{')) return this.primary();
    return this.identifier();
  }

  private ternary(): CstNode {
    const condition = this.binary(1);
    if (!this.is('?')) return condition;
    const question = this.take();
    const consequence = this.assignment();
    const colon = this.expect(':');
    const alternative = this.assignment();
    return node('ternary_expression', [condition, question, consequence, colon, alternative]);
  }

  private peekBinaryOperator(): string | undefined {
    const t = this.peek();
    if (t === undefined) return undefined;
    if (t.kind === 'word') return t.text === 'instanceof' || t.text === 'in' ? t.text : undefined;
    if (t.kind !== 'op') return undefined;
    return BINARY_PRECEDENCE[t.text] !== undefined ? t.text : undefined;
  }

  private binary(minPrecedence: number): CstNode {
    let left = this.unary();
    for (;;) {
      const op = this.peekBinaryOperator();
      if (op === undefined) return left;
      const precedence = BINARY_PRECEDENCE[op]!;
      if (precedence < minPrecedence) return left;
      const operator = this.take();
      // `**` is right-associative.
      const right = this.assignmentOperand(this.binary(op === '**' ? precedence : precedence + 1));
      left = node('binary_expression', [left, operator, right], { left, right });
    }
  }

  /** tree-sitter-javascript also accepts an assignment as an operand (`a / b = c`, `-x = 1`). */
  private assignmentOperand(operand: CstNode): CstNode {
    const t = this.peek();
    if (t === undefined || t.kind !== 'op' || !ASSIGNMENT_OPERATORS.has(t.text) || !ASSIGNABLE.has(operand.type)) return operand;
    const operator = this.take();
    const value = this.assignment();
    const type = t.text === '=' ? 'assignment_expression' : 'augmented_assignment_expression';
    return node(type, [operand, operator, value], { left: operand, right: value });
  }

  private unary(): CstNode {
    const t = this.peek();
    if (t === undefined) this.fail();
    if ((t.kind === 'op' && UNARY_OPERATORS.has(t.text)) || (t.kind === 'word' && UNARY_KEYWORDS.has(t.text))) {
      const op = this.take();
      const argument = this.assignmentOperand(this.unary());
      return node(t.text === 'await' ? 'await_expression' : 'unary_expression', [op, argument]);
    }
    if (t.kind === 'op' && (t.text === '++' || t.text === '--')) {
      const op = this.take();
      return node('update_expression', [op, this.unary()]);
    }
    const expr = this.postfix(this.primary());
    const next = this.peek();
    if (next !== undefined && !next.newlineBefore && (next.text === '++' || next.text === '--') && next.kind === 'op') {
      return node('update_expression', [expr, this.take()]);
    }
    return expr;
  }

  private primary(): CstNode {
    const t = this.peek();
    if (t === undefined) this.fail();
    switch (t.kind) {
      case 'number':
        return this.take('number');
      case 'string':
        return this.take('string');
      case 'template':
        return this.take('template_string');
      case 'regex':
        return this.take('regex');
      case 'private':
        return this.fail();
      case 'op':
        if (t.text === '(') return this.parenthesized();
        if (t.text === '[') return this.arrayLiteral();
        if (t.text === '{') return this.objectLiteral();
        return this.fail();
      case 'word':
        break;
    }
    switch (t.text) {
      case 'true':
      case 'false':
      case 'null':
      case 'this':
      case 'super':
        return this.take();
      case 'function':
        return this.functionExpression('function_expression');
      case 'async':
        if (this.is('function', 1)) return this.functionExpression('function_expression');
        break;
      case 'new':
        return this.newExpression();
    }
    return this.identifier();
  }

  private parenthesized(): CstNode {
    const open = this.expect('(');
    const inner = this.expressions();
    return node('parenthesized_expression', [open, inner, this.expect(')')]);
  }

  private arrayLiteral(): CstNode {
    const children = [this.expect('[')];
    while (!this.is(']')) {
      if (this.is(',')) {
        children.push(this.take());
        continue;
      }
      children.push(this.is('...') ? node('spread_element', [this.take(), this.assignment()]) : this.assignment());
      if (!this.is(']')) children.push(this.expect(','));
    }
    children.push(this.take());
    return node('array', children);
  }

  private objectLiteral(): CstNode {
    const children = [this.expect('{')];
    while (!this.is('}')) {
      children.push(this.objectMember());
      if (this.is('}')) break;
      children.push(this.expect(','));
    }
    children.push(this.take());
    return node('object', children);
  }

  private objectMember(): CstNode {
    if (this.is('...')) return node('spread_element', [this.take(), this.assignment()]);
    const prefix: CstNode[] = [];
    // `get x() {}`, `set x(v) {}`, `async m() {}`, `*gen() {}`.
    while (
      (this.is('get') || this.is('set') || this.is('async') || this.is('*')) &&
      !this.is('(', 1) && !this.is(':', 1) && !this.is(',', 1) && !this.is('}', 1)
    ) {
      prefix.push(this.take());
    }
    const key = this.propertyKey();
    if (this.is('(')) {
      const params = this.formalParameters();
      return node('method_definition', [...prefix, key, params, this.statementBlock()]);
    }
    if (prefix.length > 0) this.fail();
    if (this.is(':')) {
      const colon = this.take();
      const value = this.assignment();
      return node('pair', [key, colon, value], { key, value });
    }
    if (key.type !== 'property_identifier' && key.type !== 'shorthand_property_identifier') this.fail();
    if (this.is('=')) return node('shorthand_property_identifier_pattern', [key, this.take(), this.assignment()]);
    return leaf('shorthand_property_identifier', key.start, key.end);
  }

  private propertyKey(): CstNode {
    const t = this.peek();
    if (t === undefined) this.fail();
    if (t.kind === 'string') return this.take('string');
    if (t.kind === 'number') return this.take('number');
    if (t.kind === 'private') return this.take('private_property_identifier');
    if (this.is('[')) {
      const open = this.take();
      const inner = this.assignment();
      return node('computed_property_name', [open, inner, this.expect(']')]);
    }
    return this.propertyName();
  }

  private functionExpression(type: string): CstNode {
    const children: CstNode[] = [];
    if (this.is('async')) children.push(this.take());
    children.push(this.expect('function'));
    if (this.is('*')) children.push(this.take());
    if (this.isIdentifier()) children.push(this.identifier());
    children.push(this.formalParameters());
    children.push(this.statementBlock());
    return node(type, children);
  }

  private newExpression(): CstNode {
    const keyword = this.take();
    if (this.is('.')) {
      const dot = this.take();
      return node('new_expression', [keyword, dot, this.propertyName()]);
    }
    // The constructor: a primary with member accesses, but no call.
    let constructor = this.is('new') ? this.newExpression() : this.primary();
    constructor = this.postfix(constructor, false);
    const children = [keyword, constructor];
    if (this.is('(')) children.push(this.argumentList());
    return node('new_expression', children, { constructor });
  }

  /** `(a, b, ...c)`; tree-sitter-javascript also accepts empty slots (`f(a,,b)`, `f(,)`). */
  private argumentList(): CstNode {
    const children = [this.expect('(')];
    while (!this.is(')')) {
      if (this.is(',')) {
        children.push(this.take());
        continue;
      }
      children.push(this.is('...') ? node('spread_element', [this.take(), this.assignment()]) : this.assignment());
      if (this.is(')')) break;
      children.push(this.expect(','));
    }
    children.push(this.take());
    return node('arguments', children);
  }

  private postfix(start: CstNode, allowCalls = true): CstNode {
    let expr = start;
    for (;;) {
      const t = this.peek();
      if (t === undefined) return expr;
      if (this.is('.')) {
        const dot = this.take();
        expr = node('member_expression', [expr, dot, this.propertyName()], { object: expr });
      } else if (this.is('?.')) {
        const chain = this.take('optional_chain');
        if (this.is('(') && allowCalls) {
          expr = node('call_expression', [expr, chain, this.argumentList()], { function: expr });
        } else if (this.is('[')) {
          const open = this.take();
          const index = this.expressions();
          expr = node('subscript_expression', [expr, chain, open, index, this.expect(']')], { object: expr });
        } else {
          expr = node('member_expression', [expr, chain, this.propertyName()], { object: expr });
        }
      } else if (this.is('[')) {
        const open = this.take();
        const index = this.expressions();
        expr = node('subscript_expression', [expr, open, index, this.expect(']')], { object: expr });
      } else if (this.is('(') && allowCalls) {
        expr = node('call_expression', [expr, this.argumentList()], { function: expr });
      } else if (t.kind === 'template' && !t.newlineBefore) {
        // A template on a new line starts a new statement (tree-sitter's scanner inserts a `;`).
        expr = node('call_expression', [expr, this.take('template_string')], { function: expr });
      } else {
        return expr;
      }
    }
  }
}

/**
 * Parse JavaScript source the way the reference's tree-sitter parser sees it. Throws
 * `CstSyntaxError` where tree-sitter's tree would contain an ERROR node.
 */
export function parseJavascript(source: string): CstNode {
  const { tokens, comments } = tokenize(source);
  const root = new JavascriptParser(source, tokens).program();
  attachComments(root, comments);
  return root;
}

/**
 * A hand-made parser for the part of Java that model answers contain, producing a tree shaped like
 * tree-sitter-java 0.21's (the parser the reference uses). It accepts a sequence of statements
 * (usually one method call, often with its `;` missing) and rejects — like tree-sitter's ERROR
 * nodes — anything outside the grammar. Where tree-sitter's error recovery accepts a missing `;`
 * the rules in `statementEndOk` imitate it.
 */
import { utf8Length } from '../../py/builtins.js';
import { CstSyntaxError, attachComments, escapeLength, leaf, node, type CstNode } from './cst.js';
import { TokenCursor } from './token-cursor.js';

// ---------------------------------------------------------------------------------------------
// Tokens

type TokenKind = 'word' | 'number' | 'char' | 'string' | 'op';

interface Token {
  readonly kind: TokenKind;
  /** For numbers: the tree-sitter literal type; for words and operators: the text. */
  readonly type: string;
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** Reserved words: never identifiers in tree-sitter-java. */
const RESERVED = new Set([
  'abstract', 'assert', 'boolean', 'break', 'byte', 'case', 'catch', 'char', 'class', 'const', 'continue',
  'default', 'do', 'double', 'else', 'enum', 'extends', 'final', 'finally', 'float', 'for', 'goto', 'if',
  'implements', 'import', 'instanceof', 'int', 'interface', 'long', 'native', 'new', 'package', 'private',
  'protected', 'public', 'return', 'short', 'static', 'strictfp', 'super', 'switch', 'synchronized', 'this',
  'throw', 'throws', 'transient', 'try', 'void', 'volatile', 'while', 'true', 'false', 'null',
]);

const INTEGRAL_TYPES = new Set(['byte', 'short', 'int', 'long', 'char']);
const FLOATING_TYPES = new Set(['float', 'double']);
const MODIFIERS = new Set(['public', 'protected', 'private', 'static', 'final', 'abstract', 'synchronized', 'native', 'transient', 'volatile', 'strictfp']);

// `>` is always its own token so that `List<List<String>>` closes two type argument lists; the
// parser joins adjacent `>` and `=` tokens back into `>=`, `>>`, `>>>`, `>>=` and `>>>=`.
const OPERATORS = [
  '<<=', '...', '->', '::', '++', '--', '&&', '||', '==', '!=', '<=', '+=', '-=', '*=', '/=',
  '&=', '|=', '^=', '%=', '<<', '(', ')', '{', '}', '[', ']', ';', ',', '.', '@', '=', '>', '<', '!', '~',
  '?', ':', '+', '-', '*', '/', '&', '|', '^', '%',
];

const IDENT_START = /[\p{ID_Start}_$]/u;
const IDENT_PART = /[\p{ID_Continue}$\u200c\u200d]/u;

const DIGITS = '[0-9](?:[0-9_]*[0-9])?';
const EXPONENT = `[eE][+-]?${DIGITS}`;
const NUMBER_PATTERNS: [string, RegExp][] = [
  ['hex_integer_literal', /0[xX][0-9a-fA-F](?:[0-9a-fA-F_]*[0-9a-fA-F])?[lL]?/y],
  ['binary_integer_literal', /0[bB][01](?:[01_]*[01])?[lL]?/y],
  [
    'decimal_floating_point_literal',
    new RegExp(
      `(?:${DIGITS}\\.(?:${DIGITS})?(?:${EXPONENT})?[fFdD]?|\\.${DIGITS}(?:${EXPONENT})?[fFdD]?|${DIGITS}${EXPONENT}[fFdD]?|${DIGITS}[fFdD])`,
      'y',
    ),
  ],
  ['octal_integer_literal', /0[0-7_]*[0-7][lL]?/y],
  ['decimal_integer_literal', new RegExp(`${DIGITS}[lL]?`, 'y')],
];

function tokenize(source: string): { tokens: Token[]; comments: CstNode[] } {
  const tokens: Token[] = [];
  const comments: CstNode[] = [];
  let i = 0;
  const push = (kind: TokenKind, type: string, start: number, end: number): void => {
    tokens.push({ kind, type, text: source.slice(start, end), start, end });
  };
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\f' || ch === '\n' || ch === '\r') {
      i++;
      continue;
    }
    if (source.startsWith('//', i)) {
      let end = i;
      while (end < source.length && source[end] !== '\n') end++;
      comments.push(leaf('line_comment', i, end));
      i = end;
      continue;
    }
    if (source.startsWith('/*', i)) {
      const close = source.indexOf('*/', i + 2);
      if (close < 0) throw new CstSyntaxError(i);
      comments.push(leaf('block_comment', i, close + 2));
      i = close + 2;
      continue;
    }
    const cp = source.codePointAt(i)!;
    const cpText = String.fromCodePoint(cp);
    if (IDENT_START.test(cpText)) {
      let end = i + cpText.length;
      while (end < source.length) {
        const next = String.fromCodePoint(source.codePointAt(end)!);
        if (!IDENT_PART.test(next)) break;
        end += next.length;
      }
      push('word', source.slice(i, end), i, end);
      i = end;
      continue;
    }
    if ((ch >= '0' && ch <= '9') || (ch === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      let matched = false;
      for (const [type, pattern] of NUMBER_PATTERNS) {
        pattern.lastIndex = i;
        const m = pattern.exec(source);
        if (m !== null) {
          push('number', type, i, i + m[0].length);
          i += m[0].length;
          matched = true;
          break;
        }
      }
      if (!matched) throw new CstSyntaxError(i);
      continue;
    }
    if (source.startsWith('"""', i)) {
      const close = source.indexOf('"""', i + 3);
      if (close < 0) throw new CstSyntaxError(i);
      push('string', 'string_literal', i, close + 3);
      i = close + 3;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const end = scanQuoted(source, i, ch);
      if (ch === "'" && end === i + 2) throw new CstSyntaxError(i); // '' is not a character literal
      push(ch === '"' ? 'string' : 'char', ch === '"' ? 'string_literal' : 'character_literal', i, end);
      i = end;
      continue;
    }
    const op = OPERATORS.find((candidate) => source.startsWith(candidate, i));
    if (op === undefined) throw new CstSyntaxError(i);
    push('op', op, i, i + op.length);
    i += op.length;
  }
  return { tokens, comments };
}

/** End of a quoted literal starting at `start`; escapes skip one character, no line breaks. */
function scanQuoted(source: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\n' || ch === '\r') break;
    if (ch === '\\') {
      const length = escapeLength(source, i);
      if (length < 0) break;
      i += length;
      continue;
    }
    if (ch === quote) return i + 1;
    i++;
  }
  throw new CstSyntaxError(start);
}

// ---------------------------------------------------------------------------------------------
// Parser

const ASSIGNMENT_OPERATORS = new Set(['=', '+=', '-=', '*=', '/=', '&=', '|=', '^=', '%=', '<<=', '>>=', '>>>=']);

/** Binary operator precedence, lowest first (tree-sitter-java's PREC table). */
const BINARY_PRECEDENCE: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '|': 3,
  '^': 4,
  '&': 5,
  '==': 6,
  '!=': 6,
  '<': 7,
  '>': 7,
  '<=': 7,
  '>=': 7,
  instanceof: 7,
  '<<': 8,
  '>>': 8,
  '>>>': 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  '%': 10,
};

/** Expressions that, as a statement without `;` after another such statement, give an ERROR. */
const BARE_EXPRESSIONS = new Set([
  'identifier', 'decimal_integer_literal', 'hex_integer_literal', 'octal_integer_literal', 'binary_integer_literal',
  'decimal_floating_point_literal', 'string_literal', 'character_literal', 'true', 'false', 'null_literal', 'this',
]);

/** Context of a statement, for imitating where tree-sitter accepts a missing `;`. */
interface StatementContext {
  readonly first: boolean;
  readonly afterSemicolon: boolean;
  readonly labeled: boolean;
  readonly inBlock: boolean;
}

/** Statements inside a block or switch body. */
const BLOCK_CONTEXT: StatementContext = { first: false, afterSemicolon: true, labeled: false, inBlock: true };

class JavaParser extends TokenCursor<Token> {
  /** Whether the statement being parsed is the first of the program (see `statementEndOk`). */
  private firstStatement = false;

  constructor(source: string, tokens: Token[]) {
    super(source, tokens, RESERVED);
  }

  // ---- token helpers

  protected take(): CstNode {
    const t = this.peek();
    if (t === undefined) this.fail();
    this.pos++;
    return leaf(t.kind === 'number' || t.kind === 'string' || t.kind === 'char' ? t.type : t.text, t.start, t.end);
  }

  private identifier(type = 'identifier'): CstNode {
    if (!this.isIdentifier()) this.fail();
    const t = this.peek()!;
    this.pos++;
    return leaf(type, t.start, t.end);
  }

  // ---- program and statements

  program(): CstNode {
    const children: CstNode[] = [];
    let afterSemicolon = false;
    while (this.pos < this.tokens.length) {
      const ctx: StatementContext = { first: children.length === 0, afterSemicolon, labeled: false, inBlock: false };
      const statement = this.statement(ctx);
      afterSemicolon = statement.children[statement.children.length - 1]?.type === ';';
      if (statement.type !== ';') children.push(statement);
    }
    return { type: 'program', start: 0, end: this.source.length, children, fields: new Map() };
  }

  private statement(ctx: StatementContext): CstNode {
    if (this.is(';')) return this.take();
    if (this.is('{')) return this.block();
    if (this.isIdentifier() && this.is(':', 1)) {
      const label = this.identifier();
      const colon = this.take();
      // tree-sitter recovers a trailing label (`Sure:`) without an ERROR.
      if (this.peek() === undefined) return node('labeled_statement', [label, colon]);
      const body = this.statement({ ...ctx, labeled: true });
      return node('labeled_statement', [label, colon, body]);
    }
    if (this.is('return')) {
      const keyword = this.take();
      const children = [keyword];
      if (!this.is(';') && !this.is('}') && this.peek() !== undefined) children.push(this.expression());
      return node('return_statement', this.terminate(children, true));
    }
    if (this.is('throw')) {
      const keyword = this.take();
      return node('throw_statement', this.terminate([keyword, this.expression()], true));
    }
    if (this.is('if')) return this.ifStatement(ctx);
    // `Type name ...` commits to a declaration, as tree-sitter does (`Function call: f(x=1)` fails).
    this.firstStatement = ctx.first;
    if (this.looksLikeDeclaration()) {
      return this.is('(', this.declarationNameOffset()) ? this.methodDeclaration(ctx) : this.localVariableDeclaration();
    }
    const expression = this.expression();
    return node('expression_statement', this.terminate([expression], this.statementEndOk(expression, ctx)));
  }

  /** Append the `;`, or accept its absence where tree-sitter's recovery does (MISSING ";"). */
  private terminate(children: CstNode[], missingOk: boolean): CstNode[] {
    if (this.is(';')) return [...children, this.take()];
    if (!missingOk) this.fail();
    // A missing `;` is only recovered at a statement boundary.
    const next = this.peek();
    if (next !== undefined && next.kind === 'op' && next.text !== '{' && next.text !== '}' && next.text !== '(' && next.text !== '@') {
      this.fail();
    }
    return children;
  }

  /**
   * Whether tree-sitter recovers `expr` without its `;` with a MISSING node rather than an ERROR.
   * Its recovery picks the cheaper of the two, and the cost of an ERROR grows with the size of
   * the skipped text; measured on tree-sitter-java 0.21: a dotted name or a parenthesised
   * expression never (they read as a type or a cast), the first statement when its text is at
   * least 6 bytes long, a later one after an explicit `;` or a label, or after a statement that
   * also lacked its `;` unless it is a bare name or literal.
   */
  private statementEndOk(expression: CstNode, ctx: StatementContext): boolean {
    if (ctx.inBlock && this.is('}')) return true;
    if (expression.type === 'field_access' || expression.type === 'parenthesized_expression') return false;
    if (ctx.labeled) return true;
    if (ctx.first) return utf8Length(this.source.slice(expression.start, expression.end)) >= 6;
    if (ctx.afterSemicolon) return true;
    return !BARE_EXPRESSIONS.has(expression.type);
  }

  private block(): CstNode {
    const children = [this.expect('{')];
    let afterSemicolon = false;
    while (!this.is('}')) {
      if (this.peek() === undefined) this.fail();
      const statement = this.statement({ first: false, afterSemicolon, labeled: false, inBlock: true });
      afterSemicolon = statement.children[statement.children.length - 1]?.type === ';' || statement.type === ';';
      children.push(statement);
    }
    children.push(this.take());
    return node('block', children);
  }

  private ifStatement(ctx: StatementContext): CstNode {
    const children = [this.take(), this.parenthesized()];
    children.push(this.statement({ ...ctx, first: false, labeled: true }));
    if (this.is('else')) {
      children.push(this.take());
      children.push(this.statement({ ...ctx, first: false, labeled: true }));
    }
    return node('if_statement', children);
  }

  /** Whether the statement starts with a type followed by a name. */
  private looksLikeDeclaration(): boolean {
    const saved = this.pos;
    const result = this.tryParse(() => {
      while (this.is('final')) this.take();
      this.type();
      return this.isIdentifier();
    });
    this.pos = saved;
    return result === true;
  }

  /** Tokens from here to just after the `Type name` that starts a declaration. */
  private declarationNameOffset(): number {
    const saved = this.pos;
    while (this.is('final')) this.take();
    this.type();
    const offset = this.pos - saved + 1;
    this.pos = saved;
    return offset;
  }

  /**
   * `Type name(Type a, ...)` with a body or `;` (a missing `;` is recovered like a statement's):
   * tree-sitter reads `json\nfoo()` this way, so such an answer holds no call.
   */
  private methodDeclaration(ctx: StatementContext): CstNode {
    const type = this.type();
    const name = this.identifier();
    const open = this.expect('(');
    const params = [open];
    while (!this.is(')')) {
      if (params.length > 1) params.push(this.expect(','));
      const paramType = this.type();
      params.push(node('formal_parameter', [paramType, this.identifier()]));
    }
    params.push(this.take());
    const children = [type, name, node('formal_parameters', params)];
    if (this.is('{')) return node('method_declaration', [...children, this.block()]);
    const missingOk = !ctx.first || utf8Length(this.source.slice(type.start, params[params.length - 1]!.end)) >= 6;
    return node('method_declaration', this.terminate(children, missingOk));
  }

  /** `Type name [= value] (, name [= value])* ;` (modifiers allowed). */
  private localVariableDeclaration(): CstNode {
    const children: CstNode[] = [];
    while (this.is('final')) children.push(this.take());
    const type = this.type();
    if (!this.isIdentifier()) this.fail();
    children.push(type);
    for (;;) {
      const declarator: CstNode[] = [this.identifier()];
      if (this.is('=')) {
        declarator.push(this.take());
        declarator.push(this.is('{') ? this.arrayInitializer() : this.expression());
      }
      children.push(node('variable_declarator', declarator));
      if (!this.is(',')) break;
      children.push(this.take());
    }
    const missingOk = !this.firstStatement || utf8Length(this.source.slice(children[0]!.start, children[children.length - 1]!.end)) >= 6;
    return node('local_variable_declaration', this.terminate(children, missingOk), { type });
  }

  // ---- types

  /** A type: primitive, (scoped/generic) class type, with array dimensions. */
  private type(): CstNode {
    let base = this.simpleType();
    if (this.is('[') && this.is(']', 1)) base = node('array_type', [base, this.dimensions()], { element: base });
    return base;
  }

  private simpleType(): CstNode {
    const t = this.peek();
    if (t === undefined || t.kind !== 'word') this.fail();
    if (INTEGRAL_TYPES.has(t.text)) return node('integral_type', [this.take()]);
    if (FLOATING_TYPES.has(t.text)) return node('floating_point_type', [this.take()]);
    if (t.text === 'boolean') return node('boolean_type', [this.take()]);
    if (t.text === 'void') return this.take(), leaf('void_type', t.start, t.end);
    let type: CstNode = this.identifier('type_identifier');
    if (this.is('<')) type = node('generic_type', [type, this.typeArguments()]);
    while (this.is('.') && this.isIdentifier(1)) {
      const dot = this.take();
      const name = this.identifier('type_identifier');
      type = node('scoped_type_identifier', [type, dot, name]);
      if (this.is('<')) type = node('generic_type', [type, this.typeArguments()]);
    }
    return type;
  }

  private typeArguments(): CstNode {
    const children = [this.expect('<')];
    while (!this.is('>')) {
      if (children.length > 1) children.push(this.expect(','));
      if (this.is('?')) {
        const wildcard = [this.take()];
        if (this.is('extends') || this.is('super')) wildcard.push(this.take(), this.type());
        children.push(node('wildcard', wildcard));
      } else {
        children.push(this.type());
      }
    }
    children.push(this.take());
    return node('type_arguments', children);
  }

  private dimensions(): CstNode {
    const children: CstNode[] = [];
    while (this.is('[') && this.is(']', 1)) children.push(this.take(), this.take());
    return node('dimensions', children);
  }

  // ---- expressions

  expression(): CstNode {
    const lambda = this.tryLambda();
    if (lambda !== undefined) return lambda;
    const left = this.ternary();
    const op = this.peekAssignmentOperator();
    if (op === undefined) return left;
    if (left.type !== 'identifier' && left.type !== 'field_access' && left.type !== 'array_access') this.fail();
    const operator = this.takeCompound(op);
    const right = this.expression();
    return node('assignment_expression', [left, operator, right], { left, right });
  }

  /** Assignment operators made of several `>`/`=` tokens (`>>=`, `>>>=` are split by the tokenizer's `>`). */
  private peekAssignmentOperator(): string | undefined {
    const t = this.peek();
    if (t === undefined || t.kind !== 'op') return undefined;
    if (ASSIGNMENT_OPERATORS.has(t.text)) return t.text;
    if (t.text === '>') {
      const joined = this.joinedOperator();
      if (joined === '>>=' || joined === '>>>=') return joined;
    }
    return undefined;
  }

  /** The operator spelled by adjacent `>` tokens (at most three) and an adjacent `=`. */
  private joinedOperator(): string {
    let text = '';
    let k = 0;
    let end = this.peek()?.start ?? 0;
    const adjacent = (t: Token | undefined, op: string): boolean => t !== undefined && t.kind === 'op' && t.text === op && t.start === end;
    while (text.length < 3 && adjacent(this.peek(k), '>')) {
      text += '>';
      end = this.peek(k)!.end;
      k++;
    }
    if (adjacent(this.peek(k), '=')) text += '=';
    return text;
  }

  /** Consume the tokens that spell `op` and return one leaf for it. */
  private takeCompound(op: string): CstNode {
    const start = this.peek()!.start;
    let text = '';
    let end = start;
    while (text.length < op.length) {
      const t = this.take();
      text += this.source.slice(t.start, t.end);
      end = t.end;
    }
    return leaf(op, start, end);
  }

  private tryLambda(): CstNode | undefined {
    if (this.isIdentifier() && this.is('->', 1)) {
      const param = this.identifier();
      return this.lambdaRest(param);
    }
    // Only try parameters when the parenthesis is followed by `->` (keeps nesting linear).
    if (!this.is('(') || !this.closedAndFollowedBy('->')) return undefined;
    return this.tryParse(() => {
      const params = this.lambdaParameters();
      if (!this.is('->')) this.fail();
      return this.lambdaRest(params);
    });
  }

  private lambdaParameters(): CstNode {
    const open = this.take();
    if (this.is(')')) return node('formal_parameters', [open, this.take()]);
    // Inferred parameters: (a, b); formal parameters: (int a, String b).
    const inferred = this.tryParse(() => {
      const children = [open, this.identifier()];
      while (this.is(',')) children.push(this.take(), this.identifier());
      children.push(this.expect(')'));
      return node('inferred_parameters', children);
    });
    if (inferred !== undefined) return inferred;
    const children = [open];
    for (;;) {
      const type = this.type();
      const name = this.identifier();
      children.push(node('formal_parameter', [type, name], { type, name }));
      if (!this.is(',')) break;
      children.push(this.take());
    }
    children.push(this.expect(')'));
    return node('formal_parameters', children);
  }

  private lambdaRest(params: CstNode): CstNode {
    const arrow = this.expect('->');
    const body = this.is('{') ? this.block() : this.expression();
    return node('lambda_expression', [params, arrow, body], { parameters: params, body });
  }

  private ternary(): CstNode {
    const condition = this.binary(1);
    if (!this.is('?')) return condition;
    const question = this.take();
    const consequence = this.expression();
    const colon = this.expect(':');
    const alternative = this.tryLambda() ?? this.ternary();
    return node('ternary_expression', [condition, question, consequence, colon, alternative], {
      condition,
      consequence,
      alternative,
    });
  }

  /** The binary operator at the current token (joining `>` `>` into shifts), if any. */
  private peekBinaryOperator(): string | undefined {
    const t = this.peek();
    if (t === undefined) return undefined;
    if (t.kind === 'word') return t.text === 'instanceof' ? t.text : undefined;
    if (t.kind !== 'op') return undefined;
    if (t.text === '>') {
      const joined = this.joinedOperator();
      if (joined === '>>=' || joined === '>>>=') return undefined;
      return joined;
    }
    return BINARY_PRECEDENCE[t.text] !== undefined ? t.text : undefined;
  }

  private binary(minPrecedence: number): CstNode {
    let left = this.unary();
    for (;;) {
      const op = this.peekBinaryOperator();
      if (op === undefined) return left;
      const precedence = BINARY_PRECEDENCE[op]!;
      if (precedence < minPrecedence) return left;
      if (op === 'instanceof') {
        const keyword = this.take();
        const right = this.type();
        const children = [left, keyword, right];
        if (this.isIdentifier()) children.push(this.identifier());
        left = node('instanceof_expression', children, { left, right });
        continue;
      }
      const operator = this.takeCompound(op);
      let right = this.binary(precedence + 1);
      // tree-sitter-java also accepts an assignment as a right operand (`a / b = c`).
      const assign = this.peekAssignmentOperator();
      if (assign !== undefined && (right.type === 'identifier' || right.type === 'field_access' || right.type === 'array_access')) {
        const operatorNode = this.takeCompound(assign);
        const value = this.expression();
        right = node('assignment_expression', [right, operatorNode, value], { left: right, right: value });
      }
      left = node('binary_expression', [left, operator, right], { left, right });
    }
  }

  private unary(): CstNode {
    const t = this.peek();
    if (t !== undefined && t.kind === 'op') {
      if (t.text === '+' || t.text === '-' || t.text === '!' || t.text === '~') {
        const op = this.take();
        let operand = this.unary();
        // tree-sitter-java also accepts an assignment as the operand (`-x=1`).
        const assign = this.peekAssignmentOperator();
        if (assign !== undefined && (operand.type === 'identifier' || operand.type === 'field_access' || operand.type === 'array_access')) {
          const operatorNode = this.takeCompound(assign);
          const value = this.expression();
          operand = node('assignment_expression', [operand, operatorNode, value], { left: operand, right: value });
        }
        return node('unary_expression', [op, operand], { operand });
      }
      if (t.text === '++' || t.text === '--') {
        const op = this.take();
        return node('update_expression', [op, this.unary()]);
      }
      if (t.text === '(') {
        // Once `(Type)` and a possible operand start are seen, the cast is kept (no retry as a
        // parenthesised expression, which would make nested parentheses exponential).
        const castPrefix = this.tryParse(() => this.castPrefix());
        if (castPrefix !== undefined) {
          const value = this.tryLambda() ?? this.unary();
          return node('cast_expression', [...castPrefix, value], { type: castPrefix[1]!, value });
        }
      }
    }
    return this.postfix(this.primary());
  }

  /** `(Type) value`: a primitive type casts anything; a class type only a non-sign operand. */
  /** `(Type)` followed by what can start a cast operand: a primitive type casts anything, a class type only a non-sign operand. */
  private castPrefix(): CstNode[] {
    const open = this.take();
    const type = this.type();
    const close = this.expect(')');
    const primitive = type.type === 'integral_type' || type.type === 'floating_point_type' || type.type === 'boolean_type';
    const next = this.peek();
    if (next === undefined) this.fail();
    // `(x) - 1` is a subtraction, `(x).y` a field access.
    if (!primitive && next.kind === 'op' && !['(', '!', '~'].includes(next.text)) this.fail();
    if (primitive && next.kind === 'op' && [')', ']', '}', ',', ';', '.', '?', ':', '=', '*', '/', '%', '&', '|', '^', '<', '>'].includes(next.text)) this.fail();
    if (next.kind === 'word' && next.text === 'instanceof') this.fail();
    return [open, type, close];
  }

  private primary(): CstNode {
    const t = this.peek();
    if (t === undefined) this.fail();
    switch (t.kind) {
      case 'number':
      case 'string':
      case 'char':
        return this.take();
      case 'op':
        if (t.text === '(') return this.parenthesized();
        return this.fail();
      case 'word':
        break;
    }
    switch (t.text) {
      case 'true':
      case 'false':
      case 'this':
      case 'super':
        return this.take();
      case 'null':
        return this.take(), leaf('null_literal', t.start, t.end);
      case 'new':
        return this.creation();
      case 'switch':
        return this.switchExpression();
    }
    if (INTEGRAL_TYPES.has(t.text) || FLOATING_TYPES.has(t.text) || t.text === 'boolean' || t.text === 'void') {
      return this.classLiteral(this.type());
    }
    if (!this.isIdentifier()) this.fail();
    // A generic or array type before `.class` / `::` (`List<String>.class`, `String[].class`).
    if (this.is('<', 1) || (this.is('[', 1) && this.is(']', 2))) {
      const typed = this.tryParse(() => {
        const type = this.type();
        if (this.is('.') && this.is('class', 1)) return this.classLiteral(type);
        if (this.is('::')) return this.methodReference(type);
        return this.fail();
      });
      if (typed !== undefined) return typed;
    }
    const name = this.identifier();
    if (this.is('(')) {
      const args = this.argumentList();
      return node('method_invocation', [name, args], { name, arguments: args });
    }
    return name;
  }

  /** `switch (x) { case 1 -> a; case 2, 3 -> { ... } default: b; }` */
  private switchExpression(): CstNode {
    const keyword = this.take();
    const condition = this.parenthesized();
    const block = [this.expect('{')];
    while (!this.is('}')) {
      const label: CstNode[] = [];
      if (this.is('default')) {
        label.push(this.take());
      } else {
        label.push(this.expect('case'), this.ternary());
        while (this.is(',')) label.push(this.take(), this.ternary());
      }
      const labelNode = node('switch_label', label);
      if (this.is('->')) {
        const arrow = this.take();
        const body = this.is('{') ? this.block() : this.is('throw') ? this.statement(BLOCK_CONTEXT) : node('expression_statement', [this.expression(), this.expect(';')]);
        block.push(node('switch_rule', [labelNode, arrow, body]));
      } else {
        const group = [labelNode, this.expect(':')];
        while (!this.is('case') && !this.is('default') && !this.is('}')) {
          if (this.peek() === undefined) this.fail();
          group.push(this.statement(BLOCK_CONTEXT));
        }
        block.push(node('switch_block_statement_group', group));
      }
    }
    block.push(this.take());
    return node('switch_expression', [keyword, condition, node('switch_block', block)]);
  }

  private classLiteral(type: CstNode): CstNode {
    const dot = this.expect('.');
    const keyword = this.expect('class');
    return node('class_literal', [type, dot, keyword]);
  }

  private methodReference(target: CstNode): CstNode {
    const colons = this.expect('::');
    const name = this.is('new') ? this.take() : this.identifier();
    return node('method_reference', [target, colons, name]);
  }

  private parenthesized(): CstNode {
    const open = this.expect('(');
    const inner = this.expression();
    const close = this.expect(')');
    return node('parenthesized_expression', [open, inner, close]);
  }

  private argumentList(): CstNode {
    const children = [this.expect('(')];
    if (!this.is(')')) {
      for (;;) {
        children.push(this.expression());
        if (!this.is(',')) break;
        children.push(this.take());
      }
    }
    children.push(this.expect(')'));
    return node('argument_list', children);
  }

  /** `new T(args) [class body]` or `new T[]{...}` / `new T[n]`. */
  private creation(): CstNode {
    const keyword = this.take();
    const children = [keyword];
    if (this.is('<')) children.push(this.typeArguments());
    const type = this.simpleType();
    children.push(type);
    if (this.is('[')) {
      if (this.is(']', 1)) {
        const dims = this.dimensions();
        const value = this.arrayInitializer();
        return node('array_creation_expression', [...children, dims, value], { type, dimensions: dims, value });
      }
      const dimExprs: CstNode[] = [];
      while (this.is('[') && !this.is(']', 1)) {
        const open = this.take();
        const size = this.expression();
        dimExprs.push(node('dimensions_expr', [open, size, this.expect(']')]));
      }
      const all = [...children, ...dimExprs];
      if (this.is('[') && this.is(']', 1)) all.push(this.dimensions());
      return node('array_creation_expression', all, { type, dimensions: dimExprs[0]! });
    }
    const args = this.argumentList();
    const all = [...children, args];
    if (this.is('{')) all.push(this.classBody());
    return node('object_creation_expression', all, { type, arguments: args });
  }

  private arrayInitializer(): CstNode {
    const children = [this.expect('{')];
    while (!this.is('}')) {
      if (this.is(',')) {
        children.push(this.take());
        continue;
      }
      children.push(this.is('{') ? this.arrayInitializer() : this.expression());
      if (!this.is('}')) children.push(this.expect(','));
    }
    children.push(this.take());
    return node('array_initializer', children);
  }

  /** An anonymous class body: initializer blocks, fields and methods. */
  private classBody(): CstNode {
    const children = [this.expect('{')];
    while (!this.is('}')) {
      if (this.peek() === undefined) this.fail();
      if (this.is(';')) {
        children.push(this.take());
      } else if (this.is('{')) {
        children.push(this.block());
      } else {
        children.push(this.member());
      }
    }
    children.push(this.take());
    return node('class_body', children);
  }

  private member(): CstNode {
    const children: CstNode[] = [];
    while (this.peek()?.kind === 'word' && MODIFIERS.has(this.peek()!.text)) children.push(this.take());
    while (this.is('@')) {
      const at = this.take();
      children.push(node('marker_annotation', [at, this.identifier()]));
    }
    children.push(this.type());
    children.push(this.identifier());
    if (this.is('(')) {
      const open = this.take();
      const params = [open];
      while (!this.is(')')) {
        if (params.length > 1) params.push(this.expect(','));
        const type = this.type();
        params.push(node('formal_parameter', [type, this.identifier()]));
      }
      params.push(this.take());
      children.push(node('formal_parameters', params));
      children.push(this.block());
      return node('method_declaration', children);
    }
    if (this.is('=')) {
      children.push(this.take());
      children.push(this.expression());
    }
    children.push(this.expect(';'));
    return node('field_declaration', children);
  }

  private postfix(start: CstNode): CstNode {
    let expr = start;
    for (;;) {
      if (this.is('.')) {
        const dot = this.take();
        if (this.is('<')) {
          const typeArgs = this.typeArguments();
          const name = this.identifier();
          const args = this.argumentList();
          expr = node('method_invocation', [expr, dot, typeArgs, name, args], { object: expr, name, arguments: args });
        } else if (this.is('class')) {
          expr = node('class_literal', [expr, dot, this.take()]);
        } else if (this.is('this') || this.is('super')) {
          expr = node('field_access', [expr, dot, this.take()], { object: expr });
        } else {
          const name = this.identifier();
          if (this.is('(')) {
            const args = this.argumentList();
            expr = node('method_invocation', [expr, dot, name, args], { object: expr, name, arguments: args });
          } else {
            expr = node('field_access', [expr, dot, name], { object: expr, field: name });
          }
        }
      } else if (this.is('[')) {
        const open = this.take();
        const index = this.expression();
        expr = node('array_access', [expr, open, index, this.expect(']')], { array: expr, index });
      } else if (this.is('::')) {
        expr = this.methodReference(expr);
      } else if (this.is('++') || this.is('--')) {
        expr = node('update_expression', [expr, this.take()]);
      } else {
        return expr;
      }
    }
  }
}

/**
 * Parse Java source the way the reference's tree-sitter parser sees it. Throws `CstSyntaxError`
 * where tree-sitter's tree would contain an ERROR node.
 */
export function parseJava(source: string): CstNode {
  const { tokens, comments } = tokenize(source);
  const root = new JavaParser(source, tokens).program();
  attachComments(root, comments);
  return root;
}

/**
 * Parser for Python expressions: the part of CPython 3.12's PEG grammar that
 * `ast.parse(source, mode="eval")` uses, with CPython's error reporting.
 *
 * Like CPython, parsing runs in two passes. The first pass uses the plain grammar; when it
 * fails, a second pass also tries the grammar's `invalid_*` rules, which raise the specific
 * messages ("Perhaps you forgot a comma?", "positional argument follows keyword argument", ...).
 * Without one, the error is "invalid syntax" at the furthest token the first pass read. After a
 * parser error, the rest of the input is tokenized, and a tokenizer error found there (such as an
 * unmatched bracket) replaces the parser's error. Rules are written in grammar order because
 * the order decides which message wins.
 */
import { PY_ELLIPSIS, type PyValue } from '../py/value.js';
import type {
  ArgNode,
  ArgumentsNode,
  BinaryOperator,
  CompareOperator,
  ComprehensionNode,
  ConstantNode,
  ExprNode,
  FormattedValueNode,
  JoinedStrNode,
  KeywordNode,
  NameNode,
  SourceSpan,
} from './python-ast.js';
import { PyComplex } from '../py/complex.js';
import { PyBytes } from './python-ast.js';
import {
  PythonSyntaxError,
  tokenizePython,
  unclosedBracketError,
  type FStringPart,
  type Token,
  type TokenizeResult,
} from './python-tokenizer.js';

export { PythonSyntaxError } from './python-tokenizer.js';

export type ParseResult =
  | { readonly ok: true; readonly node: ExprNode }
  | { readonly ok: false; readonly error: PythonSyntaxError };

/**
 * Parse `source` as `ast.parse(source, mode="eval")` does and return the expression node, or
 * the `SyntaxError` CPython 3.12 would raise. Never throws.
 */
export function parsePythonExpression(source: string): ParseResult {
  const surrogates = loneSurrogateError(source);
  if (surrogates) return { ok: false, error: surrogates };
  if (source.includes('\0')) {
    return { ok: false, error: new PythonSyntaxError('SyntaxError', 'source code string cannot contain null bytes', null) };
  }
  return runParser(tokenizePython(source), (p) => p.evalInput());
}

/** CPython encodes the source to UTF-8 first, which fails on lone surrogates. */
function loneSurrogateError(source: string): PythonSyntaxError | null {
  if (!/[\uD800-\uDFFF]/.test(source)) return null;
  const cps = Array.from(source, (c) => c.codePointAt(0)!);
  const isLone = (c: number | undefined): boolean => c !== undefined && c >= 0xd800 && c <= 0xdfff;
  const first = cps.findIndex(isLone);
  if (first < 0) return null;
  let last = first;
  while (isLone(cps[last + 1])) last++;
  const what =
    first === last
      ? `character '\\u${cps[first]!.toString(16)}' in position ${first}`
      : `characters in position ${first}-${last}`;
  return new PythonSyntaxError('UnicodeEncodeError', `'utf-8' codec can't encode ${what}: surrogates not allowed`, null);
}

// ---------------------------------------------------------------------------------------------
// Driver

/** Thrown to unwind the parser once an error is set (CPython's `error_indicator`). */
class ParseAbort {}
const ABORT = new ParseAbort();

function runParser(tokenized: TokenizeResult, start: (p: Parser) => ExprNode | null): ParseResult {
  try {
    return runPasses(tokenized, start);
  } catch (e) {
    // Nesting deep enough to exhaust the JS stack (CPython itself stops at 200 brackets).
    if (e instanceof RangeError) {
      const line = tokenized.tokens[tokenized.tokens.length - 1]?.lineno ?? 1;
      return { ok: false, error: new PythonSyntaxError('SyntaxError', 'too many nested parentheses', line) };
    }
    throw e;
  }
}

function runPasses(tokenized: TokenizeResult, start: (p: Parser) => ExprNode | null): ParseResult {
  const p = new Parser(tokenized);
  try {
    const node = start(p);
    if (node) return { ok: true, node };
  } catch (e) {
    if (!(e instanceof ParseAbort)) throw e;
  }
  let lastToken: Token | null = null;
  if (!p.error) {
    lastToken = p.lastFetched();
    p.startSecondPass();
    try {
      start(p);
    } catch (e) {
      if (!(e instanceof ParseAbort)) throw e;
    }
  }
  return { ok: false, error: p.finalError(lastToken) };
}

// ---------------------------------------------------------------------------------------------
// Tokens and helpers

const KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue',
  'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in',
  'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
]);
const SOFT_KEYWORDS = ['_', 'case', 'match', 'type'];
/**
 * CPython 3.12's `_PyPegen_soft_keyword_token` compares with `strncmp(keyword, token, len(token))`,
 * so any non-empty prefix of a soft keyword (`t`, `ma`, `c`...) counts as one.
 */
const isSoftKeyword = (name: string): boolean => SOFT_KEYWORDS.some((k) => k.startsWith(name));
const LEGACY_NAMES = new Set(['print', 'exec']);
/** CPython's default limit on decimal digits in an int literal (sys.get_int_max_str_digits()). */
const INT_MAX_STR_DIGITS = 4300;

const BINARY_OPS: Record<string, BinaryOperator> = {
  '+': 'Add', '-': 'Sub', '*': 'Mult', '@': 'MatMult', '/': 'Div', '//': 'FloorDiv', '%': 'Mod',
  '<<': 'LShift', '>>': 'RShift',
};

const COMPARE_OPERATORS: readonly (readonly [readonly string[], CompareOperator])[] = [
  [['=='], 'Eq'], [['!='], 'NotEq'], [['<='], 'LtE'], [['<'], 'Lt'], [['>='], 'GtE'], [['>'], 'Gt'],
  [['not', 'in'], 'NotIn'], [['in'], 'In'], [['is', 'not'], 'IsNot'], [['is'], 'Is'],
];
const COMPARE_FIRST_TOKENS = new Set(COMPARE_OPERATORS.map(([texts]) => texts[0]!));
const UNARY_OPERATORS = [['+', 'UAdd'], ['-', 'USub'], ['~', 'Invert']] as const;
/** Operators a `factor` (so a `bitwise_or`) can start with; any NAME, NUMBER or string token can too. */
const FACTOR_FIRST_OPERATORS = new Set(['+', '-', '~', '(', '[', '{', '...']);

function canStartBitwiseOr(t: Token): boolean {
  if (t.type === 'OP') return FACTOR_FIRST_OPERATORS.has(t.string);
  return t.type === 'NAME' || t.type === 'NUMBER' || t.type === 'STRING' || t.type === 'FSTRING';
}

type KeywordOrStarred = { readonly keyword: KeywordNode } | { readonly starred: ExprNode };
interface NameDefault {
  readonly arg: ArgNode;
  readonly value: ExprNode | null;
}
interface StarEtc {
  readonly vararg: ArgNode | null;
  readonly kwonly: NameDefault[];
  readonly kwarg: ArgNode | null;
}

// Memo keys: one per memoized rule.
const enum Rule {
  Expression,
  Disjunction,
  Conjunction,
  Inversion,
  BitwiseOr,
  BitwiseXor,
  BitwiseAnd,
  ShiftExpr,
  Sum,
  Term,
  Factor,
  AwaitPrimary,
  Primary,
  StarExpression,
  Arguments,
  InvalidNamedExpression,
  Strings,
  StarTarget,
  TargetWithStarAtom,
  TPrimary,
  Count,
}

type MemoEntry = { readonly value: unknown; readonly end: number };

class Parser {
  readonly tokens: Token[];
  private readonly tokenized: TokenizeResult;
  mark = 0;
  /** How many tokens CPython's parser would have fetched from the tokenizer so far. */
  private fill = 0;
  private callInvalidRules = false;
  private memo = new Map<number, MemoEntry>();
  error: PythonSyntaxError | null = null;
  /** Whether `error` came from the tokenizer (CPython then skips the rest-of-input check). */
  private tokenizerFailed = false;

  constructor(tokenized: TokenizeResult) {
    this.tokenized = tokenized;
    this.tokens = tokenized.tokens;
  }

  // -------------------------------------------------------------------------------------------
  // Error handling

  raise(error: PythonSyntaxError): never {
    if (!this.error) this.error = error;
    throw ABORT;
  }
  private syntaxError(msg: string, lineno: number): never {
    this.raise(new PythonSyntaxError('SyntaxError', msg, lineno));
  }
  /** RAISE_SYNTAX_ERROR: located at the last token fetched. */
  private raiseAtLastToken(msg: string): never {
    this.syntaxError(msg, this.lastFetched().lineno);
  }

  lastFetched(): Token {
    const i = Math.min(this.fill, this.tokens.length) - 1;
    return this.tokens[Math.max(i, 0)]!;
  }

  startSecondPass(): void {
    this.memo = new Map();
    this.mark = 0;
    this.callInvalidRules = true;
  }

  /** `_PyPegen_set_syntax_error` plus `_PyPegen_tokenize_full_source_to_check_for_errors`. */
  finalError(lastToken: Token | null): PythonSyntaxError {
    let error = this.error;
    if (error) {
      if (this.tokenizerFailed) return error;
      // A specific parser error is only checked against the rest of the input while CPython's
      // tokenizer has not yet run into the end of the input (`tok->done == E_OK`), which
      // happens as soon as it reads the last token.
      if (this.lastFetched().sawEnd) return error;
    } else {
      const last = lastToken ?? this.lastFetched();
      if (last.type === 'INDENT') return new PythonSyntaxError('IndentationError', 'unexpected indent', last.lineno);
      if (last.type === 'DEDENT') return new PythonSyntaxError('IndentationError', 'unexpected unindent', last.lineno);
      error = new PythonSyntaxError('SyntaxError', 'invalid syntax', last.lineno);
    }
    const end = this.tokenized.end;
    if (end.error) {
      if (end.raisedByTokenizer) return end.insideFString ? error : end.error;
      const currentLine = this.lastFetched().lineno;
      if (end.openBracket && currentLine > end.openBracket.lineno) return unclosedBracketError(end.openBracket);
    }
    return error;
  }

  // -------------------------------------------------------------------------------------------
  // Token access

  /** The token at `mark`, fetching it (and raising a pending tokenizer error) if needed. */
  private cur(): Token {
    const i = this.mark;
    if (i >= this.fill) this.fill = i + 1;
    if (i < this.tokens.length) return this.tokens[i]!;
    const endError = this.tokenized.end.error;
    if (endError) {
      this.tokenizerFailed = true;
      this.raise(endError);
    }
    // Past ENDMARKER the tokenizer keeps returning ENDMARKER.
    return this.tokens[this.tokens.length - 1]!;
  }

  /** Consume an operator or keyword token with exactly this text. */
  private expect(text: string): Token | null {
    const t = this.cur();
    if ((t.type === 'OP' || t.type === 'NAME') && t.string === text) {
      if (t.type === 'NAME' && !KEYWORDS.has(text)) return null;
      this.mark++;
      return t;
    }
    return null;
  }
  private check(text: string): boolean {
    const t = this.cur();
    return (t.type === 'OP' || (t.type === 'NAME' && KEYWORDS.has(text))) && t.string === text;
  }
  private expectType(type: Token['type']): Token | null {
    const t = this.cur();
    if (t.type !== type) return null;
    this.mark++;
    return t;
  }
  /** A NAME token that is not a keyword. */
  private nameToken(): Token | null {
    const t = this.cur();
    if (t.type !== 'NAME' || KEYWORDS.has(t.string)) return null;
    this.mark++;
    return t;
  }
  private name(): NameNode | null {
    const t = this.nameToken();
    return t ? { type: 'Name', id: normalizeIdentifier(t.string), ...tokenSpan(t, t) } : null;
  }
  private softKeyword(): Token | null {
    const t = this.cur();
    if (t.type !== 'NAME' || !isSoftKeyword(t.string)) return null;
    this.mark++;
    return t;
  }

  /** Run `fn` without consuming input; report whether it matched. */
  private lookahead(positive: boolean, fn: () => unknown): boolean {
    const m = this.mark;
    const ok = fn() !== null;
    this.mark = m;
    return ok === positive;
  }
  /** Try an alternative; on failure restore the mark. */
  private attempt<T>(fn: () => T | null): T | null {
    const m = this.mark;
    const r = fn();
    if (r === null) this.mark = m;
    return r;
  }
  private memoize<T>(rule: Rule, fn: () => T | null): T | null {
    const key = this.mark * Rule.Count + rule;
    const hit = this.memo.get(key);
    this.cur();
    if (hit) {
      this.mark = hit.end;
      return hit.value as T | null;
    }
    const start = this.mark;
    const value = fn();
    if (value === null) this.mark = start;
    this.memo.set(key, { value, end: this.mark });
    return value;
  }
  /** Parse with the invalid_* rules switched off (the grammar's `_without_invalid` rules). */
  private withoutInvalid<T>(fn: () => T | null): T | null {
    const prev = this.callInvalidRules;
    this.callInvalidRules = false;
    try {
      return fn();
    } finally {
      this.callInvalidRules = prev;
    }
  }

  private spanFrom(startMark: number): SourceSpan {
    return tokenSpan(this.tokens[startMark]!, this.tokens[this.mark - 1]!);
  }

  // -------------------------------------------------------------------------------------------
  // Start rule

  /** eval: expressions NEWLINE* ENDMARKER */
  evalInput(): ExprNode | null {
    const a = this.expressions();
    if (!a) return null;
    while (this.expectType('NEWLINE'));
    return this.expectType('ENDMARKER') ? a : null;
  }

  /** fstring_replacement_field's expression: (yield_expr | star_expressions) ENDMARKER */
  fstringExpression(): ExprNode | null {
    const a = this.attempt(() => this.yieldExpr()) ?? this.starExpressions();
    if (!a) return null;
    return this.expectType('ENDMARKER') ? a : null;
  }

  // -------------------------------------------------------------------------------------------
  // Expressions

  /** expressions: expression (',' expression)+ [','] | expression ',' | expression */
  private expressions(): ExprNode | null {
    return this.sequenceOf(() => this.expression());
  }
  /** star_expressions: same shape as `expressions` over star_expression. */
  private starExpressions(): ExprNode | null {
    return this.sequenceOf(() => this.starExpression());
  }
  private sequenceOf(item: () => ExprNode | null): ExprNode | null {
    const start = this.mark;
    const a = item();
    if (!a) return null;
    const elts = [a];
    for (;;) {
      const m = this.mark;
      if (!this.expect(',')) break;
      const b = item();
      if (!b) {
        this.mark = m;
        break;
      }
      elts.push(b);
    }
    if (elts.length > 1) {
      this.expect(',');
      return { type: 'Tuple', elts, ...this.spanFrom(start) };
    }
    if (this.expect(',')) return { type: 'Tuple', elts, ...this.spanFrom(start) };
    return a;
  }

  /** expression (memo): invalid_expression | invalid_legacy_expression | disjunction 'if' disjunction 'else' expression | disjunction | lambdef */
  private expression(): ExprNode | null {
    return this.memoize(Rule.Expression, () => {
      if (this.callInvalidRules) {
        this.attempt(() => this.invalidExpression());
        this.attempt(() => this.invalidLegacyExpression());
      }
      return this.conditionalOrDisjunction() ?? this.attempt(() => this.lambdef());
    });
  }
  private conditionalOrDisjunction(): ExprNode | null {
    const start = this.mark;
    const ifExp = this.attempt(() => {
      const body = this.disjunction();
      if (!body || !this.expect('if')) return null;
      const test = this.disjunction();
      if (!test || !this.expect('else')) return null;
      const orelse = this.expression();
      if (!orelse) return null;
      return { type: 'IfExp' as const, test, body, orelse, ...this.spanFrom(start) };
    });
    return ifExp ?? this.disjunction();
  }
  /** expression_without_invalid: the same alternatives with invalid rules switched off. */
  private expressionWithoutInvalid(): ExprNode | null {
    return this.withoutInvalid(() => this.conditionalOrDisjunction() ?? this.attempt(() => this.lambdef()));
  }

  private invalidExpression(): null {
    // !(NAME STRING | SOFT_KEYWORD) a=disjunction b=expression_without_invalid
    this.attempt(() => {
      const blocked =
        this.lookahead(true, () => (this.nameToken() && this.expectType('STRING')) || null) ||
        this.lookahead(true, () => this.softKeyword());
      if (blocked) return null;
      const a = this.disjunction();
      if (!a) return null;
      const b = this.expressionWithoutInvalid();
      if (!b) return null;
      if (isLegacyName(a) || this.tokens[this.mark - 1]!.level === 0) return null;
      this.syntaxError('invalid syntax. Perhaps you forgot a comma?', a.lineno);
    });
    // a=disjunction 'if' b=disjunction !('else'|':')
    this.attempt(() => {
      const a = this.disjunction();
      if (!a || !this.expect('if')) return null;
      if (!this.disjunction()) return null;
      if (this.check('else') || this.check(':')) return null;
      this.syntaxError("expected 'else' after 'if' expression", a.lineno);
    });
    return null;
  }

  private invalidLegacyExpression(): null {
    // a=NAME !'(' b=star_expressions
    const a = this.name();
    if (!a || this.check('(')) return null;
    if (!this.starExpressions()) return null;
    if (isLegacyName(a)) {
      this.syntaxError(`Missing parentheses in call to '${a.id}'. Did you mean ${a.id}(...)?`, a.lineno);
    }
    return null;
  }

  /** yield_expr: 'yield' 'from' expression | 'yield' [star_expressions] */
  private yieldExpr(): ExprNode | null {
    const start = this.mark;
    if (!this.expect('yield')) return null;
    const from = this.attempt(() => {
      if (!this.expect('from')) return null;
      const value = this.expression();
      return value ? { type: 'YieldFrom' as const, value, ...this.spanFrom(start) } : null;
    });
    if (from) return from;
    const value = this.attempt(() => this.starExpressions());
    return { type: 'Yield', value, ...this.spanFrom(start) };
  }

  /** star_expression (memo): '*' bitwise_or | expression */
  private starExpression(): ExprNode | null {
    return this.memoize(Rule.StarExpression, () => this.starredBitwiseOr() ?? this.expression());
  }
  private starredBitwiseOr(): ExprNode | null {
    return this.attempt(() => {
      const start = this.mark;
      if (!this.expect('*')) return null;
      const value = this.bitwiseOr();
      return value ? { type: 'Starred' as const, value, ...this.spanFrom(start) } : null;
    });
  }

  /** star_named_expressions: ','.star_named_expression+ [','] */
  private starNamedExpressions(): ExprNode[] | null {
    const items = this.gather(() => this.starNamedExpression());
    if (!items) return null;
    this.expect(',');
    return items;
  }
  /** star_named_expression: '*' bitwise_or | named_expression */
  private starNamedExpression(): ExprNode | null {
    return this.starredBitwiseOr() ?? this.namedExpression();
  }

  /** assignment_expression: NAME ':=' ~ expression */
  private assignmentExpression(): ExprNode | null {
    return this.attempt(() => {
      const start = this.mark;
      const target = this.name();
      if (!target || !this.expect(':=')) return null;
      const value = this.expression();
      return value ? { type: 'NamedExpr' as const, target, value, ...this.spanFrom(start) } : null;
    });
  }

  /** named_expression: assignment_expression | invalid_named_expression | expression !':=' */
  private namedExpression(): ExprNode | null {
    const a = this.assignmentExpression();
    if (a) return a;
    if (this.callInvalidRules) this.attempt(() => this.invalidNamedExpression());
    return this.expressionNotWalrus();
  }
  private expressionNotWalrus(): ExprNode | null {
    return this.attempt(() => {
      const e = this.expression();
      return e && !this.check(':=') ? e : null;
    });
  }

  private invalidNamedExpression(): null {
    return this.memoize(Rule.InvalidNamedExpression, () => {
      // a=expression ':=' expression
      this.attempt(() => {
        const a = this.expression();
        if (!a || !this.expect(':=') || !this.expression()) return null;
        this.syntaxError(`cannot use assignment expressions with ${exprName(a)}`, a.lineno);
      });
      // a=NAME '=' b=bitwise_or !('='|':=')
      this.attempt(() => {
        const a = this.name();
        if (!a || !this.expect('=') || !this.bitwiseOr()) return null;
        if (this.check('=') || this.check(':=')) return null;
        this.syntaxError("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", a.lineno);
      });
      // !(list|tuple|genexp|'True'|'None'|'False') a=bitwise_or b='=' bitwise_or !('='|':=')
      this.attempt(() => {
        const excluded = this.lookahead(
          true,
          () =>
            this.attempt(() => this.list()) ??
            this.attempt(() => this.tuple()) ??
            this.attempt(() => this.genexp()) ??
            (this.expect('True') || this.expect('None') || this.expect('False')),
        );
        if (excluded) return null;
        const a = this.bitwiseOr();
        if (!a || !this.expect('=') || !this.bitwiseOr()) return null;
        if (this.check('=') || this.check(':=')) return null;
        this.syntaxError(`cannot assign to ${exprName(a)} here. Maybe you meant '==' instead of '='?`, a.lineno);
      });
      return null;
    });
  }

  /** disjunction (memo): conjunction ('or' conjunction)+ | conjunction */
  private disjunction(): ExprNode | null {
    return this.memoize(Rule.Disjunction, () => this.boolOp('or', 'Or', () => this.conjunction()));
  }
  /** conjunction (memo): inversion ('and' inversion)+ | inversion */
  private conjunction(): ExprNode | null {
    return this.memoize(Rule.Conjunction, () => this.boolOp('and', 'And', () => this.inversion()));
  }
  private boolOp(keyword: string, op: 'And' | 'Or', operand: () => ExprNode | null): ExprNode | null {
    const start = this.mark;
    const a = operand();
    if (!a) return null;
    const values = [a];
    for (;;) {
      const m = this.mark;
      if (!this.expect(keyword)) break;
      const b = operand();
      if (!b) {
        this.mark = m;
        break;
      }
      values.push(b);
    }
    return values.length > 1 ? { type: 'BoolOp', op, values, ...this.spanFrom(start) } : a;
  }

  /** inversion (memo): 'not' inversion | comparison */
  private inversion(): ExprNode | null {
    return this.memoize(Rule.Inversion, () => {
      const start = this.mark;
      const not = this.attempt(() => {
        if (!this.expect('not')) return null;
        const operand = this.inversion();
        return operand ? { type: 'UnaryOp' as const, op: 'Not' as const, operand, ...this.spanFrom(start) } : null;
      });
      return not ?? this.comparison();
    });
  }

  /** comparison: bitwise_or compare_op_bitwise_or_pair+ | bitwise_or */
  private comparison(): ExprNode | null {
    const start = this.mark;
    const left = this.bitwiseOr();
    if (!left) return null;
    const ops: CompareOperator[] = [];
    const comparators: ExprNode[] = [];
    for (;;) {
      const pair = this.attempt(() => this.compareOpPair());
      if (!pair) break;
      ops.push(pair[0]);
      comparators.push(pair[1]);
    }
    return ops.length ? { type: 'Compare', left, ops, comparators, ...this.spanFrom(start) } : left;
  }
  private compareOpPair(): [CompareOperator, ExprNode] | null {
    // Every alternative starts with one of these tokens: any other fails them all at once, having
    // looked at the same token (in V8's interpreter, trying ten alternatives was much of a parse).
    const t = this.cur();
    if ((t.type !== 'OP' && t.type !== 'NAME') || !COMPARE_FIRST_TOKENS.has(t.string)) return null;
    for (const [texts, op] of COMPARE_OPERATORS) {
      const r = this.attempt(() => {
        for (const text of texts) if (!this.expect(text)) return null;
        const e = this.bitwiseOr();
        return e ? ([op, e] as [CompareOperator, ExprNode]) : null;
      });
      if (r) return r;
    }
    return null;
  }

  // Left-recursive binary operator rules, as loops (same result as CPython's seed growing).
  private bitwiseOr(): ExprNode | null {
    // A token no atom or unary operator starts with fails the whole chain below at once (it only
    // looks at this token, and raises nothing): a common case, e.g. after `<` in `f<|channel|>(...)`.
    if (!canStartBitwiseOr(this.cur())) return null;
    return this.memoize(Rule.BitwiseOr, () => this.binaryLoop(['|'], () => this.bitwiseXor(), { '|': 'BitOr' }));
  }
  private bitwiseXor(): ExprNode | null {
    return this.memoize(Rule.BitwiseXor, () => this.binaryLoop(['^'], () => this.bitwiseAnd(), { '^': 'BitXor' }));
  }
  private bitwiseAnd(): ExprNode | null {
    return this.memoize(Rule.BitwiseAnd, () => this.binaryLoop(['&'], () => this.shiftExpr(), { '&': 'BitAnd' }));
  }
  private shiftExpr(): ExprNode | null {
    return this.memoize(Rule.ShiftExpr, () => this.binaryLoop(['<<', '>>'], () => this.sum(), BINARY_OPS));
  }
  private sum(): ExprNode | null {
    return this.memoize(Rule.Sum, () => this.binaryLoop(['+', '-'], () => this.term(), BINARY_OPS));
  }
  private term(): ExprNode | null {
    return this.memoize(Rule.Term, () => this.binaryLoop(['*', '/', '//', '%', '@'], () => this.factor(), BINARY_OPS));
  }
  private binaryLoop(
    operators: string[],
    operand: () => ExprNode | null,
    names: Record<string, BinaryOperator>,
  ): ExprNode | null {
    const start = this.mark;
    let left = operand();
    if (!left) return null;
    for (;;) {
      // Each alternative starts with its operator: look at the token once.
      const next = this.cur();
      if (next.type !== 'OP' || !operators.includes(next.string)) return left;
      let grown: ExprNode | null = null;
      for (const op of operators) {
        grown = this.attempt(() => {
          if (!this.expect(op)) return null;
          const right = operand();
          return right ? { type: 'BinOp' as const, left: left!, op: names[op]!, right, ...this.spanFrom(start) } : null;
        });
        if (grown) break;
      }
      if (!grown) return left;
      left = grown;
    }
  }

  /** factor (memo): '+' factor | '-' factor | '~' factor | power */
  private factor(): ExprNode | null {
    return this.memoize(Rule.Factor, () => {
      const start = this.mark;
      const t = this.cur();
      if (t.type !== 'OP' || (t.string !== '+' && t.string !== '-' && t.string !== '~')) return this.power();
      for (const [text, op] of UNARY_OPERATORS) {
        const r = this.attempt(() => {
          if (!this.expect(text)) return null;
          const operand = this.factor();
          return operand ? { type: 'UnaryOp' as const, op, operand, ...this.spanFrom(start) } : null;
        });
        if (r) return r;
      }
      return this.power();
    });
  }

  /** power: await_primary '**' factor | await_primary */
  private power(): ExprNode | null {
    const start = this.mark;
    const pow = this.attempt(() => {
      const left = this.awaitPrimary();
      if (!left || !this.expect('**')) return null;
      const right = this.factor();
      return right ? { type: 'BinOp' as const, left, op: 'Pow' as const, right, ...this.spanFrom(start) } : null;
    });
    return pow ?? this.awaitPrimary();
  }

  /** await_primary (memo): 'await' primary | primary */
  private awaitPrimary(): ExprNode | null {
    return this.memoize(Rule.AwaitPrimary, () => {
      const start = this.mark;
      const aw = this.attempt(() => {
        if (!this.expect('await')) return null;
        const value = this.primary();
        return value ? { type: 'Await' as const, value, ...this.spanFrom(start) } : null;
      });
      return aw ?? this.primary();
    });
  }

  /** primary: primary '.' NAME | primary genexp | primary '(' [arguments] ')' | primary '[' slices ']' | atom */
  private primary(): ExprNode | null {
    return this.memoize(Rule.Primary, () => {
      const start = this.mark;
      let node = this.atom();
      if (!node) return null;
      for (;;) {
        const grown = this.primarySuffix(node, start, false);
        if (!grown) return node;
        node = grown;
      }
    });
  }
  /** One trailer of a primary (or of a t_primary, which also needs a t_lookahead after it). */
  private primarySuffix(value: ExprNode, start: number, targetLookahead: boolean): ExprNode | null {
    const after = <T>(r: T | null): T | null =>
      r !== null && targetLookahead && !this.tLookahead() ? null : r;
    const attr = this.attempt(() => {
      if (!this.expect('.')) return null;
      const name = this.nameToken();
      if (!name) return null;
      return after({ type: 'Attribute' as const, value, attr: normalizeIdentifier(name.string), ...this.spanFrom(start) });
    });
    if (attr) return attr;
    const order = targetLookahead ? (['subscript', 'genexp', 'call'] as const) : (['genexp', 'call', 'subscript'] as const);
    for (const kind of order) {
      const r = this.attempt((): ExprNode | null => {
        if (kind === 'genexp') {
          const g = this.genexp();
          return g ? after({ type: 'Call', func: value, args: [g], keywords: [], ...this.spanFrom(start) }) : null;
        }
        if (kind === 'call') {
          if (!this.expect('(')) return null;
          const args = this.attempt(() => this.arguments());
          if (!this.expect(')')) return null;
          return after({
            type: 'Call',
            func: value,
            args: args?.args ?? [],
            keywords: args?.keywords ?? [],
            ...this.spanFrom(start),
          });
        }
        if (!this.expect('[')) return null;
        const slice = this.slices();
        if (!slice || !this.expect(']')) return null;
        return after({ type: 'Subscript', value, slice, ...this.spanFrom(start) });
      });
      if (r) return r;
    }
    return null;
  }

  /** slices: slice !',' | ','.(slice | starred_expression)+ [','] */
  private slices(): ExprNode | null {
    const start = this.mark;
    const single = this.attempt(() => {
      const s = this.slice();
      return s && !this.check(',') ? s : null;
    });
    if (single) return single;
    const elts = this.gather(() => this.attempt(() => this.slice()) ?? this.starredExpression());
    if (!elts) return null;
    this.expect(',');
    return { type: 'Tuple', elts, ...this.spanFrom(start) };
  }
  /** slice: [expression] ':' [expression] [':' [expression]] | named_expression */
  private slice(): ExprNode | null {
    const start = this.mark;
    const s = this.attempt(() => {
      const lower = this.attempt(() => this.expression());
      if (!this.expect(':')) return null;
      const upper = this.attempt(() => this.expression());
      let step: ExprNode | null = null;
      const m = this.mark;
      if (this.expect(':')) step = this.attempt(() => this.expression());
      else this.mark = m;
      return { type: 'Slice' as const, lower, upper, step, ...this.spanFrom(start) };
    });
    return s ?? this.namedExpression();
  }

  /** atom */
  private atom(): ExprNode | null {
    const t = this.cur();
    const start = this.mark;
    if (t.type === 'NAME') {
      if (!KEYWORDS.has(t.string)) return this.name();
      const constants: Record<string, PyValue> = { True: true, False: false, None: null };
      if (t.string in constants) {
        this.mark++;
        return { type: 'Constant', value: constants[t.string]!, kind: null, ...tokenSpan(t, t) };
      }
      return null;
    }
    if (t.type === 'STRING' || t.type === 'FSTRING') return this.strings();
    if (t.type === 'NUMBER') {
      this.mark++;
      return { type: 'Constant', value: this.numberValue(t), kind: null, ...tokenSpan(t, t) };
    }
    if (t.type !== 'OP') return null;
    switch (t.string) {
      case '(':
        return this.attempt(() => this.tuple()) ?? this.attempt(() => this.group()) ?? this.attempt(() => this.genexp());
      case '[':
        return this.attempt(() => this.list()) ?? this.attempt(() => this.listcomp());
      case '{':
        return (
          this.attempt(() => this.dict()) ??
          this.attempt(() => this.set()) ??
          this.attempt(() => this.dictcomp()) ??
          this.attempt(() => this.setcomp())
        );
      case '...':
        this.mark++;
        return { type: 'Constant', value: PY_ELLIPSIS, kind: null, ...this.spanFrom(start) };
      default:
        return null;
    }
  }

  /** group: '(' (yield_expr | named_expression) ')' | invalid_group */
  private group(): ExprNode | null {
    const g = this.attempt(() => {
      if (!this.expect('(')) return null;
      const a = this.attempt(() => this.yieldExpr()) ?? this.namedExpression();
      if (!a || !this.expect(')')) return null;
      return a;
    });
    if (g) return g;
    if (this.callInvalidRules) {
      // '(' a=starred_expression ')'
      this.attempt(() => {
        if (!this.expect('(')) return null;
        const a = this.starredExpression();
        if (!a || !this.expect(')')) return null;
        this.syntaxError('cannot use starred expression here', a.lineno);
      });
      // '(' a='**' expression ')'
      this.attempt(() => {
        if (!this.expect('(')) return null;
        const a = this.expect('**');
        if (!a || !this.expression() || !this.expect(')')) return null;
        this.syntaxError('cannot use double starred expression here', a.lineno);
      });
    }
    return null;
  }

  /** list: '[' [star_named_expressions] ']' */
  private list(): ExprNode | null {
    const start = this.mark;
    if (!this.expect('[')) return null;
    const elts = this.attempt(() => this.starNamedExpressions()) ?? [];
    if (!this.expect(']')) return null;
    return { type: 'List', elts, ...this.spanFrom(start) };
  }
  /** tuple: '(' [star_named_expression ',' [star_named_expressions]] ')' */
  private tuple(): ExprNode | null {
    const start = this.mark;
    if (!this.expect('(')) return null;
    const elts =
      this.attempt(() => {
        const first = this.starNamedExpression();
        if (!first || !this.expect(',')) return null;
        const rest = this.attempt(() => this.starNamedExpressions()) ?? [];
        return [first, ...rest];
      }) ?? [];
    if (!this.expect(')')) return null;
    return { type: 'Tuple', elts, ...this.spanFrom(start) };
  }
  /** set: '{' star_named_expressions '}' */
  private set(): ExprNode | null {
    const start = this.mark;
    if (!this.expect('{')) return null;
    const elts = this.starNamedExpressions();
    if (!elts || !this.expect('}')) return null;
    return { type: 'Set', elts, ...this.spanFrom(start) };
  }

  /** dict: '{' [double_starred_kvpairs] '}' | '{' invalid_double_starred_kvpairs '}' */
  private dict(): ExprNode | null {
    const start = this.mark;
    const d = this.attempt(() => {
      if (!this.expect('{')) return null;
      const pairs = this.attempt(() => this.doubleStarredKvpairs()) ?? [];
      if (!this.expect('}')) return null;
      return {
        type: 'Dict' as const,
        keys: pairs.map((p) => p[0]),
        values: pairs.map((p) => p[1]),
        ...this.spanFrom(start),
      };
    });
    if (d) return d;
    if (this.callInvalidRules) {
      this.attempt(() => {
        if (!this.expect('{')) return null;
        this.invalidDoubleStarredKvpairs();
        return null;
      });
    }
    return null;
  }
  /** double_starred_kvpairs: ','.double_starred_kvpair+ [','] */
  private doubleStarredKvpairs(): [ExprNode | null, ExprNode][] | null {
    const pairs = this.gather(() => this.doubleStarredKvpair());
    if (!pairs) return null;
    this.expect(',');
    return pairs;
  }
  /** double_starred_kvpair: '**' bitwise_or | kvpair */
  private doubleStarredKvpair(): [ExprNode | null, ExprNode] | null {
    const unpack = this.attempt(() => {
      if (!this.expect('**')) return null;
      const v = this.bitwiseOr();
      return v ? ([null, v] as [ExprNode | null, ExprNode]) : null;
    });
    return unpack ?? this.attempt(() => this.kvpair());
  }
  /** kvpair: expression ':' expression */
  private kvpair(): [ExprNode, ExprNode] | null {
    const k = this.expression();
    if (!k || !this.expect(':')) return null;
    const v = this.expression();
    return v ? [k, v] : null;
  }
  private invalidDoubleStarredKvpairs(): null {
    // ','.double_starred_kvpair+ ',' invalid_kvpair
    this.attempt(() => {
      if (!this.gather(() => this.doubleStarredKvpair()) || !this.expect(',')) return null;
      this.invalidKvpair();
      return null;
    });
    // expression ':' a='*' bitwise_or
    this.attempt(() => {
      if (!this.expression() || !this.expect(':')) return null;
      const a = this.expect('*');
      if (!a || !this.bitwiseOr()) return null;
      this.syntaxError('cannot use a starred expression in a dictionary value', a.lineno);
    });
    // expression a=':' &('}'|',')
    this.attempt(() => {
      if (!this.expression()) return null;
      const a = this.expect(':');
      if (!a || !(this.check('}') || this.check(','))) return null;
      this.syntaxError("expression expected after dictionary key and ':'", a.lineno);
    });
    return null;
  }
  private invalidKvpair(): null {
    // a=expression !(':')
    this.attempt(() => {
      const a = this.expression();
      if (!a || this.check(':')) return null;
      this.syntaxError("':' expected after dictionary key", a.lineno);
    });
    this.attempt(() => {
      if (!this.expression() || !this.expect(':')) return null;
      const a = this.expect('*');
      if (!a || !this.bitwiseOr()) return null;
      this.syntaxError('cannot use a starred expression in a dictionary value', a.lineno);
    });
    this.attempt(() => {
      if (!this.expression()) return null;
      const a = this.expect(':');
      if (!a || !(this.check('}') || this.check(','))) return null;
      this.syntaxError("expression expected after dictionary key and ':'", a.lineno);
    });
    return null;
  }

  // -------------------------------------------------------------------------------------------
  // Comprehensions

  /** for_if_clauses: for_if_clause+ */
  private forIfClauses(): ComprehensionNode[] | null {
    const clauses: ComprehensionNode[] = [];
    for (;;) {
      const c = this.attempt(() => this.forIfClause());
      if (!c) break;
      clauses.push(c);
    }
    return clauses.length ? clauses : null;
  }
  /** for_if_clause: ['async'] 'for' star_targets 'in' ~ disjunction ('if' disjunction)* | invalid_for_target */
  private forIfClause(): ComprehensionNode | null {
    for (const isAsync of [true, false]) {
      const start = this.mark;
      if (isAsync && !this.expect('async')) continue;
      if (!this.expect('for')) {
        this.mark = start;
        continue;
      }
      const target = this.starTargets();
      if (!target || !this.expect('in')) {
        this.mark = start;
        continue;
      }
      // Cut: past 'in', a failure fails the whole rule.
      const iter = this.disjunction();
      if (!iter) {
        this.mark = start;
        return null;
      }
      const ifs: ExprNode[] = [];
      for (;;) {
        const cond = this.attempt(() => (this.expect('if') ? this.disjunction() : null));
        if (!cond) break;
        ifs.push(cond);
      }
      return { type: 'comprehension', target, iter, ifs, isAsync };
    }
    if (this.callInvalidRules) {
      // invalid_for_target: ASYNC? 'for' a=star_expressions
      this.attempt(() => {
        this.expect('async');
        if (!this.expect('for')) return null;
        const a = this.starExpressions();
        if (!a) return null;
        const bad = invalidTarget(a, 'for');
        if (bad) this.syntaxError(`cannot assign to ${exprName(bad)}`, bad.lineno);
        return null;
      });
    }
    return null;
  }

  /** listcomp: '[' named_expression for_if_clauses ']' | invalid_comprehension */
  private listcomp(): ExprNode | null {
    const start = this.mark;
    const r = this.attempt(() => {
      if (!this.expect('[')) return null;
      const elt = this.namedExpression();
      if (!elt) return null;
      const generators = this.forIfClauses();
      if (!generators || !this.expect(']')) return null;
      return { type: 'ListComp' as const, elt, generators, ...this.spanFrom(start) };
    });
    if (r) return r;
    if (this.callInvalidRules) this.attempt(() => this.invalidComprehension());
    return null;
  }
  /** setcomp: '{' named_expression for_if_clauses '}' | invalid_comprehension */
  private setcomp(): ExprNode | null {
    const start = this.mark;
    const r = this.attempt(() => {
      if (!this.expect('{')) return null;
      const elt = this.namedExpression();
      if (!elt) return null;
      const generators = this.forIfClauses();
      if (!generators || !this.expect('}')) return null;
      return { type: 'SetComp' as const, elt, generators, ...this.spanFrom(start) };
    });
    if (r) return r;
    if (this.callInvalidRules) this.attempt(() => this.invalidComprehension());
    return null;
  }
  /** genexp: '(' (assignment_expression | expression !':=') for_if_clauses ')' | invalid_comprehension */
  private genexp(): ExprNode | null {
    const start = this.mark;
    const r = this.attempt(() => {
      if (!this.expect('(')) return null;
      const elt = this.assignmentExpression() ?? this.expressionNotWalrus();
      if (!elt) return null;
      const generators = this.forIfClauses();
      if (!generators || !this.expect(')')) return null;
      return { type: 'GeneratorExp' as const, elt, generators, ...this.spanFrom(start) };
    });
    if (r) return r;
    if (this.callInvalidRules) this.attempt(() => this.invalidComprehension());
    return null;
  }
  /** dictcomp: '{' kvpair for_if_clauses '}' | invalid_dict_comprehension */
  private dictcomp(): ExprNode | null {
    const start = this.mark;
    const r = this.attempt(() => {
      if (!this.expect('{')) return null;
      const kv = this.kvpair();
      if (!kv) return null;
      const generators = this.forIfClauses();
      if (!generators || !this.expect('}')) return null;
      return { type: 'DictComp' as const, key: kv[0], value: kv[1], generators, ...this.spanFrom(start) };
    });
    if (r) return r;
    if (this.callInvalidRules) {
      // '{' a='**' bitwise_or for_if_clauses '}'
      this.attempt(() => {
        if (!this.expect('{')) return null;
        const a = this.expect('**');
        if (!a || !this.bitwiseOr() || !this.forIfClauses() || !this.expect('}')) return null;
        this.syntaxError('dict unpacking cannot be used in dict comprehension', a.lineno);
      });
    }
    return null;
  }
  private invalidComprehension(): null {
    // ('[' | '(' | '{') a=starred_expression for_if_clauses
    this.attempt(() => {
      if (!(this.expect('[') || this.expect('(') || this.expect('{'))) return null;
      const a = this.starredExpression();
      if (!a || !this.forIfClauses()) return null;
      this.syntaxError('iterable unpacking cannot be used in comprehension', a.lineno);
    });
    // ('[' | '{') a=star_named_expression ',' b=star_named_expressions for_if_clauses
    this.attempt(() => {
      if (!(this.expect('[') || this.expect('{'))) return null;
      const a = this.starNamedExpression();
      if (!a || !this.expect(',') || !this.starNamedExpressions() || !this.forIfClauses()) return null;
      this.syntaxError('did you forget parentheses around the comprehension target?', a.lineno);
    });
    // ('[' | '{') a=star_named_expression b=',' for_if_clauses
    this.attempt(() => {
      if (!(this.expect('[') || this.expect('{'))) return null;
      const a = this.starNamedExpression();
      if (!a || !this.expect(',') || !this.forIfClauses()) return null;
      this.syntaxError('did you forget parentheses around the comprehension target?', a.lineno);
    });
    return null;
  }

  // -------------------------------------------------------------------------------------------
  // Call arguments

  /** arguments (memo): args [','] &')' | invalid_arguments */
  private arguments(): { args: ExprNode[]; keywords: KeywordNode[] } | null {
    return this.memoize(Rule.Arguments, () => {
      const r = this.attempt(() => {
        const a = this.args();
        if (!a) return null;
        this.expect(',');
        return this.check(')') ? a : null;
      });
      if (r) return r;
      if (this.callInvalidRules) this.attempt(() => this.invalidArguments());
      return null;
    });
  }

  /**
   * args: ','.(starred_expression | (assignment_expression | expression !':=') !'=')+ [',' kwargs]
   *     | kwargs
   */
  private args(): { args: ExprNode[]; keywords: KeywordNode[]; startMark: number } | null {
    const startMark = this.mark;
    const positional = this.attempt(() => {
      const items = this.gather(() => this.positionalArg());
      if (!items) return null;
      const kw = this.attempt(() => (this.expect(',') ? this.kwargs() : null)) ?? [];
      return { args: [...items, ...starredOf(kw)], keywords: keywordsOf(kw), startMark };
    });
    if (positional) return positional;
    const kw = this.kwargs();
    return kw ? { args: starredOf(kw), keywords: keywordsOf(kw), startMark } : null;
  }
  private positionalArg(): ExprNode | null {
    const starred = this.attempt(() => this.starredExpression());
    if (starred) return starred;
    return this.attempt(() => {
      const e = this.assignmentExpression() ?? this.expressionNotWalrus();
      return e && !this.check('=') ? e : null;
    });
  }
  /** kwargs: ','.kwarg_or_starred+ ',' ','.kwarg_or_double_starred+ | ','.kwarg_or_starred+ | ','.kwarg_or_double_starred+ */
  private kwargs(): KeywordOrStarred[] | null {
    const both = this.attempt(() => {
      const a = this.gather(() => this.kwargOrStarred());
      if (!a || !this.expect(',')) return null;
      const b = this.gather(() => this.kwargOrDoubleStarred());
      return b ? [...a, ...b] : null;
    });
    if (both) return both;
    return (
      this.attempt(() => this.gather(() => this.kwargOrStarred())) ??
      this.attempt(() => this.gather(() => this.kwargOrDoubleStarred()))
    );
  }
  /** starred_expression: invalid_starred_expression | '*' expression */
  private starredExpression(): ExprNode | null {
    if (this.callInvalidRules) {
      // a='*' expression '=' b=expression
      this.attempt(() => {
        const a = this.expect('*');
        if (!a || !this.expression() || !this.expect('=') || !this.expression()) return null;
        this.syntaxError('cannot assign to iterable argument unpacking', a.lineno);
      });
    }
    return this.attempt(() => {
      const start = this.mark;
      if (!this.expect('*')) return null;
      const value = this.expression();
      return value ? { type: 'Starred' as const, value, ...this.spanFrom(start) } : null;
    });
  }
  /** kwarg_or_starred: invalid_kwarg | NAME '=' expression | starred_expression */
  private kwargOrStarred(): KeywordOrStarred | null {
    if (this.callInvalidRules) this.attempt(() => this.invalidKwarg());
    const kw = this.attempt(() => this.namedKeyword());
    if (kw) return { keyword: kw };
    const starred = this.starredExpression();
    return starred ? { starred } : null;
  }
  /** kwarg_or_double_starred: invalid_kwarg | NAME '=' expression | '**' expression */
  private kwargOrDoubleStarred(): KeywordOrStarred | null {
    if (this.callInvalidRules) this.attempt(() => this.invalidKwarg());
    const kw = this.attempt(() => this.namedKeyword());
    if (kw) return { keyword: kw };
    return this.attempt(() => {
      const start = this.mark;
      if (!this.expect('**')) return null;
      const value = this.expression();
      return value ? { keyword: { type: 'keyword' as const, arg: null, value, ...this.spanFrom(start) } } : null;
    });
  }
  private namedKeyword(): KeywordNode | null {
    const start = this.mark;
    const name = this.nameToken();
    if (!name || !this.expect('=')) return null;
    const value = this.expression();
    return value ? { type: 'keyword', arg: normalizeIdentifier(name.string), value, ...this.spanFrom(start) } : null;
  }

  private invalidKwarg(): null {
    // a=('True'|'False'|'None') b='='
    this.attempt(() => {
      const a = this.expect('True') ?? this.expect('False') ?? this.expect('None');
      if (!a || !this.expect('=')) return null;
      this.syntaxError(`cannot assign to ${a.string}`, a.lineno);
    });
    // a=NAME b='=' expression for_if_clauses
    this.attempt(() => {
      const a = this.nameToken();
      if (!a || !this.expect('=') || !this.expression() || !this.forIfClauses()) return null;
      this.syntaxError("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", a.lineno);
    });
    // !(NAME '=') a=expression b='='
    this.attempt(() => {
      if (this.lookahead(true, () => (this.nameToken() && this.expect('=')) || null)) return null;
      const a = this.expression();
      if (!a || !this.expect('=')) return null;
      this.syntaxError('expression cannot contain assignment, perhaps you meant "=="?', a.lineno);
    });
    // a='**' expression '=' b=expression
    this.attempt(() => {
      const a = this.expect('**');
      if (!a || !this.expression() || !this.expect('=') || !this.expression()) return null;
      this.syntaxError('cannot assign to keyword argument unpacking', a.lineno);
    });
    return null;
  }

  private invalidArguments(): null {
    // a=args ',' '*'
    this.attempt(() => {
      const a = this.args();
      if (!a || !this.expect(',') || !this.expect('*')) return null;
      this.syntaxError('iterable argument unpacking follows keyword argument unpacking', this.tokens[a.startMark]!.lineno);
    });
    // a=expression b=for_if_clauses ',' [args | expression for_if_clauses]
    this.attempt(() => {
      const a = this.expression();
      if (!a || !this.forIfClauses() || !this.expect(',')) return null;
      if (!this.attempt(() => this.args())) this.attempt(() => (this.expression() ? this.forIfClauses() : null));
      this.syntaxError('Generator expression must be parenthesized', a.lineno);
    });
    // a=NAME b='=' expression for_if_clauses
    this.attempt(() => {
      const a = this.nameToken();
      if (!a || !this.expect('=') || !this.expression() || !this.forIfClauses()) return null;
      this.syntaxError("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", a.lineno);
    });
    // (args ',')? a=NAME b='=' &(',' | ')')
    this.attempt(() => {
      this.attempt(() => (this.args() && this.expect(',')) || null);
      const a = this.nameToken();
      if (!a || !this.expect('=') || !(this.check(',') || this.check(')'))) return null;
      this.syntaxError('expected argument value expression', a.lineno);
    });
    // a=args b=for_if_clauses
    this.attempt(() => {
      const a = this.args();
      if (!a || !this.forIfClauses()) return null;
      if (a.args.length <= 1) return null;
      this.syntaxError('Generator expression must be parenthesized', a.args[a.args.length - 1]!.lineno);
    });
    // args ',' a=expression b=for_if_clauses
    this.attempt(() => {
      if (!this.args() || !this.expect(',')) return null;
      const a = this.expression();
      if (!a || !this.forIfClauses()) return null;
      this.syntaxError('Generator expression must be parenthesized', a.lineno);
    });
    // a=args ',' args
    this.attempt(() => {
      const a = this.args();
      if (!a || !this.expect(',') || !this.args()) return null;
      const unpacking = a.keywords.some((k) => k.arg === null);
      this.raiseAtLastToken(
        unpacking ? 'positional argument follows keyword argument unpacking' : 'positional argument follows keyword argument',
      );
    });
    return null;
  }

  // -------------------------------------------------------------------------------------------
  // Comprehension targets

  /** star_targets: star_target !',' | star_target (',' star_target)* [','] */
  private starTargets(): ExprNode | null {
    const start = this.mark;
    const a = this.starTarget();
    if (!a) return null;
    if (!this.check(',')) return a;
    const elts = [a];
    for (;;) {
      const m = this.mark;
      if (!this.expect(',')) break;
      const b = this.starTarget();
      if (!b) {
        this.mark = m;
        break;
      }
      elts.push(b);
    }
    this.expect(',');
    return { type: 'Tuple', elts, ...this.spanFrom(start) };
  }
  /** star_target (memo): '*' (!'*' star_target) | target_with_star_atom */
  private starTarget(): ExprNode | null {
    return this.memoize(Rule.StarTarget, () => {
      const start = this.mark;
      const starred = this.attempt(() => {
        if (!this.expect('*') || this.check('*')) return null;
        const value = this.starTarget();
        return value ? { type: 'Starred' as const, value, ...this.spanFrom(start) } : null;
      });
      return starred ?? this.targetWithStarAtom();
    });
  }
  /** target_with_star_atom (memo): t_primary '.' NAME !t_lookahead | t_primary '[' slices ']' !t_lookahead | star_atom */
  private targetWithStarAtom(): ExprNode | null {
    return this.memoize(Rule.TargetWithStarAtom, () => {
      const start = this.mark;
      const attr = this.attempt(() => {
        const value = this.tPrimary();
        if (!value || !this.expect('.')) return null;
        const name = this.nameToken();
        if (!name || this.tLookahead()) return null;
        return { type: 'Attribute' as const, value, attr: normalizeIdentifier(name.string), ...this.spanFrom(start) };
      });
      if (attr) return attr;
      const sub = this.attempt(() => {
        const value = this.tPrimary();
        if (!value || !this.expect('[')) return null;
        const slice = this.slices();
        if (!slice || !this.expect(']') || this.tLookahead()) return null;
        return { type: 'Subscript' as const, value, slice, ...this.spanFrom(start) };
      });
      return sub ?? this.starAtom();
    });
  }
  /** star_atom: NAME | '(' target_with_star_atom ')' | '(' [star_targets_tuple_seq] ')' | '[' [star_targets_list_seq] ']' */
  private starAtom(): ExprNode | null {
    const start = this.mark;
    const name = this.name();
    if (name) return name;
    const paren = this.attempt(() => {
      if (!this.expect('(')) return null;
      const a = this.targetWithStarAtom();
      return a && this.expect(')') ? a : null;
    });
    if (paren) return paren;
    const tuple = this.attempt(() => {
      if (!this.expect('(')) return null;
      const elts = this.attempt(() => this.starTargetsTupleSeq()) ?? [];
      if (!this.expect(')')) return null;
      return { type: 'Tuple' as const, elts, ...this.spanFrom(start) };
    });
    if (tuple) return tuple;
    return this.attempt(() => {
      if (!this.expect('[')) return null;
      const elts = this.attempt(() => {
        const items = this.gather(() => this.starTarget());
        if (items) this.expect(',');
        return items;
      }) ?? [];
      if (!this.expect(']')) return null;
      return { type: 'List' as const, elts, ...this.spanFrom(start) };
    });
  }
  /** star_targets_tuple_seq: star_target (',' star_target)+ [','] | star_target ',' */
  private starTargetsTupleSeq(): ExprNode[] | null {
    const a = this.starTarget();
    if (!a) return null;
    const elts = [a];
    for (;;) {
      const m = this.mark;
      if (!this.expect(',')) break;
      const b = this.starTarget();
      if (!b) {
        this.mark = m;
        break;
      }
      elts.push(b);
    }
    if (elts.length > 1) {
      this.expect(',');
      return elts;
    }
    return this.expect(',') ? elts : null;
  }
  /** t_primary: left-recursive trailers, each followed by t_lookahead; a=atom &t_lookahead */
  private tPrimary(): ExprNode | null {
    return this.memoize(Rule.TPrimary, () => {
      const start = this.mark;
      let node = this.atom();
      if (!node || !this.tLookahead()) return null;
      for (;;) {
        const grown = this.primarySuffix(node, start, true);
        if (!grown) return node;
        node = grown;
      }
    });
  }
  private tLookahead(): boolean {
    return this.check('(') || this.check('[') || this.check('.');
  }

  // -------------------------------------------------------------------------------------------
  // Lambdas

  /** lambdef: 'lambda' [lambda_params] ':' expression */
  private lambdef(): ExprNode | null {
    const start = this.mark;
    if (!this.expect('lambda')) return null;
    const params = this.attempt(() => this.lambdaParams());
    if (!this.expect(':')) return null;
    const body = this.expression();
    if (!body) return null;
    return { type: 'Lambda', args: params ?? emptyArguments(), body, ...this.spanFrom(start) };
  }
  private lambdaParams(): ArgumentsNode | null {
    if (this.callInvalidRules) this.attempt(() => this.invalidLambdaParameters());
    return this.lambdaParameters();
  }
  private lambdaParameters(): ArgumentsNode | null {
    const alternatives: (() => ArgumentsNode | null)[] = [
      () => {
        const a = this.lambdaSlashNoDefault();
        if (!a) return null;
        const b = this.many(() => this.lambdaParamNoDefault());
        const c = this.many(() => this.lambdaParamWithDefault());
        const d = this.attempt(() => this.lambdaStarEtc());
        return makeArguments(a, [], b, c, d);
      },
      () => {
        const a = this.lambdaSlashWithDefault();
        if (!a) return null;
        const b = this.many(() => this.lambdaParamWithDefault());
        const c = this.attempt(() => this.lambdaStarEtc());
        return makeArguments(a.plain, a.withDefault, [], b, c);
      },
      () => {
        const a = this.many(() => this.lambdaParamNoDefault());
        if (!a.length) return null;
        const b = this.many(() => this.lambdaParamWithDefault());
        const c = this.attempt(() => this.lambdaStarEtc());
        return makeArguments([], [], a, b, c);
      },
      () => {
        const a = this.many(() => this.lambdaParamWithDefault());
        if (!a.length) return null;
        const b = this.attempt(() => this.lambdaStarEtc());
        return makeArguments([], [], [], a, b);
      },
      () => {
        const a = this.lambdaStarEtc();
        return a ? makeArguments([], [], [], [], a) : null;
      },
    ];
    for (const alt of alternatives) {
      const r = this.attempt(alt);
      if (r) return r;
    }
    return null;
  }
  private lambdaSlashNoDefault(): ArgNode[] | null {
    return this.attempt(() => {
      const a = this.many(() => this.lambdaParamNoDefault());
      if (!a.length || !this.expect('/')) return null;
      if (this.expect(',') || this.check(':')) return a;
      return null;
    });
  }
  private lambdaSlashWithDefault(): { plain: ArgNode[]; withDefault: NameDefault[] } | null {
    return this.attempt(() => {
      const plain = this.many(() => this.lambdaParamNoDefault());
      const withDefault = this.many(() => this.lambdaParamWithDefault());
      if (!withDefault.length || !this.expect('/')) return null;
      if (this.expect(',') || this.check(':')) return { plain, withDefault };
      return null;
    });
  }
  private lambdaStarEtc(): StarEtc | null {
    if (this.callInvalidRules) this.attempt(() => this.invalidLambdaStarEtc());
    const withName = this.attempt(() => {
      if (!this.expect('*')) return null;
      const vararg = this.lambdaParamNoDefault();
      if (!vararg) return null;
      const kwonly = this.many(() => this.lambdaParamMaybeDefault());
      const kwarg = this.attempt(() => this.lambdaKwds());
      return { vararg, kwonly, kwarg };
    });
    if (withName) return withName;
    const bare = this.attempt(() => {
      if (!this.expect('*') || !this.expect(',')) return null;
      const kwonly = this.many(() => this.lambdaParamMaybeDefault());
      if (!kwonly.length) return null;
      const kwarg = this.attempt(() => this.lambdaKwds());
      return { vararg: null, kwonly, kwarg };
    });
    if (bare) return bare;
    const kwarg = this.attempt(() => this.lambdaKwds());
    return kwarg ? { vararg: null, kwonly: [], kwarg } : null;
  }
  private lambdaKwds(): ArgNode | null {
    if (this.callInvalidRules) this.attempt(() => this.invalidLambdaKwds());
    return this.attempt(() => (this.expect('**') ? this.lambdaParamNoDefault() : null));
  }
  private lambdaParamNoDefault(): ArgNode | null {
    return this.attempt(() => {
      const a = this.lambdaParam();
      if (!a) return null;
      return this.expect(',') || this.check(':') ? a : null;
    });
  }
  private lambdaParamWithDefault(): NameDefault | null {
    return this.attempt(() => {
      const arg = this.lambdaParam();
      if (!arg) return null;
      const value = this.default_();
      if (!value) return null;
      return this.expect(',') || this.check(':') ? { arg, value } : null;
    });
  }
  private lambdaParamMaybeDefault(): NameDefault | null {
    return this.attempt(() => {
      const arg = this.lambdaParam();
      if (!arg) return null;
      const value = this.attempt(() => this.default_());
      return this.expect(',') || this.check(':') ? { arg, value } : null;
    });
  }
  private lambdaParam(): ArgNode | null {
    const t = this.nameToken();
    return t ? { type: 'arg', arg: normalizeIdentifier(t.string), ...tokenSpan(t, t) } : null;
  }
  /** default: '=' expression | invalid_default */
  private default_(): ExprNode | null {
    const d = this.attempt(() => (this.expect('=') ? this.expression() : null));
    if (d) return d;
    if (this.callInvalidRules) {
      this.attempt(() => {
        const a = this.expect('=');
        if (!a || !(this.check(')') || this.check(','))) return null;
        this.syntaxError('expected default value expression', a.lineno);
      });
    }
    return null;
  }
  private invalidLambdaParameters(): null {
    const at = (t: Token | null, msg: string): null => {
      if (t) this.syntaxError(msg, t.lineno);
      return null;
    };
    // lambda_param_no_default* invalid_lambda_parameters_helper a=lambda_param_no_default
    this.attempt(() => {
      this.many(() => this.lambdaParamNoDefault());
      const helper =
        this.lambdaSlashWithDefault() ?? (this.many(() => this.lambdaParamWithDefault()).length ? true : null);
      if (!helper) return null;
      const a = this.lambdaParamNoDefault();
      if (a) this.syntaxError('parameter without a default follows parameter with a default', a.lineno);
      return null;
    });
    // lambda_param_no_default* a='(' ','.lambda_param+ ','? b=')'
    this.attempt(() => {
      this.many(() => this.lambdaParamNoDefault());
      const a = this.expect('(');
      if (!a || !this.gather(() => this.lambdaParam())) return null;
      this.expect(',');
      if (!this.expect(')')) return null;
      return at(a, 'Lambda expression parameters cannot be parenthesized');
    });
    // a="/" ','
    this.attempt(() => {
      const a = this.expect('/');
      if (!a || !this.expect(',')) return null;
      return at(a, 'at least one argument must precede /');
    });
    // (lambda_slash_no_default | lambda_slash_with_default) lambda_param_maybe_default* a='/'
    this.attempt(() => {
      if (!(this.lambdaSlashNoDefault() ?? this.lambdaSlashWithDefault())) return null;
      this.many(() => this.lambdaParamMaybeDefault());
      return at(this.expect('/'), '/ may appear only once');
    });
    // (slash_no_default | slash_with_default)? param_maybe_default* '*' (',' | param_no_default) param_maybe_default* a='/'
    this.attempt(() => {
      this.lambdaSlashNoDefault() ?? this.lambdaSlashWithDefault();
      this.many(() => this.lambdaParamMaybeDefault());
      if (!this.expect('*')) return null;
      if (!(this.expect(',') || this.lambdaParamNoDefault())) return null;
      this.many(() => this.lambdaParamMaybeDefault());
      return at(this.expect('/'), '/ must be ahead of *');
    });
    // lambda_param_maybe_default+ '/' a='*'
    this.attempt(() => {
      if (!this.many(() => this.lambdaParamMaybeDefault()).length || !this.expect('/')) return null;
      return at(this.expect('*'), 'expected comma between / and *');
    });
    return null;
  }
  private invalidLambdaStarEtc(): null {
    // '*' (':' | ',' (':' | '**'))
    this.attempt(() => {
      if (!this.expect('*')) return null;
      const ok = this.expect(':') || (this.expect(',') && (this.expect(':') || this.expect('**')));
      if (ok) this.raiseAtLastToken('named arguments must follow bare *');
      return null;
    });
    // '*' lambda_param a='='
    this.attempt(() => {
      if (!this.expect('*') || !this.lambdaParam()) return null;
      const a = this.expect('=');
      if (a) this.syntaxError('var-positional argument cannot have default value', a.lineno);
      return null;
    });
    // '*' (lambda_param_no_default | ',') lambda_param_maybe_default* a='*' (lambda_param_no_default | ',')
    this.attempt(() => {
      if (!this.expect('*') || !(this.lambdaParamNoDefault() || this.expect(','))) return null;
      this.many(() => this.lambdaParamMaybeDefault());
      const a = this.expect('*');
      if (!a || !(this.lambdaParamNoDefault() || this.expect(','))) return null;
      this.syntaxError('* argument may appear only once', a.lineno);
    });
    return null;
  }
  private invalidLambdaKwds(): null {
    this.attempt(() => {
      if (!this.expect('**') || !this.lambdaParam()) return null;
      const a = this.expect('=');
      if (a) this.syntaxError('var-keyword argument cannot have default value', a.lineno);
      return null;
    });
    this.attempt(() => {
      if (!this.expect('**') || !this.lambdaParam() || !this.expect(',')) return null;
      const a = this.lambdaParam();
      if (a) this.syntaxError('arguments cannot follow var-keyword argument', a.lineno);
      return null;
    });
    this.attempt(() => {
      if (!this.expect('**') || !this.lambdaParam() || !this.expect(',')) return null;
      const a = this.expect('*') ?? this.expect('**') ?? this.expect('/');
      if (a) this.syntaxError('arguments cannot follow var-keyword argument', a.lineno);
      return null;
    });
    return null;
  }

  // -------------------------------------------------------------------------------------------
  // Literals

  private numberValue(t: Token): PyValue {
    const text = t.string.replace(/_/g, '');
    const lower = text.toLowerCase();
    if (lower.endsWith('j')) return new PyComplex(0, Number(text.slice(0, -1)));
    if (/^0[xob]/.test(lower)) return BigInt(text);
    if (/^[0-9]+$/.test(text)) {
      if (text.length > INT_MAX_STR_DIGITS) {
        this.syntaxError(
          `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${text.length} digits; ` +
            'use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal for huge integer literals ' +
            'to avoid decimal conversion limits.',
          t.lineno,
        );
      }
      return BigInt(text);
    }
    return Number(text);
  }

  /** strings (memo): (fstring|string)+ — adjacent literals concatenated. */
  private strings(): ExprNode | null {
    return this.memoize(Rule.Strings, () => {
      const start = this.mark;
      const toks: Token[] = [];
      for (;;) {
        const t = this.cur();
        if (t.type !== 'STRING' && t.type !== 'FSTRING') break;
        toks.push(t);
        this.mark++;
      }
      if (!toks.length) return null;
      // Peek the token after the literals, as CPython's loop does.
      this.cur();
      return this.concatenateStrings(toks, this.spanFrom(start));
    });
  }

  private concatenateStrings(toks: Token[], span: SourceSpan): ExprNode {
    const pieces: (ConstantNode | JoinedStrNode)[] = toks.map((t) => this.stringPiece(t));
    const isBytes = (n: ExprNode): boolean => n.type === 'Constant' && n.value instanceof PyBytes;
    const bytesFound = pieces.some(isBytes);
    if (bytesFound && !pieces.every(isBytes)) this.raiseAtLastToken('cannot mix bytes and nonbytes literals');
    if (bytesFound) {
      const all = pieces.flatMap((n) => [...((n as ConstantNode).value as PyBytes).bytes]);
      return { type: 'Constant', value: new PyBytes(Uint8Array.from(all)), kind: null, ...span };
    }
    const fstringFound = pieces.some((n) => n.type === 'JoinedStr');
    if (!fstringFound && pieces.length === 1) return pieces[0]!;
    // Flatten, merging adjacent string constants and dropping empty ones.
    const values: ExprNode[] = [];
    let run: { text: string; first: ConstantNode | null } | null = null;
    const flush = (): void => {
      if (run && (run.text.length > 0 || !fstringFound)) {
        values.push({ type: 'Constant', value: run.text, kind: run.first?.kind ?? null, ...span });
      }
      run = null;
    };
    for (const piece of pieces) {
      const parts = piece.type === 'JoinedStr' ? piece.values : [piece];
      for (const part of parts) {
        if (part.type === 'Constant' && typeof part.value === 'string') {
          if (!run) run = { text: '', first: part };
          run.text += part.value;
        } else {
          flush();
          values.push(part);
        }
      }
    }
    flush();
    if (!fstringFound) return values[0]!;
    return { type: 'JoinedStr', values, ...span };
  }

  /** One STRING or FSTRING token as a Constant or JoinedStr. */
  private stringPiece(t: Token): ConstantNode | JoinedStrNode {
    const span = tokenSpan(t, t);
    if (t.type === 'FSTRING') return this.fstring(t);
    const m = /^([a-zA-Z]*)('''|"""|'|")/.exec(t.string)!;
    const prefix = m[1]!.toLowerCase();
    const q = m[2]!.length;
    const body = t.string.slice(m[0].length, t.string.length - q);
    const raw = prefix.includes('r');
    if (prefix.includes('b')) {
      for (const c of body) {
        if (c.charCodeAt(0) >= 0x80) this.syntaxError('bytes can only contain ASCII literal characters', t.lineno);
      }
      const bytes = raw ? Uint8Array.from(body, (c) => c.charCodeAt(0)) : this.decodeBytesEscapes(body);
      return { type: 'Constant', value: new PyBytes(bytes), kind: null, ...span };
    }
    const value = raw ? body : this.decodeUnicodeEscapes(body);
    return { type: 'Constant', value, kind: m[1]!.startsWith('u') ? 'u' : null, ...span };
  }

  private decodeUnicodeEscapes(body: string): string {
    const r = decodeStringEscapes(body);
    if (typeof r === 'string') return r;
    return this.raiseAtLastToken(`(unicode error) 'unicodeescape' codec can't decode bytes in position ${r.start}-${r.end - 1}: ${r.reason}`);
  }
  private decodeBytesEscapes(body: string): Uint8Array {
    const r = decodeBytesEscapes(body);
    if (r instanceof Uint8Array) return r;
    return this.raiseAtLastToken(`(value error) invalid \\x escape at position ${r.position}`);
  }

  /** An f-string token: literal parts decoded, replacement fields parsed as expressions. */
  private fstring(t: Token): JoinedStrNode {
    const info = t.fstring!;
    const text = this.tokenized.text;
    const span = tokenSpan(t, t);
    const convert = (parts: readonly FStringPart[], dropEmpty: boolean): ExprNode[] => {
      const values: ExprNode[] = [];
      for (const part of parts) {
        if (part.kind === 'text') {
          const raw = text.slice(part.start, part.end);
          const value = info.raw ? raw : this.decodeUnicodeEscapes(raw);
          const last = values[values.length - 1];
          if (last && last.type === 'Constant' && typeof last.value === 'string') {
            values[values.length - 1] = { ...last, value: last.value + value };
          } else if (value.length || !dropEmpty) {
            values.push({ type: 'Constant', value, kind: null, ...span });
          }
          continue;
        }
        const f = part.field;
        const exprText = text.slice(f.exprStart, f.exprEnd);
        if (exprText.trim() === '') {
          const next = f.debug ? '=' : f.conversion >= 0 ? '!' : f.formatSpec ? ':' : '}';
          this.syntaxError(`f-string: valid expression required before '${next}'`, t.lineno);
        }
        const parsed = parseFStringExpression(exprText);
        if (!parsed.ok) this.raise(new PythonSyntaxError(parsed.error.pyType, parsed.error.msg, t.lineno));
        const value = shiftNode(parsed.node, text.offset(f.exprStart), text.lineOf(f.exprStart) - 1);
        if (f.debug) {
          // `{expr=}` prints the expression text, the '=' and the spaces after it.
          const debugText = text.slice(f.exprStart, f.debugTextEnd);
          const last = values[values.length - 1];
          if (last && last.type === 'Constant' && typeof last.value === 'string') {
            values[values.length - 1] = { ...last, value: last.value + debugText };
          } else values.push({ type: 'Constant', value: debugText, kind: null, ...span });
        }
        const conversion = f.conversion >= 0 ? f.conversion : f.debug && !f.formatSpec ? 'r'.charCodeAt(0) : -1;
        const formatSpec: JoinedStrNode | null = f.formatSpec
          ? { type: 'JoinedStr', values: convert(f.formatSpec, true), ...span }
          : null;
        const fv: FormattedValueNode = { type: 'FormattedValue', value, conversion, formatSpec, ...span };
        values.push(fv);
      }
      return values;
    };
    return { type: 'JoinedStr', values: convert(info.parts, true), ...span };
  }

  // -------------------------------------------------------------------------------------------
  // Repetition helpers

  /** ','.item+ : one or more items separated by commas (no trailing comma consumed). */
  private gather<T>(item: () => T | null): T[] | null {
    const first = this.attempt(item);
    if (first === null) return null;
    const items = [first];
    for (;;) {
      const m = this.mark;
      if (!this.expect(',')) break;
      const next = this.attempt(item);
      if (next === null) {
        this.mark = m;
        break;
      }
      items.push(next);
    }
    return items;
  }
  /** item* */
  private many<T>(item: () => T | null): T[] {
    const items: T[] = [];
    for (;;) {
      const next = this.attempt(item);
      if (next === null) return items;
      items.push(next);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// f-string replacement fields

/** Parse the expression of an f-string replacement field. */
function parseFStringExpression(source: string): ParseResult {
  const tokenized = tokenizePython(source, { insideBrackets: true });
  return runParser(tokenized, (p) => p.fstringExpression());
}

/** Move a subtree parsed from a substring to its place in the enclosing source. */
function shiftNode<T extends object>(node: T, offset: number, lineDelta: number): T {
  const visit = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(visit);
    if (v === null || typeof v !== 'object' || !('type' in v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'start' || k === 'end') out[k] = (x as number) + offset;
      else if (k === 'lineno' || k === 'endLineno') out[k] = (x as number) + lineDelta;
      else if (k === 'value' && (v as { type: string }).type === 'Constant') out[k] = x;
      else out[k] = visit(x);
    }
    return out;
  };
  return visit(node) as T;
}

// ---------------------------------------------------------------------------------------------
// Node helpers

function tokenSpan(first: Token, last: Token): SourceSpan {
  return { start: first.start, end: last.end, lineno: first.lineno, endLineno: last.endLineno };
}

/** CPython NFKC-normalizes non-ASCII identifiers. */
function normalizeIdentifier(id: string): string {
  return /^[\x00-\x7f]*$/.test(id) ? id : id.normalize('NFKC');
}

function isLegacyName(node: ExprNode): boolean {
  return node.type === 'Name' && LEGACY_NAMES.has(node.id);
}

function starredOf(items: KeywordOrStarred[]): ExprNode[] {
  return items.flatMap((i) => ('starred' in i ? [i.starred] : []));
}
function keywordsOf(items: KeywordOrStarred[]): KeywordNode[] {
  return items.flatMap((i) => ('keyword' in i ? [i.keyword] : []));
}

function emptyArguments(): ArgumentsNode {
  return { type: 'arguments', posonlyargs: [], args: [], vararg: null, kwonlyargs: [], kwDefaults: [], kwarg: null, defaults: [] };
}
function makeArguments(
  slashPlain: ArgNode[],
  slashWithDefault: NameDefault[],
  plain: ArgNode[],
  withDefault: NameDefault[],
  starEtc: StarEtc | null,
): ArgumentsNode {
  const posonlyargs = [...slashPlain, ...slashWithDefault.map((p) => p.arg)];
  const args = [...plain, ...withDefault.map((p) => p.arg)];
  const defaults = [...slashWithDefault, ...withDefault].map((p) => p.value!);
  return {
    type: 'arguments',
    posonlyargs,
    args,
    vararg: starEtc?.vararg ?? null,
    kwonlyargs: starEtc?.kwonly.map((p) => p.arg) ?? [],
    kwDefaults: starEtc?.kwonly.map((p) => p.value) ?? [],
    kwarg: starEtc?.kwarg ?? null,
    defaults,
  };
}

/** CPython's `_PyPegen_get_expr_name`, used in error messages. */
export function exprName(e: ExprNode): string {
  switch (e.type) {
    case 'Attribute':
      return 'attribute';
    case 'Subscript':
      return 'subscript';
    case 'Starred':
      return 'starred';
    case 'Name':
      return 'name';
    case 'List':
      return 'list';
    case 'Tuple':
      return 'tuple';
    case 'Lambda':
      return 'lambda';
    case 'Call':
      return 'function call';
    case 'BoolOp':
    case 'BinOp':
    case 'UnaryOp':
      return 'expression';
    case 'GeneratorExp':
      return 'generator expression';
    case 'Yield':
    case 'YieldFrom':
      return 'yield expression';
    case 'Await':
      return 'await expression';
    case 'ListComp':
      return 'list comprehension';
    case 'SetComp':
      return 'set comprehension';
    case 'DictComp':
      return 'dict comprehension';
    case 'Dict':
      return 'dict literal';
    case 'Set':
      return 'set display';
    case 'JoinedStr':
    case 'FormattedValue':
      return 'f-string expression';
    case 'Constant':
      if (e.value === null) return 'None';
      if (e.value === true) return 'True';
      if (e.value === false) return 'False';
      if (e.value === PY_ELLIPSIS) return 'ellipsis';
      return 'literal';
    case 'Compare':
      return 'comparison';
    case 'IfExp':
      return 'conditional expression';
    case 'NamedExpr':
      return 'named expression';
    case 'Slice':
      return 'slice';
  }
}

/** CPython's `_PyPegen_get_invalid_target` for `for` targets. */
function invalidTarget(e: ExprNode, kind: 'for'): ExprNode | null {
  switch (e.type) {
    case 'List':
    case 'Tuple':
      for (const x of e.elts) {
        const bad = invalidTarget(x, kind);
        if (bad) return bad;
      }
      return null;
    case 'Starred':
      return invalidTarget(e.value, kind);
    case 'Compare':
      // `for a in b` parses its target as the comparison `a in b`.
      return e.ops[0] === 'In' ? invalidTarget(e.left, kind) : null;
    case 'Name':
    case 'Subscript':
    case 'Attribute':
      return null;
    default:
      return e;
  }
}

// ---------------------------------------------------------------------------------------------
// String escapes

interface EscapeError {
  readonly start: number;
  readonly end: number;
  readonly reason: string;
}

/**
 * Decode the escapes of a (non-raw) str literal body. Positions in errors follow CPython, which
 * decodes a copy where every non-ASCII character was rewritten as a 10-character `\UXXXXXXXX`.
 */
function decodeStringEscapes(body: string): string | EscapeError {
  if (!body.includes('\\')) return body;
  // Build CPython's intermediate buffer positions lazily: position of each code point.
  const cps = Array.from(body, (c) => c.codePointAt(0)!);
  const pos: number[] = [];
  let p = 0;
  for (let i = 0; i < cps.length; i++) {
    pos.push(p);
    const c = cps[i]!;
    if (c === 0x5c && i + 1 < cps.length && cps[i + 1]! >= 0x80) p += 6; // "\u005c" replaces the backslash
    else p += c >= 0x80 ? 10 : 1;
  }
  pos.push(p);
  let out = '';
  let i = 0;
  const fail = (start: number, end: number, reason: string): EscapeError => ({ start: pos[start]!, end: pos[end]!, reason });
  while (i < cps.length) {
    const c = cps[i]!;
    if (c !== 0x5c) {
      out += String.fromCodePoint(c);
      i++;
      continue;
    }
    const start = i;
    i++;
    if (i >= cps.length) {
      out += '\\';
      break;
    }
    const e = cps[i]!;
    if (e >= 0x80) {
      // A backslash before a non-ASCII character stays a backslash.
      out += '\\';
      continue;
    }
    i++;
    const simple: Record<string, string> = {
      '\n': '', '\\': '\\', "'": "'", '"': '"', b: '\b', f: '\f', t: '\t', n: '\n', r: '\r', v: '\v', a: '\x07',
    };
    const ec = String.fromCharCode(e);
    if (ec in simple) {
      out += simple[ec];
      continue;
    }
    if (e >= 0x30 && e <= 0x37) {
      let value = e - 0x30;
      for (let k = 0; k < 2 && i < cps.length && cps[i]! >= 0x30 && cps[i]! <= 0x37; k++) {
        value = value * 8 + (cps[i]! - 0x30);
        i++;
      }
      out += String.fromCodePoint(value);
      continue;
    }
    const hexLen: Record<string, [number, string]> = {
      x: [2, 'truncated \\xXX escape'],
      u: [4, 'truncated \\uXXXX escape'],
      U: [8, 'truncated \\UXXXXXXXX escape'],
    };
    if (ec in hexLen) {
      const [count, message] = hexLen[ec]!;
      let value = 0;
      for (let k = 0; k < count; k++) {
        if (i >= cps.length) return fail(start, i, message);
        const d = parseInt(String.fromCharCode(cps[i]!), 16);
        if (Number.isNaN(d) || cps[i]! >= 0x80) return fail(start, i, message);
        value = value * 16 + d;
        i++;
      }
      if (value > 0x10ffff) return fail(start, i, 'illegal Unicode character');
      out += String.fromCodePoint(value);
      continue;
    }
    if (ec === 'N') {
      // Unicode character names need a name database, which JS does not expose.
      if (i >= cps.length || cps[i] !== 0x7b) return fail(start, i, 'malformed \\N character escape');
      const close = cps.indexOf(0x7d, i + 1);
      if (close < 0) return fail(start, cps.length, 'malformed \\N character escape');
      if (close === i + 1) return fail(start, close, 'malformed \\N character escape');
      return fail(start, close + 1, 'unknown Unicode character name');
    }
    // Unknown escape: kept as written (CPython only warns).
    out += '\\' + ec;
  }
  return out;
}

/** Decode the escapes of a (non-raw) bytes literal body (ASCII only). */
function decodeBytesEscapes(body: string): Uint8Array | { readonly position: number } {
  const out: number[] = [];
  let i = 0;
  while (i < body.length) {
    const c = body.charCodeAt(i);
    if (c !== 0x5c) {
      out.push(c);
      i++;
      continue;
    }
    const start = i;
    i++;
    if (i >= body.length) {
      out.push(0x5c);
      break;
    }
    const e = body[i]!;
    i++;
    const simple: Record<string, number> = {
      '\\': 0x5c, "'": 0x27, '"': 0x22, b: 8, f: 12, t: 9, n: 10, r: 13, v: 11, a: 7,
    };
    if (e === '\n') continue;
    if (e in simple) {
      out.push(simple[e]!);
      continue;
    }
    if (e >= '0' && e <= '7') {
      let value = e.charCodeAt(0) - 0x30;
      for (let k = 0; k < 2 && i < body.length && body[i]! >= '0' && body[i]! <= '7'; k++) {
        value = value * 8 + (body.charCodeAt(i) - 0x30);
        i++;
      }
      out.push(value & 0xff);
      continue;
    }
    if (e === 'x') {
      const hex = body.slice(i, i + 2);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return { position: start };
      out.push(parseInt(hex, 16));
      i += 2;
      continue;
    }
    out.push(0x5c, e.charCodeAt(0));
  }
  return Uint8Array.from(out);
}

// ---------------------------------------------------------------------------------------------
// eval(): the compiler's checks on top of the parser

/**
 * Parse `source` as Python's `eval(source)` would compile it: leading spaces and tabs are
 * skipped, and the compiler's own checks run after parsing (`keyword argument repeated`,
 * `'yield' outside function`...). Error messages name the file `<string>` via
 * `error.format('<string>')`.
 */
export function parsePythonEval(source: string): ParseResult {
  const parsed = parsePythonExpression(source.replace(/^[ \t]+/, ''));
  if (!parsed.ok) return parsed;
  const error = findCompileError(parsed.node);
  return error ? { ok: false, error } : parsed;
}

/** The first error CPython's compiler reports for an expression that parsed, or null. */
export function findCompileError(node: ExprNode): PythonSyntaxError | null {
  let found: PythonSyntaxError | null = null;
  const fail = (msg: string, lineno: number): void => {
    found ??= new PythonSyntaxError('SyntaxError', msg, lineno);
  };
  const walk = (n: unknown, inLambda: boolean): void => {
    if (found || n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) walk(x, inLambda);
      return;
    }
    if (!('type' in n)) return;
    const e = n as ExprNode;
    if (e.type === 'Call') {
      const seen = new Set<string>();
      for (const k of e.keywords) {
        if (k.arg === null) continue;
        if (seen.has(k.arg)) fail(`keyword argument repeated: ${k.arg}`, k.lineno);
        seen.add(k.arg);
      }
    }
    if ((e.type === 'Yield' || e.type === 'YieldFrom') && !inLambda) fail("'yield' outside function", e.lineno);
    if (e.type === 'Await' && !inLambda) fail("'await' outside function", e.lineno);
    for (const [key, value] of Object.entries(e)) {
      if (key === 'value' && e.type === 'Constant') continue;
      walk(value, inLambda || e.type === 'Lambda');
    }
  };
  walk(node, false);
  return found;
}

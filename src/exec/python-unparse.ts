/**
 * Python 3.12 `ast.unparse` for expression nodes: the same text, quotes and parentheses.
 */
import { floatRepr, strRepr } from '../py/repr.js';
import { PY_ELLIPSIS, PyObject, type PyValue } from '../py/value.js';
import type { ArgumentsNode, ComprehensionNode, ExprNode, JoinedStrNode, KeywordNode } from './python-ast.js';
import { PyComplex } from '../py/complex.js';
import { isPrintableCodePoint } from './python-tokenizer.js';

/** Operator precedence levels of `ast._Precedence`, lowest first. */
const enum Prec {
  NamedExpr = 1,
  Tuple,
  Yield,
  Test,
  Or,
  And,
  Not,
  Cmp,
  Expr,
  BXor,
  BAnd,
  Shift,
  Arith,
  Term,
  Factor,
  Power,
  Await,
  Atom,
}
const BOr = Prec.Expr;
const next = (p: Prec): Prec => (p === Prec.Atom ? p : ((p + 1) as Prec));

/** How `ast.unparse` writes an infinite float (a literal that overflows). */
const INF_STR = '1e309';

const BINOPS: Record<string, [string, Prec]> = {
  Add: ['+', Prec.Arith],
  Sub: ['-', Prec.Arith],
  Mult: ['*', Prec.Term],
  MatMult: ['@', Prec.Term],
  Div: ['/', Prec.Term],
  Mod: ['%', Prec.Term],
  LShift: ['<<', Prec.Shift],
  RShift: ['>>', Prec.Shift],
  BitOr: ['|', BOr],
  BitXor: ['^', Prec.BXor],
  BitAnd: ['&', Prec.BAnd],
  FloorDiv: ['//', Prec.Term],
  Pow: ['**', Prec.Power],
};
const UNARYOPS: Record<string, [string, Prec]> = {
  Invert: ['~', Prec.Factor],
  Not: ['not', Prec.Not],
  UAdd: ['+', Prec.Factor],
  USub: ['-', Prec.Factor],
};
const CMPOPS: Record<string, string> = {
  Eq: '==',
  NotEq: '!=',
  Lt: '<',
  LtE: '<=',
  Gt: '>',
  GtE: '>=',
  Is: 'is',
  IsNot: 'is not',
  In: 'in',
  NotIn: 'not in',
};

/** Python's `ast.unparse(node)` for an expression node. */
export function unparseExpression(node: ExprNode): string {
  return visit(node, Prec.Test);
}

/** `repr()` of a constant as `ast.unparse` writes it (infinities as `1e309`). */
export function unparseConstant(value: PyValue): string {
  if (typeof value === 'number') return floatText(floatRepr(value));
  if (value instanceof PyComplex) return floatText(value.pyRepr());
  if (value === PY_ELLIPSIS) return '...';
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return strRepr(value);
  if (value instanceof PyObject) return value.pyRepr();
  throw new TypeError('unexpected constant value');
}

function floatText(repr: string): string {
  return repr.replaceAll('inf', INF_STR).replaceAll('nan', `(${INF_STR}-${INF_STR})`);
}

function parens(needed: boolean, text: string): string {
  return needed ? `(${text})` : text;
}

/** Render `node` whose parent asked for precedence `prec`. */
function visit(node: ExprNode, prec: Prec): string {
  switch (node.type) {
    case 'Constant':
      return (node.kind === 'u' ? 'u' : '') + unparseConstant(node.value);
    case 'Name':
      return node.id;
    case 'Attribute': {
      const value = visit(node.value, Prec.Atom);
      // `3.__abs__()` would not parse, so an int gets a space before the dot.
      const space =
        node.value.type === 'Constant' && (typeof node.value.value === 'bigint' || typeof node.value.value === 'boolean') ? ' ' : '';
      return `${value}${space}.${node.attr}`;
    }
    case 'Call': {
      const parts = [...node.args.map((a) => visit(a, Prec.Test)), ...node.keywords.map(keyword)];
      return `${visit(node.func, Prec.Atom)}(${parts.join(', ')})`;
    }
    case 'List':
      return `[${node.elts.map((e) => visit(e, Prec.Test)).join(', ')}]`;
    case 'Tuple':
      return parens(node.elts.length === 0 || prec > Prec.Tuple, itemsView(node.elts));
    case 'Set':
      return node.elts.length ? `{${node.elts.map((e) => visit(e, Prec.Test)).join(', ')}}` : '{*()}';
    case 'Dict': {
      const items = node.keys.map((k, i) => {
        const v = node.values[i]!;
        return k === null ? `**${visit(v, Prec.Expr)}` : `${visit(k, Prec.Test)}: ${visit(v, Prec.Test)}`;
      });
      return `{${items.join(', ')}}`;
    }
    case 'UnaryOp': {
      const [op, opPrec] = UNARYOPS[node.op]!;
      const sep = opPrec === Prec.Factor ? '' : ' ';
      return parens(prec > opPrec, `${op}${sep}${visit(node.operand, opPrec)}`);
    }
    case 'BinOp': {
      const [op, opPrec] = BINOPS[node.op]!;
      const rightAssoc = node.op === 'Pow';
      const left = visit(node.left, rightAssoc ? next(opPrec) : opPrec);
      const right = visit(node.right, rightAssoc ? opPrec : next(opPrec));
      return parens(prec > opPrec, `${left} ${op} ${right}`);
    }
    case 'BoolOp': {
      const opPrec = node.op === 'And' ? Prec.And : Prec.Or;
      const word = node.op === 'And' ? 'and' : 'or';
      // Each operand is rendered one level tighter than the one before (as CPython does).
      let level = opPrec;
      const parts = node.values.map((v) => {
        level = next(level);
        return visit(v, level);
      });
      return parens(prec > opPrec, parts.join(` ${word} `));
    }
    case 'Compare': {
      let text = visit(node.left, next(Prec.Cmp));
      node.ops.forEach((op, i) => {
        text += ` ${CMPOPS[op]!} ${visit(node.comparators[i]!, next(Prec.Cmp))}`;
      });
      return parens(prec > Prec.Cmp, text);
    }
    case 'Subscript': {
      const slice = node.slice;
      const inner =
        slice.type === 'Tuple' && slice.elts.length ? itemsView(slice.elts) : visit(slice, Prec.Test);
      return `${visit(node.value, Prec.Atom)}[${inner}]`;
    }
    case 'Slice': {
      let text = node.lower ? visit(node.lower, Prec.Test) : '';
      text += ':';
      if (node.upper) text += visit(node.upper, Prec.Test);
      if (node.step) text += ':' + visit(node.step, Prec.Test);
      return text;
    }
    case 'Starred':
      return `*${visit(node.value, Prec.Expr)}`;
    case 'IfExp': {
      const body = visit(node.body, next(Prec.Test));
      const test = visit(node.test, next(Prec.Test));
      return parens(prec > Prec.Test, `${body} if ${test} else ${visit(node.orelse, Prec.Test)}`);
    }
    case 'NamedExpr':
      return parens(prec > Prec.NamedExpr, `${visit(node.target, Prec.Atom)} := ${visit(node.value, Prec.Atom)}`);
    case 'Lambda': {
      const args = argumentsText(node.args);
      const head = args ? `lambda ${args}` : 'lambda';
      return parens(prec > Prec.Test, `${head}: ${visit(node.body, Prec.Test)}`);
    }
    case 'Await':
      return parens(prec > Prec.Await, `await ${visit(node.value, Prec.Atom)}`);
    case 'Yield':
      return parens(prec > Prec.Yield, node.value ? `yield ${visit(node.value, Prec.Atom)}` : 'yield');
    case 'YieldFrom':
      return parens(prec > Prec.Yield, `yield from ${visit(node.value, Prec.Atom)}`);
    case 'ListComp':
      return `[${visit(node.elt, Prec.Test)}${generators(node.generators)}]`;
    case 'SetComp':
      return `{${visit(node.elt, Prec.Test)}${generators(node.generators)}}`;
    case 'GeneratorExp':
      return `(${visit(node.elt, Prec.Test)}${generators(node.generators)})`;
    case 'DictComp':
      return `{${visit(node.key, Prec.Test)}: ${visit(node.value, Prec.Test)}${generators(node.generators)}}`;
    case 'JoinedStr':
      return joinedStr(node);
    case 'FormattedValue':
      return formattedValue(node);
  }
}

/** Elements separated by ", ", with a trailing comma for a single element. */
function itemsView(elts: readonly ExprNode[]): string {
  if (elts.length === 1) return `${visit(elts[0]!, Prec.Test)},`;
  return elts.map((e) => visit(e, Prec.Test)).join(', ');
}

function keyword(k: KeywordNode): string {
  return (k.arg === null ? '**' : `${k.arg}=`) + visit(k.value, Prec.Test);
}

function generators(gens: readonly ComprehensionNode[]): string {
  return gens
    .map((g) => {
      let text = `${g.isAsync ? ' async for ' : ' for '}${visit(g.target, Prec.Tuple)} in ${visit(g.iter, next(Prec.Test))}`;
      for (const cond of g.ifs) text += ` if ${visit(cond, next(Prec.Test))}`;
      return text;
    })
    .join('');
}

function argumentsText(a: ArgumentsNode): string {
  const parts: string[] = [];
  const all = [...a.posonlyargs, ...a.args];
  const defaults: (ExprNode | null)[] = [...Array<null>(all.length - a.defaults.length).fill(null), ...a.defaults];
  all.forEach((arg, i) => {
    const d = defaults[i];
    parts.push(d ? `${arg.arg}=${visit(d, Prec.Test)}` : arg.arg);
    if (i + 1 === a.posonlyargs.length) parts.push('/');
  });
  if (a.vararg || a.kwonlyargs.length) parts.push(a.vararg ? `*${a.vararg.arg}` : '*');
  a.kwonlyargs.forEach((arg, i) => {
    const d = a.kwDefaults[i];
    parts.push(d ? `${arg.arg}=${visit(d, Prec.Test)}` : arg.arg);
  });
  if (a.kwarg) parts.push(`**${a.kwarg.arg}`);
  return parts.join(', ');
}

// ---------------------------------------------------------------------------------------------
// f-strings (ast._Unparser.visit_JoinedStr)

const SINGLE_QUOTES = ["'", '"'];
const MULTI_QUOTES = ['"""', "'''"];
const ALL_QUOTES = [...SINGLE_QUOTES, ...MULTI_QUOTES];

/** `c.encode("unicode_escape").decode("ascii")` for one character. */
function unicodeEscape(c: string): string {
  const cp = c.codePointAt(0)!;
  if (c === '\\') return '\\\\';
  if (c === '\t') return '\\t';
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (cp < 0x20 || (cp >= 0x7f && cp < 0x100)) return '\\x' + cp.toString(16).padStart(2, '0');
  if (cp < 0x10000) return '\\u' + cp.toString(16).padStart(4, '0');
  return '\\U' + cp.toString(16).padStart(8, '0');
}

/** `_str_literal_helper`: the escaped text and the quote types that can hold it. */
function strLiteralHelper(
  string: string,
  quoteTypes: readonly string[],
  escapeSpecialWhitespace: boolean,
): [string, string[]] {
  let escaped = '';
  for (const c of string) {
    if (!escapeSpecialWhitespace && (c === '\n' || c === '\t')) escaped += c;
    else if (c === '\\' || !isPrintableCodePoint(c.codePointAt(0)!)) escaped += unicodeEscape(c);
    else escaped += c;
  }
  let possible = [...quoteTypes];
  if (escaped.includes('\n')) possible = possible.filter((q) => MULTI_QUOTES.includes(q));
  possible = possible.filter((q) => !escaped.includes(q));
  if (!possible.length) {
    const r = strRepr(string);
    const quote = quoteTypes.find((q) => q.includes(r[0]!)) ?? r[0]!;
    return [r.slice(1, -1), [quote]];
  }
  if (escaped) {
    const last = escaped[escaped.length - 1]!;
    // Stable sort: quotes whose character differs from the last character come first.
    possible = [...possible.filter((q) => q[0] !== last), ...possible.filter((q) => q[0] === last)];
    if (possible[0]![0] === last) escaped = escaped.slice(0, -1) + '\\' + last;
  }
  return [escaped, possible];
}

function fstringInner(node: ExprNode, escapeNewlines: boolean): string {
  if (node.type === 'JoinedStr') return node.values.map((v) => fstringInner(v, escapeNewlines)).join('');
  if (node.type === 'Constant' && typeof node.value === 'string') {
    let value = node.value.replaceAll('{', '{{').replaceAll('}', '}}');
    if (escapeNewlines) value = value.replaceAll('\n', '\\n');
    return value;
  }
  if (node.type === 'FormattedValue') return formattedValue(node);
  throw new TypeError(`Unexpected node inside JoinedStr, ${node.type}`);
}

function formattedValue(node: Extract<ExprNode, { type: 'FormattedValue' }>): string {
  const expr = visit(node.value, next(Prec.Test));
  let text = '{' + (expr.startsWith('{') ? ' ' : '') + expr;
  if (node.conversion !== -1) text += '!' + String.fromCharCode(node.conversion);
  if (node.formatSpec) text += ':' + fstringInner(node.formatSpec, true);
  return text + '}';
}

function joinedStr(node: JoinedStrNode): string {
  const parts = node.values.map((v) => [fstringInner(v, false), v.type === 'Constant'] as const);
  let quoteTypes = [...ALL_QUOTES];
  const newParts: string[] = [];
  let fallback = false;
  for (const [value, isConstant] of parts) {
    if (isConstant) {
      const [escaped, newQuotes] = strLiteralHelper(value, quoteTypes, true);
      if (!newQuotes.some((q) => quoteTypes.includes(q))) {
        fallback = true;
        break;
      }
      quoteTypes = newQuotes;
      newParts.push(escaped);
    } else {
      if (value.includes('\n')) quoteTypes = quoteTypes.filter((q) => MULTI_QUOTES.includes(q));
      newParts.push(value);
    }
  }
  if (fallback) {
    quoteTypes = ["'''"];
    newParts.length = 0;
    for (const [value, isConstant] of parts) {
      // repr('"' + value) forces single quotes; drop the '"' and the quotes again.
      newParts.push(isConstant ? strRepr('"' + value).slice(2, -1) : value);
    }
  }
  const quote = quoteTypes[0]!;
  return `f${quote}${newParts.join('')}${quote}`;
}

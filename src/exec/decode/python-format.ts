/**
 * The Python return format of prompting models: `[func(a=1, b='x'), mod.func2(c=[1, 2])]`,
 * decoded from the parsed Python AST exactly as the reference's `ast_parse` /
 * `resolve_ast_call` / `resolve_ast_by_type` do (model_handler/utils.py).
 */
import type { CallNode, ExprNode } from '../python-ast.js';
import { PyComplex } from '../../py/complex.js';
import { astClassRepr } from '../python-ast.js';
import { parsePythonExpression } from '../python-parser.js';
import { unparseExpression } from '../python-unparse.js';
import { pyUnaryOp } from '../../py/operators.js';
import { PY_ELLIPSIS, PyException, PyTuple, pyTruthy, type PyDict, type PyValue } from '../../py/value.js';
import { dictSet } from '../../py/ops.js';
import { pyStrip } from '../../py/str.js';
import { evaluateExpression } from './python-eval.js';

/** Python `ast.parse(source, mode="eval").body`, raising the SyntaxError on failure. */
function parseOrThrow(source: string): ExprNode {
  const parsed = parsePythonExpression(source);
  if (!parsed.ok) throw parsed.error;
  return parsed.node;
}

/**
 * `ast_parse` for the Python format: a bare call, or a list/tuple/set of calls.
 * BFCL parity: model_handler/utils.py::ast_parse — surrounding single quotes are stripped; a body
 * without `elts` raises AttributeError; an element that is not a call fails an `assert`
 * (AssertionError with an empty message).
 */
export function parsePythonFunctionCalls(input: string): PyValue[] {
  const cleaned = pyStrip(pyStrip(input), "'");
  const body = parseOrThrow(cleaned);
  if (body.type === 'Call') return [resolveAstCall(body)];
  if (body.type !== 'List' && body.type !== 'Tuple' && body.type !== 'Set') {
    throw new PyException('AttributeError', `'${body.type}' object has no attribute 'elts'`);
  }
  return body.elts.map((elem) => {
    if (elem.type !== 'Call') throw new PyException('AssertionError', '');
    return resolveAstCall(elem);
  });
}

/**
 * `{dotted.name: {keyword: value}}` for a call.
 * BFCL parity: model_handler/utils.py::resolve_ast_call — positional arguments are dropped;
 * `**mapping` gives a `None` key; a repeated keyword keeps its first position and last value.
 */
export function resolveAstCall(call: CallNode): PyDict {
  const parts: string[] = [];
  let func: ExprNode = call.func;
  while (func.type === 'Attribute') {
    parts.push(func.attr);
    func = func.value;
  }
  if (func.type === 'Name') parts.push(func.id);
  const name = parts.reverse().join('.');
  const args: PyDict = new Map();
  for (const keyword of call.keywords) {
    const value = resolveAstByType(keyword.value);
    args.set(keyword.arg, value);
  }
  return new Map([[name, args]]);
}

/** Node classes that have a `value` field (what `node.value` finds on a unary operand). */
function valueField(node: ExprNode): PyValue | ExprNode | null | undefined {
  switch (node.type) {
    case 'Constant':
      return node.value;
    case 'Attribute':
    case 'Subscript':
    case 'Starred':
    case 'NamedExpr':
    case 'Await':
    case 'YieldFrom':
    case 'FormattedValue':
      return node.value;
    case 'Yield':
      return node.value; // may be None: `-None` is then a TypeError
    default:
      return undefined;
  }
}

const isExprNode = (v: unknown): v is ExprNode =>
  typeof v === 'object' && v !== null && 'type' in v && 'start' in v && 'end' in v;

/**
 * BFCL parity: model_handler/utils.py::resolve_ast_by_type — `-operand.value` for every unary
 * operator (`+5` → -5, `not True` → -1); an operand without `.value` is an AttributeError, one
 * whose `.value` is a node is a TypeError.
 */
function negateOperand(operand: ExprNode): PyValue {
  const value = valueField(operand);
  if (value === undefined) throw new PyException('AttributeError', `'${operand.type}' object has no attribute 'value'`);
  if (isExprNode(value)) throw new PyException('TypeError', `bad operand type for unary -: '${value.type}'`);
  if (value instanceof PyComplex) return new PyComplex(-value.real, -value.imag);
  return pyUnaryOp('-', value as PyValue, pyTruthy);
}

/** The decoded value of one argument expression. */
export function resolveAstByType(node: ExprNode | null): PyValue {
  if (node === null) {
    // A `**mapping` entry of a dict display has no key node.
    throw new PyException('Exception', "Unsupported AST type: <class 'NoneType'>");
  }
  switch (node.type) {
    case 'Constant':
      return node.value === PY_ELLIPSIS ? '...' : node.value;
    case 'UnaryOp':
      return negateOperand(node.operand);
    case 'List':
      return node.elts.map(resolveAstByType);
    case 'Dict': {
      const dict: PyDict = new Map();
      node.keys.forEach((keyNode, i) => {
        const key = resolveAstByType(keyNode);
        const value = resolveAstByType(node.values[i]!);
        dictSet(dict, key, value);
      });
      return dict;
    }
    case 'BinOp':
      // BFCL parity: resolve_ast_by_type evaluates arithmetic (`eval(ast.unparse(value))`).
      return evaluateExpression(node);
    case 'Name':
      return node.id;
    case 'Call':
      return node.keywords.length === 0 ? unparseExpression(node) : resolveAstCall(node);
    case 'Tuple':
      return new PyTuple(node.elts.map(resolveAstByType));
    case 'Lambda':
      // BFCL parity: `value.body[0]` on a lambda's body node, which is never subscriptable.
      throw new PyException('TypeError', `'${node.body.type}' object is not subscriptable`);
    case 'Subscript':
      return `${unparseExpression(node.value)}[${unparseExpression(node.slice)}]`;
    default:
      throw new PyException('Exception', `Unsupported AST type: ${astClassRepr(node)}`);
  }
}

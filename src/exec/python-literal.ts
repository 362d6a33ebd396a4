/**
 * `ast.literal_eval` over the parsed AST: constants, containers, signed numbers.
 */
import { dictSet, hashKey } from '../py/ops.js';
import { PyException, PySet, PyTuple, setHas, type PyDict, type PyValue } from '../py/value.js';
import { PyComplex } from '../py/complex.js';
import type { ExprNode } from './python-ast.js';
import { parsePythonExpression } from './python-parser.js';

/**
 * Evaluate a literal expression as Python's `ast.literal_eval(node)` does.
 * Throws `PyException` (ValueError for a non-literal node, TypeError for an unhashable key).
 */
export function evaluateLiteral(node: ExprNode): PyValue {
  switch (node.type) {
    case 'Constant':
      return node.value;
    case 'Tuple':
      return new PyTuple(node.elts.map(evaluateLiteral));
    case 'List':
      return node.elts.map(evaluateLiteral);
    case 'Set': {
      const set = new PySet();
      for (const elt of node.elts) addToSet(set, evaluateLiteral(elt));
      return set;
    }
    case 'Call':
      // `set()` is the only call literal_eval accepts.
      if (node.func.type === 'Name' && node.func.id === 'set' && !node.args.length && !node.keywords.length) {
        return new PySet();
      }
      break;
    case 'Dict': {
      const dict: PyDict = new Map();
      node.keys.forEach((k, i) => {
        if (k === null) malformed(null);
        const key = evaluateLiteral(k);
        const value = evaluateLiteral(node.values[i]!);
        dictSet(dict, key, value);
      });
      return dict;
    }
    case 'BinOp':
      // Complex literals such as `1+2j`; anything else falls through to the number check.
      if (node.op === 'Add' || node.op === 'Sub') {
        const left = signedNumber(node.left);
        const right = number(node.right);
        if ((typeof left === 'bigint' || typeof left === 'number') && right instanceof PyComplex) {
          const real = Number(left);
          return node.op === 'Add'
            ? new PyComplex(real + right.real, right.imag)
            : new PyComplex(real - right.real, -right.imag);
        }
      }
      break;
    default:
      break;
  }
  return signedNumber(node);
}

/** `ast.literal_eval(source)`: parse (after stripping leading spaces and tabs) and evaluate. */
export function literalEvalString(source: string): PyValue {
  const parsed = parsePythonExpression(source.replace(/^[ \t]+/, ''));
  if (!parsed.ok) throw new PyException(parsed.error.pyType, parsed.error.message);
  return evaluateLiteral(parsed.node);
}

function signedNumber(node: ExprNode): PyValue {
  if (node.type === 'UnaryOp' && (node.op === 'UAdd' || node.op === 'USub')) {
    const operand = number(node.operand);
    if (node.op === 'UAdd') return operand;
    if (typeof operand === 'bigint') return -operand;
    if (typeof operand === 'number') return -operand;
    const c = operand as PyComplex;
    return new PyComplex(-c.real, -c.imag);
  }
  return number(node);
}

function number(node: ExprNode): PyValue {
  if (node.type === 'Constant') {
    const v = node.value;
    // bool is an int subclass, but literal_eval checks the exact type.
    if (typeof v === 'bigint' || typeof v === 'number' || v instanceof PyComplex) return v;
  }
  return malformed(node);
}

function malformed(node: ExprNode | null): never {
  // CPython appends the node's repr, which includes a memory address; only the type is kept.
  const where = node ? ` on line ${node.lineno}: <ast.${node.type} object>` : ': None';
  throw new PyException('ValueError', `malformed node or string${where}`);
}

/** `set.add(value)` with Python equality (1, 1.0 and True are one member; the first one stays). */
function addToSet(set: PySet, value: PyValue): void {
  const key = hashKey(value);
  if (!setHas(set, key)) set.items.add(key);
}

/**
 * Evaluation of the arithmetic a prompting model writes as an argument (`x=2**3`, `t=60*60`,
 * `s="a"+"b"`, `d=2023-10-05`). The reference runs `eval(ast.unparse(node))` in the module
 * namespace of model_handler/utils.py; this evaluates the same expression tree with Python's
 * semantics for literals, containers, arithmetic, comparisons and conditionals.
 *
 * Names are not defined (`NameError`), as for anything a model would write. Calls of builtins
 * (`len(...)`, `abs(...)`) and attribute access are not modelled: they fail with the NameError or
 * TypeError that the first unknown name or construct gives.
 */
import type { BinaryOperator as AstBinaryOperator, ExprNode } from '../python-ast.js';
import { PyComplex } from '../../py/complex.js';
import { astClassRepr } from '../python-ast.js';
import { pyBinaryOp, pyUnaryOp, type BinaryOperator } from '../../py/operators.js';
import { dictSet, getItem, hashKey, pyCompare, pyContains } from '../../py/ops.js';
import { PyException, PySet, PyTuple, pyEquals, pyTruthy, pyTypeName, type PyDict, type PyValue } from '../../py/value.js';

/** The arithmetic operators of the AST as `pyBinaryOp` knows them (shared with the executor). */
export const ARITHMETIC_OPERATORS: Partial<Record<AstBinaryOperator, BinaryOperator>> = {
  Add: '+',
  Sub: '-',
  Mult: '*',
  Div: '/',
  FloorDiv: '//',
  Mod: '%',
  Pow: '**',
};

const BITWISE_SYMBOL: Partial<Record<AstBinaryOperator, string>> = {
  LShift: '<<',
  RShift: '>>',
  BitAnd: '&',
  BitOr: '|',
  BitXor: '^',
  MatMult: '@',
};

/** The unary operators of the AST as `pyUnaryOp` knows them (shared with the executor). */
export const UNARY_OPERATORS = { USub: '-', UAdd: '+', Not: 'not', Invert: '~' } as const;

/** Python `eval` of an expression node (the subset described above). */
export function evaluateExpression(node: ExprNode): PyValue {
  switch (node.type) {
    case 'Constant':
      return node.value;
    case 'Name':
      throw new PyException('NameError', `name '${node.id}' is not defined`);
    case 'List':
      return node.elts.map(evaluateExpression);
    case 'Tuple':
      return new PyTuple(node.elts.map(evaluateExpression));
    case 'Set':
      return new PySet(node.elts.map((e) => hashKey(evaluateExpression(e))));
    case 'Dict': {
      const dict: PyDict = new Map();
      node.keys.forEach((keyNode, i) => {
        if (keyNode === null) {
          const mapping = evaluateExpression(node.values[i]!);
          if (!(mapping instanceof Map)) {
            throw new PyException('TypeError', `'${pyTypeName(mapping)}' object is not a mapping`);
          }
          for (const [k, v] of mapping) dictSet(dict, k, v);
          return;
        }
        const key = evaluateExpression(keyNode);
        dictSet(dict, key, evaluateExpression(node.values[i]!));
      });
      return dict;
    }
    case 'UnaryOp': {
      const operand = evaluateExpression(node.operand);
      if (operand instanceof PyComplex && (node.op === 'USub' || node.op === 'UAdd')) {
        return node.op === 'USub' ? new PyComplex(-operand.real, -operand.imag) : operand;
      }
      return pyUnaryOp(UNARY_OPERATORS[node.op], operand, pyTruthy);
    }
    case 'BinOp':
      return binaryOperation(node.op, evaluateExpression(node.left), evaluateExpression(node.right));
    case 'BoolOp': {
      let result: PyValue = null;
      for (const valueNode of node.values) {
        result = evaluateExpression(valueNode);
        if (node.op === 'And' ? !pyTruthy(result) : pyTruthy(result)) return result;
      }
      return result;
    }
    case 'IfExp':
      return pyTruthy(evaluateExpression(node.test)) ? evaluateExpression(node.body) : evaluateExpression(node.orelse);
    case 'Compare': {
      let left = evaluateExpression(node.left);
      for (let i = 0; i < node.ops.length; i++) {
        const right = evaluateExpression(node.comparators[i]!);
        if (!compare(node.ops[i]!, left, right)) return false;
        left = right;
      }
      return true;
    }
    case 'Subscript':
      return getItem(evaluateExpression(node.value), evaluateExpression(node.slice));
    default:
      // Attribute access, calls, comprehensions...: outside what a literal argument needs.
      throw new PyException('TypeError', `cannot evaluate ${astClassRepr(node)} in an argument value`);
  }
}

function binaryOperation(op: AstBinaryOperator, left: PyValue, right: PyValue): PyValue {
  const arithmetic = ARITHMETIC_OPERATORS[op];
  if (arithmetic !== undefined) {
    if (arithmetic === '**') return power(left, right);
    return pyBinaryOp(arithmetic, left, right);
  }
  return bitwise(op, left, right);
}

/** `a ** b`, including the cases `pyBinaryOp` leaves to JS (`0 ** -1`, negative base, overflow). */
function power(left: PyValue, right: PyValue): PyValue {
  const isNum = (v: PyValue): v is bigint | number | boolean =>
    typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean';
  if (isNum(left) && isNum(right)) {
    const base = typeof left === 'boolean' ? (left ? 1n : 0n) : left;
    const exp = typeof right === 'boolean' ? (right ? 1n : 0n) : right;
    if (Number(base) === 0 && Number(exp) < 0) {
      throw new PyException('ZeroDivisionError', '0.0 cannot be raised to a negative power');
    }
    if (typeof base === 'bigint' && typeof exp === 'bigint') return pyBinaryOp('**', base, exp);
    const x = Number(base);
    const y = Number(exp);
    if (x < 0 && !Number.isInteger(y) && Number.isFinite(y)) {
      // Python returns a complex number here (complex.__pow__ in polar form).
      const length = Math.pow(-x, y);
      const phase = Math.PI * y;
      return new PyComplex(length * Math.cos(phase), length * Math.sin(phase));
    }
    const result = Math.pow(x, y);
    if (!Number.isFinite(result) && Number.isFinite(x) && Number.isFinite(y)) {
      throw new PyException('OverflowError', "(34, 'Numerical result out of range')");
    }
    return result;
  }
  return pyBinaryOp('**', left, right);
}

function bitwise(op: AstBinaryOperator, left: PyValue, right: PyValue): PyValue {
  const symbol = BITWISE_SYMBOL[op] ?? op;
  const asInt = (v: PyValue): bigint | undefined =>
    typeof v === 'bigint' ? v : typeof v === 'boolean' ? (v ? 1n : 0n) : undefined;
  const a = asInt(left);
  const b = asInt(right);
  if (op === 'MatMult' || a === undefined || b === undefined) {
    throw new PyException(
      'TypeError',
      `unsupported operand type(s) for ${symbol}: '${pyTypeName(left)}' and '${pyTypeName(right)}'`,
    );
  }
  const bothBool = typeof left === 'boolean' && typeof right === 'boolean';
  switch (op) {
    case 'LShift':
    case 'RShift':
      if (b < 0n) throw new PyException('ValueError', 'negative shift count');
      return op === 'LShift' ? a << b : a >> b;
    case 'BitAnd':
      return bothBool ? Boolean(a & b) : a & b;
    case 'BitOr':
      return bothBool ? Boolean(a | b) : a | b;
    default:
      return bothBool ? Boolean(a ^ b) : a ^ b;
  }
}

const ORDER_SYMBOL = { Lt: '<', LtE: '<=', Gt: '>', GtE: '>=' } as const;

function compare(op: string, left: PyValue, right: PyValue): boolean {
  switch (op) {
    case 'Eq':
      return pyEquals(left, right);
    case 'NotEq':
      return !pyEquals(left, right);
    case 'Is':
      return left === right;
    case 'IsNot':
      return left !== right;
    case 'In':
      return pyContains(right, left);
    case 'NotIn':
      return !pyContains(right, left);
    default:
      return pyCompare(ORDER_SYMBOL[op as keyof typeof ORDER_SYMBOL], left, right);
  }
}

import { floorDiv, intToFloat, intTrueDivide } from './numbers.js';
import { PyException, PySet, PyTuple, pyTypeName, setHas, type PyDict, type PyValue } from './value.js';

/** The binary operators of Python expressions we evaluate. */
export type BinaryOperator = '+' | '-' | '*' | '/' | '//' | '%' | '**';

type Num = bigint | number;

function asNumber(v: PyValue): Num | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  return undefined;
}

function unsupported(op: string, a: PyValue, b: PyValue): PyException {
  return new PyException('TypeError', `unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

function modInt(a: bigint, b: bigint): bigint {
  const r = a % b;
  return r !== 0n && (r < 0n) !== (b < 0n) ? r + b : r;
}

function modFloat(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && (r < 0) !== (b < 0) ? r + b : r;
}

function arithmetic(op: BinaryOperator, a: Num, b: Num): Num {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    switch (op) {
      case '+':
        return a + b;
      case '-':
        return a - b;
      case '*':
        return a * b;
      case '/':
        return intTrueDivide(a, b);
      case '//':
        if (b === 0n) throw new PyException('ZeroDivisionError', 'integer division or modulo by zero');
        return floorDiv(a, b);
      case '%':
        if (b === 0n) throw new PyException('ZeroDivisionError', 'integer modulo by zero');
        return modInt(a, b);
      case '**':
        return b >= 0n ? a ** b : Math.pow(Number(a), Number(b));
    }
  }
  // An int operand of mixed arithmetic becomes a float (OverflowError when too large).
  const x = typeof a === 'bigint' ? intToFloat(a) : a;
  const y = typeof b === 'bigint' ? intToFloat(b) : b;
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      if (y === 0) throw new PyException('ZeroDivisionError', 'float division by zero');
      return x / y;
    case '//':
      if (y === 0) throw new PyException('ZeroDivisionError', 'float floor division by zero');
      return Math.floor(x / y);
    case '%':
      if (y === 0) throw new PyException('ZeroDivisionError', 'float modulo');
      return modFloat(x, y);
    case '**':
      if (x === 0 && y < 0) throw new PyException('ZeroDivisionError', '0.0 cannot be raised to a negative power');
      return Math.pow(x, y);
  }
}

function repeat<T>(items: readonly T[], times: bigint): T[] {
  const out: T[] = [];
  for (let i = 0n; i < times; i++) out.push(...items);
  return out;
}

const isSequence = (v: PyValue): v is string | PyValue[] | PyTuple =>
  typeof v === 'string' || Array.isArray(v) || v instanceof PyTuple;

/** CPython's TypeError for `seq + other` where `other` is not of the sequence's own type. */
function concatenationError(seq: string | PyValue[] | PyTuple, other: PyValue): PyException {
  const kind = pyTypeName(seq);
  return new PyException('TypeError', `can only concatenate ${kind} (not "${pyTypeName(other)}") to ${kind}`);
}

/** Python `seq * count` (either order); a count that is not an int is CPython's TypeError. */
function repeatSequence(seq: string | PyValue[] | PyTuple, count: PyValue): PyValue {
  if (typeof count !== 'bigint' && typeof count !== 'boolean') {
    throw new PyException('TypeError', `can't multiply sequence by non-int of type '${pyTypeName(count)}'`);
  }
  const times = typeof count === 'boolean' ? (count ? 1n : 0n) : count;
  if (typeof seq === 'string') return times > 0n ? seq.repeat(Number(times)) : '';
  if (Array.isArray(seq)) return repeat(seq, times);
  return new PyTuple(repeat(seq.items, times));
}

/**
 * Python `a <op> b` for numbers (int arithmetic exact, int/int true division and int→float
 * conversion correctly rounded), str/list/tuple concatenation and repetition, and set difference.
 */
export function pyBinaryOp(op: BinaryOperator, a: PyValue, b: PyValue): PyValue {
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined && nb !== undefined) return arithmetic(op, na, nb);
  if (op === '+' && isSequence(a)) {
    if (typeof a === 'string' && typeof b === 'string') return a + b;
    if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
    if (a instanceof PyTuple && b instanceof PyTuple) return new PyTuple([...a.items, ...b.items]);
    throw concatenationError(a, b);
  }
  if (op === '*') {
    if (isSequence(a)) return repeatSequence(a, b);
    if (isSequence(b)) return repeatSequence(b, a);
  }
  if (op === '-' && a instanceof PySet && b instanceof PySet) {
    return new PySet([...a.items].filter((x) => !setHas(b, x)));
  }
  throw unsupported(op === '**' ? '** or pow()' : op, a, b);
}

/** Python unary `-x`, `+x`, `not x`, `~x`. */
export function pyUnaryOp(op: '-' | '+' | 'not' | '~', v: PyValue, truthy: (v: PyValue) => boolean): PyValue {
  if (op === 'not') return !truthy(v);
  const n = asNumber(v);
  if (n === undefined) {
    const symbol = op === '-' ? '-' : op === '+' ? '+' : '~';
    throw new PyException('TypeError', `bad operand type for unary ${symbol}: '${pyTypeName(v)}'`);
  }
  if (op === '-') return typeof n === 'bigint' ? -n : -n;
  if (op === '+') return n;
  if (typeof n === 'number') throw new PyException('TypeError', "bad operand type for unary ~: 'float'");
  return ~n;
}

/** `copy.deepcopy` for plain Python data (dicts, lists, tuples, sets, scalars). */
export function pyDeepCopy<T extends PyValue>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return (v as PyValue[]).map((x) => pyDeepCopy(x)) as T;
  if (v instanceof Map) {
    const copy: PyDict = new Map();
    // forEach, not for-of: no [key, value] array per entry in cold code.
    (v as PyDict).forEach((val, k) => copy.set(k, pyDeepCopy(val)));
    return copy as T;
  }
  if (v instanceof PyTuple) return new PyTuple(v.items.map((x) => pyDeepCopy(x))) as T;
  if (v instanceof PySet) return new PySet(v.items) as T;
  return v;
}

/**
 * MathAPI: the stateless calculator of the multi-turn categories.
 *
 * Port of the reference's `math_api.py` (spec §6.2). Every method returns `{"result": x}` or
 * `{"error": msg}`. Results keep Python's number types (int stays `bigint`, float is `number`),
 * because the executor prints them with `json.dumps` and `5` differs from `5.0` there.
 * `logarithm` and `square_root` return mpmath / decimal objects, printed through their `repr`.
 */
import { pyRound, pySum } from '../py/builtins.js';
import { pyBinaryOp } from '../py/operators.js';
import { isIntOrFloat, pyAbs, pyCompare, pyIterate, requireHashable } from '../py/ops.js';
import { pyStr } from '../py/repr.js';
import { PyException, pyDict, pyEquals, pyTruthy, pyTypeName, type PyDict, type PyValue } from '../py/value.js';
import { PyDecimal, decimalSqrt, mpDivide, mpLog, pyPower, setDecimalPrecision, setMpDps } from './math-precision.js';
import { SimulatedApi, opt, req, type MethodSignatures } from './simulated-api.js';

const SIGNATURES: MethodSignatures = {
  logarithm: [req('value'), req('base'), req('precision')],
  mean: [req('numbers')],
  standard_deviation: [req('numbers')],
  si_unit_conversion: [req('value'), req('unit_in'), req('unit_out')],
  imperial_si_conversion: [req('value'), req('unit_in'), req('unit_out')],
  add: [req('a'), req('b')],
  subtract: [req('a'), req('b')],
  multiply: [req('a'), req('b')],
  divide: [req('a'), req('b')],
  power: [req('base'), req('exponent')],
  square_root: [req('number'), req('precision')],
  absolute_value: [req('number')],
  round_number: [req('number'), opt('decimal_places', 0n)],
  percentage: [req('part'), req('whole')],
  min_value: [req('numbers')],
  max_value: [req('numbers')],
  sum_values: [req('numbers')],
};

/** Meters per unit. `km` and `m` are ints in the reference, the others floats. */
const TO_METERS: ReadonlyMap<string, bigint | number> = new Map<string, bigint | number>([
  ['km', 1000n],
  ['m', 1n],
  ['cm', 0.01],
  ['mm', 0.001],
  ['um', 1e-6],
  ['nm', 1e-9],
]);

/** Units per meter: `1 / factor`, always a float. */
const FROM_METERS: ReadonlyMap<string, number> = new Map(
  [...TO_METERS].map(([unit, factor]) => [unit, 1 / Number(factor)] as [string, number]),
);

/** Multiplicative factors of `imperial_si_conversion`, keyed `<in>_to_<out>`. */
const IMPERIAL_FACTORS: ReadonlyMap<string, number> = new Map([
  ['cm_to_in', 0.393701],
  ['in_to_cm', 2.54],
  ['m_to_ft', 3.28084],
  ['ft_to_m', 0.3048],
  ['m_to_yd', 1.09361],
  ['yd_to_m', 0.9144],
  ['km_to_miles', 0.621371],
  ['miles_to_km', 1.60934],
  ['kg_to_lb', 2.20462],
  ['lb_to_kg', 0.453592],
  ['celsius_to_fahrenheit', 1.8],
  ['fahrenheit_to_celsius', 5 / 9],
]);

const result = (value: PyValue): PyDict => pyDict({ result: value });
const error = (message: string): PyDict => pyDict({ error: message });

/**
 * Run `body`; if it raises one of `caught` (as the reference's `except` clause would catch),
 * return `{"error": message}` instead. Other exceptions propagate to the executor.
 */
function catching(caught: readonly string[], message: string, body: () => PyDict): PyDict {
  try {
    return body();
  } catch (e) {
    if (e instanceof PyException && caught.includes(e.pyType)) return error(message);
    throw e;
  }
}

/** Python `sum(v)`: iterate (TypeError if not iterable), then add with 3.12 semantics. */
const pySumOf = (v: PyValue): bigint | number => pySum(pyIterate(v));

/** Python `len(v)` of an iterable as an int. */
const pyLenOf = (v: PyValue): bigint => BigInt(pyIterate(v).length);

export class MathAPI extends SimulatedApi {
  readonly _className = 'MathAPI';
  readonly _signatures = SIGNATURES;

  /** Stateless: the executor never loads a scenario into MathAPI. */
  _loadScenario(_scenario: PyDict, _longContext: boolean): void {}

  logarithm(value: PyValue, base: PyValue, precision: PyValue): PyValue {
    // BFCL parity: math_api.py::logarithm — sets the process-global `mpmath.mp.dps` and catches
    // every exception, returning str(e) (e.g. "" for a ZeroDivisionError when base is 1).
    try {
      setMpDps(precision);
      return result(mpDivide(mpLog(value), mpLog(base)));
    } catch (e) {
      if (e instanceof PyException) return error(e.message);
      throw e;
    }
  }

  mean(numbers: PyValue): PyValue {
    if (!pyTruthy(numbers)) return error('Cannot calculate mean of an empty list');
    return catching(['TypeError'], 'All elements in the list must be numbers', () =>
      result(pyBinaryOp('/', pySumOf(numbers), pyLenOf(numbers))),
    );
  }

  standard_deviation(numbers: PyValue): PyValue {
    if (!pyTruthy(numbers)) return error('Cannot calculate standard deviation of an empty list');
    return catching(['TypeError'], 'All elements in the list must be numbers', () => {
      const count = pyLenOf(numbers);
      const mean = pyBinaryOp('/', pySumOf(numbers), count);
      const squares = pyIterate(numbers).map((x) => pyPower(pyBinaryOp('-', x, mean), 2n));
      // A sum of numbers divided by an int: always a float.
      const variance = pyBinaryOp('/', pySum(squares), count) as number;
      return result(Math.sqrt(variance));
    });
  }

  si_unit_conversion(value: PyValue, unit_in: PyValue, unit_out: PyValue): PyValue {
    if (!isIntOrFloat(value)) return error('Value must be a number');
    const unsupported = error(`Conversion from '${pyStr(unit_in)}' to '${pyStr(unit_out)}' is not supported`);
    requireHashable(unit_in);
    const toMeters = typeof unit_in === 'string' ? TO_METERS.get(unit_in) : undefined;
    if (toMeters === undefined) return unsupported;
    requireHashable(unit_out);
    const fromMeters = typeof unit_out === 'string' ? FROM_METERS.get(unit_out) : undefined;
    if (fromMeters === undefined) return unsupported;
    return catching(['OverflowError'], 'Conversion resulted in a value too large to represent', () =>
      result(pyBinaryOp('*', pyBinaryOp('*', value, toMeters), fromMeters)),
    );
  }

  imperial_si_conversion(value: PyValue, unit_in: PyValue, unit_out: PyValue): PyValue {
    if (!isIntOrFloat(value)) return error('Value must be a number');
    if (pyEquals(unit_in, unit_out)) return result(value);
    const key = `${pyStr(unit_in)}_to_${pyStr(unit_out)}`;
    const factor = IMPERIAL_FACTORS.get(key);
    if (factor === undefined) {
      return error(`Conversion from '${pyStr(unit_in)}' to '${pyStr(unit_out)}' is not supported`);
    }
    return catching(['OverflowError'], 'Conversion resulted in a value too large to represent', () => {
      if (unit_in === 'celsius' && unit_out === 'fahrenheit') return result(pyBinaryOp('+', pyBinaryOp('*', value, factor), 32n));
      if (unit_in === 'fahrenheit' && unit_out === 'celsius') return result(pyBinaryOp('*', pyBinaryOp('-', value, 32n), factor));
      return result(pyBinaryOp('*', value, factor));
    });
  }

  add(a: PyValue, b: PyValue): PyValue {
    // Python `+` also concatenates str, list and tuple; only a TypeError is turned into an error.
    return catching(['TypeError'], 'Both inputs must be numbers', () => result(pyBinaryOp('+', a, b)));
  }

  subtract(a: PyValue, b: PyValue): PyValue {
    return catching(['TypeError'], 'Both inputs must be numbers', () => result(pyBinaryOp('-', a, b)));
  }

  multiply(a: PyValue, b: PyValue): PyValue {
    if (!isIntOrFloat(a) || !isIntOrFloat(b)) return error('Both inputs must be numbers');
    return catching(['TypeError'], 'Both inputs must be numbers', () => result(pyBinaryOp('*', a, b)));
  }

  divide(a: PyValue, b: PyValue): PyValue {
    return catching(['TypeError'], 'Both inputs must be numbers', () => {
      if (pyEquals(b, 0n)) return error('Cannot divide by zero');
      return result(pyBinaryOp('/', a, b));
    });
  }

  power(base: PyValue, exponent: PyValue): PyValue {
    return catching(['TypeError'], 'Both inputs must be numbers', () => result(pyPower(base, exponent)));
  }

  square_root(number: PyValue, precision: PyValue): PyValue {
    const message = 'Input must be a number or computation resulted in an invalid operation';
    return catching(['TypeError', 'InvalidOperation'], message, () => {
      if (pyCompare('<', number, 0n)) return error('Cannot calculate square root of a negative number');
      // BFCL parity: math_api.py::square_root — sets the process-global decimal context precision.
      setDecimalPrecision(precision);
      // Only an int, bool or float gets past the `< 0` comparison above.
      const decimal = PyDecimal.fromNumber(number as bigint | number | boolean);
      return result(decimalSqrt(decimal));
    });
  }

  absolute_value(number: PyValue): PyValue {
    return catching(['TypeError'], 'Input must be a number', () => result(pyAbs(number)));
  }

  round_number(number: PyValue, decimal_places: PyValue = 0n): PyValue {
    const message = 'First input must be a number, second input must be an integer';
    return catching(['TypeError'], message, () => result(pythonRound(number, decimal_places)));
  }

  percentage(part: PyValue, whole: PyValue): PyValue {
    return catching(['TypeError'], 'Both inputs must be numbers', () => {
      if (pyEquals(whole, 0n)) return error('Whole value cannot be zero');
      return result(pyBinaryOp('*', pyBinaryOp('/', part, whole), 100n));
    });
  }

  min_value(numbers: PyValue): PyValue {
    if (!pyTruthy(numbers)) return error('Cannot find minimum of an empty list');
    return catching(['TypeError'], 'All elements in the list must be numbers', () =>
      result(pyMinMax(numbers, '<')),
    );
  }

  max_value(numbers: PyValue): PyValue {
    if (!pyTruthy(numbers)) return error('Cannot find maximum of an empty list');
    return catching(['TypeError'], 'All elements in the list must be numbers', () =>
      result(pyMinMax(numbers, '>')),
    );
  }

  sum_values(numbers: PyValue): PyValue {
    if (!pyTruthy(numbers)) return error('Cannot calculate sum of an empty list');
    return catching(['TypeError'], 'All elements in the list must be numbers', () => result(pySumOf(numbers)));
  }
}

/** Python `min(v)` / `max(v)`: the first item that no later item beats with `<` / `>`. */
function pyMinMax(v: PyValue, op: '<' | '>'): PyValue {
  const items = pyIterate(v);
  if (items.length === 0) {
    throw new PyException('ValueError', `${op === '<' ? 'min' : 'max'}() arg is an empty sequence`);
  }
  let best: PyValue = items[0] as PyValue;
  for (const item of items.slice(1)) if (pyCompare(op, item, best)) best = item;
  return best;
}

/** Python `round(number, ndigits)` with its TypeErrors for non-numbers and non-integer ndigits. */
function pythonRound(number: PyValue, ndigits: PyValue): PyValue {
  if (typeof number !== 'bigint' && typeof number !== 'number' && typeof number !== 'boolean') {
    throw new PyException('TypeError', `type ${pyTypeName(number)} doesn't define __round__ method`);
  }
  if (ndigits === null) return pyRound(number);
  if (typeof ndigits === 'boolean') return pyRound(number, ndigits ? 1n : 0n);
  if (typeof ndigits !== 'bigint') {
    throw new PyException('TypeError', `'${pyTypeName(ndigits)}' object cannot be interpreted as an integer`);
  }
  return pyRound(number, ndigits);
}

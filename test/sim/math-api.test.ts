import { describe, expect, it } from 'vitest';
import { intTrueDivide } from '../../src/py/numbers.js';
import { PyTuple, pyDict, type PyValue } from '../../src/py/value.js';
import { MathAPI } from '../../src/sim/math-api.js';
import {
  MP_CONTEXT,
  Mpf,
  PyDecimal,
  decimalSqrt,
  fromFloat,
  mpLog,
  mpfToStr,
  setDecimalPrecision,
  setMpDps,
} from '../../src/sim/math-precision.js';
import { shownOrRaised } from '../helpers/sim.js';

// Expected strings were printed by the reference math_api.py (CPython, mpmath 1.3.0) through the
// executor's serialisation: json.dumps for dicts, str(dict) when json.dumps fails.

const api = new MathAPI({ longContext: new Map() });
const i = (n: number): bigint => BigInt(n);
const ints = (...ns: number[]): PyValue[] => ns.map(i);

/** The result string as the executor shows it, or `raises <Type>: <message>`. */
const run = shownOrRaised;

describe('MathAPI shape', () => {
  it('is stateless', () => {
    api._loadScenario(pyDict({}), false);
    expect(api._publicState()).toEqual([]);
  });
});

describe('logarithm (mpmath at the requested precision)', () => {
  it('matches the 16 mpf results of the ground-truth trace', () => {
    expect(run(() => api.logarithm(36.0, 6.0, i(4)))).toBe("{'result': mpf('2.0')}");
    expect(run(() => api.logarithm(i(20), i(10), i(2)))).toBe("{'result': mpf('1.3027')}");
    expect(run(() => api.logarithm(630.0, i(10), i(5)))).toBe("{'result': mpf('2.7993393')}");
    expect(run(() => api.logarithm(980.0, i(20), i(10)))).toBe("{'result': mpf('2.299121531134')}");
    expect(run(() => api.logarithm(3287.0, 6.0, i(4)))).toBe("{'result': mpf('4.51947')}");
  });

  it('renders high precision, tiny and near-one values like mpmath', () => {
    expect(run(() => api.logarithm(i(2), i(10), i(50)))).toBe(
      "{'result': mpf('0.30102999566398119521373889472449302676818988146210811')}",
    );
    expect(run(() => api.logarithm(1e-300, i(10), i(20)))).toBe("{'result': mpf('-299.99999999999999998916')}");
    expect(run(() => api.logarithm(1.0000001, i(2), i(15)))).toBe("{'result': mpf('1.4426949695965583e-7')}");
    expect(run(() => api.logarithm(i(0), i(10), i(10)))).toBe("{'result': mpf('-inf')}");
  });

  it('uses the AGM algorithm above ~750 digits with the same digits as mpmath', () => {
    const text = run(() => api.logarithm(i(7), i(3), i(780)));
    expect(text.startsWith("{'result': mpf('1.77124374916142226006792830708245771806647133459424347936899257727988")).toBe(true);
    expect(text.endsWith("0791817668838505946193496081444308938780425783890342891799556312')}")).toBe(true);
  });

  it('returns an mpc for a negative argument and accepts numeric strings', () => {
    expect(run(() => api.logarithm(i(-8), i(2), i(6)))).toBe("{'result': mpc(real='3.0', imag='4.53236008')}");
    expect(run(() => api.logarithm('100', i(10), i(3)))).toBe("{'result': mpf('2.0')}");
  });

  it('turns every exception into {"error": str(e)}', () => {
    // ZeroDivisionError() from mpf division by log(1) = 0 has an empty message.
    expect(run(() => api.logarithm(i(5), i(1), i(10)))).toBe('{"error": ""}');
    expect(run(() => api.logarithm(ints(1, 2), i(10), i(3)))).toBe('{"error": "cannot create mpf from [1, 2]"}');
    expect(run(() => api.logarithm(i(10), i(10), 'abc'))).toBe(
      `{"error": "invalid literal for int() with base 10: 'abc'"}`,
    );
  });

  it('keeps the precision process-global: repr uses the precision current when it runs', () => {
    setMpDps(i(4));
    const value = mpLog(i(20));
    expect(value.pyRepr()).toBe("mpf('2.995728')");
    setMpDps(i(2));
    expect(value.pyRepr()).toBe("mpf('2.9957')");
    expect(MP_CONTEXT).toEqual({ prec: 10, dps: 2 });
  });

  it('prints mpf values with mpmath to_str rules', () => {
    expect(mpfToStr(fromFloat(0.1), 17)).toBe('0.10000000000000001');
    expect(mpfToStr(fromFloat(1e22), 17)).toBe('1.0e+22');
    expect(mpfToStr(fromFloat(-2.5e-8), 17)).toBe('-2.4999999999999999e-8');
    expect(new Mpf(fromFloat(0)).pyRepr().startsWith("mpf('0.0')")).toBe(true);
  });
});

describe('mean and standard_deviation (Python 3.12 sum)', () => {
  it('divides with true division and compensated float sums', () => {
    expect(run(() => api.mean(ints(5000, 7000, 6000, 8000)))).toBe('{"result": 6500.0}');
    expect(run(() => api.mean(ints(100, 95, 85, 90, 88, 92)))).toBe('{"result": 91.66666666666667}');
    expect(run(() => api.mean(new Array<PyValue>(10).fill(0.1)))).toBe('{"result": 0.1}');
  });

  it('reproduces the *_47 trace value (3.11 would print ...368)', () => {
    expect(run(() => api.standard_deviation(ints(100, 95, 85, 90, 88, 92)))).toBe('{"result": 4.853406592853679}');
    expect(run(() => api.standard_deviation(ints(2, 4, 4, 4, 5, 5, 7, 9)))).toBe('{"result": 2.0}');
  });

  it('reports empty lists and non-numbers', () => {
    expect(run(() => api.mean([]))).toBe('{"error": "Cannot calculate mean of an empty list"}');
    expect(run(() => api.mean(['a', i(1)]))).toBe('{"error": "All elements in the list must be numbers"}');
    expect(run(() => api.standard_deviation([]))).toBe(
      '{"error": "Cannot calculate standard deviation of an empty list"}',
    );
    expect(run(() => api.standard_deviation([i(1), 'x']))).toBe('{"error": "All elements in the list must be numbers"}');
    expect(run(() => api.mean(i(5)))).toBe('{"error": "All elements in the list must be numbers"}');
  });
});

describe('unit conversions', () => {
  it('si_unit_conversion multiplies by int or float factors', () => {
    expect(run(() => api.si_unit_conversion(i(5), 'km', 'm'))).toBe('{"result": 5000.0}');
    expect(run(() => api.si_unit_conversion(i(250), 'cm', 'm'))).toBe('{"result": 2.5}');
    expect(run(() => api.si_unit_conversion(1.5, 'm', 'nm'))).toBe('{"result": 1499999999.9999998}');
  });

  it('si_unit_conversion errors', () => {
    expect(run(() => api.si_unit_conversion(i(1), 'mi', 'km'))).toBe(
      `{"error": "Conversion from 'mi' to 'km' is not supported"}`,
    );
    expect(run(() => api.si_unit_conversion('5', 'km', 'm'))).toBe('{"error": "Value must be a number"}');
    expect(run(() => api.si_unit_conversion(10n ** 400n, 'cm', 'm'))).toBe(
      '{"error": "Conversion resulted in a value too large to represent"}',
    );
    expect(run(() => api.si_unit_conversion(i(1), ['km'], 'm'))).toBe("raises TypeError: unhashable type: 'list'");
  });

  it('imperial_si_conversion, including the temperature formulas', () => {
    expect(run(() => api.imperial_si_conversion(i(25), 'celsius', 'fahrenheit'))).toBe('{"result": 77.0}');
    expect(run(() => api.imperial_si_conversion(98.6, 'fahrenheit', 'celsius'))).toBe('{"result": 37.0}');
    expect(run(() => api.imperial_si_conversion(i(10), 'miles', 'km'))).toBe('{"result": 16.0934}');
    expect(run(() => api.imperial_si_conversion(i(3), 'kg', 'kg'))).toBe('{"result": 3}');
    expect(run(() => api.imperial_si_conversion(i(3), 'kg', 'oz'))).toBe(
      `{"error": "Conversion from 'kg' to 'oz' is not supported"}`,
    );
    expect(run(() => api.imperial_si_conversion(null, 'kg', 'lb'))).toBe('{"error": "Value must be a number"}');
  });
});

describe('arithmetic keeps Python result types', () => {
  it('add and subtract (with Python + on str)', () => {
    expect(run(() => api.add(i(2), i(3)))).toBe('{"result": 5}');
    expect(run(() => api.add(i(2), 3.5))).toBe('{"result": 5.5}');
    expect(run(() => api.add(0.1, 0.2))).toBe('{"result": 0.30000000000000004}');
    expect(run(() => api.add('ab', 'cd'))).toBe('{"result": "abcd"}');
    expect(run(() => api.add('ab', i(1)))).toBe('{"error": "Both inputs must be numbers"}');
    expect(run(() => api.subtract(i(10), i(4)))).toBe('{"result": 6}');
    expect(run(() => api.subtract(i(10), 0.5))).toBe('{"result": 9.5}');
    expect(run(() => api.subtract('a', i(1)))).toBe('{"error": "Both inputs must be numbers"}');
  });

  it('multiply and divide', () => {
    expect(run(() => api.multiply(i(6), i(7)))).toBe('{"result": 42}');
    expect(run(() => api.multiply(2.5, i(4)))).toBe('{"result": 10.0}');
    expect(run(() => api.multiply(true, i(3)))).toBe('{"result": 3}');
    expect(run(() => api.multiply('a', i(3)))).toBe('{"error": "Both inputs must be numbers"}');
    expect(run(() => api.divide(i(10), i(4)))).toBe('{"result": 2.5}');
    expect(run(() => api.divide(i(1), i(3)))).toBe('{"result": 0.3333333333333333}');
    expect(run(() => api.divide(i(0), i(-5)))).toBe('{"result": -0.0}');
    expect(run(() => api.divide(i(10), i(0)))).toBe('{"error": "Cannot divide by zero"}');
    expect(run(() => api.divide('a', i(2)))).toBe('{"error": "Both inputs must be numbers"}');
  });

  it('int / int is correctly rounded beyond 2^53', () => {
    expect(intTrueDivide(10n ** 30n + 1n, 3n)).toBe(3.333333333333333e29);
    expect(intTrueDivide(-(2n ** 60n) - 1n, 2n ** 7n)).toBe(-9007199254740992);
  });

  it('power: exact ints, correctly rounded floats, complex for negative**fraction', () => {
    expect(run(() => api.power(i(2), i(10)))).toBe('{"result": 1024}');
    expect(run(() => api.power(i(2), i(-1)))).toBe('{"result": 0.5}');
    expect(run(() => api.power(i(2), 0.5))).toBe('{"result": 1.4142135623730951}');
    expect(run(() => api.power(1.1, i(2)))).toBe('{"result": 1.2100000000000002}');
    expect(run(() => api.power(i(-8), 1 / 3))).toBe("{'result': (1.0000000000000002+1.7320508075688772j)}");
    expect(run(() => api.power('a', i(2)))).toBe('{"error": "Both inputs must be numbers"}');
  });

  it('power raises what Python raises outside TypeError', () => {
    expect(run(() => api.power(0.0, i(-1)))).toBe('raises ZeroDivisionError: 0.0 cannot be raised to a negative power');
    expect(run(() => api.power(10.0, i(400)))).toBe("raises OverflowError: (34, 'Numerical result out of range')");
  });

  it('absolute_value', () => {
    expect(run(() => api.absolute_value(i(-5)))).toBe('{"result": 5}');
    expect(run(() => api.absolute_value(-2.5))).toBe('{"result": 2.5}');
    expect(run(() => api.absolute_value('x'))).toBe('{"error": "Input must be a number"}');
  });

  it('round_number: int in, int out; half to even on the binary value', () => {
    expect(run(() => api.round_number(2.5))).toBe('{"result": 2.0}');
    expect(run(() => api.round_number(3.14159, i(2)))).toBe('{"result": 3.14}');
    expect(run(() => api.round_number(i(5), i(0)))).toBe('{"result": 5}');
    expect(run(() => api.round_number(2.675, i(2)))).toBe('{"result": 2.67}');
    expect(run(() => api.round_number(i(1234), i(-2)))).toBe('{"result": 1200}');
    expect(run(() => api.round_number(2.5, null))).toBe('{"result": 2}');
    const message = '{"error": "First input must be a number, second input must be an integer"}';
    expect(run(() => api.round_number(2.5, 1.5))).toBe(message);
    expect(run(() => api.round_number('2', i(1)))).toBe(message);
  });

  it('percentage', () => {
    expect(run(() => api.percentage(i(25), i(200)))).toBe('{"result": 12.5}');
    expect(run(() => api.percentage(i(1), i(3)))).toBe('{"result": 33.33333333333333}');
    expect(run(() => api.percentage(i(5), i(0)))).toBe('{"error": "Whole value cannot be zero"}');
    expect(run(() => api.percentage('a', i(2)))).toBe('{"error": "Both inputs must be numbers"}');
  });
});

describe('square_root (decimal at the requested precision)', () => {
  it('returns Decimal values with the ideal exponent when exact', () => {
    expect(run(() => api.square_root(i(16), i(10)))).toBe("{'result': Decimal('4')}");
    expect(run(() => api.square_root(i(2), i(5)))).toBe("{'result': Decimal('1.4142')}");
    expect(run(() => api.square_root(2.25, i(10)))).toBe("{'result': Decimal('1.5')}");
    expect(run(() => api.square_root(1e22, i(5)))).toBe("{'result': Decimal('1.0000E+11')}");
    expect(run(() => api.square_root(0.01, i(5)))).toBe("{'result': Decimal('0.10000')}");
  });

  it('reports negative numbers and bad types, and raises for an out-of-range precision', () => {
    expect(run(() => api.square_root(i(-4), i(5)))).toBe(
      '{"error": "Cannot calculate square root of a negative number"}',
    );
    const invalid = '{"error": "Input must be a number or computation resulted in an invalid operation"}';
    expect(run(() => api.square_root(i(10), 4.0))).toBe(invalid);
    expect(run(() => api.square_root('9', i(3)))).toBe(invalid);
    expect(run(() => api.square_root(i(10), i(0)))).toBe('raises ValueError: valid range for prec is [1, MAX_PREC]');
  });

  it('Decimal conversion and sqrt follow CPython', () => {
    setDecimalPrecision(i(28));
    expect(PyDecimal.fromNumber(0.1).pyRepr()).toBe("Decimal('0.1000000000000000055511151231257827021181583404541015625')");
    expect(decimalSqrt(PyDecimal.fromNumber(-0.0)).pyRepr()).toBe("Decimal('-0')");
    expect(decimalSqrt(PyDecimal.fromNumber(5e-324)).pyRepr()).toBe("Decimal('2.222758749485077483442713414E-162')");
    expect(decimalSqrt(PyDecimal.fromNumber(Number.NaN)).pyRepr()).toBe("Decimal('NaN')");
  });
});

describe('min_value, max_value, sum_values', () => {
  it('return the element itself', () => {
    expect(run(() => api.min_value([i(3), 1.5, i(2)]))).toBe('{"result": 1.5}');
    expect(run(() => api.max_value([i(3), 1.5, i(7)]))).toBe('{"result": 7}');
    expect(run(() => api.max_value([i(1), 1.0]))).toBe('{"result": 1}');
    expect(run(() => api.min_value(['b', 'a']))).toBe('{"result": "a"}');
    expect(run(() => api.min_value(new PyTuple([i(4), i(2)])))).toBe('{"result": 2}');
  });

  it('sum_values uses the 3.12 float sum', () => {
    expect(run(() => api.sum_values(ints(1, 2, 3)))).toBe('{"result": 6}');
    expect(run(() => api.sum_values([0.1, 0.2, 0.3]))).toBe('{"result": 0.6}');
  });

  it('errors', () => {
    expect(run(() => api.min_value([]))).toBe('{"error": "Cannot find minimum of an empty list"}');
    expect(run(() => api.max_value([]))).toBe('{"error": "Cannot find maximum of an empty list"}');
    expect(run(() => api.min_value([i(1), 'a']))).toBe('{"error": "All elements in the list must be numbers"}');
    expect(run(() => api.sum_values([]))).toBe('{"error": "Cannot calculate sum of an empty list"}');
    expect(run(() => api.sum_values([i(1), null]))).toBe('{"error": "All elements in the list must be numbers"}');
  });
});

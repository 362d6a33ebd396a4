/** Java/JavaScript type converters; expected values were checked against the Python reference. */
import { describe, expect, it } from 'vitest';

import { javaTypeConverter } from '../../../src/evaluate/ast/java-type-converter.js';
import { jsTypeConverter } from '../../../src/evaluate/ast/js-type-converter.js';
import { pyRepr } from '../../../src/py/repr.js';
import { raised } from '../../helpers/python.js';

/** The converted value as Python would print it (keeps int/float and dict order visible). */
const java = (value: string, type: string, nested?: string): string => pyRepr(javaTypeConverter(value, type, nested));
const js = (value: string, type: string, nested?: string): string => pyRepr(jsTypeConverter(value, type, nested));

describe('javaTypeConverter', () => {
  it('converts integers, longs and floating-point numbers by their literal form', () => {
    expect(java('42', 'integer')).toBe('42');
    expect(java('-7', 'byte')).toBe('-7');
    expect(java('42\n', 'integer')).toBe('42'); // Python `$` matches before a final newline
    expect(java('٤٢', 'short')).toBe('42'); // `\d` and int() take any Unicode digit
    expect(java('42L', 'long')).toBe('42');
    expect(java('42', 'long')).toBe("'42'");
    expect(java('3.14f', 'float')).toBe('3.14');
    expect(java('3e3F', 'float')).toBe('3000.0');
    expect(java('3f', 'float')).toBe('3.0');
    expect(java('3.14', 'float')).toBe("'3.14'");
    expect(java('3.14', 'double')).toBe('3.14');
    expect(java('1e-3', 'double')).toBe('0.001');
    expect(java('5', 'double')).toBe('5.0');
  });

  it('converts booleans and keeps char/String/any text', () => {
    expect(java('true', 'boolean')).toBe('True');
    expect(java('false', 'boolean')).toBe('False');
    expect(java('True', 'boolean')).toBe("'True'");
    expect(java("'a'", 'char')).toBe(`"'a'"`);
    expect(java('abc', 'String')).toBe("'abc'");
    expect(java('"abc"', 'String')).toBe(`'"abc"'`);
    expect(java('123', 'any')).toBe("'123'");
  });

  it('parses ArrayList forms', () => {
    expect(java('new ArrayList<>(Arrays.asList("a", "b"))', 'ArrayList', 'String')).toBe("['a', 'b']");
    expect(java("new ArrayList<Character>() {{ add('a'); add('b'); }}", 'ArrayList', 'char')).toBe("['a', 'b']");
    expect(java('new ArrayList<Integer>() {{ add(1); add(2); }}', 'ArrayList', 'integer')).toBe('[1, 2]');
    expect(java('new ArrayList<Long>(Arrays.asList(1L, 2))', 'ArrayList', 'long')).toBe("[1, '2']");
    expect(java('new ArrayList<Boolean>(Arrays.asList(true, false))', 'ArrayList', 'boolean')).toBe('[True, False]');
    expect(java('new ArrayList<>()', 'ArrayList', 'String')).toBe('[]');
    expect(java('[1, 2]', 'ArrayList', 'integer')).toBe("'[1, 2]'");
  });

  it('parses arrays, keeping the quotes of String elements', () => {
    expect(java('new String[]{"a", "b"}', 'Array', 'String')).toBe(`['"a"', '"b"']`);
    expect(java('new String[]{a, b}', 'Array', 'String')).toBe("['a', 'b']");
    expect(java('new int[] { 1, 2 ,3 }', 'Array', 'integer')).toBe('[1, 2, 3]');
    expect(java('new long[]{1L, 2, 3L}', 'Array', 'long')).toBe("[1, '2', 3]");
    expect(java('new int[]{}', 'Array', 'integer')).toBe('[]');
    expect(java('{1, 2}', 'Array', 'integer')).toBe("'{1, 2}'");
  });

  it('parses HashMap put calls, guessing value types', () => {
    expect(
      java(
        'new HashMap<String, Object>() {{ put("k1", 1); put("k2", "v"); put("k3", true); put("k4", 2L); put("k5", 1.5f); put("k6", 2.5); put("k7", x); }}',
        'HashMap',
      ),
    ).toBe("{'k1': 1, 'k2': 'v', 'k3': True, 'k4': 2, 'k5': 1.5, 'k6': 2.5, 'k7': 'x'}");
    expect(java('new HashMap<>()', 'HashMap')).toBe('{}');
    expect(java('new HashMap<>() {{ }}', 'HashMap')).toBe('{}');
    expect(java('Map.of("a", 1)', 'HashMap')).toBe(`'Map.of("a", 1)'`);
  });

  it('raises where the reference raises', () => {
    expect(raised(() => javaTypeConverter('x', 'Set'))).toBe('NotImplementedError: Set conversion is not implemented');
    expect(raised(() => javaTypeConverter('x', 'Hashtable'))).toBe('NotImplementedError: Set conversion is not implemented');
    expect(raised(() => javaTypeConverter('x', 'Queue'))).toBe('NotImplementedError: Queue conversion is not implemented');
    expect(raised(() => javaTypeConverter('x', 'Foo'))).toBe('ValueError: Unsupported type: Foo');
  });
});

describe('jsTypeConverter', () => {
  it('converts scalars', () => {
    expect(js('"abc"', 'String')).toBe("'abc'");
    expect(js("'abc'", 'String')).toBe("'abc'");
    expect(js('abc', 'String')).toBe("'abc'");
    expect(js('12', 'integer')).toBe('12');
    expect(js('12.5', 'integer')).toBe("'12.5'");
    expect(js('12', 'float')).toBe('12.0');
    expect(js('1e5', 'float')).toBe("'1e5'");
    expect(js('12n', 'Bigint')).toBe('12');
    expect(js('true', 'Boolean')).toBe('True');
    expect(js('x', 'any')).toBe("'x'");
  });

  it('parses arrays', () => {
    expect(js('[1, 2, 3]', 'array')).toBe('[1, 2, 3]');
    expect(js('new Array(1, "a", true)', 'array')).toBe("[1, 'a', True]");
    expect(js(' [ [1, 2], [3, 4]]', 'array', 'array')).toBe('[[1, 2], [3, 4]]');
    expect(js('new Array([1, 2], [3, 4])', 'array')).toBe('[[1, 2], [3, 4]]');
    expect(js('["a", "b"]', 'array', 'String')).toBe("['a', 'b']");
    expect(js('[1, 2]', 'array', 'float')).toBe('[1.0, 2.0]');
    expect(js('[1, x]', 'array', 'integer')).toBe("[1, 'x']");
    expect(js('[]', 'array', 'String')).toBe('[]');
    // An unsupported element type is swallowed by the reference's bare `except:`.
    expect(js('[1]', 'array', 'Object')).toBe("'[1]'");
    // Text that is not an array comes back stripped.
    expect(js('  nope ', 'array', 'String')).toBe("'nope'");
  });

  it('parses objects with its regex split', () => {
    expect(js('{}', 'dict')).toBe('{}');
    expect(js("{'key': 'value', 'n': 123, 'b': true}", 'dict')).toBe("{'key': 'value', 'n': 123, 'b': True}");
    // The lazy `\{(.*?)\}` stops at the first `}`: the nested object is cut and `d` is lost.
    expect(js('{a: [1, "x"], b: {c: 1}, d: Infinity}', 'dict')).toBe("{'a': [1, 'x'], 'b': '{c: 1'}");
    expect(js('{k: Infinity, n: NaN}', 'dict')).toBe("{'k': inf, 'n': nan}");
    expect(js('{a: 1', 'dict')).toBe("'{a: 1'");
  });

  it('rejects unknown types', () => {
    expect(raised(() => jsTypeConverter('x', 'Foo'))).toBe('ValueError: Unsupported type: Foo');
  });
});

import { describe, expect, it } from 'vitest';
import { parsePythonExpression } from '../../src/exec/python-parser.js';
import { unparseConstant, unparseExpression } from '../../src/exec/python-unparse.js';

// Source and CPython 3.12.1's ast.unparse(ast.parse(source, mode="eval")) for it: quote choice,
// escapes, float repr (1e-05, 1e+16, 1e309 for overflow), precedence-minimal parentheses,
// f-strings, unicode, positional and keyword arguments.
const CASES: [string, string][] = [
  ["f(a=1e-05, b=1e16, c=1e+16, d=1.5e300, e=1e400, g=-1e400, h=0.1, i=100.0, j=1.)", "f(a=1e-05, b=1e+16, c=1e+16, d=1.5e+300, e=1e309, g=-1e309, h=0.1, i=100.0, j=1.0)"],
  ["f(x='it\\'s', y=\"say \\\"hi\\\"\", z='both \\' and \"', w='\\n\\t\\x00\\x7f\\u00e9\\u200b', v='\\U0001F600')", "f(x=\"it's\", y='say \"hi\"', z='both \\' and \"', w='\\n\\t\\x00\\x7f\u00e9\\u200b', v='\ud83d\ude00')"],
  ["f('\u00e9', \"S\u00e3o Paulo\", '\u65e5\u672c')", "f('\u00e9', 'S\u00e3o Paulo', '\u65e5\u672c')"],
  ["a + b * c ** -d", "a + b * c ** (-d)"],
  ["(a + b) * c", "(a + b) * c"],
  ["-(-1)", "--1"],
  ["- -1", "--1"],
  ["not not a", "not not a"],
  ["(not a) + b", "(not a) + b"],
  ["a if b else c if d else e", "a if b else c if d else e"],
  ["(a if b else c) if d else e", "(a if b else c) if d else e"],
  ["lambda x, y=1, *a, z, w=2, **k: x", "lambda x, y=1, *a, z, w=2, **k: x"],
  ["lambda x, /, y: 0", "lambda x, /, y: 0"],
  ["[x for x in y if x if z for w in v]", "[x for x in y if x if z for w in v]"],
  ["{k: v for k, v in d.items()}", "{k: v for k, v in d.items()}"],
  ["(x for x in y)", "(x for x in y)"],
  ["f(x for x in y)", "f((x for x in y))"],
  ["f(*args, **kwargs)", "f(*args, **kwargs)"],
  ["f(a, *b, c=1, **d)", "f(a, *b, c=1, **d)"],
  ["a[1:2, 3]", "a[1:2, 3]"],
  ["a[:]", "a[:]"],
  ["a[::2]", "a[::2]"],
  ["a[1:2:3]", "a[1:2:3]"],
  ["a[(1, 2)]", "a[1, 2]"],
  ["a[()]", "a[()]"],
  ["{*()}", "{*()}"],
  ["{1, 2}", "{1, 2}"],
  ["{}", "{}"],
  ["{**a, 'b': 1}", "{**a, 'b': 1}"],
  ["()", "()"],
  ["(1,)", "(1,)"],
  ["(1, 2)", "(1, 2)"],
  ["[(1, 2), (3,)]", "[(1, 2), (3,)]"],
  ["1 .real", "1 .real"],
  ["1.5.real", "1.5.real"],
  ["'a'.join(b)", "'a'.join(b)"],
  ["(x := 1)", "(x := 1)"],
  ["f(x := 1)", "f((x := 1))"],
  ["a < b < c", "a < b < c"],
  ["a is not b", "a is not b"],
  ["not a in b", "not a in b"],
  ["a and b or c and d", "a and b or (c and d)"],
  ["a and (b or c)", "a and (b or c)"],
  ["(a or b) and c", "(a or b) and c"],
  ["a ** b ** c", "a ** b ** c"],
  ["(a ** b) ** c", "(a ** b) ** c"],
  ["-a ** b", "-a ** b"],
  ["(-a) ** b", "(-a) ** b"],
  ["~a", "~a"],
  ["a @ b", "a @ b"],
  ["a // b % c", "a // b % c"],
  ["a << b >> c", "a << b >> c"],
  ["a | b ^ c & d", "a | b ^ c & d"],
  ["(a | b) & c", "(a | b) & c"],
  ["f'{x}'", "f'{x}'"],
  ["f'{x!r:>10}'", "f'{x!r:>10}'"],
  ["f'a{b}c{{d}}'", "f'a{b}c{{d}}'"],
  ["f\"{x['a']}\"", "f'{x['a']}'"],
  ["f'{x=}'", "f'x={x!r}'"],
  ["f'{x = }'", "f'x = {x!r}'"],
  ["f'{x:{w}.{p}}'", "f'{x:{w}.{p}}'"],
  ["f'{3.14:.2f}'", "f'{3.14:.2f}'"],
  ["f'\\n{x}'", "f'\\n{x}'"],
  ["f'''a\nb{x}'''", "f'a\\nb{x}'"],
  ["f'{x}' 'y'", "f'{x}y'"],
  ["'a' f'{b}' 'c'", "f'a{b}c'"],
  ["u'x'", "u'x'"],
  ["b'\\x00\\xff'", "b'\\x00\\xff'"],
  ["b'it\\'s'", "b\"it's\""],
  ["rb'\\d'", "b'\\\\d'"],
  ["r'\\d'", "'\\\\d'"],
  ["'\\\\'", "'\\\\'"],
  ["1j", "1j"],
  ["2.5j", "2.5j"],
  ["1e400j", "1e309j"],
  ["0xff", "255"],
  ["1_000_000", "1000000"],
  ["True", "True"],
  ["None", "None"],
  ["...", "..."],
  ["f(...)", "f(...)"],
  ["x.y.z", "x.y.z"],
  ["f()()", "f()()"],
  ["a[b][c]", "a[b][c]"],
  ["(a, *b)", "(a, *b)"],
  ["[*a, *b]", "[*a, *b]"],
  ["(yield)", "(yield)"],
  ["f((yield))", "f((yield))"],
  ["\"'\"", "\"'\""],
  ["'\"'", "'\"'"],
  ["'\\'\"'", "'\\'\"'"],
  ["'\\r'", "'\\r'"],
  ["'\\x0c'", "'\\x0c'"],
  ["'\\u2028'", "'\\u2028'"],
  ["'\\xa0'", "'\\xa0'"],
  ["'\\u00ad'", "'\\xad'"],
  ["f(a='\\\\n')", "f(a='\\\\n')"],
  ["{'a': [1, {'b': (2,)}]}", "{'a': [1, {'b': (2,)}]}"],
  ["-1", "-1"],
  ["+1", "+1"],
  ["-1.5", "-1.5"],
  ["-0.0", "-0.0"],
  ["f(a=-1)", "f(a=-1)"],
  ["[-x, +y, ~z]", "[-x, +y, ~z]"],
  ["f(a=True .real)", "f(a=True .real)"],
  ["f( 1,2 )", "f(1, 2)"],
  ["foo(bar( 'x' ), baz=[ 1 ,2 ])", "foo(bar('x'), baz=[1, 2])"],
  ["f(a=-(1), b=(-1) ** 2, c=-1 ** 2)", "f(a=-1, b=(-1) ** 2, c=-1 ** 2)"],
  ["f(x={'a':1,'b':[1,2.0]})", "f(x={'a': 1, 'b': [1, 2.0]})"],
  ["f(a={1,2}, b=(), c=(1,), d=[])", "f(a={1, 2}, b=(), c=(1,), d=[])"],
  ["f(a=\"it's\", b='say \"hi\"')", "f(a=\"it's\", b='say \"hi\"')"],
  ["f(a='\\u00e9', b='\\x85', c='\\ud800')", "f(a='\u00e9', b='\\x85', c='\\ud800')"],
  ["f(1e-05, 1e16, 123456789012345678.0, 0.000123)", "f(1e-05, 1e+16, 1.2345678901234568e+17, 0.000123)"],
];

describe('unparseExpression', () => {
  it.each(CASES)('unparses %j like ast.unparse', (source, expected) => {
    const r = parsePythonExpression(source);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const text = unparseExpression(r.node);
    expect(text).toBe(expected);
    // ast.unparse output parses back to the same text.
    const again = parsePythonExpression(text);
    expect(again.ok && unparseExpression(again.node)).toBe(expected);
  });

  it('writes constants as repr does', () => {
    expect(unparseConstant(1e-5)).toBe('1e-05');
    expect(unparseConstant(Infinity)).toBe('1e309');
    expect(unparseConstant(-Infinity)).toBe('-1e309');
    expect(unparseConstant(NaN)).toBe('(1e309-1e309)');
    expect(unparseConstant(12n)).toBe('12');
    expect(unparseConstant("it's")).toBe('"it\'s"');
  });
});

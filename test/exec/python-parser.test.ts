import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PyBytes, type CallNode, type ConstantNode, type ExprNode } from '../../src/exec/python-ast.js';
import { PyComplex } from '../../src/py/complex.js';
import { evaluateLiteral, literalEvalString } from '../../src/exec/python-literal.js';
import { parsePythonEval, parsePythonExpression } from '../../src/exec/python-parser.js';
import { tokenizePython } from '../../src/exec/python-tokenizer.js';
import { unparseExpression } from '../../src/exec/python-unparse.js';
import { PY_ELLIPSIS, PySet, PyTuple, PyException, pyDict, type PyValue } from '../../src/py/value.js';

/** Parse or fail the test. */
function parse(source: string): ExprNode {
  const r = parsePythonExpression(source);
  if (!r.ok) throw new Error(`unexpected SyntaxError: ${r.error.message}`);
  return r.node;
}

// Inputs with the exception type and str(e) that CPython 3.12.1's ast.parse(s, mode="eval") raises
// (checked with that interpreter).
const FAILURES: [string, string, string][] = [
  ["[f(a=1) g(b=2)]", "SyntaxError", "invalid syntax. Perhaps you forgot a comma? (<unknown>, line 1)"],
  ["f(a=1, b)", "SyntaxError", "positional argument follows keyword argument (<unknown>, line 1)"],
  ["f(a=1, **k, b)", "SyntaxError", "positional argument follows keyword argument unpacking (<unknown>, line 1)"],
  ["f(**k, *a)", "SyntaxError", "iterable argument unpacking follows keyword argument unpacking (<unknown>, line 1)"],
  ["f(a=)", "SyntaxError", "expected argument value expression (<unknown>, line 1)"],
  ["f(True=1)", "SyntaxError", "cannot assign to True (<unknown>, line 1)"],
  ["f(a.b=1)", "SyntaxError", "expression cannot contain assignment, perhaps you meant \"==\"? (<unknown>, line 1)"],
  ["f(*a=1)", "SyntaxError", "cannot assign to iterable argument unpacking (<unknown>, line 1)"],
  ["f(**a=1)", "SyntaxError", "cannot assign to keyword argument unpacking (<unknown>, line 1)"],
  ["f(a for a in b, c)", "SyntaxError", "Generator expression must be parenthesized (<unknown>, line 1)"],
  ["f(x=1 for x in y)", "SyntaxError", "invalid syntax. Maybe you meant '==' or ':=' instead of '='? (<unknown>, line 1)"],
  ["[a, b for x in y]", "SyntaxError", "did you forget parentheses around the comprehension target? (<unknown>, line 1)"],
  ["[*a for x in y]", "SyntaxError", "iterable unpacking cannot be used in comprehension (<unknown>, line 1)"],
  ["{**a for x in y}", "SyntaxError", "dict unpacking cannot be used in dict comprehension (<unknown>, line 1)"],
  ["[x for 1 in y]", "SyntaxError", "cannot assign to literal (<unknown>, line 1)"],
  ["[f(a=1)", "SyntaxError", "'[' was never closed (<unknown>, line 1)"],
  ["[f(a=1)]]", "SyntaxError", "unmatched ']' (<unknown>, line 1)"],
  ["(a]", "SyntaxError", "closing parenthesis ']' does not match opening parenthesis '(' (<unknown>, line 1)"],
  ["[a\n)", "SyntaxError", "closing parenthesis ')' does not match opening parenthesis '[' on line 1 (<unknown>, line 2)"],
  ["f(a=1))", "SyntaxError", "unmatched ')' (<unknown>, line 1)"],
  ["I have no function to call.", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
  ["[I have no function to call.]", "SyntaxError", "invalid syntax. Perhaps you forgot a comma? (<unknown>, line 1)"],
  ["[Sure! The answer is 42.]", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
  ["[<tool_call>{\"name\": \"x\"}</tool_call>]", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
  ["[tool_code\n[multiply(a=3, b=10)]", "SyntaxError", "'[' was never closed (<unknown>, line 1)"],
  ["```python\n[get_weather(city='Paris')]", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
  ["[get_weather(city='Paris')]\n\nExplanation: done.]", "SyntaxError", "unmatched ']' (<unknown>, line 3)"],
  ["[f(x=1)]\n\nHope this helps", "SyntaxError", "invalid syntax (<unknown>, line 3)"],
  ["[type of file]", "SyntaxError", "invalid syntax. Perhaps you forgot a comma? (<unknown>, line 1)"],
  ["[t x]", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
  ["[match x]", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
  ["[print 'x']", "SyntaxError", "Missing parentheses in call to 'print'. Did you mean print(...)? (<unknown>, line 1)"],
  ["[a if b]", "SyntaxError", "expected 'else' after 'if' expression (<unknown>, line 1)"],
  ["{a: }", "SyntaxError", "expression expected after dictionary key and ':' (<unknown>, line 1)"],
  ["{a: *b}", "SyntaxError", "cannot use a starred expression in a dictionary value (<unknown>, line 1)"],
  ["{**a, b}", "SyntaxError", "':' expected after dictionary key (<unknown>, line 1)"],
  ["(*a)", "SyntaxError", "cannot use starred expression here (<unknown>, line 1)"],
  ["(**a)", "SyntaxError", "cannot use double starred expression here (<unknown>, line 1)"],
  ["[a = 1]", "SyntaxError", "invalid syntax. Maybe you meant '==' or ':=' instead of '='? (<unknown>, line 1)"],
  ["[1 = a]", "SyntaxError", "cannot assign to literal here. Maybe you meant '==' instead of '='? (<unknown>, line 1)"],
  ["[f() = 1]", "SyntaxError", "cannot assign to function call here. Maybe you meant '==' instead of '='? (<unknown>, line 1)"],
  ["[a.b := 1]", "SyntaxError", "cannot use assignment expressions with attribute (<unknown>, line 1)"],
  ["1abc", "SyntaxError", "invalid decimal literal (<unknown>, line 1)"],
  ["1_", "SyntaxError", "invalid decimal literal (<unknown>, line 1)"],
  ["0x", "SyntaxError", "invalid hexadecimal literal (<unknown>, line 1)"],
  ["0o8", "SyntaxError", "invalid digit '8' in octal literal (<unknown>, line 1)"],
  ["0b2", "SyntaxError", "invalid digit '2' in binary literal (<unknown>, line 1)"],
  ["09", "SyntaxError", "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<unknown>, line 1)"],
  ["1not0", "SyntaxError", "invalid decimal literal (<unknown>, line 1)"],
  ["'abc", "SyntaxError", "unterminated string literal (detected at line 1) (<unknown>, line 1)"],
  ["'''abc", "SyntaxError", "unterminated triple-quoted string literal (detected at line 1) (<unknown>, line 1)"],
  ["\"\\x4\"", "SyntaxError", "(unicode error) 'unicodeescape' codec can't decode bytes in position 0-2: truncated \\xXX escape (<unknown>, line 1)"],
  ["\"\\N{bogus}\"", "SyntaxError", "(unicode error) 'unicodeescape' codec can't decode bytes in position 0-8: unknown Unicode character name (<unknown>, line 1)"],
  ["b'\u00e9'", "SyntaxError", "bytes can only contain ASCII literal characters (<unknown>, line 1)"],
  ["b'a' 'b'", "SyntaxError", "cannot mix bytes and nonbytes literals (<unknown>, line 1)"],
  ["\u201cquoted\u201d", "SyntaxError", "invalid character '\u201c' (U+201C) (<unknown>, line 1)"],
  ["a\u00a0b", "SyntaxError", "invalid non-printable character U+00A0 (<unknown>, line 1)"],
  ["x\u0000y", "SyntaxError", "source code string cannot contain null bytes"],
  ["", "SyntaxError", "invalid syntax (<unknown>, line 0)"],
  [" a", "IndentationError", "unexpected indent (<unknown>, line 1)"],
  ["a\nb", "SyntaxError", "invalid syntax (<unknown>, line 2)"],
  ["a\\", "SyntaxError", "unexpected character after line continuation character (<unknown>, line 1)"],
  ["[a,\n b c d", "SyntaxError", "invalid syntax. Perhaps you forgot a comma? (<unknown>, line 2)"],
  ["[a,\n b c, d", "SyntaxError", "'[' was never closed (<unknown>, line 1)"],
  ["[a\n[b if]", "SyntaxError", "'[' was never closed (<unknown>, line 1)"],
  ["[x,\n f(a=1,\n b)", "SyntaxError", "positional argument follows keyword argument (<unknown>, line 3)"],
  ["f'{'", "SyntaxError", "f-string: expecting '}' (<unknown>, line 1)"],
  ["f'{}'", "SyntaxError", "f-string: valid expression required before '}' (<unknown>, line 1)"],
  ["f'{x!z}'", "SyntaxError", "f-string: invalid conversion character 'z': expected 's', 'r', or 'a' (<unknown>, line 1)"],
  ["f'}'", "SyntaxError", "f-string: single '}' is not allowed (<unknown>, line 1)"],
  ["a <> b", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
  ["lambda a=1, b: 0", "SyntaxError", "parameter without a default follows parameter with a default (<unknown>, line 1)"],
  ["lambda *: 0", "SyntaxError", "named arguments must follow bare * (<unknown>, line 1)"],
  ["[f(a=1),,]", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
  ["[,]", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
  ["f(,)", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
  ["a[]", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
  ["[1, 2 3]", "SyntaxError", "invalid syntax. Perhaps you forgot a comma? (<unknown>, line 1)"],
  ["[x for x in y if]", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
  ["x if y else", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
  ["not", "SyntaxError", "invalid syntax (<unknown>, line 1)"],
];

// Inputs CPython 3.12.1 accepts, with its ast.unparse() of the result.
const SUCCESSES: [string, string][] = [
  ["[f(a=1),]", "[f(a=1)]"],
  ["f(**{})", "f(**{})"],
  ["f(a=1, a=2)", "f(a=1, a=2)"],
  ["[]", "[]"],
  ["[f(a=1), g.h.i(b=[1, 2], c={'k': (1,)})]", "[f(a=1), g.h.i(b=[1, 2], c={'k': (1,)})]"],
  ["f(x=-1, y=+2.5, z=~3)", "f(x=-1, y=+2.5, z=~3)"],
  ["f(\na=1,\n b='x'  # comment\n)", "f(a=1, b='x')"],
  ["f(a='x' 'y', b=u'z', c=r'\\d', d=b'\\x00')", "f(a='xy', b=u'z', c='\\\\d', d=b'\\x00')"],
  ["f(a=1e400, b=0x_ff, c=1_000, d=.5, e=1.)", "f(a=1e309, b=255, c=1000, d=0.5, e=1.0)"],
  ["f(a=1j, b=...)", "f(a=1j, b=...)"],
  ["f(a=f'{x!r:>{w}}', b=f'{x=}')", "f(a=f'{x!r:>{w}}', b=f'x={x!r}')"],
  ["a[1:2, ::3, *b]", "a[1:2, ::3, *b]"],
  ["lambda x, /, y=1, *a, z, **k: x", "lambda x, /, y=1, *a, z, **k: x"],
  ["[x async for x in y]", "[x async for x in y]"],
  ["(yield x)", "(yield x)"],
  ["await x", "await x"],
  ["1if x else 2", "1 if x else 2"],
  ["1 if x else 0", "1 if x else 0"],
  ["f(*a, *b, c=1, **d)", "f(*a, *b, c=1, **d)"],
  ["x.y(z)[w].v", "x.y(z)[w].v"],
  ["{**a, 'b': 1}", "{**a, 'b': 1}"],
  ["{1, 2, *a}", "{1, 2, *a}"],
  ["(a := 1)", "(a := 1)"],
  ["a not in b is not c", "a not in b is not c"],
  ["-2 ** -3", "-2 ** (-3)"],
  ["f(a\n=\n1)", "f(a=1)"],
  ["[\n  f(a=1)\n]\n", "[f(a=1)]"],
  ["a\r\n", "a"],
  ["f(a='\\\n')", "f(a='')"],
  ["'\\777'", "'\u01ff'"],
  ["[a for a in b for c in d if e]", "[a for a in b for c in d if e]"],
  ["{k: v for k, v in x}", "{k: v for k, v in x}"],
  ["(x for x in y)", "(x for x in y)"],
  ["f(x for x in y)", "f((x for x in y))"],
  ["a[b][c](d)", "a[b][c](d)"],
  ["f'a{{b}}c'", "f'a{{b}}c'"],
  ["u'x' 'y'", "u'xy'"],
];

describe('parsePythonExpression: CPython verdicts and messages', () => {
  it.each(FAILURES)('rejects %j', (source, pyType, message) => {
    const r = parsePythonExpression(source);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.pyType).toBe(pyType);
    expect(r.error.message).toBe(message);
  });

  it.each(SUCCESSES)('accepts %j', (source, unparsed) => {
    expect(unparseExpression(parse(source))).toBe(unparsed);
  });

  it('rejects brackets nested past CPython\'s limit without throwing', () => {
    const r = parsePythonExpression('('.repeat(201));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe('too many nested parentheses (<unknown>, line 1)');
  });

  it('formats errors for other file names, as eval() reports them', () => {
    const r = parsePythonExpression('f(a=1, b)');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.format('<string>')).toBe('positional argument follows keyword argument (<string>, line 1)');
  });
});

describe('parsePythonExpression: AST shape', () => {
  it('builds calls with dotted names, positional and keyword arguments', () => {
    const node = parse("[math.factorial(5), spotify.play(artist='Taylor Swift', duration=20)]");
    expect(node.type).toBe('List');
    if (node.type !== 'List') return;
    const [first, second] = node.elts as CallNode[];
    expect(first!.type).toBe('Call');
    expect(first!.func).toMatchObject({ type: 'Attribute', attr: 'factorial', value: { type: 'Name', id: 'math' } });
    expect(first!.args).toMatchObject([{ type: 'Constant', value: 5n }]);
    expect(second!.keywords.map((k) => [k.arg, (k.value as { value: PyValue }).value])).toEqual([
      ['artist', 'Taylor Swift'],
      ['duration', 20n],
    ]);
  });

  it('keeps ints as bigint and floats as number', () => {
    const node = parse('f(a=1, b=1.0, c=1e3, d=0x10, e=12345678901234567890, g=1_000)') as CallNode;
    expect(node.keywords.map((k) => (k.value as { value: PyValue }).value)).toEqual([
      1n, 1, 1000, 16n, 12345678901234567890n, 1000n,
    ]);
  });

  it('represents other constants', () => {
    const node = parse("f(a=None, b=True, c=..., d=b'\\x00a', e=2j, g=-1)") as CallNode;
    const values = node.keywords.map((k) => k.value);
    expect(values[0]).toMatchObject({ type: 'Constant', value: null });
    expect(values[1]).toMatchObject({ type: 'Constant', value: true });
    expect(values[2]).toMatchObject({ type: 'Constant', value: PY_ELLIPSIS });
    expect(((values[3] as ConstantNode).value as PyBytes).pyRepr()).toBe("b'\\x00a'");
    expect((values[4] as ConstantNode).value).toBeInstanceOf(PyComplex);
    expect(values[5]).toMatchObject({ type: 'UnaryOp', op: 'USub', operand: { type: 'Constant', value: 1n } });
  });

  it('records **mapping entries as null keys and keyword names', () => {
    const node = parse('f(*a, **k, x={**d, 1: 2})') as CallNode;
    expect(node.args).toMatchObject([{ type: 'Starred' }]);
    expect(node.keywords[0]).toMatchObject({ arg: null, value: { type: 'Name', id: 'k' } });
    expect(node.keywords[1]!.value).toMatchObject({ type: 'Dict', keys: [null, { value: 1n }] });
  });

  it('decodes string escapes and concatenates adjacent literals', () => {
    const node = parse(String.raw`f(a='x\ty' "z", b='\u00e9\x41\101', c=r'\d', d='\q')`) as CallNode;
    expect(node.keywords.map((k) => (k.value as { value: PyValue }).value)).toEqual(['x\tyz', '\u00e9AA', '\\d', '\\q']);
  });

  it('records source spans and lines', () => {
    const source = "[f(a=1),\n g(b='x y')]";
    const node = parse(source);
    if (node.type !== 'List') throw new Error('list expected');
    const g = node.elts[1] as CallNode;
    expect(source.slice(g.start, g.end)).toBe("g(b='x y')");
    expect(g.lineno).toBe(2);
    expect(source.slice(g.keywords[0]!.value.start, g.keywords[0]!.value.end)).toBe("'x y'");
  });

  it('maps spans back to the original text around \\r\\n and astral characters', () => {
    const source = "[f(a='\u{1F600}'),\r\n g(b=2)]";
    const node = parse(source);
    if (node.type !== 'List') throw new Error('list expected');
    const [f, g] = node.elts as CallNode[];
    expect(source.slice(f!.start, f!.end)).toBe("f(a='\u{1F600}')");
    expect(source.slice(g!.start, g!.end)).toBe('g(b=2)');
  });

  it('parses f-strings into JoinedStr nodes', () => {
    const node = parse("f'a{b!r:>{w}}c'");
    expect(node).toMatchObject({
      type: 'JoinedStr',
      values: [
        { type: 'Constant', value: 'a' },
        { type: 'FormattedValue', value: { type: 'Name', id: 'b' }, conversion: 114 },
        { type: 'Constant', value: 'c' },
      ],
    });
  });

  it('parses subscripts, slices, comprehensions and lambdas', () => {
    expect(parse('a[1:2]')).toMatchObject({ type: 'Subscript', slice: { type: 'Slice', step: null } });
    expect(parse('[x for x in y]')).toMatchObject({ type: 'ListComp', generators: [{ type: 'comprehension' }] });
    expect(parse('lambda x: x + 1')).toMatchObject({ type: 'Lambda', body: { type: 'BinOp', op: 'Add' } });
    expect(parse('a if b else c')).toMatchObject({ type: 'IfExp' });
    expect(parse('a < b < c')).toMatchObject({ type: 'Compare', ops: ['Lt', 'Lt'] });
    expect(parse('a and b or c')).toMatchObject({ type: 'BoolOp', op: 'Or' });
  });

  it('normalizes non-ASCII identifiers with NFKC', () => {
    expect(parse('\uFB01le')).toMatchObject({ type: 'Name', id: 'file' });
  });
});

describe('tokenizePython', () => {
  it('splits operators, names, numbers and strings and tracks bracket levels', () => {
    const { tokens, end } = tokenizePython("f(a=1, b='x') ** -2.5");
    expect(end.error).toBeNull();
    expect(tokens.map((t) => [t.type, t.string, t.level])).toEqual([
      ['NAME', 'f', 0], ['OP', '(', 1], ['NAME', 'a', 1], ['OP', '=', 1], ['NUMBER', '1', 1], ['OP', ',', 1],
      ['NAME', 'b', 1], ['OP', '=', 1], ['STRING', "'x'", 1], ['OP', ')', 0], ['OP', '**', 0], ['OP', '-', 0],
      ['NUMBER', '2.5', 0], ['ENDMARKER', '', 0],
    ]);
  });

  it('joins lines inside brackets and after backslashes, and skips comments', () => {
    const { tokens } = tokenizePython('[a, # note\n b] + \\\n c');
    expect(tokens.map((t) => t.string)).toEqual(['[', 'a', ',', 'b', ']', '+', 'c', '']);
  });

  it('reads a plain text (UTF-16 units at their own indices) as the code-point path does', () => {
    // A trailing comment with an astral character sends the text down the code-point path; the
    // tokens before it, and any error, must not differ.
    const sources = [
      "f(a='it\\'s', b=\"q\\\"x\", c='''x\n'y''', d='é\\\\')",
      "echo<|channel|>commentary(content='- a\\n+ b', file_name='diff.txt')",
      "f(a='open\nb=1)",
      "g(x='a\\\nb')",
      "[f(a=1), g(b='é')]\n\nHope this helps",
    ];
    for (const source of sources) {
      const plain = tokenizePython(source);
      const mapped = tokenizePython(`${source} # \u{1F600}`);
      const fields = (t: (typeof plain.tokens)[number]) => [t.type, t.string, t.start, t.end, t.lineno, t.endLineno, t.level];
      const body = (r: typeof plain) => r.tokens.filter((t) => t.type !== 'NEWLINE' && t.type !== 'ENDMARKER').map(fields);
      expect(body(mapped)).toEqual(body(plain));
      expect(mapped.end.error?.message).toEqual(plain.end.error?.message);
      expect(parsePythonExpression(`${source} # \u{1F600}`)).toEqual(parsePythonExpression(source));
    }
  });

  it('reports an unclosed bracket when the input ends', () => {
    const { end } = tokenizePython('[f(a=1)');
    expect(end.error?.message).toBe("'[' was never closed (<unknown>, line 1)");
    expect(end.openBracket).toEqual({ char: '[', lineno: 1 });
  });
});

describe('parsePythonExpression: `name<|...` (a chat-template token in a call)', () => {
  it('fails as CPython does, tokenizer errors in the rest of the text included', () => {
    const sources = [
      "cat<|channel|>(file_name='a.txt')",
      "echo<|channel|>commentary(content='x\\ny',file_name='f')",
      "cat<|channel|>(file_name='unterminated)",
      "cat<|channel|>(file_name='a')\n)",
      "cat<|channel|>(a=[1, 2\n",
      "cat<|channel|>(a=f'{x')",
      "cat<|channel|>(a='b')\u2019",
      "cat<|channel|>(a='b') $",
      'x<|',
      'x<|>\n\n\tfoo',
      // Not for the shortcut: a keyword, a soft keyword, a legacy name, no bar.
      'not<|channel|>(a=1)',
      'match<|channel|>(a=1)',
      'print<|channel|>(a=1)',
      'cat<(a=1)',
    ];
    for (const source of sources) expect(parsePythonExpression(source).ok, source).toBe(false);
    expect(parsePythonEval("cat<|channel|>(file_name='a.txt')")).toMatchObject({ ok: false, error: { msg: 'invalid syntax', lineno: 1 } });
    expect(parsePythonEval("cat<|channel|>(file_name='a.txt)")).toMatchObject({ ok: false, error: { msg: 'unterminated string literal (detected at line 1)' } });
  });
});

describe('parsePythonEval: the compiler checks of eval()', () => {
  it('reports repeated keyword arguments', () => {
    const r = parsePythonEval('f(a=1, a=2)');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.format('<string>')).toBe('keyword argument repeated: a (<string>, line 1)');
    expect(parsePythonExpression('f(a=1, a=2)').ok).toBe(true);
  });

  it("skips leading spaces as eval() does and rejects 'yield' outside a function", () => {
    expect(parsePythonEval('  f(x=1)').ok).toBe(true);
    const r = parsePythonEval('f(x=(yield))');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.msg).toBe("'yield' outside function");
  });
});

describe('evaluateLiteral', () => {
  const ev = (s: string): PyValue => evaluateLiteral(parse(s));

  it('evaluates constants and containers', () => {
    expect(ev("[1, -2.5, 'a', None, True, (1,), {'k': [3]}]")).toEqual([
      1n, -2.5, 'a', null, true, new PyTuple([1n]), pyDict({ k: [3n] }),
    ]);
    expect(ev('{1, 2}')).toEqual(new PySet([1n, 2n]));
    expect(ev('set()')).toEqual(new PySet());
    expect(ev('+5')).toBe(5n);
  });

  it('keeps the first of equal dict keys, as Python does', () => {
    const d = ev('{1: "a", 1.0: "b", True: "c"}') as Map<unknown, unknown>;
    expect([...d.entries()]).toEqual([[1n, 'c']]);
  });

  it('evaluates complex literals', () => {
    const z = ev('1 + 2j') as PyComplex;
    expect([z.real, z.imag]).toEqual([1, 2]);
  });

  it('rejects names, calls and arithmetic', () => {
    for (const s of ['x', 'f(1)', '1 * 2', '-x', "{'a': b}"]) {
      expect(() => ev(s)).toThrow(PyException);
    }
    expect(() => ev('{[1]: 2}')).toThrow("unhashable type: 'list'");
  });

  it('parses strings like ast.literal_eval', () => {
    expect(literalEvalString("  ['a', 1]")).toEqual(['a', 1n]);
    expect(() => literalEvalString('[1, 2')).toThrow(PyException);
  });
});

// The reference's own score files: every "Failed to decode AST" message that came from
// ast.parse must come out of this parser unchanged.
const dataDir = process.env.BFCL_DATA_DIR;
const conformanceDir = process.env.BFCL_CONFORMANCE_DIR ?? (dataDir ? join(dataDir, '..', 'conformance') : undefined);
const scoreDir = conformanceDir ? join(conformanceDir, 'synthetic', 'score', 'synthetic-prompt-a') : undefined;

describe.skipIf(!scoreDir || !existsSync(scoreDir))('reference score files', () => {
  /** The prompting decoder's preprocessing before ast.parse (bracket wrapping, stripping). */
  const prepare = (raw: string): string => {
    let s = raw.replace(/^[`\n ]+|[`\n ]+$/g, '');
    if (!s.startsWith('[')) s = '[' + s;
    if (!s.endsWith(']')) s = s + ']';
    return s.trim().replace(/^'+|'+$/g, '');
  };

  it('reproduces every ast.parse message in the synthetic prompting run', () => {
    const cases: [string, string][] = [];
    for (const group of readdirSync(scoreDir!)) {
      for (const file of readdirSync(join(scoreDir!, group))) {
        if (file.includes('java')) continue;
        const lines = readFileSync(join(scoreDir!, group, file), 'utf8').split('\n').slice(1);
        for (const line of lines) {
          if (!line.trim()) continue;
          const entry = JSON.parse(line) as { error?: unknown; model_result_raw?: unknown };
          const errors = Array.isArray(entry.error) ? entry.error : [entry.error];
          for (const e of errors) {
            const m = /Failed to decode AST\. (.*\(<unknown>, line \d+\))/.exec(String(e));
            if (m && typeof entry.model_result_raw === 'string') cases.push([prepare(entry.model_result_raw), m[1]!]);
          }
        }
      }
    }
    expect(cases.length).toBeGreaterThan(200);
    const mismatches = cases.filter(([source, message]) => {
      const r = parsePythonExpression(source);
      return r.ok || r.error.message !== message;
    });
    expect(mismatches).toEqual([]);
  });
});

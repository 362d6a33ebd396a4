/**
 * The prompting decoders on the Python return format. Every expectation was produced by running
 * the reference's `default_decode_ast_prompting` / `default_decode_execute_prompting` under
 * CPython (`repr` of the result, or `type(e).__name__: str(e)`).
 */
import { describe, expect, it } from 'vitest';
import { decodeAstPrompting, decodeExecutePrompting, type DecodeResult } from '../../../src/exec/decode/index.js';
import type { PyValue } from '../../../src/py/value.js';
import { outcome } from './helpers.js';

interface Case {
  kind: 'ast' | 'exec';
  raw: string;
  tag?: boolean;
  repr?: string;
  error?: string;
}

const CASES: Case[] = [
  {"kind": "ast", "raw": "[f(a=1, b='x')]", "repr": "[{'f': {'a': 1, 'b': 'x'}}]"},
  {"kind": "ast", "raw": "f(a=1)", "repr": "[{'f': {'a': 1}}]"},
  {"kind": "ast", "raw": "'[f(a=1)]'", "error": "AssertionError: "},
  {"kind": "ast", "raw": "```\n[f(a=1)]\n```", "repr": "[{'f': {'a': 1}}]"},
  {"kind": "ast", "raw": "(f(a=1), g(b=2))", "error": "AssertionError: "},
  {"kind": "ast", "raw": "{f(a=1)}", "error": "AssertionError: "},
  {"kind": "ast", "raw": "[f(a=1), 5]", "error": "AssertionError: "},
  {"kind": "ast", "raw": "5", "error": "AssertionError: "},
  {"kind": "ast", "raw": "{'a': 1}", "error": "AssertionError: "},
  {"kind": "ast", "raw": "[f(1, 2, a=3)]", "repr": "[{'f': {'a': 3}}]"},
  {"kind": "ast", "raw": "[a.b.c(x=1)]", "repr": "[{'a.b.c': {'x': 1}}]"},
  {"kind": "ast", "raw": "[f()(x=1)]", "repr": "[{'': {'x': 1}}]"},
  {"kind": "ast", "raw": "[a[0].b(x=1)]", "repr": "[{'b': {'x': 1}}]"},
  {"kind": "ast", "raw": "[f(**k)]", "repr": "[{'f': {None: 'k'}}]"},
  {"kind": "ast", "raw": "[f(a=1, a=2)]", "repr": "[{'f': {'a': 2}}]"},
  {"kind": "ast", "raw": "[f(a=+5, b=-2.5, c=not True, d=-True, e=~3)]", "repr": "[{'f': {'a': -5, 'b': -2.5, 'c': -1, 'd': -1, 'e': -3}}]"},
  {"kind": "ast", "raw": "[f(a=-x)]", "error": "AttributeError: 'Name' object has no attribute 'value'"},
  {"kind": "ast", "raw": "[f(a=--5)]", "error": "AttributeError: 'UnaryOp' object has no attribute 'value'"},
  {"kind": "ast", "raw": "[f(a=-'s')]", "error": "TypeError: bad operand type for unary -: 'str'"},
  {"kind": "ast", "raw": "[f(a=-None)]", "error": "TypeError: bad operand type for unary -: 'NoneType'"},
  {"kind": "ast", "raw": "[f(a=-a.b)]", "error": "TypeError: bad operand type for unary -: 'Name'"},
  {"kind": "ast", "raw": "[f(a=-a[0])]", "error": "TypeError: bad operand type for unary -: 'Name'"},
  {"kind": "ast", "raw": "[f(a=...)]", "repr": "[{'f': {'a': '...'}}]"},
  {"kind": "ast", "raw": "[f(a=[1, 'b', None, True, 1.5, [2]])]", "repr": "[{'f': {'a': [1, 'b', None, True, 1.5, [2]]}}]"},
  {"kind": "ast", "raw": "[f(a={'k': 1, 2: 'v', None: 3, (1, 2): 4})]", "repr": "[{'f': {'a': {'k': 1, 2: 'v', None: 3, (1, 2): 4}}}]"},
  {"kind": "ast", "raw": "[f(a={1: 'a', 1.0: 'b', True: 'c'})]", "repr": "[{'f': {'a': {1: 'c'}}}]"},
  {"kind": "ast", "raw": "[f(a={[1]: 2})]", "error": "TypeError: unhashable type: 'list'"},
  {"kind": "ast", "raw": "[f(a={**d})]", "error": "Exception: Unsupported AST type: <class 'NoneType'>"},
  {"kind": "ast", "raw": "[f(a=(1,), b=(), c=(1, (2, 3)))]", "repr": "[{'f': {'a': (1,), 'b': (), 'c': (1, (2, 3))}}]"},
  {"kind": "ast", "raw": "[f(a=3*4, b=1/2, c=2**10, d='a'+'b', e=7//2, f=7%3, g=2023-10-5, h=[1]*2, i='ab'*2)]", "repr": "[{'f': {'a': 12, 'b': 0.5, 'c': 1024, 'd': 'ab', 'e': 3, 'f': 1, 'g': 2008, 'h': [1, 1], 'i': 'abab'}}]"},
  {"kind": "ast", "raw": "[f(a=2**-1, b=1.5*2, c=True+1, d=10**20)]", "repr": "[{'f': {'a': 0.5, 'b': 3.0, 'c': 2, 'd': 100000000000000000000}}]"},
  {"kind": "ast", "raw": "[f(a=1/0)]", "error": "ZeroDivisionError: division by zero"},
  {"kind": "ast", "raw": "[f(a=x+1)]", "error": "NameError: name 'x' is not defined"},
  {"kind": "ast", "raw": "[f(a=1<<3, b=6&3, c=6|1, d=6^3, e=True&False)]", "repr": "[{'f': {'a': 8, 'b': 2, 'c': 7, 'd': 5, 'e': False}}]"},
  {"kind": "ast", "raw": "[f(a=1+'a')]", "error": "TypeError: unsupported operand type(s) for +: 'int' and 'str'"},
  {"kind": "ast", "raw": "[f(a=(1 if True else 2)+1)]", "repr": "[{'f': {'a': 2}}]"},
  {"kind": "ast", "raw": "[f(a=x)]", "repr": "[{'f': {'a': 'x'}}]"},
  {"kind": "ast", "raw": "[f(a=g(1, 'two', [3]), b=g(), c=h.i(2))]", "repr": "[{'f': {'a': \"g(1, 'two', [3])\", 'b': 'g()', 'c': 'h.i(2)'}}]"},
  {"kind": "ast", "raw": "[f(a=g(x=1, y=h(z=2)), b=g(1, k=2))]", "repr": "[{'f': {'a': {'g': {'x': 1, 'y': {'h': {'z': 2}}}}, 'b': {'g': {'k': 2}}}}]"},
  {"kind": "ast", "raw": "[f(a=lambda x: x+1)]", "error": "TypeError: 'BinOp' object is not subscriptable"},
  {"kind": "ast", "raw": "[f(a=lambda: 0)]", "error": "TypeError: 'Constant' object is not subscriptable"},
  {"kind": "ast", "raw": "[f(a=x[0], b=x['k'], c=x[1:2], d=x[1, 2], e=x.y[0])]", "repr": "[{'f': {'a': 'x[0]', 'b': \"x['k']\", 'c': 'x[1:2]', 'd': 'x[(1, 2)]', 'e': 'x.y[0]'}}]"},
  {"kind": "ast", "raw": "[f(a=x.y)]", "error": "Exception: Unsupported AST type: <class 'ast.Attribute'>"},
  {"kind": "ast", "raw": "[f(a={1, 2})]", "error": "Exception: Unsupported AST type: <class 'ast.Set'>"},
  {"kind": "ast", "raw": "[f(a=f'x{y}')]", "error": "Exception: Unsupported AST type: <class 'ast.JoinedStr'>"},
  {"kind": "ast", "raw": "[f(a=1 < 2)]", "error": "Exception: Unsupported AST type: <class 'ast.Compare'>"},
  {"kind": "ast", "raw": "[f(a=x and y)]", "error": "Exception: Unsupported AST type: <class 'ast.BoolOp'>"},
  {"kind": "ast", "raw": "[f(a=[i for i in x])]", "error": "Exception: Unsupported AST type: <class 'ast.ListComp'>"},
  {"kind": "ast", "raw": "[f(a=1 if x else 2)]", "error": "Exception: Unsupported AST type: <class 'ast.IfExp'>"},
  {"kind": "ast", "raw": "[f(a=b'bytes', b=2j, c=0x1F, d=1_000, e=1e-05, f=1e16, g=0.1)]", "repr": "[{'f': {'a': b'bytes', 'b': 2j, 'c': 31, 'd': 1000, 'e': 1e-05, 'f': 1e+16, 'g': 0.1}}]"},
  {"kind": "ast", "raw": "[f(a='it\\'s', b=\"say \\\"hi\\\"\", c='\\u00e9\\n', d=r'\\d+')]", "repr": "[{'f': {'a': \"it's\", 'b': 'say \"hi\"', 'c': 'é\\n', 'd': '\\\\d+'}}]"},
  {"kind": "ast", "raw": "[f(a=1)] and some text", "error": "SyntaxError: unmatched ']' (<unknown>, line 1)"},
  {"kind": "ast", "raw": "[f(a=1),]", "repr": "[{'f': {'a': 1}}]"},
  {"kind": "ast", "raw": "[]", "repr": "[]"},
  {"kind": "ast", "raw": "", "repr": "[]"},
  {"kind": "ast", "raw": "   ", "repr": "[]"},
  {"kind": "ast", "raw": "`", "repr": "[]"},
  {"kind": "ast", "raw": "[f(a=1)\n, g(b=2)]", "repr": "[{'f': {'a': 1}}, {'g': {'b': 2}}]"},
  {"kind": "ast", "raw": "<TOOLCALL>[f(a=1)]</TOOLCALL>", "tag": true, "repr": "[{'f': {'a': 1}}]"},
  {"kind": "ast", "raw": "x <TOOLCALL> f(a=1) </TOOLCALL> y", "tag": true, "repr": "[{'f': {'a': 1}}]"},
  {"kind": "ast", "raw": "no tag here", "tag": true, "error": "ValueError: No tool call tag found in input string: [no tag here]"},
  {"kind": "ast", "raw": "<TOOLCALL>f(a=1)", "tag": true, "error": "ValueError: No tool call tag found in input string: [<TOOLCALL>f(a=1)]"},
  {"kind": "exec", "raw": "[f(a=1, b='x', c=[1, {'k': 2}], d={'k': 'v', 'n': {'m': 1}}, e=None, f=1.0)]", "repr": "[\"f(a=1, b='x', c=[1, {'k': 2}], d={'k': 'v', 'n': {'m': 1}}, e=None, f=1.0)\"]"},
  {"kind": "exec", "raw": "[f(a=g(x=1), b={'g': {'x': 1}}, c={})]", "error": "IndexError: list index out of range"},
  {"kind": "exec", "raw": "[f(a={1: 'x', None: 2, (1, 2): 3})]", "repr": "[\"f(a={'1': 'x', 'None': 2, '(1, 2)': 3})\"]"},
  {"kind": "exec", "raw": "[f(**k)]", "repr": "[\"f(None='k')\"]"},
  {"kind": "exec", "raw": "[f(a={'x': {}, 'y': 1})]", "error": "IndexError: list index out of range"},
  {"kind": "exec", "raw": "[f(a={'x': {'y': 1}, 'z': {'w': 2}})]", "repr": "['f(a=x(y=1))']"},
  {"kind": "exec", "raw": "[f(a=(1, 'a'), b=\"it's\", c='\\n')]", "repr": "['f(a=(1, \\'a\\'), b=\"it\\'s\", c=\\'\\\\n\\')']"},
  {"kind": "exec", "raw": "[a.b(x=1), c()]", "repr": "['a.b(x=1)', 'c()']"},
  {"kind": "exec", "raw": "[]", "repr": "[]"},
];

describe('prompting decoders, Python format (expectations from CPython)', () => {
  for (const c of CASES) {
    it(`${c.kind} ${JSON.stringify(c.raw)}${c.tag === true ? ' (tool call tag)' : ''}`, () => {
      const result =
        c.kind === 'ast' ? decodeAstPrompting(c.raw, 'python', c.tag === true) : decodeExecutePrompting(c.raw, c.tag === true);
      expect(outcome(result as DecodeResult<PyValue>)).toBe(c.repr ?? c.error);
    });
  }
});

describe('prompting decoders on values that are not str', () => {
  it.each([
    [null, "'NoneType' object has no attribute 'strip'"],
    [[['[f(a=1)]']], "'list' object has no attribute 'strip'"],
    [new Map(), "'dict' object has no attribute 'strip'"],
    [5n, "'int' object has no attribute 'strip'"],
  ] as [PyValue, string][])('%o', (raw, message) => {
    expect(decodeAstPrompting(raw, 'python', false)).toEqual({ ok: false, errorType: 'AttributeError', error: message });
    expect(decodeExecutePrompting(raw, false)).toEqual({ ok: false, errorType: 'AttributeError', error: message });
  });
});

/**
 * A fast path for the call strings the benchmark executes most: `name(kw='str', n=1, xs=[1, 2])`.
 * It accepts only a plain subset (simple string and number literals, True/False/None, lists,
 * tuples and dicts of those, keyword or positional arguments) and returns `undefined` for
 * anything else, so the full CPython-faithful parser decides every unusual case. The nodes it
 * builds are the ones the full parser builds for the same text (a test checks this on every
 * ground-truth call and every decoded model call of the conformance runs); spans are not tracked.
 */

import type { PyValue } from '../py/value.js';
import type { CallNode, ExprNode, KeywordNode } from './python-ast.js';

const NO_SPAN = { start: 0, end: 0, lineno: 1, endLineno: 1 } as const;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /(?:0|[1-9][0-9]*)(\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif',
  'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or',
  'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
]);
const SIMPLE_ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', n: '\n', t: '\t', r: '\r' };

class Bail extends Error {}
/** One shared signal: a new Error per bail would record a stack trace each time. */
const BAIL = new Bail();
const bail = (): never => {
  throw BAIL;
};

/** Parse `text` if it is a plain call; `undefined` means "use the full parser". */
export function parseSimpleCall(text: string): CallNode | undefined {
  let i = 0;
  const n = text.length;
  const skipSpaces = (): void => {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
  };
  const expect = (ch: string): void => {
    skipSpaces();
    if (text[i] !== ch) bail();
    i++;
  };
  const identifier = (): string => {
    IDENTIFIER.lastIndex = i;
    const m = IDENTIFIER.exec(text);
    if (m === null || KEYWORDS.has(m[0])) return bail();
    i += m[0].length;
    return m[0];
  };
  const constant = (value: PyValue): ExprNode => ({ type: 'Constant', value, kind: null, ...NO_SPAN });

  const stringLiteral = (): ExprNode => {
    const quote = text[i]!;
    if (text.startsWith(quote.repeat(3), i)) bail(); // triple quotes: full parser
    i++;
    let out = '';
    for (;;) {
      if (i >= n) bail();
      const ch = text[i]!;
      if (ch === quote) {
        i++;
        break;
      }
      if (ch === '\n' || ch === '\r') bail();
      if (ch === '\\') {
        const escaped = SIMPLE_ESCAPES[text[i + 1] ?? ''];
        if (escaped === undefined) bail();
        out += escaped;
        i += 2;
        continue;
      }
      out += ch;
      i++;
    }
    // Adjacent literals concatenate in Python: leave that to the full parser.
    skipSpaces();
    if (text[i] === "'" || text[i] === '"') bail();
    return constant(out);
  };

  const numberLiteral = (): ExprNode => {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) return bail();
    const next = text[i + m[0].length];
    // Suffixes, underscores, hex/octal, `1.` and the like: full parser.
    if (next !== undefined && /[A-Za-z0-9_.]/.test(next)) bail();
    i += m[0].length;
    const isFloat = m[1] !== undefined || /[eE]/.test(m[0]);
    return constant(isFloat ? Number(m[0]) : BigInt(m[0]));
  };

  const sequence = (close: string): ExprNode[] => {
    const items: ExprNode[] = [];
    for (;;) {
      skipSpaces();
      if (text[i] === close) {
        i++;
        return items;
      }
      items.push(value());
      skipSpaces();
      if (text[i] === ',') i++;
      else if (text[i] !== close) bail();
    }
  };

  const value = (): ExprNode => {
    skipSpaces();
    const ch = text[i];
    if (ch === "'" || ch === '"') return stringLiteral();
    if (ch !== undefined && ch >= '0' && ch <= '9') return numberLiteral();
    if (ch === '-') {
      i++;
      skipSpaces();
      const c = text[i];
      if (c === undefined || c < '0' || c > '9') bail();
      return { type: 'UnaryOp', op: 'USub', operand: numberLiteral(), ...NO_SPAN };
    }
    if (ch === '[') {
      i++;
      return { type: 'List', elts: sequence(']'), ...NO_SPAN };
    }
    if (ch === '(') {
      i++;
      const elts = sequence(')');
      // `(x)` is just x; only `()` and lists with commas are tuples — leave the ambiguity to the full parser.
      if (elts.length === 1) bail();
      return { type: 'Tuple', elts, ...NO_SPAN };
    }
    if (ch === '{') {
      i++;
      const keys: ExprNode[] = [];
      const values: ExprNode[] = [];
      for (;;) {
        skipSpaces();
        if (text[i] === '}') {
          i++;
          break;
        }
        keys.push(value());
        expect(':');
        values.push(value());
        skipSpaces();
        if (text[i] === ',') i++;
        else if (text[i] !== '}') bail();
      }
      if (keys.length === 0) bail(); // `{}` is fine for Python, but keep this path for non-empty dicts only
      return { type: 'Dict', keys, values, ...NO_SPAN };
    }
    IDENTIFIER.lastIndex = i;
    const word = IDENTIFIER.exec(text)?.[0] ?? bail();
    i += word.length;
    if (word === 'True') return constant(true);
    if (word === 'False') return constant(false);
    if (word === 'None') return constant(null);
    return bail(); // names, nested calls, attributes...: full parser
  };

  try {
    skipSpaces();
    const name = identifier();
    if (KEYWORDS.has(name)) bail();
    expect('(');
    const args: ExprNode[] = [];
    const keywords: KeywordNode[] = [];
    const seen = new Set<string>();
    for (;;) {
      skipSpaces();
      if (text[i] === ')') {
        i++;
        break;
      }
      const start = i;
      IDENTIFIER.lastIndex = i;
      const m = IDENTIFIER.exec(text);
      let isKeyword = false;
      if (m !== null) {
        let j = i + m[0].length;
        while (text[j] === ' ' || text[j] === '\t') j++;
        isKeyword = text[j] === '=' && text[j + 1] !== '=';
        if (isKeyword) {
          if (KEYWORDS.has(m[0]) || seen.has(m[0])) bail();
          seen.add(m[0]);
          i = j + 1;
          keywords.push({ type: 'keyword', arg: m[0], value: value(), ...NO_SPAN });
        }
      }
      if (!isKeyword) {
        i = start;
        if (keywords.length > 0) bail(); // positional after keyword: a syntax error, full parser words it
        args.push(value());
      }
      skipSpaces();
      if (text[i] === ',') i++;
      else if (text[i] !== ')') bail();
    }
    skipSpaces();
    if (i !== n) bail();
    return { type: 'Call', func: { type: 'Name', id: name, ...NO_SPAN }, args, keywords, ...NO_SPAN };
  } catch (error) {
    if (error instanceof Bail) return undefined;
    throw error;
  }
}

/**
 * The JavaScript return format of prompting models (simple_javascript): `[func(arg=value, ...)]`.
 * Port of the reference's model_handler/parser/js_parser.py on top of the hand-made parser: the
 * first call expression that is a whole top-level expression statement, its `name=value`
 * arguments as source text (surrounding quotes trimmed).
 */
import { PyException, type PyDict, type PyKey, type PyValue } from '../../py/value.js';
import { CstSyntaxError, type CstNode } from './cst.js';
import { parseJavascript } from './javascript-parser.js';
import { strSlice } from '../../py/str.js';

/** JavaScript source → `[{name: {arg: text}}]`, `None` when there is no call, or a SyntaxError. */
export function parseJavascriptFunctionCall(source: string): PyValue {
  let root: CstNode;
  try {
    root = parseJavascript(source);
  } catch (error) {
    if (error instanceof CstSyntaxError) throw new PyException('SyntaxError', 'Error js parsing the source code.');
    throw error;
  }
  const text = (n: CstNode): string => source.slice(n.start, n.end);

  const extractArguments = (argsNode: CstNode): PyDict => {
    const collected = new Map<PyKey, string[]>();
    const add = (key: PyKey, value: string): void => {
      const existing = collected.get(key);
      if (existing === undefined) collected.set(key, [value]);
      else existing.push(value);
    };
    for (const child of argsNode.children) {
      if (child.type === 'assignment_expression') {
        let value = text(child.children[2]!);
        // BFCL parity: js_parser.py trims one pair of matching surrounding quotes.
        if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) {
          value = strSlice(value, 1, -1);
        }
        add(text(child.children[0]!), value);
      } else if (child.type === 'identifier' || child.type === 'true') {
        // BFCL parity: js_parser.py keeps positional identifiers and `true` (only) under `None`.
        add(null, text(child));
      }
    }
    const args: PyDict = new Map();
    for (const [key, values] of collected) {
      if (values.length > 1) {
        throw new PyException('Exception', 'Error: Multiple arguments with the same name are not supported.');
      }
      args.set(key, values[0]!);
    }
    return args;
  };

  for (const statement of root.children) {
    if (statement.type !== 'expression_statement') continue;
    for (const expr of statement.children) {
      if (expr.type !== 'call_expression') continue;
      const functionName = text(expr.children[0]!);
      return [new Map([[functionName, extractArguments(expr.children[1]!)]])];
    }
  }
  // BFCL parity: js_parser.py falls off the end (returns None) when no call is found.
  return null;
}

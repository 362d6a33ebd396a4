/**
 * The Java return format of prompting models (simple_java): `[Class.method(arg1=value, ...)]`.
 * Port of the reference's model_handler/parser/java_parser.py on top of the hand-made parser:
 * the first method invocation found depth-first, its `name=value` arguments, values kept as
 * source text (string and char literals unquoted at the top level, `new T[]{...}` and
 * `new T(...)` re-rendered).
 */
import { PyException, type PyDict, type PyKey, type PyValue } from '../../py/value.js';
import { CstSyntaxError, field, type CstNode } from './cst.js';
import { parseJava } from './java-parser.js';
import { strSlice } from '../../py/str.js';

/**
 * `source_code[node.start_byte:node.end_byte]`.
 * BFCL parity: model_handler/parser/java_parser.py::get_text slices the str with tree-sitter's
 * UTF-8 *byte* offsets, so text after a non-ASCII character comes out shifted.
 */
class ByteSlicer {
  private readonly codePoints: string[];
  /** UTF-8 byte offset of each UTF-16 index (and of the end). */
  private readonly byteAt: number[];

  constructor(source: string) {
    this.codePoints = [...source];
    this.byteAt = new Array<number>(source.length + 1);
    let bytes = 0;
    for (let i = 0; i < source.length; i++) {
      this.byteAt[i] = bytes;
      const code = source.charCodeAt(i);
      if (code < 0x80) bytes += 1;
      else if (code < 0x800) bytes += 2;
      else if (code >= 0xd800 && code <= 0xdbff) bytes += 4;
      else if (code >= 0xdc00 && code <= 0xdfff) bytes += 0;
      else bytes += 3;
    }
    this.byteAt[source.length] = bytes;
  }

  text(n: CstNode): string {
    return this.codePoints.slice(this.byteAt[n.start], this.byteAt[n.end]).join('');
  }
}

const NOT_RENDERED_IN_OBJECT_ARGS = new Set([',', '(', ')']);

/** Java source → `[{name: {arg: text}}]`, `{}` when there is no call, or a SyntaxError. */
export function parseJavaFunctionCall(source: string): PyValue {
  let root: CstNode;
  try {
    root = parseJava(source);
  } catch (error) {
    if (error instanceof CstSyntaxError) throw new PyException('SyntaxError', 'Error parsing java the source code.');
    throw error;
  }
  const slicer = new ByteSlicer(source);
  const getText = (n: CstNode): string => slicer.text(n);

  const traverseNode = (n: CstNode | undefined, nested = false): string => {
    if (n === undefined) throw new PyException('AttributeError', "'NoneType' object has no attribute 'type'");
    switch (n.type) {
      case 'string_literal':
      case 'character_literal':
        return nested ? getText(n) : strSlice(getText(n), 1, -1);
      case 'identifier':
      case 'class_literal':
      case 'type_identifier':
      case 'method_invocation':
        return getText(n);
      case 'array_creation_expression':
        return `new ${traverseNode(field(n, 'type'), true)}[]${traverseNode(field(n, 'value'), true)}`;
      case 'object_creation_expression': {
        const typeText = traverseNode(field(n, 'type'), true);
        const args = field(n, 'arguments');
        if (args === undefined) return `new ${typeText}()`;
        const texts = args.children
          .filter((child) => !NOT_RENDERED_IN_OBJECT_ARGS.has(child.type))
          .map((child) => traverseNode(child, true));
        return `new ${typeText}(${texts.join(', ')})`;
      }
    }
    if (n.children.length > 0) return n.children.map((child) => traverseNode(child, true)).join('');
    return getText(n);
  };

  /** Arguments by name; positional identifiers and class literals under a `None` key. */
  const extractArguments = (argsNode: CstNode): Map<PyKey, string[]> => {
    const args = new Map<PyKey, string[]>();
    const add = (key: PyKey, value: string): void => {
      const existing = args.get(key);
      if (existing === undefined) args.set(key, [value]);
      else existing.push(value);
    };
    for (const child of argsNode.children) {
      if (child.type === 'assignment_expression') {
        add(getText(child.children[0]!), traverseNode(child.children[2]));
      } else if (child.type === 'identifier' || child.type === 'class_literal') {
        add(null, traverseNode(child));
      }
    }
    return args;
  };

  const traverse = (n: CstNode): PyValue[] | undefined => {
    if (n.type === 'method_invocation') {
      const methodName = getText(field(n, 'name')!);
      const object = field(n, 'object');
      const functionName = object !== undefined ? `${getText(object)}.${methodName}` : methodName;
      const argsNode = field(n, 'arguments');
      if (argsNode === undefined) return undefined;
      const collected = extractArguments(argsNode);
      const args: PyDict = new Map();
      for (const [key, values] of collected) {
        // BFCL parity: java_parser.py — a repeated argument name is an error.
        if (values.length > 1) {
          throw new PyException('Exception', 'Error: Multiple arguments with the same name are not supported.');
        }
        args.set(key, values[0]!);
      }
      return [new Map([[functionName, args]])];
    }
    for (const child of n.children) {
      const result = traverse(child);
      if (result !== undefined && result.length > 0) return result;
    }
    return undefined;
  };

  return traverse(root) ?? new Map();
}

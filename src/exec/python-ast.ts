/**
 * Python expression AST, shaped like CPython's `ast` module (3.12) for the expression subset.
 *
 * Every node's `type` is the Python class name, so a caller can report
 * `Unsupported AST type: <class 'ast.Attribute'>` exactly as the reference does.
 * `start`/`end` are offsets into the source string given to the parser (JS string indices,
 * end exclusive) and `lineno` is the 1-based line of the node's first token.
 */
import { PyObject, type PyValue } from '../py/value.js';

/** Where a node came from in the parsed source. */
export interface SourceSpan {
  readonly start: number;
  readonly end: number;
  readonly lineno: number;
  readonly endLineno: number;
}

export type UnaryOperator = 'UAdd' | 'USub' | 'Not' | 'Invert';
export type BinaryOperator =
  | 'Add'
  | 'Sub'
  | 'Mult'
  | 'MatMult'
  | 'Div'
  | 'FloorDiv'
  | 'Mod'
  | 'Pow'
  | 'LShift'
  | 'RShift'
  | 'BitOr'
  | 'BitXor'
  | 'BitAnd';
export type BooleanOperator = 'And' | 'Or';
export type CompareOperator = 'Eq' | 'NotEq' | 'Lt' | 'LtE' | 'Gt' | 'GtE' | 'Is' | 'IsNot' | 'In' | 'NotIn';

export interface ConstantNode extends SourceSpan {
  readonly type: 'Constant';
  /** None/bool/int/float/str, `PY_ELLIPSIS`, or a `PyBytes` / `PyComplex` object. */
  readonly value: PyValue;
  /** `'u'` when the (first) string literal had a `u` prefix, as `ast.Constant.kind`. */
  readonly kind: 'u' | null;
}
export interface NameNode extends SourceSpan {
  readonly type: 'Name';
  readonly id: string;
}
export interface AttributeNode extends SourceSpan {
  readonly type: 'Attribute';
  readonly value: ExprNode;
  readonly attr: string;
}
/** A keyword argument; `arg` is null for `**mapping`. */
export interface KeywordNode extends SourceSpan {
  readonly type: 'keyword';
  readonly arg: string | null;
  readonly value: ExprNode;
}
export interface CallNode extends SourceSpan {
  readonly type: 'Call';
  readonly func: ExprNode;
  readonly args: readonly ExprNode[];
  readonly keywords: readonly KeywordNode[];
}
export interface ListNode extends SourceSpan {
  readonly type: 'List';
  readonly elts: readonly ExprNode[];
}
export interface TupleNode extends SourceSpan {
  readonly type: 'Tuple';
  readonly elts: readonly ExprNode[];
}
export interface SetNode extends SourceSpan {
  readonly type: 'Set';
  readonly elts: readonly ExprNode[];
}
/** A dict display; a null key stands for a `**mapping` entry. */
export interface DictNode extends SourceSpan {
  readonly type: 'Dict';
  readonly keys: readonly (ExprNode | null)[];
  readonly values: readonly ExprNode[];
}
export interface UnaryOpNode extends SourceSpan {
  readonly type: 'UnaryOp';
  readonly op: UnaryOperator;
  readonly operand: ExprNode;
}
export interface BinOpNode extends SourceSpan {
  readonly type: 'BinOp';
  readonly left: ExprNode;
  readonly op: BinaryOperator;
  readonly right: ExprNode;
}
export interface BoolOpNode extends SourceSpan {
  readonly type: 'BoolOp';
  readonly op: BooleanOperator;
  readonly values: readonly ExprNode[];
}
export interface CompareNode extends SourceSpan {
  readonly type: 'Compare';
  readonly left: ExprNode;
  readonly ops: readonly CompareOperator[];
  readonly comparators: readonly ExprNode[];
}
export interface SubscriptNode extends SourceSpan {
  readonly type: 'Subscript';
  readonly value: ExprNode;
  readonly slice: ExprNode;
}
export interface SliceNode extends SourceSpan {
  readonly type: 'Slice';
  readonly lower: ExprNode | null;
  readonly upper: ExprNode | null;
  readonly step: ExprNode | null;
}
export interface StarredNode extends SourceSpan {
  readonly type: 'Starred';
  readonly value: ExprNode;
}
export interface IfExpNode extends SourceSpan {
  readonly type: 'IfExp';
  readonly test: ExprNode;
  readonly body: ExprNode;
  readonly orelse: ExprNode;
}
export interface NamedExprNode extends SourceSpan {
  readonly type: 'NamedExpr';
  readonly target: NameNode;
  readonly value: ExprNode;
}
/** One lambda parameter (`ast.arg`). */
export interface ArgNode extends SourceSpan {
  readonly type: 'arg';
  readonly arg: string;
}
/** Lambda parameters (`ast.arguments`); defaults align with the tail of posonlyargs + args. */
export interface ArgumentsNode {
  readonly type: 'arguments';
  readonly posonlyargs: readonly ArgNode[];
  readonly args: readonly ArgNode[];
  readonly vararg: ArgNode | null;
  readonly kwonlyargs: readonly ArgNode[];
  readonly kwDefaults: readonly (ExprNode | null)[];
  readonly kwarg: ArgNode | null;
  readonly defaults: readonly ExprNode[];
}
export interface LambdaNode extends SourceSpan {
  readonly type: 'Lambda';
  readonly args: ArgumentsNode;
  readonly body: ExprNode;
}
/** One `for ... in ... if ...` clause of a comprehension. */
export interface ComprehensionNode {
  readonly type: 'comprehension';
  readonly target: ExprNode;
  readonly iter: ExprNode;
  readonly ifs: readonly ExprNode[];
  readonly isAsync: boolean;
}
export interface ListCompNode extends SourceSpan {
  readonly type: 'ListComp';
  readonly elt: ExprNode;
  readonly generators: readonly ComprehensionNode[];
}
export interface SetCompNode extends SourceSpan {
  readonly type: 'SetComp';
  readonly elt: ExprNode;
  readonly generators: readonly ComprehensionNode[];
}
export interface GeneratorExpNode extends SourceSpan {
  readonly type: 'GeneratorExp';
  readonly elt: ExprNode;
  readonly generators: readonly ComprehensionNode[];
}
export interface DictCompNode extends SourceSpan {
  readonly type: 'DictComp';
  readonly key: ExprNode;
  readonly value: ExprNode;
  readonly generators: readonly ComprehensionNode[];
}
export interface AwaitNode extends SourceSpan {
  readonly type: 'Await';
  readonly value: ExprNode;
}
export interface YieldNode extends SourceSpan {
  readonly type: 'Yield';
  readonly value: ExprNode | null;
}
export interface YieldFromNode extends SourceSpan {
  readonly type: 'YieldFrom';
  readonly value: ExprNode;
}
/** An f-string. */
export interface JoinedStrNode extends SourceSpan {
  readonly type: 'JoinedStr';
  /** Constant (str) and FormattedValue parts. */
  readonly values: readonly ExprNode[];
}
/** One `{expr!c:spec}` replacement field of an f-string. */
export interface FormattedValueNode extends SourceSpan {
  readonly type: 'FormattedValue';
  readonly value: ExprNode;
  /** -1, or the code point of `s`, `r` or `a`. */
  readonly conversion: number;
  readonly formatSpec: JoinedStrNode | null;
}

/** Any Python expression node. */
export type ExprNode =
  | ConstantNode
  | NameNode
  | AttributeNode
  | CallNode
  | ListNode
  | TupleNode
  | SetNode
  | DictNode
  | UnaryOpNode
  | BinOpNode
  | BoolOpNode
  | CompareNode
  | SubscriptNode
  | SliceNode
  | StarredNode
  | IfExpNode
  | NamedExprNode
  | LambdaNode
  | ListCompNode
  | SetCompNode
  | GeneratorExpNode
  | DictCompNode
  | AwaitNode
  | YieldNode
  | YieldFromNode
  | JoinedStrNode
  | FormattedValueNode;

/** The Python class name of a node, as `type(node).__name__`. */
export type ExprNodeType = ExprNode['type'];

/** `str(type(node))` in Python, e.g. `<class 'ast.Attribute'>`. */
export function astClassRepr(node: { readonly type: string }): string {
  return `<class 'ast.${node.type}'>`;
}

// ---------------------------------------------------------------------------------------------
// Literal values that the shared value model does not cover

/** A Python `bytes` value (from a `b'...'` literal). */
export class PyBytes extends PyObject {
  readonly pyTypeName = 'bytes';
  constructor(readonly bytes: Uint8Array) {
    super();
  }
  /** Python `repr(b)`: single quotes unless the bytes hold `'` and no `"`. */
  pyRepr(): string {
    const hasSingle = this.bytes.includes(0x27);
    const hasDouble = this.bytes.includes(0x22);
    const quote = hasSingle && !hasDouble ? '"' : "'";
    let out = 'b' + quote;
    for (const b of this.bytes) {
      if (b === quote.charCodeAt(0) || b === 0x5c) out += '\\' + String.fromCharCode(b);
      else if (b === 0x09) out += '\\t';
      else if (b === 0x0a) out += '\\n';
      else if (b === 0x0d) out += '\\r';
      else if (b < 0x20 || b >= 0x7f) out += '\\x' + b.toString(16).padStart(2, '0');
      else out += String.fromCharCode(b);
    }
    return out + quote;
  }
  override pyEquals(other: PyValue): boolean {
    return (
      other instanceof PyBytes &&
      other.bytes.length === this.bytes.length &&
      other.bytes.every((b, i) => b === this.bytes[i])
    );
  }
}


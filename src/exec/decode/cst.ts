/**
 * A concrete syntax tree shaped like tree-sitter's: every node has a type name (tree-sitter's
 * node type, or the token text for anonymous tokens), a source span, its children in order
 * (anonymous tokens included) and the named fields tree-sitter exposes.
 *
 * The Java and JavaScript decoders of the reference walk tree-sitter trees and read node types,
 * fields and source text; the hand-made parsers build this structure so the same walk applies.
 */

export interface CstNode {
  readonly type: string;
  /** Span in the parsed source (UTF-16 indices, end exclusive). */
  readonly start: number;
  readonly end: number;
  readonly children: CstNode[];
  readonly fields: ReadonlyMap<string, CstNode>;
}

/** A leaf (a token). */
export function leaf(type: string, start: number, end: number): CstNode {
  return { type, start, end, children: [], fields: new Map() };
}

/** An inner node spanning its children. `fields` name some of the children. */
export function node(type: string, children: CstNode[], fields: Record<string, CstNode> = {}): CstNode {
  const first = children[0];
  const last = children[children.length - 1];
  return {
    type,
    start: first?.start ?? 0,
    end: last?.end ?? 0,
    children,
    fields: new Map(Object.entries(fields)),
  };
}

/** tree-sitter's `child_by_field_name`. */
export function field(n: CstNode, name: string): CstNode | undefined {
  return n.fields.get(name);
}

/**
 * Put comment tokens back into the tree as tree-sitter does with "extras": each comment becomes a
 * child of the smallest node that encloses it, in source order.
 */
export function attachComments(root: CstNode, comments: readonly CstNode[]): void {
  for (const comment of comments) insertInto(root, comment);
}

function insertInto(parent: CstNode, comment: CstNode): void {
  for (const child of parent.children) {
    if (child.children.length > 0 && child.start < comment.start && comment.end <= child.end) {
      insertInto(child, comment);
      return;
    }
  }
  const index = parent.children.findIndex((child) => child.start >= comment.end);
  if (index < 0) parent.children.push(comment);
  else parent.children.splice(index, 0, comment);
}

/** A syntax error in the hand-made parsers (tree-sitter would have produced an ERROR node). */
export class CstSyntaxError extends Error {
  constructor(readonly position: number) {
    super(`syntax error at ${position}`);
  }
}

/** Length of a valid escape sequence at `i` (a backslash), or -1: `\u` and `\x` need hex digits. */
export function escapeLength(source: string, i: number): number {
  const next = source[i + 1];
  if (next === 'u') {
    const m = /^u(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]+\})/.exec(source.slice(i + 1, i + 16));
    return m === null ? -1 : 1 + m[0].length;
  }
  if (next === 'x') return /^x[0-9a-fA-F]{2}/.test(source.slice(i + 1, i + 4)) ? 4 : -1;
  if (next === '\r' && source[i + 2] === '\n') return 3;
  return next === undefined ? -1 : 2;
}

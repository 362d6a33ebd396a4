/**
 * The token cursor shared by the hand-made Java and JavaScript parsers: lookahead, expectations,
 * identifiers (words that are not reserved), bracket lookahead and backtracking.
 */
import { CstSyntaxError, type CstNode } from './cst.js';

/** What the cursor reads of a token. */
export interface CursorToken {
  readonly kind: string;
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

export abstract class TokenCursor<T extends CursorToken> {
  protected pos = 0;

  constructor(
    protected readonly source: string,
    protected readonly tokens: readonly T[],
    /** Words that are never identifiers in the language. */
    private readonly reserved: ReadonlySet<string>,
  ) {}

  /** The current token as a leaf node, moving past it. */
  protected abstract take(): CstNode;

  protected peek(offset = 0): T | undefined {
    return this.tokens[this.pos + offset];
  }

  /** Whether the token at `offset` is the operator or word `text`. */
  protected is(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t !== undefined && (t.kind === 'op' || t.kind === 'word') && t.text === text;
  }

  protected fail(): never {
    throw new CstSyntaxError(this.peek()?.start ?? this.source.length);
  }

  protected expect(text: string): CstNode {
    if (!this.is(text)) this.fail();
    return this.take();
  }

  /** Whether the token is an identifier (a word that is not reserved). */
  protected isIdentifier(offset = 0): boolean {
    const t = this.peek(offset);
    return t !== undefined && t.kind === 'word' && !this.reserved.has(t.text);
  }

  /** Whether the bracket at `offset` is closed and followed by `text` (a cheap lookahead). */
  protected closedAndFollowedBy(text: string, offset = 0): boolean {
    let depth = 0;
    for (let k = this.pos + offset; k < this.tokens.length; k++) {
      const t = this.tokens[k]!;
      if (t.kind !== 'op') continue;
      if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
      else if (t.text === ')' || t.text === ']' || t.text === '}') {
        depth--;
        if (depth === 0) {
          const next = this.tokens[k + 1];
          return next !== undefined && next.kind === 'op' && next.text === text;
        }
      }
    }
    return false;
  }

  /** Run `attempt`; on a syntax error restore the position and return undefined. */
  protected tryParse<R>(attempt: () => R): R | undefined {
    const saved = this.pos;
    try {
      return attempt();
    } catch (error) {
      if (!(error instanceof CstSyntaxError)) throw error;
      this.pos = saved;
      return undefined;
    }
  }
}

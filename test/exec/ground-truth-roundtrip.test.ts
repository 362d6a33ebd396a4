import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExprNode } from '../../src/exec/python-ast.js';
import { evaluateLiteral } from '../../src/exec/python-literal.js';
import { parsePythonExpression } from '../../src/exec/python-parser.js';
import { unparseExpression } from '../../src/exec/python-unparse.js';
import { pyEquals, type PyValue } from '../../src/py/value.js';

const dataDir = process.env.BFCL_DATA_DIR;

/** Every ground-truth call string of the official multi-turn possible answers, in file order. */
function groundTruthCalls(dir: string): string[] {
  const answerDir = join(dir, 'possible_answer');
  const files = readdirSync(answerDir)
    .filter((f) => /^BFCL_v4_multi_turn_.*\.json$/.test(f))
    .sort();
  const calls: string[] = [];
  for (const file of files) {
    for (const line of readFileSync(join(answerDir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const entry = JSON.parse(line) as { ground_truth: string[][] };
      for (const turn of entry.ground_truth) calls.push(...turn);
    }
  }
  return calls;
}

function parseOrThrow(source: string): ExprNode {
  const r = parsePythonExpression(source);
  if (!r.ok) throw new Error(`${source}: ${r.error.message}`);
  return r.node;
}

/** A comparable view of a call: dotted name, positional args and keyword name/value pairs. */
function describeCall(node: ExprNode): { name: string; args: string[]; keywords: [string | null, PyValue | string][] } {
  if (node.type !== 'Call') throw new Error(`not a call: ${node.type}`);
  const value = (v: ExprNode): PyValue | string => {
    try {
      return evaluateLiteral(v);
    } catch {
      return `<${unparseExpression(v)}>`;
    }
  };
  return {
    name: unparseExpression(node.func),
    args: node.args.map(unparseExpression),
    keywords: node.keywords.map((k) => [k.arg, value(k.value)]),
  };
}

describe.skipIf(!dataDir)('multi-turn ground-truth calls', () => {
  const calls = dataDir ? groundTruthCalls(dataDir) : [];

  it('has the 4625 calls of the official data', () => {
    expect(calls.length).toBe(4625);
  });

  it('parses every call and unparses it exactly as CPython 3.12 ast.unparse does', () => {
    const unparsed = calls.map((c) => unparseExpression(parseOrThrow(c)));
    // sha256 of "\n".join(ast.unparse(ast.parse(c, mode="eval")) for c in calls), computed once
    // with CPython 3.12.1 over the same files in the same order.
    const digest = createHash('sha256').update(unparsed.join('\n'), 'utf8').digest('hex');
    expect(digest).toBe('afd5a1bb81128df67fd6e52e032fb3f3a76d01b2c44885e05d2fc45369ed69f1');
  });

  it('reaches a fixed point and keeps names, arguments and values through unparse', () => {
    for (const call of calls) {
      const node = parseOrThrow(call);
      const text = unparseExpression(node);
      const again = parseOrThrow(text);
      expect(unparseExpression(again)).toBe(text);
      const before = describeCall(node);
      const after = describeCall(again);
      expect(after.name).toBe(before.name);
      expect(after.args).toEqual(before.args);
      expect(after.keywords.map((k) => k[0])).toEqual(before.keywords.map((k) => k[0]));
      after.keywords.forEach(([, v], i) => {
        const original = before.keywords[i]![1];
        const same = typeof v === 'string' && typeof original === 'string' ? v === original : pyEquals(v, original);
        if (!same) throw new Error(`value of ${String(before.keywords[i]![0])} changed in ${call}`);
      });
    }
  });
});

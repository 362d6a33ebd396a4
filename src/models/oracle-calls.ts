/**
 * The oracle's multi-turn answers: a ground-truth call string such as `cd(folder='document')` or
 * `sort('file.txt')` turned into a function name and keyword arguments, positional arguments named
 * after the function doc's parameters in their documented order.
 */

import { evaluateLiteral } from '../exec/python-literal.js';
import { parsePythonExpression } from '../exec/python-parser.js';
import type { PyDict, PyValue } from '../py/value.js';
import type { ConcreteCall } from './oracle-answers.js';

/** Parse one ground-truth call; throws when it is not `name(literal args...)` or names an unknown function. */
export function groundTruthCall(call: string, functionDocs: readonly PyValue[]): ConcreteCall {
  const parsed = parsePythonExpression(call);
  if (!parsed.ok) throw new Error(`oracle: cannot parse ground-truth call ${call}: ${parsed.error.message}`);
  const node = parsed.node;
  if (node.type !== 'Call' || node.func.type !== 'Name') throw new Error(`oracle: not a plain function call: ${call}`);
  const name = node.func.id;
  const args: PyDict = new Map();
  if (node.args.length > 0) {
    const params = documentedParams(name, functionDocs);
    node.args.forEach((arg, i) => {
      const param = params[i];
      if (param === undefined) throw new Error(`oracle: ${call} passes more positional arguments than ${name} documents`);
      args.set(param, evaluateLiteral(arg));
    });
  }
  for (const keyword of node.keywords) {
    if (keyword.arg === null) throw new Error(`oracle: **kwargs in a ground-truth call: ${call}`);
    args.set(keyword.arg, evaluateLiteral(keyword.value));
  }
  return { name, args };
}

/** Parameter names of a function, in the order its doc lists them. */
function documentedParams(name: string, functionDocs: readonly PyValue[]): string[] {
  const doc = functionDocs.find((d) => d instanceof Map && d.get('name') === name);
  const properties = doc instanceof Map && doc.get('parameters') instanceof Map ? (doc.get('parameters') as PyDict).get('properties') : undefined;
  if (!(properties instanceof Map)) throw new Error(`oracle: no function doc for ${name}`);
  return [...properties.keys()].map(String);
}

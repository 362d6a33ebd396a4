import { pyRepr } from '../py/repr.js';
import { PyException, type PyValue } from '../py/value.js';
import { REQUIRED, type ParamSpec } from '../sim/simulated-api.js';

function quotedList(names: string[]): string {
  const quoted = names.map((n) => `'${n}'`);
  if (quoted.length === 1) return quoted[0]!;
  if (quoted.length === 2) return `${quoted[0]} and ${quoted[1]}`;
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted[quoted.length - 1]}`;
}

/**
 * Bind call arguments to a Python signature the way CPython does, with its error messages
 * (`X.f() got an unexpected keyword argument 'a'`, `... missing 1 required positional argument: 'b'`).
 * `qualname` is `ClassName.method`; the bound method's `self` counts in "takes N positional arguments".
 */
export function bindArguments(
  qualname: string,
  params: readonly ParamSpec[],
  positional: readonly PyValue[],
  keywords: readonly [string, PyValue][],
): PyValue[] {
  const bound: (PyValue | undefined)[] = new Array(params.length).fill(undefined);
  positional.forEach((value, i) => {
    if (i < params.length) bound[i] = value;
  });
  for (const [name, value] of keywords) {
    const index = params.findIndex((p) => p.name === name);
    if (index < 0) throw new PyException('TypeError', `${qualname}() got an unexpected keyword argument ${pyRepr(name)}`);
    if (bound[index] !== undefined) {
      throw new PyException('TypeError', `${qualname}() got multiple values for argument ${pyRepr(name)}`);
    }
    bound[index] = value;
  }
  if (positional.length > params.length) {
    const required = params.filter((p) => p.default === REQUIRED).length;
    const takes =
      required === params.length
        ? `${params.length + 1} positional argument${params.length + 1 === 1 ? '' : 's'}`
        : `from ${required + 1} to ${params.length + 1} positional arguments`;
    const given = positional.length + 1;
    throw new PyException('TypeError', `${qualname}() takes ${takes} but ${given} ${given === 1 ? 'was' : 'were'} given`);
  }
  const missing = params.filter((p, i) => bound[i] === undefined && p.default === REQUIRED).map((p) => p.name);
  if (missing.length > 0) {
    const noun = missing.length === 1 ? 'argument' : 'arguments';
    throw new PyException(
      'TypeError',
      `${qualname}() missing ${missing.length} required positional ${noun}: ${quotedList(missing)}`,
    );
  }
  return params.map((p, i) => {
    const value = bound[i];
    if (value !== undefined) return value;
    return p.default as PyValue; // REQUIRED was ruled out above; mutable defaults are shared on purpose
  });
}

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
 * `className.method` is the qualified name the messages use (put together only for one); the
 * bound method's `self` counts in "takes N positional arguments".
 */
export function bindArguments(
  className: string,
  method: string,
  params: readonly ParamSpec[],
  positional: readonly PyValue[],
  keywords: readonly [string, PyValue][],
): PyValue[] {
  // Index loops, no closures: this runs for every simulated call, mostly in V8's unoptimized tiers,
  // where `for...of` and destructuring allocate an iterator and a result object per step.
  const bound: (PyValue | undefined)[] = new Array(params.length).fill(undefined);
  for (let i = 0; i < positional.length && i < params.length; i++) bound[i] = positional[i];
  for (let k = 0; k < keywords.length; k++) {
    const name = keywords[k]![0];
    let index = 0;
    while (index < params.length && params[index]!.name !== name) index++;
    if (index === params.length) throw new PyException('TypeError', `${className}.${method}() got an unexpected keyword argument ${pyRepr(name)}`);
    if (bound[index] !== undefined) {
      throw new PyException('TypeError', `${className}.${method}() got multiple values for argument ${pyRepr(name)}`);
    }
    bound[index] = keywords[k]![1];
  }
  if (positional.length > params.length) {
    const required = params.filter((p) => p.default === REQUIRED).length;
    const takes =
      required === params.length
        ? `${params.length + 1} positional argument${params.length + 1 === 1 ? '' : 's'}`
        : `from ${required + 1} to ${params.length + 1} positional arguments`;
    const given = positional.length + 1;
    throw new PyException('TypeError', `${className}.${method}() takes ${takes} but ${given} ${given === 1 ? 'was' : 'were'} given`);
  }
  // An unbound parameter takes its default (mutable defaults are shared on purpose), unless it has
  // none: the call then fails naming every such parameter (the list is made only for the message).
  for (let i = 0; i < params.length; i++) {
    if (bound[i] !== undefined) continue;
    if (isMissing(params, bound, i)) {
      const missing = params.filter((_, j) => isMissing(params, bound, j)).map((p) => p.name);
      const noun = missing.length === 1 ? 'argument' : 'arguments';
      throw new PyException(
        'TypeError',
        `${className}.${method}() missing ${missing.length} required positional ${noun}: ${quotedList(missing)}`,
      );
    }
    bound[i] = params[i]!.default as PyValue;
  }
  return bound as PyValue[];
}

/** Whether parameter `i` is required and got no argument (defaults given to earlier ones are not required). */
function isMissing(params: readonly ParamSpec[], bound: readonly (PyValue | undefined)[], i: number): boolean {
  return bound[i] === undefined && params[i]!.default === REQUIRED;
}

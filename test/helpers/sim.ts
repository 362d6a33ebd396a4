/** Shared set-up of the simulated-API tests: instances, calls made as the executor makes them, results as it shows them. */
import { bindArguments } from '../../src/exec/bind-arguments.js';
import { serializeResult } from '../../src/exec/serialize-result.js';
import { PyException, pyDict, type PyValue } from '../../src/py/value.js';
import type { SimContext, SimulatedApi } from '../../src/sim/simulated-api.js';

export { raised } from './python.js';

/** A context without long-context filler. */
export const EMPTY_CONTEXT: SimContext = { longContext: new Map() };

/** A fresh instance after `_load_scenario(scenario, longContext)`. */
export function loadSim<T extends SimulatedApi>(
  create: (ctx: SimContext) => T,
  scenario: Record<string, PyValue> = {},
  longContext = false,
  ctx: SimContext = EMPTY_CONTEXT,
): T {
  const instance = create(ctx);
  instance._loadScenario(pyDict(scenario), longContext);
  return instance;
}

/** The result as the executor shows it: str as is, dicts through json.dumps, the rest through str(). */
export const show = (value: PyValue): string => serializeResult(value);

/** The result as the executor shows it, or `raises <Type>: <message>`. */
export function shownOrRaised(fn: () => PyValue): string {
  try {
    return serializeResult(fn());
  } catch (error) {
    if (error instanceof PyException) return `raises ${error.pyType}: ${error.message}`;
    throw error;
  }
}

/** Call a method the way the executor does: keyword arguments bound to `_signatures`. */
export function callMethod(instance: SimulatedApi, method: string, kwargs: Record<string, PyValue> = {}): PyValue {
  const args = bindArguments(instance._className, method, instance._signatures[method]!, [], Object.entries(kwargs));
  const fn = (instance as unknown as Record<string, (...a: PyValue[]) => PyValue>)[method]!;
  return fn.apply(instance, args);
}

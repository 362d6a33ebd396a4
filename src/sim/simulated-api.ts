import { dictGetOr } from '../py/ops.js';
import { PyTuple, type PyDict, type PyValue } from '../py/value.js';
import { expectDict, expectList } from './scenario.js';

/** Marks a parameter without a default value (a required Python parameter). */
export const REQUIRED: unique symbol = Symbol('required');

/** One parameter of a simulated method, as in the reference's Python signature. */
export interface ParamSpec {
  readonly name: string;
  /** The Python default; `REQUIRED` when there is none. Mutable defaults are shared, as in Python. */
  readonly default: PyValue | typeof REQUIRED;
}

/** Python signature of every public method of a class, in class definition order. */
export type MethodSignatures = Readonly<Record<string, readonly ParamSpec[]>>;

/** Shorthand for a required parameter. */
export const req = (name: string): ParamSpec => ({ name, default: REQUIRED });
/** Shorthand for a parameter with a default. */
export const opt = (name: string, defaultValue: PyValue): ParamSpec => ({ name, default: defaultValue });

/**
 * The long-context filler lists (the reference's long_context.py), read from `long_context.json`
 * of the data directory. Keys are the Python constant names, e.g. `WATCH_LIST_EXTENSION`.
 */
export type LongContextData = PyDict;

/** What a simulated class needs from outside: only the long-context filler. */
export interface SimContext {
  readonly longContext: LongContextData;
}

/**
 * A context whose long-context filler is loaded on first use: only long-context entries read it,
 * and a run without them need not parse the file.
 */
export function lazySimContext(load: () => LongContextData): SimContext {
  let loaded: LongContextData | undefined;
  return {
    get longContext(): LongContextData {
      loaded ??= load();
      return loaded;
    },
  };
}

/**
 * Base of the eight simulated APIs.
 *
 * Rules every subclass follows so that the executor and the state checker can treat them alike:
 * - public state = own fields whose names do not start with `_`, declared in the order in which
 *   the reference's `vars(instance)` lists them; everything private starts with `_`;
 * - every public method is listed in `signatures` with its Python parameters and takes its
 *   arguments positionally in that order (the executor binds keyword arguments);
 * - methods return Python values (`PyValue`) and raise `PyException` where Python would raise.
 */
export abstract class SimulatedApi {
  /** The reference's class name, e.g. `GorillaFileSystem`. */
  abstract readonly _className: string;
  /** Python signatures of the public methods. */
  abstract readonly _signatures: MethodSignatures;

  constructor(private readonly _ctx: SimContext) {}

  /** The long-context filler, read only when an entry needs it (the context may load it lazily). */
  protected get _filler(): LongContextData {
    return this._ctx.longContext;
  }

  /** The reference's `_load_scenario(scenario, long_context)`. Stateless classes do nothing. */
  abstract _loadScenario(scenario: PyDict, longContext: boolean): void;

  /**
   * `scenario.get(key, fallback)` for a state value that the methods use as a dict. The default is
   * built only when the scenario lacks the key (most scenarios set it; building defaults for every
   * instance showed up in evaluation profiles).
   */
  protected _scenarioDict(scenario: PyDict, key: string, fallback: () => PyDict): PyDict {
    return expectDict(scenarioValue(scenario, key, fallback), `${this._className} scenario '${key}'`);
  }

  /** `scenario.get(key, fallback)` for a state value that the methods use as a list (default built lazily). */
  protected _scenarioList(scenario: PyDict, key: string, fallback: () => PyValue[]): PyValue[] {
    return expectList(scenarioValue(scenario, key, fallback), `${this._className} scenario '${key}'`);
  }

  /** `vars(instance)` without private names, in assignment order. */
  _publicState(): [string, PyValue][] {
    const state: [string, PyValue][] = [];
    const attributes = this as unknown as Record<string, PyValue>;
    for (const name in attributes) {
      if (isPublicAttribute(this, name)) state.push([name, attributes[name]!]);
    }
    return state;
  }
}

const UNDERSCORE = 0x5f;

/** Whether `name` is in `_publicState`: an own enumerable attribute whose name has no leading underscore. */
export function isPublicAttribute(instance: SimulatedApi, name: string): boolean {
  return name.charCodeAt(0) !== UNDERSCORE && Object.prototype.propertyIsEnumerable.call(instance, name);
}

/** A public attribute's value read in place (no `_publicState` list); undefined when the instance has none of that name. */
export function publicAttribute(instance: SimulatedApi, name: string): PyValue | undefined {
  return isPublicAttribute(instance, name) ? (instance as unknown as Record<string, PyValue>)[name] : undefined;
}

/** `scenario.get(key, fallback())`, calling `fallback` only when the key is missing. */
function scenarioValue(scenario: PyDict, key: string, fallback: () => PyValue): PyValue {
  const value = dictGetOr(scenario, key, MISSING);
  return value === MISSING ? fallback() : value;
}

/** A marker no scenario can hold. */
const MISSING: PyValue = new PyTuple([]);

import { pyBinaryOp, pyDeepCopy, pyUnaryOp } from '../py/operators.js';
import { hashKey } from '../py/ops.js';
import { PyException, PySet, PyTuple, pyTruthy, type PyDict, type PyKey, type PyValue } from '../py/value.js';
import { preparesCalls } from '../agentic/memory/call-preparer.js';
import { STATELESS_CLASSES } from '../sim/registry.js';
import type { SimContext, SimulatedApi } from '../sim/simulated-api.js';
import { BfclError, InternalError } from '../util/errors.js';
import { type AgenticBackends, createInstance, isAsyncInstance } from './agentic-instances.js';
import { bindArguments } from './bind-arguments.js';
import { METHOD_NAME, forbiddenCallNameOf, instanceName, prefixMethodCalls } from './call-rewrite.js';
import type { CallNode, ExprNode } from './python-ast.js';
import { ARITHMETIC_OPERATORS, UNARY_OPERATORS } from './decode/python-eval.js';
import { parsePythonEval, type ParseResult } from './python-parser.js';
import { parseSimpleCall } from './simple-call-parser.js';
import { executionErrorText, serializeResult } from './serialize-result.js';
import { snapshotState, type StateSnapshot } from './state-snapshot.js';

/** Everything that identifies one execution environment of one test entry. */
export interface ExecutorOptions {
  /** The reference's model name for instance naming, e.g. `gpt-4o_eval` or `x_ground_truth_eval`. */
  readonly modelName: string;
  readonly entryId: string;
  readonly initialConfig: PyDict;
  readonly involvedClasses: readonly string[];
  /** `"long_context" in category` (or `composite`), as the reference decides it. */
  readonly longContext: boolean;
  readonly context: SimContext;
  /** What the agentic classes (memory, web search) are built with; unused by the eight simulated classes. */
  readonly agentic?: AgenticBackends;
}

type Callable = (...args: PyValue[]) => PyValue;

interface ResolvedCallee {
  /** The method's name (with the instance's `_className`, its qualified name in error messages). */
  readonly attr: string;
  readonly instance: SimulatedApi;
  readonly method: Callable;
  readonly params: SimulatedApi['_signatures'][string];
}

/** A parsed call string and what the reference's textual rewrite would change in its string literals. */
interface ParsedCall {
  readonly parsed: ParseResult;
  /** Identifiers followed by `(` inside string literals (rewritten when they are method names). */
  readonly namesCalledInStrings: readonly string[];
  /** A string literal holds `name (`: the rewrite drops that space whatever the name. */
  readonly stringsLoseSpaces: boolean;
}

/**
 * Method name → index of the involved class that owns it (later classes win when two share a
 * name, as in the reference's mapping), per list of involved classes: the lists repeat across
 * entries, and building the map for each executor was a tenth of its set-up.
 */
const methodOwnersByClasses = new Map<string, Map<string, number>>();

/** Method name → the reference instance name that owns it, for one entry's instances. */
class MethodOwners {
  constructor(
    private readonly ownerIndex: ReadonlyMap<string, number>,
    private readonly instanceNames: readonly string[],
  ) {}

  get(method: string): string | undefined {
    const index = this.ownerIndex.get(method);
    return index === undefined ? undefined : this.instanceNames[index];
  }

  has(method: string): boolean {
    return this.ownerIndex.has(method);
  }
}

const PARSE_CACHE_LIMIT = 50_000;
/** Ground-truth calls repeat across models and runs; parse each text once per process. */
const parseCache = new Map<string, ParsedCall>();

function stringConstants(node: unknown, out: string[]): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) stringConstants(child, out);
    return;
  }
  const record = node as Record<string, unknown>;
  if (record.type === 'Constant') {
    if (typeof record.value === 'string') out.push(record.value);
    return;
  }
  for (const key in record) if (key !== 'type') stringConstants(record[key], out);
}

/**
 * The parsed call for `text`; with `plainOnly`, undefined when the fast parser turns the text down
 * (and it was not parsed before).
 */
function parseCall(text: string, plainOnly: true): ParsedCall | undefined;
function parseCall(text: string, plainOnly?: false): ParsedCall;
function parseCall(text: string, plainOnly = false): ParsedCall | undefined {
  let cached = parseCache.get(text);
  if (cached !== undefined) return cached;
  const simple = parseSimpleCall(text);
  if (simple === undefined && plainOnly) return undefined;
  const parsed: ParseResult = simple === undefined ? parsePythonEval(text) : { ok: true, node: simple };
  const names: string[] = [];
  let stringsLoseSpaces = false;
  if (parsed.ok) {
    const strings: string[] = [];
    stringConstants(parsed.node, strings);
    for (const s of strings) {
      if (!s.includes('(')) continue; // the pattern needs a `(`
      for (const m of s.matchAll(METHOD_NAME)) {
        names.push(m[1]!);
        if (m[0] !== m[1]) stringsLoseSpaces = true;
      }
    }
  }
  cached = { parsed, namesCalledInStrings: names, stringsLoseSpaces };
  if (parseCache.size >= PARSE_CACHE_LIMIT) parseCache.clear();
  parseCache.set(text, cached);
  return cached;
}

/**
 * Executes call strings against the simulated instances of one test entry, as the reference's
 * `execute_multi_turn_func_call` does with one cached set of instances: state persists across
 * calls, steps and turns. The calls are parsed, never evaluated as code, and may reach only the
 * public methods of the involved instances.
 */
export class EntryExecutor {
  private readonly instances = new Map<string, SimulatedApi>();
  /** Reference instance name → instance, and method name → reference instance name. */
  private readonly instanceByName = new Map<string, SimulatedApi>();
  private instanceNameByMethod = new MethodOwners(new Map(), []);
  /** Some instance has asynchronous calls: only `executeAsync` may run this entry's calls. */
  private asyncInstances = false;

  constructor(private readonly options: ExecutorOptions) {}

  /** Create the instances on first use (the reference creates them on the first execution). */
  private ensureInstances(): void {
    if (this.instances.size > 0 || this.options.involvedClasses.length === 0) return;
    const { initialConfig, involvedClasses, longContext, context, modelName, entryId, agentic } = this.options;
    const classesKey = involvedClasses.join('\0');
    const known = methodOwnersByClasses.get(classesKey);
    const ownerIndex = known ?? new Map<string, number>();
    const names: string[] = [];
    for (const className of involvedClasses) {
      const instance = createInstance(className, context, agentic);
      if (isAsyncInstance(instance)) this.asyncInstances = true;
      if (!STATELESS_CLASSES.has(className)) {
        const config = initialConfig.get(className);
        const scenario = config instanceof Map ? pyDeepCopy(config) : new Map<PyKey, PyValue>();
        instance._loadScenario(scenario, longContext);
      }
      const name = instanceName(modelName, entryId, className);
      this.instances.set(className, instance);
      this.instanceByName.set(name, instance);
      if (known === undefined) for (const method of Object.keys(instance._signatures)) ownerIndex.set(method, names.length);
      names.push(name);
    }
    if (known === undefined) methodOwnersByClasses.set(classesKey, ownerIndex);
    this.instanceNameByMethod = new MethodOwners(ownerIndex, names);
  }

  /** The live instances by class name (created if needed). */
  getInstances(): ReadonlyMap<string, SimulatedApi> {
    this.ensureInstances();
    return this.instances;
  }

  /** Public state of every involved instance. */
  snapshot(): StateSnapshot {
    return snapshotState(this.getInstances());
  }

  /** Whether the entry's calls must go through `executeAsync` (agentic backends with network or embedder work). */
  needsAsync(): boolean {
    this.ensureInstances();
    return this.asyncInstances;
  }

  /** Execute call strings in order; one result string per call, errors included. */
  execute(calls: readonly string[]): string[] {
    this.ensureInstances();
    if (this.asyncInstances) throw new InternalError(`${this.options.entryId}: its instances have asynchronous calls; use executeAsync`);
    return calls.map((call) => this.executeOne(call));
  }

  /**
   * Execute call strings one after another in order, awaiting each call's asynchronous work (an
   * embedding before a vector search, a web request) before the next starts, as the reference
   * runs them. One result string per call: Python exceptions become `Error during execution: ...`
   * as in `execute`; harness errors (`BfclError`: a search service that refuses every request, a
   * cache miss in replay mode, an embedder failure) and aborts are thrown, never shown to the model.
   */
  async executeAsync(calls: readonly string[]): Promise<string[]> {
    this.ensureInstances();
    const results: string[] = [];
    for (const call of calls) results.push(await this.executeOneAsync(call));
    return results;
  }

  /**
   * The reference prefixes method names with instance names in the text and eval()s it. We parse
   * the original text (cached) and resolve method names when calling; only when a string literal
   * contains a method call pattern — which the reference's rewrite edits too — is the rewritten
   * text parsed instead, so that the literal carries the same edited content. A text the fast
   * parser turns down (mostly a model's malformed call) goes straight to the full parser in its
   * rewritten form, which is what the reference evaluates: parsing the original first only to
   * find it broken cost a second full parse of each such call.
   */
  private parseForExecution(call: string): ExprNode {
    const original = parseCall(call, true);
    const rewritesStrings =
      original === undefined ||
      original.stringsLoseSpaces ||
      original.namesCalledInStrings.some((name) => this.instanceNameByMethod.has(name));
    const { parsed } = rewritesStrings || !original.parsed.ok ? parseCall(prefixMethodCalls(call, this.instanceNameByMethod)) : original;
    // eval()'s syntax rules and its "<string>" file name.
    if (!parsed.ok) throw new PyException(parsed.error.pyType, parsed.error.format('<string>'));
    return parsed.node;
  }

  private executeOne(call: string): string {
    try {
      const forbidden = forbiddenCallNameOf(call, this.instanceNameByMethod);
      if (forbidden !== undefined) throw new PyException('Exception', `Function call ${forbidden} is not allowed.`);
      return serializeResult(this.evaluate(this.parseForExecution(call)));
    } catch (error) {
      if (error instanceof PyException) return executionErrorText(error.message);
      if (error instanceof RangeError) return executionErrorText('maximum recursion depth exceeded');
      // A JS error here is a bug in a simulated class; the reference reports every exception as text.
      return executionErrorText(error instanceof Error ? error.message : String(error));
    }
  }

  private async executeOneAsync(call: string): Promise<string> {
    try {
      const forbidden = forbiddenCallNameOf(call, this.instanceNameByMethod);
      if (forbidden !== undefined) throw new PyException('Exception', `Function call ${forbidden} is not allowed.`);
      return serializeResult(await this.evaluateAsync(this.parseForExecution(call)));
    } catch (error) {
      if (error instanceof PyException) return executionErrorText(error.message);
      if (error instanceof BfclError || isAbortError(error)) throw error;
      if (error instanceof RangeError) return executionErrorText('maximum recursion depth exceeded');
      return executionErrorText(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * `evaluate` for the async path: the same rules and evaluation order, but calls are awaited.
   * A subtree without calls is evaluated synchronously (it cannot reach an instance).
   */
  private async evaluateAsync(node: ExprNode): Promise<PyValue> {
    if (!containsCall(node)) return this.evaluate(node);
    switch (node.type) {
      case 'List': {
        const items: PyValue[] = [];
        for (const e of node.elts) items.push(await this.evaluateAsync(e));
        return items;
      }
      case 'Tuple': {
        const items: PyValue[] = [];
        for (const e of node.elts) items.push(await this.evaluateAsync(e));
        return new PyTuple(items);
      }
      case 'Set': {
        const keys: PyKey[] = [];
        for (const e of node.elts) keys.push(hashKey(await this.evaluateAsync(e)));
        return new PySet(keys);
      }
      case 'Dict': {
        const dict: PyDict = new Map();
        for (let i = 0; i < node.keys.length; i++) {
          const keyNode = node.keys[i]!;
          const value = await this.evaluateAsync(node.values[i]!);
          if (keyNode === null) {
            if (!(value instanceof Map)) throw new PyException('TypeError', `'${typeof value}' object is not a mapping`);
            for (const [k, v] of value) dict.set(k, v);
          } else {
            dict.set(hashKey(await this.evaluateAsync(keyNode)), value);
          }
        }
        return dict;
      }
      case 'UnaryOp':
        return pyUnaryOp(UNARY_OPERATORS[node.op], await this.evaluateAsync(node.operand), pyTruthy);
      case 'BinOp': {
        const op = ARITHMETIC_OPERATORS[node.op];
        const left = await this.evaluateAsync(node.left);
        const right = await this.evaluateAsync(node.right);
        if (op === undefined) throw new PyException('TypeError', `unsupported operator ${node.op}`);
        return pyBinaryOp(op, left, right);
      }
      case 'Call':
        return this.callAsync(node);
      default:
        // The sync evaluator refuses these without evaluating their parts.
        return this.evaluate(node);
    }
  }

  private async callAsync(node: CallNode): Promise<PyValue> {
    const func = node.func;
    if (func.type === 'Attribute' && func.value.type !== 'Name') {
      // As resolveCallee: the value is evaluated (a call in it awaited), then the method refused.
      await this.evaluateAsync(func.value);
      throw new PyException('TypeError', `calling '.${func.attr}()' is not supported`);
    }
    const callee = this.resolveCallee(func);
    const positional: PyValue[] = [];
    for (const arg of node.args) {
      if (arg.type === 'Starred') pushStarred(positional, await this.evaluateAsync(arg.value));
      else positional.push(await this.evaluateAsync(arg));
    }
    const keywords: [string, PyValue][] = [];
    for (const kw of node.keywords) pushKeyword(keywords, callee, kw.arg, await this.evaluateAsync(kw.value));
    const args = bindArguments(callee.instance._className, callee.attr, callee.params, positional, keywords);
    // The vector memory embeds what a search needs before the (synchronous) search runs.
    if (preparesCalls(callee.instance)) await callee.instance._prepareCall(callee.attr, args);
    const result: unknown = callee.method.apply(callee.instance, args);
    return result instanceof Promise ? ((await result) as PyValue) : (result as PyValue);
  }

  private evaluate(node: ExprNode): PyValue {
    switch (node.type) {
      case 'Constant':
        return node.value;
      case 'List':
        return node.elts.map((e) => this.evaluate(e));
      case 'Tuple':
        return new PyTuple(node.elts.map((e) => this.evaluate(e)));
      case 'Set':
        return new PySet(node.elts.map((e) => hashKey(this.evaluate(e))));
      case 'Dict': {
        const dict: PyDict = new Map();
        node.keys.forEach((keyNode, i) => {
          const value = this.evaluate(node.values[i]!);
          if (keyNode === null) {
            if (!(value instanceof Map)) throw new PyException('TypeError', `'${typeof value}' object is not a mapping`);
            for (const [k, v] of value) dict.set(k, v);
          } else {
            dict.set(hashKey(this.evaluate(keyNode)), value);
          }
        });
        return dict;
      }
      case 'UnaryOp':
        return pyUnaryOp(UNARY_OPERATORS[node.op], this.evaluate(node.operand), pyTruthy);
      case 'BinOp': {
        const op = ARITHMETIC_OPERATORS[node.op];
        const left = this.evaluate(node.left);
        const right = this.evaluate(node.right);
        if (op === undefined) throw new PyException('TypeError', `unsupported operator ${node.op}`);
        return pyBinaryOp(op, left, right);
      }
      case 'Name':
        if (this.instanceByName.has(node.id)) {
          throw new PyException('TypeError', 'a simulated API instance cannot be used as a value');
        }
        throw new PyException('NameError', `name '${node.id}' is not defined`);
      case 'Call':
        return this.call(node);
      default:
        // The reference would evaluate any Python; we support only the literal-and-call subset.
        throw new PyException('SyntaxError', `unsupported expression (${node.type}) in a function call`);
    }
  }

  private boundMethod(instanceName: string, attr: string): ResolvedCallee {
    const instance = this.instanceByName.get(instanceName)!;
    const params = instance._signatures[attr];
    if (params === undefined) {
      throw new PyException('AttributeError', `'${instance._className}' object has no attribute '${attr}'`);
    }
    const method = (instance as unknown as Record<string, Callable>)[attr]!;
    return { attr, instance, method, params };
  }

  private resolveCallee(func: ExprNode): ResolvedCallee {
    if (func.type === 'Name') {
      // A method name as written by the model or ground truth: the reference's rewrite prefixed it.
      const owner = this.instanceNameByMethod.get(func.id);
      if (owner !== undefined) return this.boundMethod(owner, func.id);
      const instance = this.instanceByName.get(func.id);
      if (instance !== undefined) throw new PyException('TypeError', `'${instance._className}' object is not callable`);
      throw new PyException('NameError', `name '${func.id}' is not defined`);
    }
    if (func.type === 'Attribute' && func.value.type === 'Name') {
      if (!this.instanceByName.has(func.value.id)) throw new PyException('NameError', `name '${func.value.id}' is not defined`);
      return this.boundMethod(func.value.id, func.attr);
    }
    // Python evaluates the callee first, so its own errors (an unknown name...) come out first.
    if (func.type === 'Attribute') this.evaluate(func.value);
    // Methods of values (e.g. str.upper) are outside the subset the benchmark needs.
    throw new PyException('TypeError', `calling ${func.type === 'Attribute' ? `'.${func.attr}()'` : 'this expression'} is not supported`);
  }

  private call(node: CallNode): PyValue {
    const callee = this.resolveCallee(node.func);
    const positional: PyValue[] = [];
    // Index loops: every simulated call runs through here, mostly in V8's unoptimized tiers.
    for (let i = 0; i < node.args.length; i++) {
      const arg = node.args[i]!;
      if (arg.type === 'Starred') pushStarred(positional, this.evaluate(arg.value));
      else positional.push(this.evaluate(arg));
    }
    const keywords: [string, PyValue][] = [];
    for (let i = 0; i < node.keywords.length; i++) {
      const kw = node.keywords[i]!;
      pushKeyword(keywords, callee, kw.arg, this.evaluate(kw.value));
    }
    const args = bindArguments(callee.instance._className, callee.attr, callee.params, positional, keywords);
    return callee.method.apply(callee.instance, args);
  }
}

/** Whether a call appears anywhere in `node` (only then can its evaluation reach an instance). */
function containsCall(node: unknown): boolean {
  if (node === null || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some(containsCall);
  const record = node as Record<string, unknown>;
  if (record.type === 'Call') return true;
  if (record.type === 'Constant') return false;
  for (const key in record) if (key !== 'type' && containsCall(record[key])) return true;
  return false;
}

/** An abort of the run (Ctrl-C, a stopped run) as fetch and timers report it. */
function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** A `*value` argument: its items, as positional arguments. */
function pushStarred(positional: PyValue[], value: PyValue): void {
  if (Array.isArray(value)) positional.push(...value);
  else if (value instanceof PyTuple) positional.push(...value.items);
  else throw new PyException('TypeError', `argument after * must be an iterable`);
}

/** A `name=value` argument, or (`name` null) a `**value` mapping's items, as keyword arguments. */
function pushKeyword(keywords: [string, PyValue][], callee: { readonly instance: { readonly _className: string }; readonly attr: string }, name: string | null, value: PyValue): void {
  if (name !== null) {
    keywords.push([name, value]);
  } else if (value instanceof Map) {
    for (const [k, v] of value) {
      if (typeof k !== 'string') throw new PyException('TypeError', 'keywords must be strings');
      keywords.push([k, v]);
    }
  } else {
    throw new PyException('TypeError', `${callee.instance._className}.${callee.attr}() argument after ** must be a mapping`);
  }
}

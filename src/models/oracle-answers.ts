/**
 * The oracle's single-turn answers: from a possible answer `[{name: {param: [acceptable values]}}]`,
 * one call per expected function with the first acceptable value of each parameter. Java and
 * JavaScript values are written as the source text a model would send; the checker's type
 * converters turn that text back into the expected values.
 */

import { floatRepr } from '../py/repr.js';
import type { PyDict, PyKey, PyValue } from '../py/value.js';

/** Which language's value conventions the answer follows (by test category). */
export type AnswerLanguage = 'python' | 'java' | 'javascript';

/** The empty string marks an optional parameter (or dict key) in possible answers. */
const OPTIONAL_MARKER = '';

/** What a function doc says about one parameter. */
interface ParamDoc {
  readonly type: string;
  readonly itemsType: string | undefined;
  readonly required: boolean;
}

/** One expected call made concrete: name and arguments in the possible answer's order. */
export interface ConcreteCall {
  readonly name: string;
  readonly args: PyDict;
}

/** How optional parameters and dict keys (`""` among the acceptable values) are answered. */
export interface AnswerOptions {
  /**
   * Pass them too, with their first other acceptable value (left out when there is none). By default
   * they are left out, as the oracle answers.
   */
  readonly includeOptional?: boolean;
}

/**
 * The calls of a possible answer. Parameters the function's doc does not know are left out (a model
 * cannot pass them); optional ones (`""` among the acceptable values) are left out unless the doc
 * requires them, in which case the first other value (or `""` itself) is passed.
 */
export function answerCalls(
  functionDocs: readonly PyValue[],
  groundTruth: readonly PyValue[],
  language: AnswerLanguage,
  options: AnswerOptions = {},
): ConcreteCall[] {
  const includeOptional = options.includeOptional ?? false;
  return groundTruth.map((expected) => {
    const [name, params] = [...(expected as PyDict)][0]!;
    const doc = functionDocs.find((d) => d instanceof Map && d.get('name') === name);
    const args: PyDict = new Map();
    for (const [param, alternatives] of params as PyDict) {
      const info = doc instanceof Map ? paramDoc(doc, param as string) : undefined;
      if (info === undefined) continue;
      let value = firstAcceptable(alternatives, info.required, includeOptional);
      if (value === undefined) continue;
      value = concreteValue(value, info, includeOptional);
      if (language === 'java') value = javaSource(info.type, info.itemsType, value);
      else if (language === 'javascript') value = jsSource(info.type, value);
      args.set(param, value);
    }
    return { name: name as string, args };
  });
}

function paramDoc(doc: PyDict, param: string): ParamDoc | undefined {
  const parameters = doc.get('parameters');
  if (!(parameters instanceof Map)) return undefined;
  const properties = parameters.get('properties');
  const info = properties instanceof Map ? properties.get(param) : undefined;
  if (!(info instanceof Map)) return undefined;
  const items = info.get('items');
  const required = parameters.get('required');
  const documented = {
    type: String(info.get('type')),
    itemsType: items instanceof Map && typeof items.get('type') === 'string' ? (items.get('type') as string) : undefined,
    required: Array.isArray(required) && required.includes(param),
  };
  const description = info.get('description');
  return typeof description === 'string' ? withHintedTypes(documented, description) : documented;
}

// The language hint turns Java/JavaScript parameters into strings and names the original type in
// the description (data/language-hint.ts); the oracle reads it back, as a model would.
const HINTED_TYPE = / This is (?:Java|JavaScript) (\S+) type parameter in string representation\./;
const HINTED_ANY = / This parameter can be of any type of (?:Java|JavaScript) object in string representation\./;
const HINTED_ITEMS = / The list elements are of type (\S+); they are not in string representation\./;

function withHintedTypes(documented: ParamDoc, description: string): ParamDoc {
  if (documented.type !== 'string') return documented;
  const type = HINTED_ANY.test(description) ? 'any' : HINTED_TYPE.exec(description)?.[1];
  if (type === undefined) return documented;
  return { ...documented, type, itemsType: HINTED_ITEMS.exec(description)?.[1] ?? documented.itemsType };
}

/**
 * The first acceptable value, or undefined to leave the parameter out. A value that is not a list of
 * alternatives (a data slip) is taken as the value itself.
 */
function firstAcceptable(alternatives: PyValue, required: boolean, includeOptional: boolean): PyValue | undefined {
  if (!Array.isArray(alternatives)) return alternatives;
  const optional = alternatives.includes(OPTIONAL_MARKER);
  if (optional && !required && !includeOptional) return undefined;
  // `None` is an acceptable value like any other, so search by index rather than with `??`.
  const index = alternatives.findIndex((v) => v !== OPTIONAL_MARKER);
  if (index !== -1) return alternatives[index]!;
  return optional && required ? OPTIONAL_MARKER : undefined;
}

/** Possible dicts list the acceptable values of every key: take the first of each. */
function concreteDict(possible: PyDict, includeOptional: boolean): PyDict {
  const out: PyDict = new Map();
  for (const [key, alternatives] of possible) {
    const value = firstAcceptable(alternatives, false, includeOptional);
    if (value !== undefined) out.set(key as PyKey, value);
  }
  return out;
}

const DICT_TYPES = new Set(['dict', 'object', 'HashMap']);

function concreteValue(value: PyValue, info: ParamDoc, includeOptional: boolean): PyValue {
  if (value instanceof Map && DICT_TYPES.has(info.type)) return concreteDict(value, includeOptional);
  if (Array.isArray(value) && info.itemsType === 'dict') {
    return value.map((d) => (d instanceof Map ? concreteDict(d, includeOptional) : d));
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Java and JavaScript source text (see java-type-converter.ts and js-type-converter.ts)

const numberText = (v: PyValue): string => (typeof v === 'number' ? floatRepr(v) : String(v));

/** A literal the converter types by its form (HashMap values, JS dict and array elements). */
function literal(v: PyValue): string {
  if (typeof v === 'string') return `"${v}"`;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  return numberText(v);
}

const JAVA_ELEMENT_TYPE: Readonly<Record<string, string>> = { String: 'String', integer: 'int', long: 'long', char: 'char' };

function javaSource(type: string, itemsType: string | undefined, v: PyValue): string {
  // A string for a non-string type is a variable name: sent as it is.
  if (typeof v === 'string') return v;
  switch (type) {
    case 'long':
      return `${String(v)}L`;
    case 'float':
      return `${numberText(v)}f`;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'ArrayList': {
      const items = v as PyValue[];
      if (items.length === 0) return 'new ArrayList<>()';
      const quoted = itemsType === 'String' || itemsType === 'char';
      const elements = items.map((e) => (quoted ? `"${String(e)}"` : javaSource(itemsType ?? 'any', undefined, e)));
      return `new ArrayList<>(Arrays.asList(${elements.join(', ')}))`;
    }
    case 'Array': {
      // BFCL parity: java_type_converter.py::parse_array — elements are converted as they stand,
      // so String elements go without quotes.
      const elements = (v as PyValue[]).map((e) => javaSource(itemsType ?? 'any', undefined, e));
      return `new ${JAVA_ELEMENT_TYPE[itemsType ?? ''] ?? 'Object'}[]{${elements.join(', ')}}`;
    }
    case 'HashMap': {
      const puts = [...(v as PyDict)].map(([k, x]) => `put("${String(k)}", ${literal(x)});`);
      return `new HashMap<String, Object>() {{ ${puts.join(' ')} }}`;
    }
    default:
      return numberText(v);
  }
}

function jsSource(type: string, v: PyValue): string {
  if (type === 'String') return `"${String(v)}"`;
  if (typeof v === 'string') return v;
  switch (type) {
    case 'Bigint':
      return `${String(v)}n`;
    case 'Boolean':
      return v ? 'true' : 'false';
    case 'array':
      return `[${(v as PyValue[]).map(literal).join(', ')}]`;
    case 'dict':
      return `{${[...(v as PyDict)].map(([k, x]) => `${String(k)}: ${literal(x)}`).join(', ')}}`;
    default:
      return numberText(v);
  }
}

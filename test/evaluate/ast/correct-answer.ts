/**
 * Test helper: builds a decoded model answer from a ground-truth entry, choosing the first acceptable
 * value of every parameter. Java/JavaScript values are written back as the source text a model
 * would send (which the checker's type converters then parse).
 */
import type { CheckerLanguage } from '../../../src/evaluate/ast/ast-checker.js';
import { floatRepr } from '../../../src/py/repr.js';
import { pyEquals, type PyDict, type PyValue } from '../../../src/py/value.js';

export interface AnswerOptions {
  /**
   * Leave out the parameters (and nested dict keys) whose possible values include `""`, except
   * those the function doc requires (some possible answers mark a required parameter optional).
   */
  readonly omitOptional: boolean;
}

const isOptionalMarker = (v: PyValue): boolean => pyEquals(v, '');

/** The first value that is not the optional marker `""`, or undefined when there is none. */
function firstAcceptable(alternatives: PyValue, options: AnswerOptions, required = false): PyValue | undefined {
  if (!Array.isArray(alternatives)) return alternatives;
  if (options.omitOptional && !required && alternatives.some(isOptionalMarker)) return undefined;
  return alternatives.find((v) => !isOptionalMarker(v));
}

/** A possible dict (`{key: [values]}`) made concrete. */
function concreteDict(possible: PyDict, options: AnswerOptions): PyDict {
  const out: PyDict = new Map();
  for (const [key, alternatives] of possible) {
    const v = firstAcceptable(alternatives, options);
    if (v !== undefined) out.set(key, v);
  }
  return out;
}

function docOf(docs: readonly PyValue[], name: PyValue): PyDict {
  return docs.find((d) => (d as PyDict).get('name') === name) as PyDict;
}

interface ParamInfo {
  type: string;
  itemsType: string | undefined;
  required: boolean;
}

/** The doc's description of a parameter; undefined for a parameter the doc does not know. */
function paramInfo(doc: PyDict, param: string): ParamInfo | undefined {
  const parameters = doc.get('parameters') as PyDict;
  const info = (parameters.get('properties') as PyDict).get(param) as PyDict | undefined;
  if (info === undefined) return undefined;
  const items = info.get('items') as PyDict | undefined;
  return {
    type: info.get('type') as string,
    itemsType: items?.get('type') as string | undefined,
    required: (parameters.get('required') as PyValue[]).includes(param),
  };
}

// ---------------------------------------------------------------------------------------------
// Java and JavaScript source text

const numberText = (v: PyValue): string => (typeof v === 'number' ? floatRepr(v) : String(v));

/** A literal whose type the converter guesses (HashMap values, JS dict and array elements). */
function guessedLiteral(v: PyValue): string {
  if (typeof v === 'string') return `"${v}"`;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(guessedLiteral).join(', ')}]`;
  return numberText(v);
}

const JAVA_ARRAY_TYPE: Record<string, string> = { String: 'String', integer: 'int', long: 'long', char: 'char' };

function javaSource(type: string, itemsType: string | undefined, v: PyValue): string {
  // A string for a non-string type is a variable name.
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
      const els = items.map((e) => (quoted ? `"${String(e)}"` : javaSource(itemsType!, undefined, e)));
      return `new ArrayList<>(Arrays.asList(${els.join(', ')}))`;
    }
    case 'Array': {
      // BFCL parity (see java-type-converter.ts): Array elements are converted as they are, so a
      // String element must be written without quotes to be accepted.
      const els = (v as PyValue[]).map((e) => javaSource(itemsType!, undefined, e));
      return `new ${JAVA_ARRAY_TYPE[itemsType!] ?? 'Object'}[]{${els.join(', ')}}`;
    }
    case 'HashMap': {
      const puts = [...(v as PyDict)].map(([k, x]) => `put("${String(k)}", ${guessedLiteral(x)});`);
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
      return `[${(v as PyValue[]).map(guessedLiteral).join(', ')}]`;
    case 'dict':
      return `{${[...(v as PyDict)].map(([k, x]) => `${String(k)}: ${guessedLiteral(x)}`).join(', ')}}`;
    default:
      return numberText(v);
  }
}

/** The decoded answer `[{name: {param: value}}]` for a ground truth `[{name: {param: [values]}}]`. */
export function correctAnswer(
  docs: readonly PyValue[],
  groundTruth: readonly PyValue[],
  language: CheckerLanguage,
  options: AnswerOptions,
): PyValue[] {
  return groundTruth.map((call) => {
    const [name, params] = [...(call as PyDict)][0]!;
    const doc = docOf(docs, name);
    const args: PyDict = new Map();
    for (const [param, alternatives] of params as PyDict) {
      const info = paramInfo(doc, param as string);
      // A possible answer may list a parameter the function does not have: never pass it.
      if (info === undefined) continue;
      const { type, itemsType, required } = info;
      let v = firstAcceptable(alternatives, options, required);
      if (v === undefined) continue;
      // Possible dicts list the acceptable values of every key.
      if (v instanceof Map && (type === 'dict' || type === 'HashMap')) v = concreteDict(v, options);
      if (Array.isArray(v) && itemsType === 'dict') v = v.map((d) => (d instanceof Map ? concreteDict(d, options) : d));
      if (language === 'java') v = javaSource(type, itemsType, v);
      if (language === 'javascript') v = jsSource(type, v);
      args.set(param, v);
    }
    return new Map([[name, args]]);
  });
}

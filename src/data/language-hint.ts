/**
 * The language hint added to function docs at generation time
 * (reference: utils.py::add_language_specific_hint_to_function_doc).
 *
 * Evaluation loads entries without it. Docs are never changed in place: every touched doc,
 * parameter list and parameter is a new dict, so docs shared between entries stay as loaded.
 */

import { jsonDumps } from '../py/json.js';
import type { PyDict, PyValue } from '../py/value.js';
import { extractTestCategoryFromId, isJava, isJs } from '../spec/categories.js';
import type { TestEntry } from '../spec/schemas.js';
import { DatasetError, type DatasetLocation } from '../util/errors.js';
import { toTestEntry } from './test-entry.js';

export const PYTHON_HINT = ' Note that the provided function is in Python 3 syntax.';
export const JAVA_HINT = ' Note that the provided function is in Java 8 SDK syntax.';
export const JAVASCRIPT_HINT = ' Note that the provided function is in JavaScript syntax.';

/** The sentence appended to every doc description for a category (Python unless Java / JavaScript). */
export function languageHintFor(category: string): string {
  if (isJava(category)) return JAVA_HINT;
  if (isJs(category)) return JAVASCRIPT_HINT;
  return PYTHON_HINT;
}

/**
 * The entry with the language hint applied to its `function` docs (held-out docs in
 * `missed_function` are left alone, as in the reference). Applying it twice appends the hint twice,
 * which is what the reference does to format-sensitivity entries.
 */
export function addLanguageSpecificHint(entry: TestEntry): TestEntry {
  const docs = entry.raw.get('function');
  if (!Array.isArray(docs) || docs.length === 0) return entry;
  const raw: PyDict = new Map(entry.raw);
  raw.set('function', addHintToFunctionDocs(docs, extractTestCategoryFromId(entry.id), entry.id));
  return toTestEntry(raw);
}

/**
 * Hinted docs by source doc, per hint: entries share their docs (multi-turn class docs, repeated
 * single-turn docs), so each doc is hinted once and the entries share the result (read-only, like
 * every loaded value), which also lets the tool cache recognise them by identity.
 */
const hintedDocs = new Map<string, WeakMap<object, PyDict>>();

/** New docs with the hint of `category` applied (Java / JavaScript parameters rewritten to strings). */
export function addHintToFunctionDocs(docs: readonly PyValue[], category: string, entryId: string): PyValue[] {
  const hint = languageHintFor(category);
  let cache = hintedDocs.get(hint);
  if (cache === undefined) hintedDocs.set(hint, (cache = new WeakMap()));
  const language = isJava(category) ? 'Java' : isJs(category) ? 'JavaScript' : undefined;
  return docs.map((doc, docIndex) => {
    const where = { entryId, path: ['function', docIndex] };
    if (typeof doc !== 'object' || doc === null) return hintDoc(doc, hint, language, where);
    let hinted = cache.get(doc);
    if (hinted === undefined) {
      hinted = hintDoc(doc, hint, language, where);
      cache.set(doc, hinted);
    }
    return hinted;
  });
}

/** One doc with the hint applied (a new dict sharing the unchanged parts). */
function hintDoc(doc: PyValue, hint: string, language: 'Java' | 'JavaScript' | undefined, where: DatasetLocation): PyDict {
  const copy: PyDict = new Map(doc as PyDict);
  copy.set('description', `${stringField(copy, 'description', where)}${hint}`);
  if (language !== undefined) {
    const parameters = new Map(copy.get('parameters') as PyDict);
    const properties = parameters.get('properties') as PyDict;
    const rewritten: PyDict = new Map();
    for (const [name, param] of properties) {
      const paramWhere = { ...where, path: [...(where.path ?? []), 'parameters', 'properties', String(name)] };
      rewritten.set(name, rewriteParameter(param as PyDict, language, paramWhere));
    }
    parameters.set('properties', rewritten);
    copy.set('parameters', parameters);
  }
  return copy;
}

function rewriteParameter(param: PyDict, language: 'Java' | 'JavaScript', where: DatasetLocation): PyDict {
  const value: PyDict = new Map(param);
  const type = value.get('type') as string;
  let description = stringField(value, 'description', where);
  if (type === 'any') {
    description += ` This parameter can be of any type of ${language} object in string representation.`;
  } else {
    description += ` This is ${language} ${type} type parameter in string representation.`;
  }
  const listTypes = language === 'Java' ? ['ArrayList', 'Array'] : ['array'];
  if (listTypes.includes(type)) {
    const items = value.get('items');
    const itemType = items instanceof Map ? items.get('type') : undefined;
    if (typeof itemType !== 'string') throw new DatasetError(where, `${type} parameter without items.type`);
    description += ` The list elements are of type ${itemType}; they are not in string representation.`;
    value.delete('items');
  }
  if (language === 'JavaScript' && type === 'dict' && value.has('properties')) {
    // BFCL parity: json.dumps with default (ASCII) settings.
    description += ` The dictionary entries have the following schema; they are not in string representation. ${jsonDumps(value.get('properties')!)}`;
    value.delete('properties');
  }
  value.set('description', description);
  value.set('type', 'string');
  return value;
}

function stringField(dict: PyDict, key: string, where: DatasetLocation): string {
  const v = dict.get(key);
  if (typeof v !== 'string') throw new DatasetError(where, `no string "${key}" to add the language hint to`);
  return v;
}

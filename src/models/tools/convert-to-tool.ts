/**
 * FC tool compilation: BFCL function docs → the tool list of a provider request (the reference's
 * `convert_to_tool` and `_cast_to_openai_type`). Works on Python values, so the output keeps the
 * reference's key order and int/float types; the input is deep-copied and never changed.
 */

import { jsonDumps } from '../../py/json.js';
import { pyDeepCopy } from '../../py/operators.js';
import { pyRepr, pyStr } from '../../py/repr.js';
import { PyException, type PyDict, type PyValue } from '../../py/value.js';
import { ModelStyle } from './model-style.js';
import { augmented, expectDictFor, getItem, pyContains, requireHashable } from '../../py/ops.js';
import { GORILLA_TO_OPENAPI } from './type-mappings.js';

/** Styles whose providers reject `.` in tool names (OpenAI's `^[a-zA-Z0-9_-]{1,64}$`): `.` becomes `_`. */
const NO_DOT_STYLES: ReadonlySet<ModelStyle> = new Set([
  ModelStyle.OPENAI_COMPLETIONS,
  ModelStyle.OPENAI_RESPONSES,
  ModelStyle.MISTRAL,
  ModelStyle.GOOGLE,
  ModelStyle.OSSMODEL,
  ModelStyle.ANTHROPIC,
  ModelStyle.COHERE,
  ModelStyle.AMAZON,
  ModelStyle.NOVITA_AI,
]);

/** Styles without a `response` field: its schema is appended to the description instead. */
const RESPONSE_IN_DESCRIPTION_STYLES: ReadonlySet<ModelStyle> = new Set([
  ModelStyle.ANTHROPIC,
  ModelStyle.GOOGLE,
  ModelStyle.FIREWORK_AI,
  ModelStyle.WRITER,
  ModelStyle.AMAZON,
  ModelStyle.NOVITA_AI,
]);

/** Styles whose tool is the function object itself. */
const BARE_STYLES: ReadonlySet<ModelStyle> = new Set([ModelStyle.ANTHROPIC, ModelStyle.GOOGLE, ModelStyle.OSSMODEL]);

/** Styles whose tool is `{"type": "function", "function": <function>}`. */
const WRAPPED_STYLES: ReadonlySet<ModelStyle> = new Set([
  ModelStyle.COHERE,
  ModelStyle.OPENAI_COMPLETIONS,
  ModelStyle.MISTRAL,
  ModelStyle.FIREWORK_AI,
  ModelStyle.WRITER,
  ModelStyle.NOVITA_AI,
]);

/**
 * The tools for `functions` in a handler's style. Throws Python's exception (KeyError, TypeError...)
 * for docs the reference could not compile either.
 */
export function convertToTool(functions: readonly PyValue[], style: ModelStyle): PyValue[] {
  const tools: PyValue[] = [];
  for (const original of functions) {
    const copy = pyDeepCopy(original);
    const name = getItem(copy, 'name');
    const item = copy as PyDict; // `getItem` succeeded, so it is a dict
    if (typeof name === 'string' && name.includes('.') && NO_DOT_STYLES.has(style)) {
      item.set('name', name.replaceAll('.', '_'));
    }

    const parameters = expectDictFor(getItem(item, 'parameters'), '__setitem__');
    parameters.set('type', 'object');
    parameters.set('properties', castToOpenApiTypes(getItem(parameters, 'properties')));

    if (style === ModelStyle.ANTHROPIC) renameKey(item, 'parameters', 'input_schema');
    if (style === ModelStyle.AMAZON) {
      item.set('inputSchema', new Map([['json', parameters]]));
      item.delete('parameters');
    }
    if (style === ModelStyle.GOOGLE || style === ModelStyle.WRITER) foldUnsupportedKeys(parameters, style);

    if (item.has('response') && RESPONSE_IN_DESCRIPTION_STYLES.has(style)) {
      const schema = jsonDumps(item.get('response')!);
      const note = ` The response field has the following schema: ${schema}`;
      item.set('description', augmented('+', getItem(item, 'description'), note));
      item.delete('response');
    }

    if (BARE_STYLES.has(style)) {
      tools.push(item);
    } else if (style === ModelStyle.OPENAI_RESPONSES) {
      item.set('type', 'function');
      tools.push(item);
    } else if (WRAPPED_STYLES.has(style)) {
      tools.push(new Map<string, PyValue>([['type', 'function'], ['function', item]]));
    } else if (style === ModelStyle.AMAZON) {
      tools.push(new Map([['toolSpec', item]]));
    }
    // BFCL parity: utils.py::convert_to_tool — GORILLA and NEXUS styles fall through every branch,
    // so they get no tools at all.
  }
  return tools;
}

/**
 * `_cast_to_openai_type`: maps every property's type to OpenAPI, in place, and returns the same dict.
 * Nested levels: `properties` of objects/arrays recursively; else one or two levels of `items`.
 */
function castToOpenApiTypes(properties: PyValue): PyValue {
  for (const value of expectDictFor(properties, 'items').values()) {
    const property = expectDictFor(value, '__setitem__');
    if (!pyContains(property, 'type')) {
      property.set('type', 'string');
    } else {
      const varType = getItem(property, 'type');
      if (varType === 'float') {
        property.set('format', 'float');
        property.set('description', augmented('+', getItem(property, 'description'), ' This is a float type value.'));
      }
      requireHashable(varType);
      const mapped = typeof varType === 'string' ? GORILLA_TO_OPENAPI.get(varType) : undefined;
      property.set('type', mapped ?? 'string'); // unknown types become strings
    }

    const type = property.get('type');
    if (type !== 'array' && type !== 'object') continue;
    if (pyContains(property, 'properties')) {
      property.set('properties', castToOpenApiTypes(getItem(property, 'properties')));
    } else if (pyContains(property, 'items')) {
      // Item types are looked up directly: an unknown one is a KeyError, with no "string" fallback.
      const items = expectDictFor(getItem(property, 'items'), '__setitem__');
      items.set('type', mapTypeStrict(getItem(items, 'type')));
      if (items.get('type') === 'array' && pyContains(items, 'items')) {
        const inner = expectDictFor(getItem(items, 'items'), '__setitem__');
        inner.set('type', mapTypeStrict(getItem(inner, 'type')));
      } else if (items.get('type') === 'object' && pyContains(items, 'properties')) {
        items.set('properties', castToOpenApiTypes(getItem(items, 'properties')));
      }
    }
  }
  return properties;
}

/** `GORILLA_TO_OPENAPI[t]`, with Python's KeyError for an unknown type. */
function mapTypeStrict(type: PyValue): string {
  requireHashable(type);
  const mapped = typeof type === 'string' ? GORILLA_TO_OPENAPI.get(type) : undefined;
  if (mapped === undefined) throw new PyException('KeyError', pyRepr(type));
  return mapped;
}

/** `d[newKey] = d.pop(oldKey)`: the value moves to the end of the key order, as in Python. */
function renameKey(d: PyDict, oldKey: string, newKey: string): void {
  const value = getItem(d, oldKey);
  d.set(newKey, value);
  d.delete(oldKey);
}

/** Gemini and Palmyra reject some JSON-schema keys: they are dropped and described in words instead. */
function foldUnsupportedKeys(parameters: PyDict, style: ModelStyle): void {
  parameters.delete('optional');
  for (const value of expectDictFor(getItem(parameters, 'properties'), 'values').values()) {
    const params = expectDictFor(value, '__setitem__');
    if (!params.has('description')) params.set('description', '');
    const append = (text: string): void => {
      params.set('description', augmented('+', params.get('description')!, text));
    };
    const fold = (key: string, label: string): void => {
      if (!params.has(key)) return;
      append(` ${label}: ${pyStr(params.get(key)!)}.`);
      params.delete(key);
    };
    fold('default', 'Default is');
    fold('optional', 'Optional');
    fold('required', 'Required');
    fold('maximum', 'Maximum value');
    fold('minItems', 'Minimum number of items');
    fold('maxItems', 'Maximum number of items');
    fold('additionalProperties', 'Additional properties');
    // Gemini accepts `enum` only on strings; Palmyra not at all.
    if (params.has('enum') && (style === ModelStyle.WRITER || params.get('type') !== 'string')) {
      fold('enum', 'Enum values');
    }
    if (params.has('format') && params.get('type') === 'string') fold('format', 'Format');
  }
}

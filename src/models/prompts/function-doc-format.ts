/**
 * The three renderings of function docs in a prompting system prompt: JSON, XML and Python
 * docstrings (the reference's `format_function_doc`, `_generate_function_doc_xml`,
 * `_generate_function_doc_python`). Docs are Python values (dicts as Maps) so ints, floats and key
 * order print as Python prints them.
 */

import { jsonDumps } from '../../py/json.js';
import { pyRepr, pyStr } from '../../py/repr.js';
import { PyException, pyTruthy, type PyValue } from '../../py/value.js';
import { augmented, dictGetOr, expectDictFor, getItem, pyContains, requireHashable } from '../../py/ops.js';
import type { FunctionDocFormat } from './default-prompts.js';

/** The function docs as the prompt shows them (`format_function_doc`). */
export function formatFunctionDoc(functions: readonly PyValue[], format: FunctionDocFormat): string {
  switch (format) {
    case 'xml':
      return generateFunctionDocXml(functions);
    case 'python':
      return generateFunctionDocPython(functions);
    case 'json':
      return jsonDumps([...functions], { indent: 4 });
    default:
      throw new PyException('ValueError', `Invalid function doc format: ${String(format)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// XML

/** `_generate_function_doc_xml`: one `<function>` block per doc, blocks separated by a blank line. */
export function generateFunctionDocXml(functions: readonly PyValue[]): string {
  const blocks = functions.map((fn) => {
    const name = getItem(fn, 'name');
    const desc = dictGetOr(fn, 'description', '');
    const schema = getItem(fn, 'parameters');
    const properties = dictGetOr(schema, 'properties', new Map());
    const required = dictGetOr(schema, 'required', null);

    let xml = `<function name="${pyStr(name)}">\n`;
    xml += `  <desc>${pyStr(desc)}</desc>\n`;
    xml += '  <params>\n';
    for (const [paramName, meta] of expectDictFor(properties, 'items')) xml += paramXml(paramName, meta, required, 2);
    xml += '  </params>\n';
    xml += '</function>\n';
    return xml;
  });
  return blocks.join('\n');
}

/** One `<param>` element, with nested `<params>` for object properties. `required === null`: all required. */
function paramXml(name: PyValue, meta: PyValue, required: PyValue, indentLevel: number): string {
  const indent = ' '.repeat(indentLevel * 2);

  let type: PyValue = dictGetOr(meta, 'type', 'string');
  let desc: PyValue = dictGetOr(meta, 'description', '');
  const isRequired = required === null || pyContains(required, name) ? 'true' : 'false';

  if (pyContains(meta, 'enum')) desc = augmented('+', desc, ` Enum values: ${pyStr(getItem(meta, 'enum'))}.`);

  if (pyContains(meta, 'items') && pyContains(getItem(meta, 'items'), 'type')) {
    type = `${pyStr(type)}[${pyStr(getItem(getItem(meta, 'items'), 'type'))}]`;
  } else if (pyContains(meta, 'additionalProperties')) {
    const inner = dictGetOr(getItem(meta, 'additionalProperties'), 'type', 'string');
    type = `${pyStr(type)}[${pyStr(inner)}]`;
  }

  const attrs = [`name="${pyStr(name)}", type="${pyStr(type)}", required="${isRequired}"`];
  if (pyContains(meta, 'default')) attrs.push(`default="${pyRepr(getItem(meta, 'default'))}"`);
  // BFCL parity: utils.py::_generate_function_doc_xml — every comma of the joined attributes is
  // dropped, including commas inside a name, a type or a default's repr (`[1, 2]` shows as `[1 2]`).
  const parts = [
    `${indent}<param ${attrs.join(' ').replaceAll(',', '')}>\n`,
    `${indent}  <desc>${pyStr(desc)}</desc>\n`,
  ];

  if (pyContains(meta, 'properties')) {
    const childRequired = dictGetOr(meta, 'required', null);
    parts.push(`${indent}  <params>\n`);
    for (const [childName, childMeta] of expectDictFor(getItem(meta, 'properties'), 'items')) {
      parts.push(paramXml(childName, childMeta, childRequired, indentLevel + 2));
    }
    parts.push(`${indent}  </params>\n`);
  }

  parts.push(`${indent}</param>\n`);
  return parts.join('');
}

// ---------------------------------------------------------------------------------------------
// Python docstrings

const PRIMITIVE_PY_TYPES: ReadonlyMap<string, string> = new Map([
  ['string', 'str'],
  ['number', 'float'],
  ['integer', 'int'],
  ['boolean', 'bool'],
]);
const LIST_TYPES = new Set(['array', 'list', 'tuple']);
const DICT_TYPES = new Set(['object', 'dict']);
/** Indentation of a top-level argument line inside the docstring. */
const ARG_INDENT = ' '.repeat(8);

/** `_generate_function_doc_python`: a `# Function:` header and a docstring per doc. */
export function generateFunctionDocPython(functions: readonly PyValue[]): string {
  const docs: string[] = [];
  for (const fn of functions) {
    const name = getItem(fn, 'name');
    const desc = dictGetOr(fn, 'description', '');

    const lines = [`# Function: ${pyStr(name)}\n`, '    """\n', `    ${pyStr(desc)}\n\n`];
    const schema = dictGetOr(fn, 'parameters', new Map());
    const properties = dictGetOr(schema, 'properties', new Map());
    if (pyTruthy(properties)) {
      lines.push('    Args:\n');
      for (const [paramName, meta] of expectDictFor(properties, 'items')) lines.push(...paramDoc(paramName, meta, 0));
    }
    lines.push('    """\n');
    docs.push(lines.join(''));
    // BFCL parity: the reference appends a lone "\n" after every doc and then joins with "\n\n".
    docs.push('\n');
  }
  return docs.join('\n\n');
}

/** Docstring lines of one argument and, indented by 4 per level, of its object properties. */
function paramDoc(name: PyValue, meta: PyValue, depth: number): string[] {
  const indent = ARG_INDENT + ' '.repeat(4 * depth);
  const pyType = toPyType(meta);
  let desc: PyValue = dictGetOr(meta, 'description', '');
  if (pyContains(meta, 'enum')) desc = augmented('+', desc, ` Enum values: ${pyStr(getItem(meta, 'enum'))}.`);
  const defaultNote = pyContains(meta, 'default') ? `, default=${pyRepr(getItem(meta, 'default'))}` : '';

  const lines = [`${indent}${pyStr(name)} (${pyStr(pyType)}${defaultNote}): ${pyStr(desc)}\n`];
  if (pyContains(meta, 'properties')) {
    for (const [childName, childMeta] of expectDictFor(getItem(meta, 'properties'), 'items')) {
      lines.push(...paramDoc(childName, childMeta, depth + 1));
    }
  }
  return lines;
}

/** Python type annotation of a parameter schema (`_to_py_type`); unknown types are shown as they are. */
function toPyType(meta: PyValue): PyValue {
  const type = dictGetOr(meta, 'type', 'string');
  requireHashable(type);
  if (typeof type !== 'string') return type;
  const primitive = PRIMITIVE_PY_TYPES.get(type);
  if (primitive !== undefined) return primitive;
  if (LIST_TYPES.has(type) && pyContains(meta, 'items')) return `list[${pyStr(toPyType(getItem(meta, 'items')))}]`;
  if (DICT_TYPES.has(type)) {
    if (pyContains(meta, 'additionalProperties')) {
      return `dict[str, ${pyStr(toPyType(getItem(meta, 'additionalProperties')))}]`;
    }
    return 'dict';
  }
  return type;
}

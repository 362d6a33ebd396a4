/**
 * The XML return formats of prompting models (format-sensitivity configs):
 * verbose  `<functions><function name="f"><params><param name="a" value="1" type="integer"/></params></function></functions>`
 * concise  `<functions><function name="f"><param name="a" type="integer">1</param></function></functions>`
 */
import { PyException, type PyDict, type PyValue } from '../../py/value.js';
import { strRepr } from '../../py/repr.js';
import { literalEvalString } from '../python-literal.js';
import { pyFloatFromString, pyIntFromString, pyStrip } from '../../py/str.js';
import { find, findAll, parseXml, type XmlElement } from './xml-parser.js';

/**
 * A parameter's text converted by its declared type.
 * BFCL parity: model_handler/parser/xml_parser.py::convert_value_by_type — `boolean` is true only
 * for "true" in any case; array/tuple/object/dict use Python literal syntax; unknown types keep
 * the text.
 */
export function convertValueByType(raw: string, type: string): PyValue {
  switch (type) {
    case 'string':
      return raw;
    case 'integer':
      return pyIntFromString(raw);
    case 'float':
      return pyFloatFromString(raw);
    case 'boolean':
      return raw.toLowerCase() === 'true';
    case 'null':
      return null;
    case 'array':
    case 'tuple':
    case 'object':
    case 'dict':
      return literalEvalString(raw);
    default:
      return raw;
  }
}

/** `element.attrib[name]`, raising KeyError as Python does. */
function requiredAttribute(element: XmlElement, name: string): string {
  const value = element.attrib.get(name);
  if (value === undefined) throw new PyException('KeyError', strRepr(name));
  return value;
}

/** The verbose form: parameters as attributes of `<param>`, inside `<params>` when present. */
export function parseVerboseXmlFunctionCall(xml: string): PyValue[] {
  const root = parseXml(xml);
  return findAll(root, 'function').map((func) => {
    const name = requiredAttribute(func, 'name');
    const container = find(func, 'params');
    const params: PyDict = new Map();
    for (const param of findAll(container ?? func, 'param')) {
      const paramName = param.attrib.get('name') ?? null;
      const raw = param.attrib.get('value') ?? '';
      const type = param.attrib.get('type') ?? 'string';
      params.set(paramName, convertValueByType(raw, type));
    }
    return new Map([[name, params]]);
  });
}

/** The concise form: the parameter value is the element text (stripped). */
export function parseConciseXmlFunctionCall(xml: string): PyValue[] {
  const root = parseXml(xml);
  return findAll(root, 'function').map((func) => {
    const name = requiredAttribute(func, 'name');
    const params: PyDict = new Map();
    for (const param of findAll(func, 'param')) {
      const paramName = requiredAttribute(param, 'name');
      const raw = param.text ?? '';
      const type = param.attrib.get('type') ?? 'string';
      params.set(paramName, convertValueByType(pyStrip(raw), type));
    }
    return new Map([[name, params]]);
  });
}

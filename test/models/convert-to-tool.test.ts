/**
 * FC tool compilation (`convert_to_tool`). Expected values were produced once by the reference's own
 * function under python3; `fixtures/function-docs-expected.json` holds the tools of a larger doc set
 * in every style.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { convertToTool } from '../../src/models/tools/convert-to-tool.js';
import { ModelStyle } from '../../src/models/tools/model-style.js';
import { jsonDumps, parseJsonLossless } from '../../src/py/json.js';
import { type PyDict, type PyValue } from '../../src/py/value.js';
import { raised } from '../helpers/python.js';

const fixture = parseJsonLossless(
  readFileSync(new URL('./fixtures/function-docs-expected.json', import.meta.url), 'utf8'),
) as PyDict;

const doc = (text: string): PyValue => parseJsonLossless(text);

/** A dotted name, a float parameter, a list of tuples of floats and a `response` schema. */
const ROUND_DOC = '{"name": "math.round", "description": "Round.", "parameters": {"type": "dict", "properties": {"x": {"type": "float", "description": "Value."}, "digits": {"type": "integer", "description": "Digits.", "default": 0}, "tags": {"type": "array", "items": {"type": "tuple", "items": {"type": "float"}}, "description": "Tags."}}, "required": ["x"]}, "response": {"type": "dict", "properties": {"result": {"type": "float"}}}}';

/** Tools of ROUND_DOC in each style, as the reference's `json.dumps` prints them. */
const ROUND_TOOLS: [ModelStyle, string][] = [
  [ModelStyle.GORILLA, '[]'],
  [ModelStyle.OPENAI_COMPLETIONS, '[{"type": "function", "function": {"name": "math_round", "description": "Round.", "parameters": {"type": "object", "properties": {"x": {"type": "number", "description": "Value. This is a float type value.", "format": "float"}, "digits": {"type": "integer", "description": "Digits.", "default": 0}, "tags": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}, "description": "Tags."}}, "required": ["x"]}, "response": {"type": "dict", "properties": {"result": {"type": "float"}}}}}]'],
  [ModelStyle.OPENAI_RESPONSES, '[{"name": "math_round", "description": "Round.", "parameters": {"type": "object", "properties": {"x": {"type": "number", "description": "Value. This is a float type value.", "format": "float"}, "digits": {"type": "integer", "description": "Digits.", "default": 0}, "tags": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}, "description": "Tags."}}, "required": ["x"]}, "response": {"type": "dict", "properties": {"result": {"type": "float"}}}, "type": "function"}]'],
  [ModelStyle.ANTHROPIC, '[{"name": "math_round", "description": "Round. The response field has the following schema: {\\"type\\": \\"dict\\", \\"properties\\": {\\"result\\": {\\"type\\": \\"float\\"}}}", "input_schema": {"type": "object", "properties": {"x": {"type": "number", "description": "Value. This is a float type value.", "format": "float"}, "digits": {"type": "integer", "description": "Digits.", "default": 0}, "tags": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}, "description": "Tags."}}, "required": ["x"]}}]'],
  [ModelStyle.MISTRAL, '[{"type": "function", "function": {"name": "math_round", "description": "Round.", "parameters": {"type": "object", "properties": {"x": {"type": "number", "description": "Value. This is a float type value.", "format": "float"}, "digits": {"type": "integer", "description": "Digits.", "default": 0}, "tags": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}, "description": "Tags."}}, "required": ["x"]}, "response": {"type": "dict", "properties": {"result": {"type": "float"}}}}}]'],
  [ModelStyle.GOOGLE, '[{"name": "math_round", "description": "Round. The response field has the following schema: {\\"type\\": \\"dict\\", \\"properties\\": {\\"result\\": {\\"type\\": \\"float\\"}}}", "parameters": {"type": "object", "properties": {"x": {"type": "number", "description": "Value. This is a float type value.", "format": "float"}, "digits": {"type": "integer", "description": "Digits. Default is: 0."}, "tags": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}, "description": "Tags."}}, "required": ["x"]}}]'],
  [ModelStyle.AMAZON, '[{"toolSpec": {"name": "math_round", "description": "Round. The response field has the following schema: {\\"type\\": \\"dict\\", \\"properties\\": {\\"result\\": {\\"type\\": \\"float\\"}}}", "inputSchema": {"json": {"type": "object", "properties": {"x": {"type": "number", "description": "Value. This is a float type value.", "format": "float"}, "digits": {"type": "integer", "description": "Digits.", "default": 0}, "tags": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}, "description": "Tags."}}, "required": ["x"]}}}}]'],
  [ModelStyle.FIREWORK_AI, '[{"type": "function", "function": {"name": "math.round", "description": "Round. The response field has the following schema: {\\"type\\": \\"dict\\", \\"properties\\": {\\"result\\": {\\"type\\": \\"float\\"}}}", "parameters": {"type": "object", "properties": {"x": {"type": "number", "description": "Value. This is a float type value.", "format": "float"}, "digits": {"type": "integer", "description": "Digits.", "default": 0}, "tags": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}, "description": "Tags."}}, "required": ["x"]}}}]'],
  [ModelStyle.NEXUS, '[]'],
  [ModelStyle.OSSMODEL, '[{"name": "math_round", "description": "Round.", "parameters": {"type": "object", "properties": {"x": {"type": "number", "description": "Value. This is a float type value.", "format": "float"}, "digits": {"type": "integer", "description": "Digits.", "default": 0}, "tags": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}, "description": "Tags."}}, "required": ["x"]}, "response": {"type": "dict", "properties": {"result": {"type": "float"}}}}]'],
  [ModelStyle.COHERE, '[{"type": "function", "function": {"name": "math_round", "description": "Round.", "parameters": {"type": "object", "properties": {"x": {"type": "number", "description": "Value. This is a float type value.", "format": "float"}, "digits": {"type": "integer", "description": "Digits.", "default": 0}, "tags": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}, "description": "Tags."}}, "required": ["x"]}, "response": {"type": "dict", "properties": {"result": {"type": "float"}}}}}]'],
  [ModelStyle.WRITER, '[{"type": "function", "function": {"name": "math.round", "description": "Round. The response field has the following schema: {\\"type\\": \\"dict\\", \\"properties\\": {\\"result\\": {\\"type\\": \\"float\\"}}}", "parameters": {"type": "object", "properties": {"x": {"type": "number", "description": "Value. This is a float type value.", "format": "float"}, "digits": {"type": "integer", "description": "Digits. Default is: 0."}, "tags": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}, "description": "Tags."}}, "required": ["x"]}}}]'],
  [ModelStyle.NOVITA_AI, '[{"type": "function", "function": {"name": "math_round", "description": "Round. The response field has the following schema: {\\"type\\": \\"dict\\", \\"properties\\": {\\"result\\": {\\"type\\": \\"float\\"}}}", "parameters": {"type": "object", "properties": {"x": {"type": "number", "description": "Value. This is a float type value.", "format": "float"}, "digits": {"type": "integer", "description": "Digits.", "default": 0}, "tags": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}, "description": "Tags."}}, "required": ["x"]}}}]'],
];

describe('convertToTool', () => {
  it.each(ROUND_TOOLS)('%s', (style, expected) => {
    expect(jsonDumps(convertToTool([doc(ROUND_DOC)], style))).toBe(expected);
  });

  it('matches the reference on the fixture docs in every style', () => {
    const docs = fixture.get('docs') as PyValue[];
    const tools = fixture.get('tools') as PyDict;
    expect([...tools.keys()].sort()).toEqual(Object.values(ModelStyle).sort());
    for (const style of Object.values(ModelStyle)) {
      expect(jsonDumps(convertToTool(docs, style)), style).toBe(jsonDumps(tools.get(style)!));
    }
  });

  it('Gemini and Palmyra fold unsupported schema keys into the description', () => {
    const g = doc('{"name": "f", "description": "D.", "parameters": {"type": "dict", "optional": ["b"], "properties": {"a": {"type": "integer", "default": 3, "maximum": 9, "enum": [1, 3]}, "b": {"type": "string", "description": "B.", "format": "date", "optional": true, "enum": ["x"]}, "c": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2, "required": false}, "d": {"type": "dict", "additionalProperties": {"type": "integer"}}}}}');
    expect(jsonDumps(convertToTool([g], ModelStyle.GOOGLE))).toBe(
      '[{"name": "f", "description": "D.", "parameters": {"type": "object", "properties": {"a": {"type": "integer", "description": " Default is: 3. Maximum value: 9. Enum values: [1, 3]."}, "b": {"type": "string", "description": "B. Optional: True. Format: date.", "enum": ["x"]}, "c": {"type": "array", "items": {"type": "string"}, "description": " Required: False. Minimum number of items: 1. Maximum number of items: 2."}, "d": {"type": "object", "description": " Additional properties: {\'type\': \'integer\'}."}}}}]',
    );
    expect(jsonDumps(convertToTool([g], ModelStyle.WRITER))).toBe(
      '[{"type": "function", "function": {"name": "f", "description": "D.", "parameters": {"type": "object", "properties": {"a": {"type": "integer", "description": " Default is: 3. Maximum value: 9. Enum values: [1, 3]."}, "b": {"type": "string", "description": "B. Optional: True. Enum values: [\'x\']. Format: date."}, "c": {"type": "array", "items": {"type": "string"}, "description": " Required: False. Minimum number of items: 1. Maximum number of items: 2."}, "d": {"type": "object", "description": " Additional properties: {\'type\': \'integer\'}."}}}}}]',
    );
  });

  it('works on a deep copy', () => {
    const input = [doc(ROUND_DOC)];
    const before = jsonDumps(input);
    const tools = convertToTool(input, ModelStyle.ANTHROPIC);
    expect(jsonDumps(input)).toBe(before);
    ((tools[0] as PyDict).get('input_schema') as PyDict).set('type', 'changed');
    expect(jsonDumps(input)).toBe(before);
  });

  it('keeps int and float defaults apart', () => {
    const d = doc('{"name": "f", "description": "", "parameters": {"type": "dict", "properties": {"a": {"type": "float", "description": "", "default": 1.0}, "b": {"type": "integer", "default": 1}}}}');
    const text = jsonDumps(convertToTool([d], ModelStyle.OPENAI_RESPONSES));
    expect(text).toContain('"default": 1.0');
    expect(text).toContain('"default": 1}');
  });

  it.each([
    // Item types have no "string" fallback.
    ['{"name": "f", "description": "", "parameters": {"type": "dict", "properties": {"a": {"type": "array", "items": {"type": "Boolean"}}}}}', "KeyError: 'Boolean'"],
    ['{"name": "f", "description": "", "parameters": {"type": "dict", "properties": {"a": {"type": "array", "items": {}}}}}', "KeyError: 'type'"],
    // The float note is appended to a description that must exist.
    ['{"name": "f", "description": "", "parameters": {"type": "dict", "properties": {"a": {"type": "float"}}}}', "KeyError: 'description'"],
    // So is the response schema (Anthropic style).
    ['{"name": "f", "parameters": {"type": "dict", "properties": {}}, "response": {}}', "KeyError: 'description'"],
    ['{"name": "f", "description": "", "parameters": {"type": "dict"}}', "KeyError: 'properties'"],
    ['{"description": "", "parameters": {"type": "dict", "properties": {}}}', "KeyError: 'name'"],
  ])('fails like the reference on %s', (text, message) => {
    expect(raised(() => convertToTool([doc(text)], ModelStyle.ANTHROPIC))).toBe(message);
  });

  it('maps unknown parameter types to string', () => {
    const d = doc('{"name": "f", "description": "", "parameters": {"type": "dict", "properties": {"a": {"type": "Boolean"}, "b": {}, "c": {"type": "HashMap"}}}}');
    expect(jsonDumps(convertToTool([d], ModelStyle.OSSMODEL))).toBe(
      '[{"name": "f", "description": "", "parameters": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "object"}}}}]',
    );
  });
});

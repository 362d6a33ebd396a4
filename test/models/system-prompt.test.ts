/**
 * The prompting system prompt and its function-doc renderings. Expected texts were produced once by the
 * reference's own functions (`formulate_system_prompt`, `format_function_doc`... run under python3);
 * `fixtures/function-docs-expected.json` holds the renderings of a doc set with nested and unusual
 * parameters and the sha256 of its system prompt under each of the 26 format-sensitivity configurations.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import {
  DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC,
  additionalFunctionPromptPrompting,
} from '../../src/models/prompts/default-prompts.js';
import {
  formatFunctionDoc,
  generateFunctionDocPython,
  generateFunctionDocXml,
} from '../../src/models/prompts/function-doc-format.js';
import { parsePromptConfig } from '../../src/models/prompts/prompt-config.js';
import {
  addSystemPrompt,
  addSystemPromptForEntry,
  formulateSystemPrompt,
  mergeSystemPrompt,
} from '../../src/models/prompts/system-prompt.js';
import { parseJsonLossless } from '../../src/py/json.js';
import { PyException, type PyDict, type PyValue } from '../../src/py/value.js';
import { DEFAULT_PROMPT_FORMAT_CONFIG, FORMAT_SENSITIVITY_CONFIGS } from '../../src/spec/categories.js';
import type { Message } from '../../src/spec/schemas.js';
import { raised } from '../helpers/python.js';

const fixture = parseJsonLossless(
  readFileSync(new URL('./fixtures/function-docs-expected.json', import.meta.url), 'utf8'),
) as PyDict;
const fixtureDocs = fixture.get('docs') as PyValue[];

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

/** One small doc: `get_time(tz='UTC')`. */
const SMALL_DOCS: PyValue[] = [
  parseJsonLossless(
    '{"name": "get_time", "description": "Current time.", "parameters": {"type": "dict", "properties": {"tz": {"type": "string", "description": "Zone.", "default": "UTC"}}, "required": []}}',
  ),
];

/** `ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic` */
const DEFAULT = [
  'You are an expert in composing functions.You are given a question and a set of possible functions. Based on the question, you will need to make one or more function/tool calls to achieve the purpose. If none of the functions can be used, point it out. If the given question lacks the parameters required by the function, also point it out.',
  '',
  'You should only return the function calls in your response.',
  '',
  'If you decide to invoke any of the function(s), you MUST put it in the format of [func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)].  You SHOULD NOT include any other text in the response.',
  '',
  'At each turn, you should try your best to complete the tasks requested by the user within the current turn. Continue to output functions to call until you have fulfilled the user\'s request to the best of your ability. Once you have no more functions to call, the system will consider the current turn complete and proceed to the next turn or task.',
  '',
  'Here is a list of functions in json format that you can invoke.',
  '[',
  '    {',
  '        "name": "get_time",',
  '        "description": "Current time.",',
  '        "parameters": {',
  '            "type": "dict",',
  '            "properties": {',
  '                "tz": {',
  '                    "type": "string",',
  '                    "description": "Zone.",',
  '                    "default": "UTC"',
  '                }',
  '            },',
  '            "required": []',
  '        }',
  '    }',
  ']',
  '',
].join('\n');

/** `ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=markdown&style=classic` */
const MARKDOWN = [
  'You are an expert in composing functions.',
  '',
  '## Task',
  'You are given a question and a set of possible functions. Based on the question, you will need to make one or more function/tool calls to achieve the purpose. If none of the functions can be used, point it out. If the given question lacks the parameters required by the function, also point it out.',
  '',
  '## Tool Call Format',
  'You should only return the function calls in your response.',
  '',
  'If you decide to invoke any of the function(s), you MUST put it in the format of [func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)].  You SHOULD NOT include any other text in the response.',
  '',
  '## Multi-turn Behavior',
  'At each turn, you should try your best to complete the tasks requested by the user within the current turn. Continue to output functions to call until you have fulfilled the user\'s request to the best of your ability. Once you have no more functions to call, the system will consider the current turn complete and proceed to the next turn or task.',
  '',
  '## Available Tools',
  'Here is a list of functions in json format that you can invoke.',
  '[',
  '    {',
  '        "name": "get_time",',
  '        "description": "Current time.",',
  '        "parameters": {',
  '            "type": "dict",',
  '            "properties": {',
  '                "tz": {',
  '                    "type": "string",',
  '                    "description": "Zone.",',
  '                    "default": "UTC"',
  '                }',
  '            },',
  '            "required": []',
  '        }',
  '    }',
  ']',
  '',
].join('\n');

/** `ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=experimental` */
const EXPERIMENTAL = [
  'You are an expert in generating structured function calls.You are given a user query and a set of available functions. Your task is to produce one or more function/tool calls to fulfill the user\'s request. If no suitable function exists, or required parameters are missing, clearly indicate this.',
  '',
  'Respond with only the function calls.',
  '',
  'You MUST format it exactly as [func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)].  Do NOT include any other text.',
  '',
  'At every turn, aim to complete the user\'s tasks within that turn. Continue emitting function calls until the request is satisfied to the best of your ability. Once no more calls are needed, the system will proceed to the next turn.',
  '',
  'Below is a list of callable functions in the json style:',
  '[',
  '    {',
  '        "name": "get_time",',
  '        "description": "Current time.",',
  '        "parameters": {',
  '            "type": "dict",',
  '            "properties": {',
  '                "tz": {',
  '                    "type": "string",',
  '                    "description": "Zone.",',
  '                    "default": "UTC"',
  '                }',
  '            },',
  '            "required": []',
  '        }',
  '    }',
  ']',
  '',
].join('\n');

/** `ret_fmt=verbose_xml&tool_call_tag=True&func_doc_fmt=python&prompt_fmt=plaintext&style=classic` */
const VERBOSE_XML_TAG_PYTHON_DOC = [
  'You are an expert in composing functions.You are given a question and a set of possible functions. Based on the question, you will need to make one or more function/tool calls to achieve the purpose. If none of the functions can be used, point it out. If the given question lacks the parameters required by the function, also point it out.',
  '',
  'You should only return the function calls in the <TOOLCALL> section. If you decide to invoke any of the function(s), you MUST put it in the format of <TOOLCALL><functions><function name="func_name1"><params><param name="param1" value="value1" type="type1"/><param name="param2" value="value2" type="type2"/>...</params></function><function name="func_name2"><params><param name="param3" value="value3" type="type3"/></params></function></functions></TOOLCALL>. The type fields of the parameters in your function calls must be one of: string, integer, float, boolean, array, dict, or tuple. You SHOULD NOT include any other text in the response.',
  '',
  'At each turn, you should try your best to complete the tasks requested by the user within the current turn. Continue to output functions to call until you have fulfilled the user\'s request to the best of your ability. Once you have no more functions to call, the system will consider the current turn complete and proceed to the next turn or task.',
  '',
  'Here is a list of functions in python format that you can invoke.',
  '# Function: get_time',
  '    """',
  '    Current time.',
  '',
  '    Args:',
  '        tz (str, default=\'UTC\'): Zone.',
  '    """',
  '',
  '',
  '',
  '',
  '',
].join('\n');

/** `ret_fmt=json&tool_call_tag=True&func_doc_fmt=xml&prompt_fmt=plaintext&style=classic` */
const JSON_TAG_XML_DOC = [
  'You are an expert in composing functions.You are given a question and a set of possible functions. Based on the question, you will need to make one or more function/tool calls to achieve the purpose. If none of the functions can be used, point it out. If the given question lacks the parameters required by the function, also point it out.',
  '',
  'You should only return the function calls in the <TOOLCALL> section. If you decide to invoke any of the function(s), you MUST put it in the format of <TOOLCALL>```json',
  '[{"function":"func_name1","parameters":{"param1":"value1","param2":"value2"...}},{"function":"func_name2","parameters":{"param":"value"}}]',
  '```</TOOLCALL>.  You SHOULD NOT include any other text in the response.',
  '',
  'At each turn, you should try your best to complete the tasks requested by the user within the current turn. Continue to output functions to call until you have fulfilled the user\'s request to the best of your ability. Once you have no more functions to call, the system will consider the current turn complete and proceed to the next turn or task.',
  '',
  'Here is a list of functions in xml format that you can invoke.',
  '<function name="get_time">',
  '  <desc>Current time.</desc>',
  '  <params>',
  '    <param name="tz" type="string" required="false" default="\'UTC\'">',
  '      <desc>Zone.</desc>',
  '    </param>',
  '  </params>',
  '</function>',
  '',
  '',
].join('\n');

/** `ret_fmt=concise_xml&tool_call_tag=False&func_doc_fmt=xml&prompt_fmt=plaintext&style=classic` */
const CONCISE_XML_XML_DOC = [
  'You are an expert in composing functions.You are given a question and a set of possible functions. Based on the question, you will need to make one or more function/tool calls to achieve the purpose. If none of the functions can be used, point it out. If the given question lacks the parameters required by the function, also point it out.',
  '',
  'You should only return the function calls in your response.',
  '',
  'If you decide to invoke any of the function(s), you MUST put it in the format of <functions><function name="func_name1"><param name="param1" type="type1">value1</param><param name="param2" type="type2">value2</param>...</function><function name="func_name2"><param name="param3" type="type3">value</param></function></functions>. The type fields of the parameters in your function calls must be one of: string, integer, float, boolean, array, dict, or tuple. You SHOULD NOT include any other text in the response.',
  '',
  'At each turn, you should try your best to complete the tasks requested by the user within the current turn. Continue to output functions to call until you have fulfilled the user\'s request to the best of your ability. Once you have no more functions to call, the system will consider the current turn complete and proceed to the next turn or task.',
  '',
  'Here is a list of functions in xml format that you can invoke.',
  '<function name="get_time">',
  '  <desc>Current time.</desc>',
  '  <params>',
  '    <param name="tz" type="string" required="false" default="\'UTC\'">',
  '      <desc>Zone.</desc>',
  '    </param>',
  '  </params>',
  '</function>',
  '',
  '',
].join('\n');

describe('formulateSystemPrompt', () => {
  it.each([
    ['ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic', DEFAULT],
    ['ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=markdown&style=classic', MARKDOWN],
    ['ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=experimental', EXPERIMENTAL],
    ['ret_fmt=verbose_xml&tool_call_tag=True&func_doc_fmt=python&prompt_fmt=plaintext&style=classic', VERBOSE_XML_TAG_PYTHON_DOC],
    ['ret_fmt=json&tool_call_tag=True&func_doc_fmt=xml&prompt_fmt=plaintext&style=classic', JSON_TAG_XML_DOC],
    ['ret_fmt=concise_xml&tool_call_tag=False&func_doc_fmt=xml&prompt_fmt=plaintext&style=classic', CONCISE_XML_XML_DOC],
  ])('%s', (config, expected) => {
    expect(formulateSystemPrompt(SMALL_DOCS, config)).toBe(expected);
  });

  it('the default configuration is the plaintext/classic/python/json one', () => {
    expect(formulateSystemPrompt(SMALL_DOCS, DEFAULT_PROMPT_FORMAT_CONFIG)).toBe(DEFAULT);
  });

  it('matches the reference under all 26 format-sensitivity configurations', () => {
    const expected = fixture.get('promptSha256') as PyDict;
    expect(FORMAT_SENSITIVITY_CONFIGS).toHaveLength(26);
    expect([...expected.keys()]).toEqual(FORMAT_SENSITIVITY_CONFIGS);
    for (const config of FORMAT_SENSITIVITY_CONFIGS) {
      expect(sha256(formulateSystemPrompt(fixtureDocs, config)), config).toBe(expected.get(config));
    }
  });

  it('rejects a malformed configuration with the reference ValueError', () => {
    expect(raised(() => formulateSystemPrompt(SMALL_DOCS, 'ret_fmt=yaml'))).toBe(
      "ValueError: Invalid query format: 'ret_fmt=yaml'",
    );
  });

  it('reports a doc without a name as a KeyError', () => {
    const doc = parseJsonLossless('{"description": "x", "parameters": {"type": "dict", "properties": {}}}');
    expect(raised(() => formulateSystemPrompt([doc], DEFAULT_PROMPT_FORMAT_CONFIG.replace('func_doc_fmt=json', 'func_doc_fmt=xml')))).toBe(
      "KeyError: 'name'",
    );
  });
});

describe('parsePromptConfig', () => {
  it('splits the five settings', () => {
    expect(parsePromptConfig('ret_fmt=concise_xml&tool_call_tag=True&func_doc_fmt=python&prompt_fmt=markdown&style=experimental')).toEqual({
      returnFormat: 'concise_xml',
      hasToolCallTag: true,
      functionDocFormat: 'python',
      promptFormat: 'markdown',
      promptStyle: 'experimental',
    });
  });

  it("accepts one trailing newline, as Python's `$` does", () => {
    expect(parsePromptConfig(DEFAULT_PROMPT_FORMAT_CONFIG + '\n').promptStyle).toBe('classic');
  });

  it.each([
    'ret_fmt=python&tool_call_tag=false&func_doc_fmt=json&prompt_fmt=plaintext&style=classic',
    'style=classic&ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext',
    DEFAULT_PROMPT_FORMAT_CONFIG + ' ',
  ])('rejects %j', (config) => {
    expect(() => parsePromptConfig(config)).toThrow(PyException);
  });
});

describe('formatFunctionDoc', () => {
  it.each(['xml', 'python', 'json'] as const)('%s rendering matches the reference', (format) => {
    expect(formatFunctionDoc(fixtureDocs, format)).toBe(fixture.get(format));
  });

  it('json is json.dumps(indent=4) with non-ASCII escaped', () => {
    expect(formatFunctionDoc(fixtureDocs, 'json')).toContain('"description": "Distance between two cities, in km. Caf\\u00e9 \\u6771\\u4eac."');
  });

  it('xml: required flags, nested params and the dropped commas of default reprs', () => {
    const doc = parseJsonLossless(
      '{"name": "f", "description": "D.", "parameters": {"type": "dict", "properties": {"a": {"type": "array", "items": {"type": "string"}, "description": "A.", "default": ["x, y", "z"]}, "o": {"type": "dict", "description": "O.", "properties": {"k": {"type": "integer", "description": "K."}}}}, "required": ["o"]}}',
    );
    expect(generateFunctionDocXml([doc])).toBe(
      [
        '<function name="f">',
        '  <desc>D.</desc>',
        '  <params>',
        // BFCL parity: the reference removes every comma of the attribute list, even inside the default.
        '    <param name="a" type="array[string]" required="false" default="[\'x y\' \'z\']">',
        '      <desc>A.</desc>',
        '    </param>',
        '    <param name="o" type="dict" required="true">',
        '      <desc>O.</desc>',
        '      <params>',
        // No `required` list on the nested object: all its properties count as required.
        '        <param name="k" type="integer" required="true">',
        '          <desc>K.</desc>',
        '        </param>',
        '      </params>',
        '    </param>',
        '  </params>',
        '</function>',
        '',
      ].join('\n'),
    );
  });

  it('python: docstring with nested properties, defaults as repr and blank lines between docs', () => {
    const docs = [
      parseJsonLossless(
        '{"name": "f", "description": "D.", "parameters": {"type": "dict", "properties": {"n": {"type": "float", "description": "N.", "default": 1.0}, "o": {"type": "dict", "description": "O.", "properties": {"k": {"type": "string", "description": "K.", "enum": ["a", "b"]}}}}}}',
      ),
      parseJsonLossless('{"name": "g", "parameters": {"type": "dict", "properties": {}}}'),
    ];
    expect(generateFunctionDocPython(docs)).toBe(
      [
        '# Function: f',
        '    """',
        '    D.',
        '',
        '    Args:',
        '        n (float, default=1.0): N.',
        '        o (dict): O.',
        "            k (str): K. Enum values: ['a', 'b'].",
        '    """',
        '',
        '',
        '',
        '',
        '',
        '# Function: g',
        '    """',
        '    ',
        '',
        '    """',
        '',
        '',
        '',
        '',
      ].join('\n'),
    );
  });

  it('python: types of lists and maps', () => {
    const doc = parseJsonLossless(
      '{"name": "f", "description": "", "parameters": {"type": "dict", "properties": {"m": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}, "d": {"type": "dict", "additionalProperties": {"type": "number"}}, "t": {"type": "tuple"}, "j": {"type": "HashMap"}}}}',
    );
    const text = generateFunctionDocPython([doc]);
    expect(text).toContain('        m (list[list[int]]): \n');
    expect(text).toContain('        d (dict[str, float]): \n');
    expect(text).toContain('        t (tuple): \n');
    expect(text).toContain('        j (HashMap): \n');
  });

  it('rejects an unknown format with a ValueError', () => {
    expect(raised(() => formatFunctionDoc([], 'yaml' as 'json'))).toBe('ValueError: Invalid function doc format: yaml');
  });
});

describe('addSystemPrompt', () => {
  const user: Message = { role: 'user', content: 'What time is it?' };

  it('inserts a system message in front of the conversation', () => {
    const messages = [user];
    const result = addSystemPrompt(messages, SMALL_DOCS, DEFAULT_PROMPT_FORMAT_CONFIG);
    expect(result).toEqual([{ role: 'system', content: DEFAULT }, user]);
    expect(messages).toEqual([user]); // the input is not changed
  });

  it('merges into an existing leading system message: prompt, blank line, then the original', () => {
    const system: Message = { role: 'system', content: 'You order food.' };
    const result = addSystemPrompt([system, user], SMALL_DOCS, DEFAULT_PROMPT_FORMAT_CONFIG);
    expect(result).toEqual([{ role: 'system', content: DEFAULT + '\n\nYou order food.' }, user]);
    expect(system.content).toBe('You order food.');
  });

  it('only looks at the first message', () => {
    const system: Message = { role: 'system', content: 'late' };
    expect(mergeSystemPrompt([user, system], 'P')).toEqual([{ role: 'system', content: 'P' }, user, system]);
  });

  it('fails like the reference on an empty first turn', () => {
    expect(raised(() => addSystemPrompt([], SMALL_DOCS, DEFAULT_PROMPT_FORMAT_CONFIG))).toBe('IndexError: list index out of range');
  });

  it('takes the configuration from a format-sensitivity id', () => {
    const config = 'ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=markdown&style=classic';
    expect(addSystemPromptForEntry(`format_sensitivity_3:${config}:simple_python_58`, [user], SMALL_DOCS)[0]!.content).toBe(MARKDOWN);
    expect(addSystemPromptForEntry('simple_python_58', [user], SMALL_DOCS)[0]!.content).toBe(DEFAULT);
  });
});

describe('held-out function message (prompting)', () => {
  it('is the repr of the docs, a newline, then the FC sentence', () => {
    const docs = [
      parseJsonLossless(
        '{"name": "sort", "description": "Sort a file\'s lines.", "parameters": {"type": "dict", "properties": {"file_name": {"type": "string", "description": "Name."}, "n": {"type": "integer", "default": 1}, "x": {"type": "float", "default": 2.0}, "ok": {"type": "boolean", "default": true}, "z": {"default": null}}, "required": ["file_name"]}}',
      ),
    ];
    expect(additionalFunctionPromptPrompting(docs)).toBe(
      `[{'name': 'sort', 'description': "Sort a file's lines.", 'parameters': {'type': 'dict', 'properties': {'file_name': {'type': 'string', 'description': 'Name.'}, 'n': {'type': 'integer', 'default': 1}, 'x': {'type': 'float', 'default': 2.0}, 'ok': {'type': 'boolean', 'default': True}, 'z': {'default': None}}, 'required': ['file_name']}}]\n` +
        DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC,
    );
    expect(DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC).toBe('I have updated some more functions you can choose from. What about now?');
  });
});

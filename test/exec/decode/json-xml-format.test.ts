/**
 * The prompting decoders on the JSON and XML return formats (format-sensitivity configs).
 * Every expectation was produced by running the reference's `default_decode_ast_prompting`
 * under CPython; `literal_eval` messages print a node without its memory address here.
 */
import { describe, expect, it } from 'vitest';
import { decodeAstPrompting, type DecodeResult, type ReturnFormat } from '../../../src/exec/decode/index.js';
import type { PyValue } from '../../../src/py/value.js';
import { outcome } from './helpers.js';

interface Case {
  language: ReturnFormat;
  raw: string;
  tag?: boolean;
  repr?: string;
  error?: string;
}

const CASES: Case[] = [
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><params><param name=\"a\" value=\"1\" type=\"integer\"/><param name=\"b\" value=\"x y\" type=\"string\"/></params></function></functions>", "repr": "[{'f': {'a': 1, 'b': 'x y'}}]"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><param name=\"a\" value=\"1.5\" type=\"float\"/><param name=\"b\" value=\"TRUE\" type=\"boolean\"/><param name=\"c\" value=\"no\" type=\"boolean\"/><param name=\"d\" type=\"null\"/></function></functions>", "repr": "[{'f': {'a': 1.5, 'b': True, 'c': False, 'd': None}}]"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><params><param name=\"a\" value=\"[1, 'x', (2, 3)]\" type=\"array\"/><param name=\"b\" value=\"{'k': [1]}\" type=\"dict\"/><param name=\"c\" value=\" (1,)\" type=\"tuple\"/><param name=\"d\" value=\"{1: 2}\" type=\"object\"/></params></function></functions>", "repr": "[{'f': {'a': [1, 'x', (2, 3)], 'b': {'k': [1]}, 'c': (1,), 'd': {1: 2}}}]"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><params><param name=\"a\" value=\"x\" type=\"array\"/></params></function></functions>", "error": "ValueError: malformed node or string on line 1: <ast.Name object>"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><params><param name=\"a\" value=\"[1,\" type=\"array\"/></params></function></functions>", "error": "SyntaxError: '[' was never closed (<unknown>, line 1)"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><params><param name=\"a\" value=\"abc\" type=\"integer\"/></params></function></functions>", "error": "ValueError: invalid literal for int() with base 10: 'abc'"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><params><param name=\"a\" value=\" 1_000 \" type=\"integer\"/><param name=\"b\" value=\"1e3\" type=\"float\"/><param name=\"c\" value=\"nan\" type=\"float\"/><param name=\"d\" value=\"x\" type=\"float\"/></params></function></functions>", "error": "ValueError: could not convert string to float: 'x'"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><params><param value=\"1\"/><param name=\"b\"/></params></function></functions>", "repr": "[{'f': {None: '1', 'b': ''}}]"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><params><param name=\"a\" value=\"1\" type=\"weird\"/></params></function><function name=\"g\"></function></functions>", "repr": "[{'f': {'a': '1'}}, {'g': {}}]"},
  {"language": "verbose_xml", "raw": "<functions><function><params/></function></functions>", "error": "KeyError: 'name'"},
  {"language": "verbose_xml", "raw": "Sure!\n```xml\n<functions>\n  <function name=\"get_weather\">\n    <params>\n      <param name=\"city\" value=\"Paris &amp; Lyon\" type=\"string\"/>\n    </params>\n  </function>\n</functions>\n```", "repr": "[{'get_weather': {'city': 'Paris & Lyon'}}]"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><params><param name=\"a\" value=\"a&#10;b\tc\" type=\"string\"/></params></function></functions>", "repr": "[{'f': {'a': 'a\\nb c'}}]"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><params><param name=\"a\" value=\"1\" type=\"integer\"></params></function></functions>", "error": "ParseError: mismatched tag: line 1, column 81"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><params><param name=\"a\" value=1 /></params></function></functions>", "error": "ParseError: not well-formed (invalid token): line 1, column 60"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><params><param name=\"a\" value=\"&foo;\"/></params></function></functions>", "error": "ParseError: undefined entity: line 1, column 38"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\" name=\"g\"/></functions>", "error": "ParseError: duplicate attribute: line 1, column 30"},
  {"language": "verbose_xml", "raw": "no xml here", "error": "ValueError: No XML function call found in input string: [no xml here]. Missing <functions> tag."},
  {"language": "verbose_xml", "raw": "<FUNCTIONS><function name=\"f\"/></functions>", "error": "ValueError: No XML function call found in input string: [<FUNCTIONS><function name=\"f\"/></functions>]. Missing <functions> tag."},
  {"language": "verbose_xml", "raw": "<functions><functions><function name=\"f\"/></functions></functions>", "error": "ParseError: no element found: line 1, column 54"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"/></functions> trailing <functions><function name=\"g\"/></functions>", "repr": "[{'f': {}}]"},
  {"language": "verbose_xml", "raw": "<functions><!-- c --><function name=\"f\"><?pi x?><params><param name=\"a\" value=\"1\"/></params></function></functions>", "repr": "[{'f': {'a': '1'}}]"},
  {"language": "verbose_xml", "raw": "<TOOLCALL><functions><function name=\"f\"/></functions></TOOLCALL>", "tag": true, "repr": "[{'f': {}}]"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"/></functions>", "tag": true, "error": "ValueError: No tool call tag found in input string: [<functions><function name=\"f\"/></functions>]"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><params><param name=\"a\" value=\"x\"/></params><param name=\"b\" value=\"y\"/></function></functions>", "repr": "[{'f': {'a': 'x'}}]"},
  {"language": "verbose_xml", "raw": "<functions><function name=\"f\"><param name=\"a\" value=\"1\"><param name=\"b\" value=\"2\"/></param></function></functions>", "repr": "[{'f': {'a': '1'}}]"},
  {"language": "concise_xml", "raw": "<functions><function name=\"f\"><param name=\"a\" type=\"integer\"> 42 </param><param name=\"b\">  hi there </param><param name=\"c\" type=\"array\">[1, 2]</param></function></functions>", "repr": "[{'f': {'a': 42, 'b': 'hi there', 'c': [1, 2]}}]"},
  {"language": "concise_xml", "raw": "<functions><function name=\"f\"><param name=\"a\" type=\"string\"></param><param name=\"b\" type=\"boolean\">True</param><param name=\"c\" type=\"null\">x</param></function></functions>", "repr": "[{'f': {'a': '', 'b': True, 'c': None}}]"},
  {"language": "concise_xml", "raw": "<functions><function name=\"f\"><param type=\"string\">x</param></function></functions>", "error": "KeyError: 'name'"},
  {"language": "concise_xml", "raw": "<functions><function name=\"f\"><param name=\"a\">x<b>inner</b>tail</param></function></functions>", "repr": "[{'f': {'a': 'x'}}]"},
  {"language": "concise_xml", "raw": "<functions><function name=\"f\"><param name=\"a\"><![CDATA[<raw> & stuff]]></param></function></functions>", "repr": "[{'f': {'a': '<raw> & stuff'}}]"},
  {"language": "concise_xml", "raw": "<functions><function name=\"f\"><param name=\"a\" type=\"dict\">{\"k\": true}</param></function></functions>", "error": "ValueError: malformed node or string on line 1: <ast.Name object>"},
  {"language": "concise_xml", "raw": "<functions><function name=\"f\"><param name=\"a\" type=\"dict\">{\"k\": True}</param></function></functions>", "repr": "[{'f': {'a': {'k': True}}}]"},
  {"language": "concise_xml", "raw": "<functions><function name=\"f\"><params><param name=\"a\">1</param></params></function></functions>", "repr": "[{'f': {}}]"},
  {"language": "concise_xml", "raw": "<functions>\r\n<function name=\"f\"><param name=\"a\">line1\r\nline2</param></function></functions>", "repr": "[{'f': {'a': 'line1\\nline2'}}]"},
  {"language": "concise_xml", "raw": "<functions><function name=\"f\"><param name=\"a\">&lt;tag&gt; &quot;q&quot; &apos;s&apos; &#65;&#x42;</param></function></functions>", "repr": "[{'f': {'a': '<tag> \"q\" \\'s\\' AB'}}]"},
  {"language": "concise_xml", "raw": "<functions><function name=\"f\"><param name=\"a\">&#0;</param></function></functions>", "error": "ParseError: reference to invalid character number: line 1, column 46"},
  {"language": "concise_xml", "raw": "<functions><function name=\"f\"><param name=\"a\">a ]]> b</param></function></functions>", "error": "ParseError: not well-formed (invalid token): line 1, column 50"},
  {"language": "concise_xml", "raw": "<functions><function name=\"f\"><param name=\"a\" type=\"array\">-5</param><param name=\"b\" type=\"array\">set()</param></function></functions>", "repr": "[{'f': {'a': -5, 'b': set()}}]"},
  {"language": "concise_xml", "raw": "<functions><function xmlns=\"urn:x\" name=\"f\"><param name=\"a\">1</param></function></functions>", "repr": "[]"},
  {"language": "concise_xml", "raw": "<functions><x:function name=\"f\"/></functions>", "error": "ParseError: unbound prefix: line 1, column 11"},
  {"language": "json", "raw": "[{\"function\": \"f\", \"parameters\": {\"a\": 1, \"b\": [1.5, \"x\"], \"c\": null}}]", "repr": "[{'f': {'a': 1, 'b': [1.5, 'x'], 'c': None}}]"},
  {"language": "json", "raw": "```json\n[{\"function\": \"f\", \"parameters\": {}}, {\"function\": \"g\", \"parameters\": {\"x\": true}}]\n```", "repr": "[{'f': {}}, {'g': {'x': True}}]"},
  {"language": "json", "raw": "{\"function\": \"f\", \"parameters\": {\"a\": 1}}", "repr": "[{'f': {'a': 1}}]"},
  {"language": "json", "raw": "[{\"function\": \"f\", \"parameters\": {\"a\": {\"b\": 1}}}]", "repr": "[{'f': {'a': {'b': 1}}}]"},
  {"language": "json", "raw": "[{\"function\": \"f\"}]", "error": "KeyError: 'parameters'"},
  {"language": "json", "raw": "[{\"name\": \"f\", \"parameters\": {}}]", "error": "KeyError: 'function'"},
  {"language": "json", "raw": "[1, \"x\", {\"function\": \"f\", \"parameters\": 5}]", "repr": "[{'f': 5}]"},
  {"language": "json", "raw": "not json at all", "repr": "[]"},
  {"language": "json", "raw": "[{\"function\": \"f\", \"parameters\": {\"a\": 1}},]", "repr": "[]"},
  {"language": "json", "raw": "Calls: [{\"function\": \"f\", \"parameters\": {}}] and [more]", "repr": "[{'f': {}}]"},
  {"language": "json", "raw": "[{\"function\": [\"f\"], \"parameters\": {}}]", "error": "TypeError: unhashable type: 'list'"},
  {"language": "json", "raw": "[{\"function\": 1, \"parameters\": {}}]", "repr": "[{1: {}}]"},
  {"language": "json", "raw": "[{\"function\": \"f\", \"parameters\": {\"a\": 1e400}}]", "repr": "[{'f': {'a': inf}}]"},
  {"language": "json", "raw": "5", "repr": "[]"},
  {"language": "json", "raw": "\"text\"", "repr": "[]"},
  {"language": "json", "raw": "[]", "repr": "[]"},
  {"language": "json", "raw": "<TOOLCALL>[{\"function\": \"f\", \"parameters\": {}}]</TOOLCALL>", "tag": true, "repr": "[{'f': {}}]"},
];

describe('prompting decoders, JSON and XML formats (expectations from CPython)', () => {
  for (const c of CASES) {
    it(`${c.language} ${JSON.stringify(c.raw)}${c.tag === true ? ' (tool call tag)' : ''}`, () => {
      const result = decodeAstPrompting(c.raw, c.language, c.tag === true);
      expect(outcome(result as DecodeResult<PyValue>)).toBe(c.repr ?? c.error);
    });
  }
});

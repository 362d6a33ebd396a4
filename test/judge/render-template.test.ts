import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { TOOL_INVOCATION_PROMPT, TOOL_SELECTION_PROMPT } from '../../src/judge/classification-templates.js';
import { resolveJudgeTemplate } from '../../src/judge/judge-template.js';
import { loadLegacyTemplates } from '../../src/judge/legacy-templates.js';
import { TemplateSyntaxError, dedent, parseFormatTemplate, renderFormat, renderMustache } from '../../src/judge/render-template.js';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

// The spec's test vector (judge-reference.md §3.1 step 7), computed with arize-phoenix-evals 2.13.0.
const VECTOR = {
  question: 'Find the area of a triangle with a base of 10 units and height of 5 units.',
  tool_call: '[calculate_triangle_area(base=10, height=5)]',
  tool_definitions: '[{"name": "x {y}"}]',
};

describe('Phoenix template texts', () => {
  it('reads the ELv2 templates byte for byte (spec §2.1, §2.2)', () => {
    const t = loadLegacyTemplates();
    expect([bytes(t.base), sha256(t.base)]).toEqual([1133, '1f4d629d925dac83cfd48f5703bfdef9b5f61c2a69281a9c883c35ea071a5df3']);
    expect([bytes(t.withExplanation), sha256(t.withExplanation)]).toEqual([1870, 'b9b683bf6144fe19f086408781f4f1300c15c05f4ae8823cd4eee0855c1a00ad']);
  });

  it('ships the Apache-2.0 prompts byte for byte (spec §2.4)', () => {
    expect([bytes(TOOL_SELECTION_PROMPT.content), sha256(TOOL_SELECTION_PROMPT.content)]).toEqual([1665, 'a0119f07b83c5535a4d0440ee0ae9bf0e58cb420746d6048db87fee541e68601']);
    expect([bytes(TOOL_INVOCATION_PROMPT.content), sha256(TOOL_INVOCATION_PROMPT.content)]).toEqual([3206, '922dce6f9dba177fa2a37a1458509aeb6de5fe7a7b54d136e6fdc26c33b22b05']);
  });
});

describe('rendering as Phoenix renders (spec §3.1)', () => {
  it('renders the test vector with the base template: 1231 bytes', () => {
    const prompt = resolveJudgeTemplate('tool-calling', false).render(VECTOR);
    expect(bytes(prompt)).toBe(1231);
    expect(sha256(prompt)).toBe('504636b21cb6385fa0368c39bfb6ac0967b23fa41093e36e0d06df26ff60eebf');
  });

  it('renders the test vector with the explanation template: 1968 bytes', () => {
    const template = resolveJudgeTemplate('tool-calling', true);
    expect(template.id).toBe('tool_calling_with_explanation@2.13.0');
    const prompt = template.render(VECTOR);
    expect(bytes(prompt)).toBe(1968);
    expect(sha256(prompt)).toBe('47af36468a96f703cc2a35ef6b51983dd6db3a8f7c16a52c6aab62b13d38c247');
  });

  it('never scans substituted values again (a value holding {tool_call} stays as it is)', () => {
    const prompt = resolveJudgeTemplate('tool-calling', false).render({ question: 'say {tool_call}', tool_call: '{question}', tool_definitions: '{}' });
    expect(prompt).toContain('[Question]: say {tool_call}\n');
    expect(prompt).toContain('[Tool Called]: {question}\n');
  });

  it('renders the classification prompts through Mustache and dedent', () => {
    const selection = resolveJudgeTemplate('tool-selection', true);
    expect(selection.id).toBe('tool_selection@3.5.0');
    const prompt = selection.render({ question: 'Q {{input}}', tool_call: 'C', tool_definitions: 'D' });
    expect(prompt).toBe(
      TOOL_SELECTION_PROMPT.content.replace('{{input}}', 'Q {{input}}').replace('{{available_tools}}', 'D').replace('{{tool_selection}}', 'C'),
    );
    // dedent turns whitespace-only lines of the values into empty lines; indented lines stay (the template has none).
    const spaced = resolveJudgeTemplate('tool-invocation', true).render({ question: 'a\n   \n  b', tool_call: 'C', tool_definitions: '[\n    {}\n]' });
    expect(spaced).toContain('<input>\na\n\n  b\n</input>');
    expect(spaced).toContain('<available_tools>\n[\n    {}\n]\n</available_tools>');
  });
});

describe('str.format templates', () => {
  it('reads {{ and }} as literal braces and fields by their whole name', () => {
    const pieces = parseFormatTemplate('{{"a": {question}}} {tool_call}');
    expect(renderFormat(pieces, { question: 'Q', tool_call: 'T' })).toBe('{"a": Q} T');
  });

  it.each([
    ['a single }', 'x } y', "Single '}'"],
    ['a single {', 'x { y', "Single '{'"],
    ['a positional field', '{}', 'positional'],
    ['a conversion', '{question!r}', 'conversions'],
    ['a format spec', '{question:>10}', 'conversions'],
  ])('refuses %s', (_name, template, message) => {
    expect(() => parseFormatTemplate(template)).toThrow(message);
  });

  it('refuses a template file with fields other than the three inputs', () => {
    expect(() => resolveJudgeTemplate('tool-calling', false, { path: 'my.txt', text: 'Q {question} {context}' })).toThrow(TemplateSyntaxError);
  });

  it('names a template file by its name and hash, and keeps its text (no explanation variant)', () => {
    const t = resolveJudgeTemplate('tool-calling', true, { path: '/x/my.txt', text: 'Q={question} C={tool_call} D={tool_definitions}' });
    expect(t.id).toMatch(/^file:my\.txt#[0-9a-f]{12}$/);
    expect(t.explain).toBe(true);
    expect(t.render({ question: 'q', tool_call: 'c', tool_definitions: 'd' })).toBe('Q=q C=c D=d');
  });
});

describe('dedent (textwrap.dedent)', () => {
  it.each([
    ['common indentation removed', '  a\n    b\n  c', 'a\n  b\nc'],
    ['whitespace-only lines emptied, not counted', '  a\n \t \n  b', 'a\n\nb'],
    ['tabs and spaces differ', '\ta\n  b', '\ta\n  b'],
    ['common prefix of mixed indents', '  \ta\n  b', '\ta\nb'],
    ['no indentation', 'a\n  b', 'a\n  b'],
    ['a line with \\r is not blank', '  a\n  \r\n  b', 'a\n\r\nb'],
  ])('%s', (_name, text, expected) => {
    expect(dedent(text)).toBe(expected);
  });
});

describe('Mustache', () => {
  it('does not escape HTML and substitutes in one pass', () => {
    expect(renderMustache('{{input}} / {{ input }}', { input: '<a href="x">&{{input}}</a>' })).toBe('<a href="x">&{{input}}</a> / <a href="x">&{{input}}</a>');
  });
});

import { describe, expect, it } from 'vitest';

import { readLabel, readReplyText } from '../../src/judge/judge-reply.js';
import {
  buildJudgeRequest,
  defaultJudgeMode,
  defaultPromptRole,
  defaultTemperature,
  recordResponseFunction,
  type JudgeRequestSettings,
} from '../../src/judge/judge-request.js';
import { resolveJudgeTemplate } from '../../src/judge/judge-template.js';

const settings: JudgeRequestSettings = {
  provider: 'openai',
  model: 'gpt-4o',
  kind: 'legacy',
  mode: 'fc',
  explain: true,
  rails: ['correct', 'incorrect'],
  role: 'system',
  temperature: 0,
};

describe("Phoenix's request rules (spec §3.1 step 8, §3.2, §3.6)", () => {
  it.each([
    ['openai', 'gpt-4o', 'system'],
    ['openai', 'o1-mini', 'user'],
    ['openai', 'o1-preview-2024', 'user'],
    ['openai', 'o1', 'developer'],
    ['openai', 'o3-mini', 'developer'],
    ['openai', 'Qwen/Qwen2.5-7B-Instruct', 'system'],
    ['anthropic', 'claude-sonnet-4-5-20250929', 'user'],
  ] as const)('%s %s: the prompt is a %s message', (provider, model, role) => {
    expect(defaultPromptRole(provider, model)).toBe(role);
  });

  it('chooses function calling for OpenAI models but o1 and the instruct completions model; text elsewhere', () => {
    expect(defaultJudgeMode('openai', 'gpt-4o')).toBe('fc');
    expect(defaultJudgeMode('openai', 'o1-2024-12-17')).toBe('text');
    expect(defaultJudgeMode('openai', 'o3-mini')).toBe('fc');
    expect(defaultJudgeMode('openai', 'gpt-3.5-turbo-instruct')).toBe('text');
    expect(defaultJudgeMode('anthropic', 'claude-sonnet-4-5-20250929')).toBe('text');
    expect(defaultTemperature('openai', 'o3-mini')).toBeUndefined();
    expect(defaultTemperature('openai', 'gpt-4o')).toBe(0);
  });

  it('writes record_response with the explanation first (and only when asked for)', () => {
    expect(JSON.stringify(recordResponseFunction(['correct', 'incorrect'], true))).toBe(
      '{"name":"record_response","description":"A function to record your response.","parameters":{"type":"object","properties":{"explanation":{"type":"string","description":"Explanation of the reasoning for your response."},"response":{"type":"string","description":"Your response.","enum":["correct","incorrect"]}},"required":["explanation","response"]}}',
    );
    expect(recordResponseFunction(['correct', 'incorrect'], false)).toEqual({
      name: 'record_response',
      description: 'A function to record your response.',
      parameters: { type: 'object', properties: { response: { type: 'string', description: 'Your response.', enum: ['correct', 'incorrect'] } }, required: ['response'] },
    });
  });

  it('builds OpenAI bodies with OpenAIModel parameters, the tool forced in fc mode', () => {
    const fc = JSON.parse(buildJudgeRequest('P', settings).body.toString()) as Record<string, unknown>;
    expect(Object.keys(fc)).toEqual(['model', 'messages', 'frequency_penalty', 'presence_penalty', 'top_p', 'n', 'temperature', 'tools', 'tool_choice']);
    expect(fc['messages']).toEqual([{ role: 'system', content: 'P' }]);
    expect(fc['tool_choice']).toEqual({ type: 'function', function: { name: 'record_response' } });
    const text = JSON.parse(buildJudgeRequest('P', { ...settings, mode: 'text', temperature: undefined, maxTokens: 50 }).body.toString()) as Record<string, unknown>;
    expect(text).toEqual({ model: 'gpt-4o', messages: [{ role: 'system', content: 'P' }], frequency_penalty: 0, presence_penalty: 0, top_p: 1, n: 1, max_completion_tokens: 50 });
  });

  it('keys the cache on provider and body: any change to prompt, template variant or settings changes it', () => {
    const key = buildJudgeRequest('P', settings).cacheKey;
    expect(buildJudgeRequest('P', settings).cacheKey).toBe(key);
    expect(buildJudgeRequest('P ', settings).cacheKey).not.toBe(key);
    expect(buildJudgeRequest('P', { ...settings, explain: false }).cacheKey).not.toBe(key);
    expect(buildJudgeRequest('P', { ...settings, temperature: 0.5 }).cacheKey).not.toBe(key);
    expect(buildJudgeRequest('P', { ...settings, mode: 'text' }).cacheKey).not.toBe(key);
  });

  it('forces the tool on Claude in fc mode (not a Phoenix path) and sends Phoenix\'s max_tokens', () => {
    const body = JSON.parse(buildJudgeRequest('P', { ...settings, provider: 'anthropic', model: 'claude-x', role: 'user' }).body.toString()) as Record<string, unknown>;
    expect(body['max_tokens']).toBe(1024);
    expect(body['tool_choice']).toEqual({ type: 'tool', name: 'record_response' });
    expect((body['tools'] as { input_schema: unknown }[])[0]!.input_schema).toEqual(recordResponseFunction(['correct', 'incorrect'], true)['parameters']);
  });
});

describe('reply text (OpenAIModel / AnthropicModel _extract_text)', () => {
  const chat = (message: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ choices: [{ index: 0, message, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 }, ...extra });

  it.each([
    ['the first function tool call with arguments', chat({ content: 'ignored', tool_calls: [{ type: 'function', function: { name: 'x', arguments: '' } }, { type: 'function', function: { name: 'record_response', arguments: '{"response":"correct"}' } }] }), '{"response":"correct"}'],
    ['a legacy function_call', chat({ content: 'ignored', function_call: { name: 'record_response', arguments: '{"response":"incorrect"}' } }), '{"response":"incorrect"}'],
    ['the content', chat({ content: 'correct' }), 'correct'],
    ['null content', chat({ content: null }), ''],
    ['no choices', JSON.stringify({ choices: [] }), ''],
  ])('OpenAI: %s', (_name, body, text) => {
    expect(readReplyText('openai', body).text).toBe(text);
  });

  it('reads OpenAI usage', () => {
    expect(readReplyText('openai', chat({ content: 'x' })).usage).toEqual({ promptTokens: 10, completionTokens: 2, totalTokens: 12 });
  });

  it('Claude: a tool use as json.dumps(input, ensure_ascii=False), else the text blocks joined by a blank line; cache tokens are prompt tokens', () => {
    const tool = '{"content":[{"type":"text","text":"hm"},{"type":"tool_use","id":"t","name":"record_response","input":{"response":"correct","n":1.0,"é":"ü"}}],"usage":{"input_tokens":5,"cache_read_input_tokens":3,"output_tokens":2}}';
    const reply = readReplyText('anthropic', tool);
    expect(reply.text).toBe('{"response": "correct", "n": 1.0, "é": "ü"}');
    expect(reply.usage).toEqual({ promptTokens: 8, completionTokens: 2, totalTokens: 10 });
    const texts = JSON.stringify({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: '' }, { type: 'text', text: 'b' }], usage: { input_tokens: 1, output_tokens: 1 } });
    expect(readReplyText('anthropic', texts).text).toBe('a\n\nb');
  });

  it('refuses bodies that are not an answer', () => {
    expect(() => readReplyText('openai', 'not json')).toThrow('not JSON');
    expect(() => readReplyText('openai', '{"id": 1}')).toThrow('choices');
    expect(() => readReplyText('anthropic', '{"id": 1}')).toThrow('content');
  });
});

describe('labels by template and mode (spec §3.2 mode table)', () => {
  const legacy = resolveJudgeTemplate('tool-calling', false);
  const legacyExplain = resolveJudgeTemplate('tool-calling', true);
  const selection = resolveJudgeTemplate('tool-selection', true);

  it('legacy text without explanation: the whole reply snapped, no explanation', () => {
    expect(readLabel('LABEL: correct', legacy, 'text')).toEqual({ ok: true, label: 'correct', explanation: null });
  });
  it('legacy text with explanation: the chain-of-thought label, the whole reply as explanation', () => {
    expect(readLabel('Fine.\nLABEL: incorrect', legacyExplain, 'text')).toEqual({ ok: true, label: 'incorrect', explanation: 'Fine.\nLABEL: incorrect' });
  });
  it('legacy fc: the response argument snapped, the explanation argument as sent', () => {
    expect(readLabel('{"explanation": "e", "response": "INCORRECT"}', legacyExplain, 'fc')).toEqual({ ok: true, label: 'incorrect', explanation: 'e' });
    expect(readLabel('{"response": "maybe"}', legacy, 'fc')).toEqual({ ok: true, label: 'NOT_PARSABLE', explanation: null });
  });
  it('classification fc: the label must be one of the choices exactly', () => {
    expect(readLabel('{"explanation": "e", "label": "correct"}', selection, 'fc')).toEqual({ ok: true, label: 'correct', explanation: 'e' });
    expect(readLabel('{"label": "Correct"}', selection, 'fc').ok).toBe(false);
    expect(readLabel('correct', selection, 'fc').ok).toBe(false);
  });
  it('classification text (our extension): read like legacy text', () => {
    expect(readLabel('because\nLABEL: correct', selection, 'text')).toEqual({ ok: true, label: 'correct', explanation: 'because\nLABEL: correct' });
  });
});

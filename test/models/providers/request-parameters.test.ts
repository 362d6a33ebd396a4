/**
 * `--max-tokens`, `--top-p`, `--seed` and `--extra-body` as each API names them, appended after the
 * reference's fields (and absent when not given, so the reference's requests are unchanged).
 */
import { describe, expect, it } from 'vitest';

import { parseJsonLossless } from '../../../src/py/json.js';
import type { PyDict } from '../../../src/py/value.js';
import { MockLlmServer, anthropicReply, chatReply, completionsReply, responsesReply } from '../../helpers/mock-llm-server.js';
import { begin, compatibleModel, keyOrder, makeModel, registered, useMockLlmServer } from './helpers.js';

let server: MockLlmServer;
useMockLlmServer((started) => (server = started));

const requestParameters = {
  maxTokens: 256,
  topP: 0.5,
  seed: 42,
  extraBody: parseJsonLossless('{"chat_template_kwargs": {"enable_thinking": false}, "temperature": 0.0}') as PyDict,
};

describe('request parameters', () => {
  it('chat completions: max_tokens, top_p, seed, then the extra body (a key already there replaced in place)', async () => {
    server.enqueue(chatReply.text('ok'));
    await begin(makeModel(compatibleModel('m', true), { baseUrl: server.openaiBaseUrl, requestParameters })).conversation.query();
    const request = server.requests[0]!;
    expect(keyOrder(request.json)).toEqual(['messages', 'model', 'temperature', 'store', 'tools', 'max_tokens', 'top_p', 'seed', 'chat_template_kwargs']);
    expect(request.bodyText).toContain('"temperature":0.0,"store":false');
    expect(request.bodyText).toContain('"max_tokens":256,"top_p":0.5,"seed":42,"chat_template_kwargs":{"enable_thinking":false}}');
  });

  it('are not sent when not given', async () => {
    server.enqueue(chatReply.text('ok'));
    await begin(makeModel(compatibleModel('m', true), { baseUrl: server.openaiBaseUrl })).conversation.query();
    expect(keyOrder(server.requests[0]!.json)).toEqual(['messages', 'model', 'temperature', 'store', 'tools']);
  });

  it('Responses API: max_output_tokens and top_p', async () => {
    server.enqueue(responsesReply.text('ok'));
    const { seed: _seed, ...noSeed } = requestParameters;
    await begin(makeModel(registered('gpt-4o-2024-11-20-FC'), { baseUrl: server.openaiBaseUrl, requestParameters: noSeed })).conversation.query();
    expect(server.requests[0]!.json).toMatchObject({ max_output_tokens: 256, top_p: 0.5, chat_template_kwargs: { enable_thinking: false } });
  });

  it("Anthropic: max_tokens replaces the reference's 64000", async () => {
    server.enqueue(anthropicReply.text('ok'));
    const model = makeModel(registered('claude-sonnet-4-5-20250929-FC'), { baseUrl: server.anthropicBaseUrl, requestParameters: { maxTokens: 1000, topP: 0.9 } });
    await begin(model).conversation.query();
    const body = server.requests[0]!.json as Record<string, unknown>;
    expect(keyOrder(body).slice(0, 2)).toEqual(['model', 'max_tokens']);
    expect(body).toMatchObject({ max_tokens: 1000, top_p: 0.9 });
  });

  it('OSS completions: replace the computed max_tokens', async () => {
    server.enqueue(completionsReply.text('[]'));
    const model = makeModel(registered('Qwen/Qwen3-8B'), { baseUrl: server.openaiBaseUrl, requestParameters: { maxTokens: 99, seed: 1 } });
    await begin(model).conversation.query();
    expect(server.requests[0]!.json).toMatchObject({ max_tokens: 99, seed: 1 });
  });
});

/**
 * The prompting system prompt must equal, byte for byte, the one in the reference's golden requests
 * (shared/conformance/requests/*-prompting.jsonl, README §3). Every request of an entry carries it:
 * it is built once, from the entry's functions and prompt configuration, and stays first in the history.
 */
import { describe, expect, test } from 'vitest';

import type { PyDict, PyValue } from '../../src/py/value.js';
import { addSystemPrompt } from '../../src/models/prompts/system-prompt.js';
import { extractPromptFormatFromId } from '../../src/spec/categories.js';
import { EntryLookup, haveGoldenRequests, readGoldenRequests } from './golden-requests.js';

const QWEN_SYSTEM_OPEN = '<|im_start|>system\n';
const QWEN_END = '<|im_end|>';

/** Where each handler puts the system prompt in its request. */
const SYSTEM_TEXT_OF: Readonly<Record<string, (request: PyDict) => string>> = {
  // The Responses handler renames `system` to `developer`.
  'OpenAIResponsesHandler-prompting.jsonl': (r) => firstMessage(r.get('input'), 'developer'),
  'OpenAICompletionsHandler-prompting.jsonl': (r) => firstMessage(r.get('messages'), 'system'),
  // Claude takes the system prompt out of the messages, as `system: [{"type": "text", "text": ...}]`.
  'ClaudeHandler-prompting.jsonl': (r) => ((r.get('system') as PyValue[])[0] as PyDict).get('text') as string,
  // The OSS path renders a chat template; Qwen's starts with the system message.
  'QwenHandler-prompting.jsonl': (r) => {
    const prompt = r.get('prompt') as string;
    expect(prompt.startsWith(QWEN_SYSTEM_OPEN)).toBe(true);
    return prompt.slice(QWEN_SYSTEM_OPEN.length, prompt.indexOf(QWEN_END));
  },
};

function firstMessage(messages: PyValue | undefined, role: string): string {
  const first = (messages as PyValue[])[0] as PyDict;
  expect(first.get('role')).toBe(role);
  return first.get('content') as string;
}

describe.skipIf(!haveGoldenRequests)('prompting system prompt equals the reference requests', () => {
  const entries = new EntryLookup();

  for (const [file, systemTextOf] of Object.entries(SYSTEM_TEXT_OF)) {
    test(file, () => {
      const golden = readGoldenRequests(file);
      expect(golden.length).toBeGreaterThan(0);
      for (const line of golden) {
        const entry = entries.get(line.id);
        const messages = addSystemPrompt(entry.question[0]!, entry.functionDocs, extractPromptFormatFromId(entry.id));
        expect(systemTextOf(line.request), `${line.id} turn ${line.turn} step ${line.step}`).toBe(messages[0]!.content);
      }
    });
  }

  test('the entry with its own system message is covered', () => {
    expect(entries.get('live_multiple_1-0-1').question[0]![0]!.role).toBe('system');
  });
});

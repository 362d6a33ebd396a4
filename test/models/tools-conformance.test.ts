/**
 * FC tool compilation must reproduce the `tools` of the reference's golden requests
 * (shared/conformance/requests/*-FC*.jsonl, README §3), compared as Python JSON text, so key order
 * and int/float types count too.
 */
import { describe, expect, test } from 'vitest';

import { resolveModel } from '../../src/models/model-registry.js';
import { convertToTool } from '../../src/models/tools/convert-to-tool.js';
import { jsonDumps } from '../../src/py/json.js';
import type { PyDict, PyValue } from '../../src/py/value.js';
import { isMultiTurn } from '../../src/spec/categories.js';
import { EntryLookup, functionDocsAtTurn, haveGoldenRequests, readGoldenRequests } from './golden-requests.js';

const FC_FILES = [
  'OpenAIResponsesHandler-FC.jsonl',
  'OpenAIResponsesHandler-FC-reasoning.jsonl',
  'OpenAICompletionsHandler-FC.jsonl',
  'ClaudeHandler-FC.jsonl',
];

/**
 * The golden tools without what the Claude handler adds after compilation: prompt caching puts
 * `cache_control` on the last tool of multi-turn requests.
 */
function compiledPart(tools: PyValue[], handlerFile: string, entryId: string): PyValue[] {
  if (!handlerFile.startsWith('ClaudeHandler') || !isMultiTurn(entryId)) return tools;
  const last = new Map(tools.at(-1) as PyDict);
  expect(last.get('cache_control')).toBeDefined();
  last.delete('cache_control');
  return [...tools.slice(0, -1), last];
}

describe.skipIf(!haveGoldenRequests)('FC tools equal the reference requests', () => {
  const entries = new EntryLookup();

  for (const file of FC_FILES) {
    test(file, () => {
      const golden = readGoldenRequests(file);
      expect(golden.length).toBeGreaterThan(0);
      for (const line of golden) {
        // `openai/gpt-oss-20b` is not in the registry: the fallback (OpenAI-compatible completions) applies.
        const style = resolveModel(line.model).modelStyle;
        const entry = entries.get(line.id);
        const ours = convertToTool(functionDocsAtTurn(entry, line.turn), style);
        const theirs = compiledPart(line.request.get('tools') as PyValue[], file, line.id);
        expect(jsonDumps(ours), `${line.id} turn ${line.turn} step ${line.step}`).toBe(jsonDumps(theirs));
      }
    });
  }
});

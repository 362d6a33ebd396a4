/**
 * Issue #25 item 4: `bfcl report` on agentic failures. Hand-made failing lines of a model that reads
 * its memory and searches the web, evaluated on our data/: the report lists each failure with the
 * final answer as scored, the expected answers, the memory start and every call beside its result,
 * and the page renders them from the embedded data (as text, never markup).
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { modelMetadata } from '../../../src/cli/model-metadata.js';
import { AGENTIC_RESPONSE_FORMAT_PROMPT } from '../../../src/data/agentic.js';
import { datasetEntryCounter } from '../../../src/data/dataset-size.js';
import { openDataset } from '../../../src/data/dataset.js';
import { memoryInstructionPrompt } from '../../../src/generate/agentic-prompts.js';
import { parseJsonLossless } from '../../../src/py/json.js';
import type { PyDict } from '../../../src/py/value.js';
import { renderFailureDetail } from '../../../src/report/html/client.js';
import { buildFailureView } from '../../../src/report/html/failure-view.js';
import { collectReportData } from '../../../src/report/html/collect-report.js';
import type { FailureView, ReportData } from '../../../src/report/html/report-data.js';
import { agenticLine, writeAgenticResults, type AgenticTurn } from '../../inspect/agentic-helpers.js';
import { cli, tempProject } from '../../inspect/helpers.js';

const MEMORY_QUESTION: AgenticTurn[] = [
  {
    messages: [
      { role: 'system', content: `${memoryInstructionPrompt('memory_rec_sum', 'finance', 'Saves 900 euros a month <for the flat>.')}\n\n${AGENTIC_RESPONSE_FORMAT_PROMPT}` },
      { role: 'user', content: 'How much do I save each month for the flat deposit?' },
    ],
    steps: [{ calls: [['memory_retrieve', {}, '{"memory_content": "Saves 900 euros a month <for the flat>."}']] }, { text: "{'answer': '<b>800</b> euros', 'context': 'memory'}" }],
  },
];

const WEB_QUESTION: AgenticTurn[] = [
  {
    messages: [
      { role: 'system', content: AGENTIC_RESPONSE_FORMAT_PROMPT },
      { role: 'user', content: 'Where was the composer born?' },
    ],
    steps: [
      { calls: [['search_engine_query', { keywords: 'composer birthplace' }, "[{'title': 'Beethoven', 'href': 'https://example.org/b', 'body': 'Born in Bonn'}]"]] },
      { calls: [['fetch_url_content', { url: 'https://example.org/b' }, '{"error": "An error occurred while fetching https://example.org/b: timed out"}']] },
      { text: "{'answer': 'Cologne', 'context': 'guess'}" },
    ],
  },
];

let root = '';
let data: ReportData;

const failureOf = (id: string): FailureView => data.failures.find((f) => f.id === id)!;

beforeAll(async () => {
  root = tempProject();
  writeAgenticResults(root, 'agent', 'BFCL_v4_memory_rec_sum_result.json', [agenticLine('memory_rec_sum_4-finance-0', MEMORY_QUESTION)]);
  writeAgenticResults(root, 'agent', 'BFCL_v4_web_search_base_result.json', [agenticLine('web_search_base_1', WEB_QUESTION)]);
  const evaluate = await cli(['evaluate', '--model', 'agent', '--test-category', 'memory_rec_sum,web_search_base', '--partial-eval'], root);
  expect(evaluate.code, evaluate.stderr).toBe(0);
  data = collectReportData({
    scoreDir: join(root, 'score'),
    resultDir: join(root, 'result'),
    datasetSize: datasetEntryCounter(openDataset()),
    metadata: modelMetadata,
  });
}, 60_000);

describe('bfcl report: agentic failures', () => {
  it('lists each agentic failure with its final answer, expected answers and normalised forms', () => {
    expect(data.failures.map((f) => [f.category, f.id, f.errorType, f.errorClass])).toEqual([
      ['memory_rec_sum', 'memory_rec_sum_4-finance-0', 'agentic:answer_not_found', 'value_mismatch'],
      ['web_search_base', 'web_search_base_1', 'agentic:answer_not_found', 'value_mismatch'],
    ]);
    const memory = failureOf('memory_rec_sum_4-finance-0').agentic!;
    expect(memory.finalAnswer).toBe("{'answer': '<b>800</b> euros', 'context': 'memory'}");
    expect(memory.standardizedAnswer).toBe('{"answer": "<b>800<b> euros" "context": "memory"}');
    expect(memory.expectedAnswers).toEqual(['900']);
    expect(memory.standardizedExpected).toEqual(['900']);
    expect(memory.memoryStart).toBe("scenario finance: the question started from memory_snapshot/finance_final.json, the memory left by the scenario's prerequisite conversations");
    expect(memory.promptMemory).toEqual({ role: 'memory', content: 'Saves 900 euros a month <for the flat>.' });
    expect(memory.toolCalls).toBe('1 memory operation');
    expect(memory.turns[0]!.messages[0]!.content).toMatch(/^You are a high-level executive assistant .*\n\[memory instruction \+ answer-format instruction, \d+ characters\]$/);
    expect(memory.turns[0]!.steps.map((s) => [s.calls, s.final])).toEqual([
      [[{ kind: 'memory', call: 'memory_retrieve()', result: '{"memory_content": "Saves 900 euros a month <for the flat>."}' }], false],
      [[], true],
    ]);
  });

  it('pairs every search and page fetch with its result', () => {
    const web = failureOf('web_search_base_1').agentic!;
    expect(web.expectedAnswers).toEqual(['Bonn']);
    expect(web.memoryStart).toBeNull();
    expect(web.toolCalls).toBe('1 search, 1 page fetch');
    expect(web.turns[0]!.steps.flatMap((s) => s.calls.map((c) => [c.kind, c.call]))).toEqual([
      ['search', "search_engine_query(keywords='composer birthplace')"],
      ['fetch', "fetch_url_content(url='https://example.org/b')"],
    ]);
  });

  it('renders the agentic view with the expected answers, model text escaped', () => {
    const html = renderFailureDetail(failureOf('memory_rec_sum_4-finance-0'), data.sharedTexts).html;
    expect(html).toContain('<div class="side-label">expected (any of)</div><ul class="plain expected-answers"><li><pre>900</pre></li></ul>');
    expect(html).toContain('<pre class="value">{&#39;answer&#39;: &#39;&lt;b&gt;800&lt;/b&gt; euros&#39;, &#39;context&#39;: &#39;memory&#39;}</pre>');
    expect(html).toContain('step 1 — the final answer scored');
    expect(html).toContain('<span class="role">memory in the system message</span><pre>Saves 900 euros a month &lt;for the flat&gt;.</pre>');
    expect(html).not.toContain('<b>800');
  });

  it('adds nothing to the failures of other categories', () => {
    const record = parseJsonLossless(
      '{"id": "simple_python_1", "model_name": "m", "test_category": "simple_python", "valid": false, "error": ["Invalid value."], "error_type": "value_error:others", "prompt": {"question": [[{"role": "user", "content": "q"}]]}, "model_result_raw": "x", "possible_answer": []}',
    ) as PyDict;
    const view = buildFailureView(record, { model: 'm', category: 'simple_python', errorType: 'value_error:others', errorClass: 'value_mismatch' });
    expect('agentic' in view).toBe(false);
  });

  it('bfcl report embeds the agentic view in the page', async () => {
    const out = join(root, 'report.html');
    const r = await cli(['report', '--score-dir', 'score', '--result-dir', 'result', '--out', out], root);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    const embedded = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
    expect(embedded).not.toBeNull();
    expect(html).toContain('function renderAgentic(');
    expect(html).toContain('"expectedAnswers":["900"]');
    expect(html).toContain('"expectedAnswers":["Bonn"]');
  });
});

/**
 * Issue #25 item 4: `bfcl show` on agentic entries. The oracle's run of the agentic categories on
 * our own data/ (generated and evaluated in-process), and hand-made failing lines of a model that
 * uses its memory and the web: the memory operations and searches of each step with their tool
 * results, the final answer as scored, the expected answers, the verdict, and where a memory
 * entry's memory came from.
 */

import { beforeAll, describe, expect, it } from 'vitest';

import { AGENTIC_RESPONSE_FORMAT_PROMPT } from '../../src/data/agentic.js';
import { memoryInstructionPrompt } from '../../src/generate/agentic-prompts.js';
import { agenticLine, writeAgenticResults, writeSnapshot, type AgenticTurn } from '../inspect/agentic-helpers.js';
import { cli, tempProject } from '../inspect/helpers.js';

let root = '';

const CORE = { patient_name: 'Ana Ruiz', allergy: 'penicillin' };
const ARCHIVAL = { hba1c_history: 'HbA1c 7.1 in March' };
const CORE_TEXT = JSON.stringify(CORE, null, 4);
const PAGE = `Born in Bonn in 1770. ${'Beethoven biography text. '.repeat(40)}End of page.`;

/** A memory_kv question answered wrongly after reading the memory (searches found the wrong value). */
const QUESTION: AgenticTurn[] = [
  {
    messages: [
      { role: 'system', content: `${memoryInstructionPrompt('memory_kv', 'healthcare', CORE_TEXT)}\n\n${AGENTIC_RESPONSE_FORMAT_PROMPT}` },
      { role: 'user', content: 'What was my last HbA1c result?' },
    ],
    steps: [
      { calls: [['core_memory_retrieve_all', {}, JSON.stringify(CORE)]] },
      {
        calls: [
          ['archival_memory_key_search', { query: 'hba1c' }, '{"ranked_results": [["hba1c_history", 1.42]]}'],
          ['archival_memory_retrieve', { key: 'hba1c' }, '{"error": "Key not found."}'],
        ],
      },
      { text: "{'answer': '7.1', 'context': 'from the archival memory'}" },
    ],
  },
];

/** The prerequisite that stored the facts (second of the healthcare chain). */
const PREREQ: AgenticTurn[] = [
  {
    messages: [
      { role: 'system', content: memoryInstructionPrompt('memory_kv', 'healthcare', '{\n    "patient_name": "Ana Ruiz"\n}') },
      { role: 'user', content: 'My last HbA1c result was 6.8 percent.' },
    ],
    steps: [{ calls: [['core_memory_add', { key: 'allergy', value: 'penicillin' }, '{"status": "Key-value pair added."}']] }, { text: 'Noted.' }],
  },
  {
    messages: [{ role: 'user', content: 'And I moved to Valencia.' }],
    steps: [{ calls: [['archival_memory_add', { key: 'hba1c_history', value: 'HbA1c 7.1 in March' }, '{"status": "Key-value pair added."}']] }, { text: 'Thanks.' }],
  },
];

/** A web search question: one search, one page, a wrong city. */
const WEB: AgenticTurn[] = [
  {
    messages: [
      { role: 'system', content: AGENTIC_RESPONSE_FORMAT_PROMPT },
      { role: 'user', content: "The composer of the 'Moonlight Sonata' was born in a city on the Rhine. What is the name of that city?" },
    ],
    steps: [
      { calls: [['search_engine_query', { keywords: 'Moonlight Sonata composer birthplace' }, "[{'title': 'Beethoven', 'href': 'https://example.org/beethoven', 'body': 'Ludwig van Beethoven ...'}]"]] },
      { calls: [['fetch_url_content', { url: 'https://example.org/beethoven', mode: 'truncate' }, JSON.stringify({ content: PAGE })]] },
      { text: "{'answer': 'Cologne', 'context': 'the page'}" },
    ],
  },
];

beforeAll(async () => {
  root = tempProject();
  const generate = await cli(['generate', '--model', 'oracle', '--test-category', 'agentic'], root);
  expect(generate.code, generate.stderr).toBe(0);
  const evaluate = await cli(['evaluate', '--model', 'oracle', '--test-category', 'agentic'], root);
  expect(evaluate.code, evaluate.stderr).toBe(0);

  writeAgenticResults(root, 'agent', 'BFCL_v4_memory_kv_result.json', [agenticLine('memory_kv_3-healthcare-1', QUESTION)]);
  writeAgenticResults(root, 'agent', 'BFCL_v4_memory_kv_prereq_result.json', [agenticLine('memory_kv_prereq_3-healthcare-1', PREREQ)]);
  writeAgenticResults(root, 'agent', 'BFCL_v4_web_search_base_result.json', [agenticLine('web_search_base_1', WEB)]);
  writeSnapshot(root, 'agent', 'kv', 'healthcare_final.json', { core_memory: CORE, archival_memory: ARCHIVAL });
  writeSnapshot(root, 'agent', 'kv', 'prereq_checkpoints/memory_kv_prereq_3-healthcare-1.json', { core_memory: CORE, archival_memory: ARCHIVAL });
  writeSnapshot(root, 'agent', 'kv', 'prereq_checkpoints/memory_kv_prereq_2-healthcare-0.json', { core_memory: { patient_name: 'Ana Ruiz' }, archival_memory: {} });
  const scored = await cli(['evaluate', '--model', 'agent', '--test-category', 'memory_kv,web_search_base', '--partial-eval'], root);
  expect(scored.code, scored.stderr).toBe(0);
}, 60_000);

const show = (model: string, id: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  cli(['show', '--model', model, '--id', id, '--color', 'never'], root);

describe('bfcl show on the oracle run of the agentic categories (our data/)', () => {
  it('a memory question: the answer as scored, the expected answer, and the snapshot it started from', async () => {
    const r = await show('oracle', 'memory_kv_0-customer-0');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Verdict: PASS');
    expect(r.stdout).toContain(
      [
        'Answer',
        "  final answer (as scored, step 0): {'answer': 'GRN-40217', 'context': 'The oracle answers from the ground truth.'}",
        '    normalised: {"answer": "grn40217" "context": "the oracle answers from the ground truth"}',
        '  expected (any of): GRN-40217',
        '    normalised: grn40217',
        '  found: "GRN-40217" appears as whole words in the normalised answer',
        '',
        'Memory',
        "  backend kv, scenario customer: the question started from the memory left by the scenario's 2 prerequisite conversations (memory_kv_prereq_0-customer-0 … memory_kv_prereq_1-customer-1)",
        '  read when the question started (questions never write it): memory_snapshot/customer_final.json  (now: core memory 0 entries, archival memory 0 entries)',
        '  core memory in the system message (the state the entry started from):',
        '    There is no content in the core memory at this point.',
      ].join('\n'),
    );
    // The long system message is summarised (the memory it quotes is shown above).
    expect(r.stdout).toMatch(/\n {2}system: You are a general customer support assistant .*\[memory instruction \+ answer-format instruction, 1512 characters\]\n/);
    expect(r.stdout).toContain("    a text reply, not a function call (the turn ends) ← the final answer scored\n");
    expect(r.stdout).toContain('\nTool calls: none\n');
  });

  it('a web search question and a rec_sum question', async () => {
    const web = await show('oracle', 'web_search_no_snippet_0');
    expect(web.code, web.stderr).toBe(0);
    expect(web.stdout).toContain('  expected (any of): Russia\n');
    expect(web.stdout).not.toContain('Memory\n');
    const recSum = await show('oracle', 'memory_rec_sum_3-healthcare-1');
    expect(recSum.stdout).toContain(': memory_snapshot/healthcare_final.json  (now: memory empty)\n');
    expect(recSum.stdout).toContain('  memory in the system message (the state the entry started from):\n    There is no content in the memory at this point.\n');
  });

  it('a memory prerequisite: not scored, its turns, and the snapshots of its chain', async () => {
    const r = await show('oracle', 'memory_vector_prereq_0-customer-0');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("Verdict: not scored: a memory prerequisite, whose conversation fills the memory for its scenario's questions\n");
    expect(r.stdout).toContain('  backend vector, scenario customer: the first prerequisite of the customer chain, it started with an empty memory\n');
    expect(r.stdout).toContain('  the memory this conversation left: memory_snapshot/prereq_checkpoints/memory_vector_prereq_0-customer-0.json  (now: core memory 0 entries, archival memory 0 entries)\n');
    expect(r.stdout).toContain('  core memory in the system message (the state the entry started from):\n    {}\n');
    for (const turn of ['Turn 0', 'Turn 1', 'Turn 2']) expect(r.stdout).toContain(`\n${turn}\n`);
    expect(r.stdout).toContain('  user: My loyalty number is GRN-40217, by the way, in case you need it for discounts.\n');
    expect(r.stdout).not.toContain('Answer\n');
  });
});

describe('bfcl show on hand-made agentic lines', () => {
  it('a failed memory question: every memory operation with its result, the answer, the expected answer', async () => {
    const r = await show('agent', 'memory_kv_3-healthcare-1');
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.replaceAll(root, '<root>');
    expect(out).toBe(
      [
        'memory_kv_3-healthcare-1  ·  model agent  ·  memory_kv',
        'result: <root>/result/agent/agentic/memory/kv/BFCL_v4_memory_kv_result.json',
        'Verdict: FAIL  agentic:answer_not_found  [value_mismatch]',
        '  None of the expected answers were found in the model response.',
        "  final answer: {'answer': '7.1', 'context': 'from the archival memory'}",
        '  expected one of: ["6.8"]',
        '',
        'Answer',
        "  final answer (as scored, step 2): {'answer': '7.1', 'context': 'from the archival memory'}",
        '    normalised: {"answer": "71" "context": "from the archival memory"}',
        '  expected (any of): 6.8',
        '    normalised: 68',
        '  none of the expected answers appears as whole words in the normalised answer',
        '',
        'Memory',
        "  backend kv, scenario healthcare: the question started from the memory left by the scenario's 2 prerequisite conversations (memory_kv_prereq_2-healthcare-0 … memory_kv_prereq_3-healthcare-1)",
        '  read when the question started (questions never write it): memory_snapshot/healthcare_final.json  (now: core memory 2 entries, archival memory 1 entry)',
        '  core memory in the system message (the state the entry started from):',
        '    {',
        '        "patient_name": "Ana Ruiz",',
        '        "allergy": "penicillin"',
        '    }',
        '',
        'Conversation from the inference log.',
        '',
        'Turn 0',
        '  system: You are a healthcare assistant supporting a patient across appointments. Retain …d personal preferences to offer coherent, context-aware guidance and reminders. [memory instruction + answer-format instruction, 1459 characters]',
        '  user: What was my last HbA1c result?',
        '  step 0',
        '    assistant: [{"core_memory_retrieve_all": "{}"}]',
        '    ▸ memory core_memory_retrieve_all()',
        '      → {"patient_name":"Ana Ruiz","allergy":"penicillin"}',
        '  step 1',
        '    assistant: [{"archival_memory_key_search": "{\\"query\\": \\"hba1c\\"}"}, {"archival_memory_retrieve": "{\\"key\\": \\"hba1c\\"}"}]',
        "    ▸ memory archival_memory_key_search(query='hba1c')",
        '      → {"ranked_results": [["hba1c_history", 1.42]]}',
        "    ▸ memory archival_memory_retrieve(key='hba1c')",
        '      → {"error": "Key not found."}',
        '  step 2',
        "    assistant: {'answer': '7.1', 'context': 'from the archival memory'}",
        '    a text reply, not a function call (the turn ends) ← the final answer scored',
        '',
        'Tool calls: 3 memory operations (core_memory_retrieve_all ×1, archival_memory_key_search ×1, archival_memory_retrieve ×1); 1 returned an error',
        '',
      ].join('\n'),
    );
  });

  it('a failed web search: the search and the page fetch with their results shortened', async () => {
    const r = await show('agent', 'web_search_base_1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Verdict: FAIL  agentic:answer_not_found  [value_mismatch]\n');
    expect(r.stdout).toContain("    ▸ search search_engine_query(keywords='Moonlight Sonata composer birthplace')\n");
    expect(r.stdout).toContain("      → [{'title': 'Beethoven', 'href': 'https://example.org/beethoven', 'body': 'Ludwig van Beethoven ...'}]\n");
    expect(r.stdout).toContain("    ▸ fetch fetch_url_content(url='https://example.org/beethoven',mode='truncate')\n");
    // The page is cut in the middle to 400 characters.
    expect(r.stdout).toMatch(/\n {6}→ \{"content":"Born in Bonn in 1770\. Beethoven biography text\. .*….* End of page\."\}\n/);
    expect(r.stdout).toContain('  expected (any of): Bonn\n');
    expect(r.stdout).toContain("  final answer (as scored, step 2): {'answer': 'Cologne', 'context': 'the page'}\n");
    expect(r.stdout).toContain('\nTool calls: 1 search (search_engine_query ×1); 1 page fetch (fetch_url_content ×1)\n');
  });

  it('a prerequisite: its turns with the memory operations, and the snapshots before and after', async () => {
    const r = await show('agent', 'memory_kv_prereq_3-healthcare-1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      [
        'Memory',
        '  backend kv, scenario healthcare: it started from the memory left by memory_kv_prereq_2-healthcare-0, the previous prerequisite of the healthcare chain',
        '  the memory memory_kv_prereq_2-healthcare-0 left: memory_snapshot/prereq_checkpoints/memory_kv_prereq_2-healthcare-0.json  (now: core memory 1 entry, archival memory 0 entries)',
        '  the memory this conversation left: memory_snapshot/prereq_checkpoints/memory_kv_prereq_3-healthcare-1.json  (now: core memory 2 entries, archival memory 1 entry)',
        '  core memory in the system message (the state the entry started from):',
        '    {',
        '        "patient_name": "Ana Ruiz"',
        '    }',
      ].join('\n'),
    );
    expect(r.stdout).toContain(
      [
        'Turn 1',
        '  user: And I moved to Valencia.',
        '  step 0',
        '    assistant: [{"archival_memory_add": "{\\"key\\": \\"hba1c_history\\", \\"value\\": \\"HbA1c 7.1 in March\\"}"}]',
        "    ▸ memory archival_memory_add(key='hba1c_history',value='HbA1c 7.1 in March')",
        '      → {"status": "Key-value pair added."}',
        '  step 1',
        '    assistant: Thanks.',
        '    a text reply, not a function call (the turn ends)',
      ].join('\n'),
    );
    expect(r.stdout).toContain('\nTool calls: 2 memory operations (core_memory_add ×1, archival_memory_add ×1)\n');
  });

  it('an agentic line without an inference log: the result decoded, no tool results', async () => {
    const line = agenticLine('web_search_base_1', WEB);
    line.delete('inference_log');
    writeAgenticResults(root, 'nolog', 'BFCL_v4_web_search_base_result.json', [line]);
    const r = await show('nolog', 'web_search_base_1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Conversation from the result, decoded (no tool results: the agentic backends are not replayed).');
    expect(r.stdout).toContain("    ▸ search_engine_query(keywords='Moonlight Sonata composer birthplace')\n");
    expect(r.stdout).toContain("  final answer (as scored, step 2): {'answer': 'Cologne', 'context': 'the page'}\n");
  });
});

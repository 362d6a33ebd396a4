/**
 * Reading the texts of agentic entries (web search and memory) for display: which kind of tool a
 * call is, what the system message of an entry is made of, the memory content it quoted, and the
 * scenario and snapshot a memory entry started from. Pure: `bfcl show` and `bfcl report` share it.
 */

/** What an agentic tool call does: a memory operation, a web search, a page fetch, or something else. */
export type AgenticToolKind = 'memory' | 'search' | 'fetch' | 'call';

/** The kind of a call, from its text (`core_memory_add(key='a', ...)`) or its function name. */
export function agenticToolKind(call: string): AgenticToolKind {
  const name = /^\s*([\w.]+)/.exec(call)?.[1] ?? '';
  if (name === 'search_engine_query') return 'search';
  if (name === 'fetch_url_content') return 'fetch';
  // Every memory backend's functions carry "memory" in their name (core_memory_add, memory_append, ...).
  return name.includes('memory') ? 'memory' : 'call';
}

// BFCL parity: constants/default_prompts.py — the fixed sentences that open the answer-format
// prompt and close the memory instruction templates (agentic spec §3.1, §3.2).
const ANSWER_FORMAT_START = "For your final answer to the user, you must respond in this format: {'answer': ";
const MEMORY_CONTENT_MARKERS: readonly { readonly marker: string; readonly label: string }[] = [
  { marker: 'Here is the content of your Core Memory from previous interactions:\n', label: 'core memory' },
  { marker: 'Here is the content of your memory system from previous interactions:\n', label: 'memory' },
];

/** The memory content a memory entry's system message quoted, with what it is (`core memory` or `memory`). */
export interface PromptMemory {
  readonly label: string;
  readonly content: string;
}

/**
 * The memory content quoted in a system message (the backend's dump when the entry started), or
 * undefined when the message holds no memory instruction. The instruction ends with a newline, and
 * a question's answer-format prompt follows after a blank line.
 */
export function memoryOfSystemPrompt(text: string): PromptMemory | undefined {
  for (const { marker, label } of MEMORY_CONTENT_MARKERS) {
    const at = text.indexOf(marker);
    if (at === -1) continue;
    let content = text.slice(at + marker.length);
    const answerFormat = content.lastIndexOf(`\n\n\n${ANSWER_FORMAT_START}`);
    if (answerFormat !== -1) content = content.slice(0, answerFormat);
    else if (content.endsWith('\n')) content = content.slice(0, -1);
    return { label, content };
  }
  return undefined;
}

/** What an agentic system message is made of: `memory instruction`, `answer-format instruction`, or neither. */
export function systemPromptParts(text: string): string[] {
  const parts: string[] = [];
  if (MEMORY_CONTENT_MARKERS.some(({ marker }) => text.includes(marker))) parts.push('memory instruction');
  if (text.includes(ANSWER_FORMAT_START)) parts.push('answer-format instruction');
  return parts;
}

/** The scenario of a memory id (`memory_kv_12-customer-12`, `memory_kv_prereq_3-customer-3` → `customer`). */
export function memoryScenarioOfId(id: string): string | undefined {
  return /-([A-Za-z_]+)-\d+$/.exec(id)?.[1];
}

/**
 * The snapshot a memory question starts from, relative to its backend's result folder
 * (`agentic/memory/<backend>`): the scenario's `_final.json`, which every question of the scenario
 * reads and none writes.
 */
export function questionSnapshotFile(scenario: string): string {
  return `memory_snapshot/${scenario}_final.json`;
}

/** Where a memory prerequisite's own snapshot is written, relative to its backend's result folder. */
export function prereqCheckpointFile(id: string): string {
  return `memory_snapshot/prereq_checkpoints/${id}.json`;
}

/** One sentence on the memory a question started from, as far as its id tells. */
export function describeQuestionMemoryStart(id: string): string | undefined {
  const scenario = memoryScenarioOfId(id);
  if (scenario === undefined) return undefined;
  return `scenario ${scenario}: the question started from ${questionSnapshotFile(scenario)}, the memory left by the scenario's prerequisite conversations`;
}

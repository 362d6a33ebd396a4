/**
 * The memory categories' system prompt (agentic spec §3.2–3.3): the scenario's agent setting and
 * the backend's memory content in one of two instruction templates, merged into the first turn's
 * system message once per entry, after the memory backend loaded its snapshot.
 *
 * The texts are data (byte-identical to the reference's `default_prompts.py`); their hashes are
 * checked by the tests.
 */

import type { Message } from '../spec/schemas.js';

/** BFCL parity: constants/default_prompts.py::MEMORY_AGENT_SETTINGS — the `{scenario_setting}` of each scenario. */
export const MEMORY_AGENT_SETTINGS: Readonly<Record<string, string>> = {
  student:
    'You are an academic-support assistant for college student. Remember key personal and academic details discussed across sessions, and draw on them to answer questions or give guidance.',
  customer:
    'You are a general customer support assistant for an e-commerce platform. Your task is to understand and remember information that can be used to provide information about user inquiries, preferences, and offer consistent, helpful assistance over multiple interactions.',
  finance:
    'You are a high-level executive assistant supporting a senior finance professional. Retain and synthesize both personal and professional information including facts, goals, prior decisions, and family life across sessions to provide strategic, context-rich guidance and continuity.',
  healthcare:
    'You are a healthcare assistant supporting a patient across appointments. Retain essential medical history, treatment plans, and personal preferences to offer coherent, context-aware guidance and reminders.',
  notetaker:
    'You are a personal organization assistant. Capture key information from conversations, like tasks, deadlines, and preferences, and use it to give reliable reminders and answers in future sessions.',
};

/** BFCL parity: constants/default_prompts.py::MEMORY_BACKEND_INSTRUCTION_CORE_ARCHIVAL (kv and vector). */
export const MEMORY_BACKEND_INSTRUCTION_CORE_ARCHIVAL =
  '{scenario_setting}\n\n' +
  "You have access to an advanced memory system, consisting of two memory types 'Core Memory' and 'Archival Memory'. Both type of memory is persistent across multiple conversations with the user, and can be accessed in a later interactions. You should actively manage your memory data to keep track of important information, ensure that it is up-to-date and easy to retrieve to provide personalized responses to the user later.\n\n" +
  'The Core memory is limited in size, but always visible to you in context. The Archival Memory has a much larger capacity, but will be held outside of your immediate context due to its size.\n\n' +
  'Here is the content of your Core Memory from previous interactions:\n' +
  '{memory_content}\n';

/** BFCL parity: constants/default_prompts.py::MEMORY_BACKEND_INSTRUCTION_UNIFIED (rec_sum). */
export const MEMORY_BACKEND_INSTRUCTION_UNIFIED =
  '{scenario_setting}\n\n' +
  'You have access to an advanced memory system, which is persistent across multiple conversations with the user, and can be accessed in a later interactions. You should actively manage your memory data to keep track of important information, ensure that it is up-to-date and easy to retrieve to provide personalized responses to the user later.\n\n' +
  'Here is the content of your memory system from previous interactions:\n' +
  '{memory_content}\n';

/**
 * The memory instruction for an entry of `category` (`memory_kv`, `memory_kv_prereq`, ...) in
 * `scenario`, with `memoryContent` = the backend's `_dump_core_memory_to_context()`.
 * BFCL parity: model_handler/utils.py::add_memory_instruction_system_prompt — `"rec_sum" in category`
 * picks the unified template; `str.format` with two fields, so braces and `$` in the content stay literal.
 */
export function memoryInstructionPrompt(category: string, scenario: string, memoryContent: string): string {
  const setting = MEMORY_AGENT_SETTINGS[scenario];
  // The reference's dict lookup raises KeyError for an unknown scenario: the entry fails.
  if (setting === undefined) throw new Error(`'${scenario}'`);
  const template = category.includes('rec_sum') ? MEMORY_BACKEND_INSTRUCTION_UNIFIED : MEMORY_BACKEND_INSTRUCTION_CORE_ARCHIVAL;
  // One pass with a function replacer: a field's value is never scanned again, nor read as a pattern.
  return template.replace(/\{(scenario_setting|memory_content)\}/g, (_match, field: string) =>
    field === 'scenario_setting' ? setting : memoryContent,
  );
}

/**
 * The entry's turns with the memory instruction merged into the first turn: prepended (with a
 * blank line) to its system message, or inserted as one. New arrays; the input is not changed.
 */
export function withMemorySystemPrompt(question: readonly (readonly Message[])[], instruction: string): Message[][] {
  if (question.length === 0) throw new Error('Memory entries need at least one turn');
  const [first, ...rest] = question;
  const firstTurn = first![0]?.role === 'system'
    ? [{ ...first![0], content: `${instruction}\n\n${first![0].content}` }, ...first!.slice(1)]
    : [{ role: 'system' as const, content: instruction }, ...first!];
  return [firstTurn, ...rest.map((turn) => [...turn])];
}

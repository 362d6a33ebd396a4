/**
 * Loading steps of the agentic categories (web search, memory): id rewriting, memory dependencies
 * and the answer-format system prompt (reference: utils.py::process_web_search_test_case,
 * process_memory_test_case, process_agentic_test_case), and their generation-time set-up.
 *
 * Every step returns new top-level dicts; nested values are shared with the input.
 */

import type { PyDict, PyValue } from '../py/value.js';
import {
  extractMemoryBackendType,
  extractTestCategoryFromId,
  isAgentic,
  isMemory,
  isMemoryPrereq,
  isWebSearch,
} from '../spec/categories.js';
import type { TestEntry } from '../spec/schemas.js';
import { toTestEntry } from './test-entry.js';

/**
 * System prompt put first in every agentic question (not in memory prereq conversations).
 * BFCL parity: constants/default_prompts.py::ADDITIONAL_SYSTEM_PROMPT_FOR_AGENTIC_RESPONSE_FORMAT — verbatim, trailing newline included.
 */
export const AGENTIC_RESPONSE_FORMAT_PROMPT =
  "For your final answer to the user, you must respond in this format: {'answer': A short and precise answer to the question, 'context': A brief explanation of how you arrived at this answer or why it is correct}. If you do not know the answer, respond with {'answer': 'I do not know', 'context': 'I do not know'}. If you think the question cannot be properly answered, response with {'answer': 'I cannot answer this question', 'context': A short reason explaining why this question cannot be answered}.\n";

/** Web search entries are shared by two categories: `web_search_0` becomes `web_search_base_0` etc. */
export function processWebSearchEntries(entries: readonly PyDict[], category: string): PyDict[] {
  return entries.map((entry) => withId(entry, (entry.get('id') as string).replaceAll('web_search', category)));
}

/**
 * One scenario's pass of the reference's memory loading: the scenario's prereq conversations are
 * renamed for the backend (`memory_prereq_3-student-0` → `memory_kv_prereq_3-student-0`), each
 * depending on all earlier ones, and put *before* the entries processed so far (included only with
 * `includePrereq`); the scenario's questions are renamed and depend on all its prereqs.
 *
 * BFCL parity: utils.py::process_memory_test_case — called once per scenario in
 * MEMORY_SCENARIO_NAME order, so the prereqs of the last scenario come first in the final list.
 */
export function processMemoryScenario(
  entries: readonly PyDict[],
  prereqEntries: readonly PyDict[],
  category: string,
  scenario: string,
  includePrereq: boolean,
): PyDict[] {
  const backendClass = `MemoryAPI_${extractMemoryBackendType(category)}`;
  const result: PyDict[] = [];
  const prereqIds: string[] = [];
  for (const prereq of prereqEntries) {
    const entry = withId(prereq, (prereq.get('id') as string).replaceAll('memory', category));
    entry.set('depends_on', [...prereqIds]);
    entry.set('involved_classes', [backendClass]);
    prereqIds.push(entry.get('id') as string);
    if (includePrereq) result.push(entry);
  }
  for (const original of entries) {
    if (original.get('scenario') !== scenario) {
      result.push(original);
      continue;
    }
    const entry = withId(original, (original.get('id') as string).replaceAll('memory', category));
    entry.set('depends_on', [...prereqIds]);
    entry.set('involved_classes', [backendClass]);
    result.push(entry);
  }
  return result;
}

/** Agentic questions (not memory prereqs) get the answer-format system message first. */
export function addAgenticSystemPrompt(entries: readonly PyDict[]): PyDict[] {
  return entries.map((entry) => {
    const id = entry.get('id') as string;
    if (!isAgentic(id) || isMemoryPrereq(id)) return entry;
    const question = entry.get('question') as PyValue[];
    const systemMessage: PyDict = new Map<string, PyValue>([
      ['role', 'system'],
      ['content', AGENTIC_RESPONSE_FORMAT_PROMPT],
    ]);
    const firstTurn = [systemMessage, ...(question[0] as PyValue[])];
    const copy: PyDict = new Map(entry);
    copy.set('question', [firstTurn, ...question.slice(1)]);
    return copy;
  });
}

/** A shallow copy of `entry` with a new id (the key keeps its position, as with Python's `d["id"] = ...`). */
function withId(entry: PyDict, id: string): PyDict {
  const copy: PyDict = new Map(entry);
  copy.set('id', id);
  return copy;
}

// ---------------------------------------------------------------------------------------------
// Generation-time set-up of agentic entries (reference: _llm_response_generation.py::collect_test_cases)

/**
 * Drop memory prereq entries whose questions are not being generated (except the ids of
 * `keepPrereqs`), and remove from every `depends_on` the ids that are not kept (so nothing waits
 * forever). BFCL parity: utils.py::clean_up_memory_prereq_entries (which has no `keepPrereqs`).
 */
export function cleanUpMemoryPrereqEntries(entries: readonly TestEntry[], keepPrereqs: ReadonlySet<string> = new Set()): TestEntry[] {
  const memoryCategories = new Set(entries.filter((e) => isMemory(e.id)).map((e) => extractTestCategoryFromId(e.id)));
  const kept = entries.filter((e) => {
    if (!isMemory(e.id) || keepPrereqs.has(e.id)) return true;
    const category = extractTestCategoryFromId(e.id);
    return !isMemoryPrereq(category) || memoryCategories.has(category.replaceAll('_prereq', ''));
  });
  const ids = new Set(kept.map((e) => e.id));
  return kept.map((e) => {
    if (e.dependsOn === undefined) return e;
    return withRawKey(e, 'depends_on', e.dependsOn.filter((id) => ids.has(id)));
  });
}

/**
 * Memory entries get `initial_config = {<backend class>: {model_result_dir, scenario, test_id,
 * test_category}}` (the prereq category for prereqs). BFCL parity:
 * utils.py::populate_initial_settings_for_memory_test_cases (the Path is kept as its string).
 */
export function withMemoryInitialConfig(entry: TestEntry, modelResultDir: string): TestEntry {
  if (!isMemory(entry.id)) return entry;
  const config: PyDict = new Map<string, PyValue>([
    ['model_result_dir', modelResultDir],
    ['scenario', entry.scenario ?? null],
    ['test_id', entry.id],
    ['test_category', extractTestCategoryFromId(entry.id)],
  ]);
  return withRawKey(entry, 'initial_config', new Map([[entry.involvedClasses![0]!, config]]));
}

/** Web search entries get `initial_config = {WebSearchAPI: {show_snippet: <not a no_snippet id>}}`. */
export function withWebSearchInitialConfig(entry: TestEntry): TestEntry {
  if (!isWebSearch(entry.id)) return entry;
  const config: PyDict = new Map([['show_snippet', !entry.id.includes('no_snippet')]]);
  return withRawKey(entry, 'initial_config', new Map([[entry.involvedClasses![0]!, config]]));
}

function withRawKey(entry: TestEntry, key: string, value: PyValue): TestEntry {
  const raw: PyDict = new Map(entry.raw);
  raw.set(key, value);
  return toTestEntry(raw);
}

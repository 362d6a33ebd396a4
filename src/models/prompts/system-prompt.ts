/**
 * The system prompt of prompting (non-FC) models: the reference's `formulate_system_prompt` and
 * `system_prompt_pre_processing_chat_model`.
 */

import { PyException, type PyValue } from '../../py/value.js';
import { extractPromptFormatFromId } from '../../spec/categories.js';
import type { Message } from '../../spec/schemas.js';
import {
  OUTPUT_FORMAT_MAPPING,
  PARAM_TYPE_MAPPING,
  PROMPT_STYLE_TEMPLATES,
  PROMPT_TEMPLATE_MAPPING,
  formatTemplate,
} from './default-prompts.js';
import { formatFunctionDoc } from './function-doc-format.js';
import { parsePromptConfig } from './prompt-config.js';

/**
 * The system prompt for `functions` under a prompt configuration string (see `parsePromptConfig`;
 * `DEFAULT_PROMPT_FORMAT_CONFIG` for ordinary entries).
 */
export function formulateSystemPrompt(functions: readonly PyValue[], config: string): string {
  const { returnFormat, hasToolCallTag, functionDocFormat, promptFormat, promptStyle } = parsePromptConfig(config);
  const functionDoc = formatFunctionDoc(functions, functionDocFormat);
  const style = PROMPT_STYLE_TEMPLATES[promptStyle];

  // With an empty `param_types` (python/json) the sentence keeps both spaces around it: ".  You".
  const toolCallFormat = formatTemplate(hasToolCallTag ? style.tool_call_with_tag : style.tool_call_no_tag, {
    output_format: OUTPUT_FORMAT_MAPPING[returnFormat],
    param_types: PARAM_TYPE_MAPPING[returnFormat],
  });
  const availableTools = formatTemplate(style.available_tools, { format: functionDocFormat, functions: functionDoc });

  return formatTemplate(PROMPT_TEMPLATE_MAPPING[promptFormat], {
    persona: style.persona,
    task: style.task,
    tool_call_format: toolCallFormat,
    multiturn_behavior: style.multiturn_behavior,
    available_tools: availableTools,
  });
}

/**
 * Puts `systemPrompt` first in a message list: merged in front of an existing leading system message
 * (`prompt + "\n\n" + old`), else as a new system message. Returns a new list; `messages` is not changed.
 * Throws Python's IndexError for an empty list, as the reference does.
 */
export function mergeSystemPrompt(messages: readonly Message[], systemPrompt: string): Message[] {
  const first = messages[0];
  if (first === undefined) throw new PyException('IndexError', 'list index out of range');
  if (first.role === 'system') {
    return [{ ...first, content: systemPrompt + '\n\n' + first.content }, ...messages.slice(1)];
  }
  return [{ role: 'system', content: systemPrompt }, ...messages];
}

/**
 * The first turn's messages with the prompting system prompt added (`system_prompt_pre_processing_chat_model`).
 * `config` is the entry's prompt configuration: `extractPromptFormatFromId(entry.id)`.
 */
export function addSystemPrompt(
  messages: readonly Message[],
  functions: readonly PyValue[],
  config: string,
): Message[] {
  return mergeSystemPrompt(messages, formulateSystemPrompt(functions, config));
}

/** `addSystemPrompt` with the configuration taken from the entry id (format-sensitivity ids carry one). */
export function addSystemPromptForEntry(
  entryId: string,
  messages: readonly Message[],
  functions: readonly PyValue[],
): Message[] {
  return addSystemPrompt(messages, functions, extractPromptFormatFromId(entryId));
}

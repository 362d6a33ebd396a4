/**
 * Chat templates of the locally served (OSS) models: the reference renders the prompt itself
 * (`OSSHandler._format_prompt`) and sends it to the raw completions endpoint, so the template is
 * part of the request and must match the handler's byte for byte.
 */

import type { PyDict, PyValue } from '../../../py/value.js';

/** A model family's prompt rendering and answer parsing. */
export interface ChatTemplate {
  /** Reference handler class this template reproduces (or `generic` for the fallback). */
  readonly handler: string;
  /** `_format_prompt(messages, functions)`: the whole prompt, ending where the assistant speaks. */
  formatPrompt(messages: readonly PyDict[], functions: readonly PyValue[]): string;
  /** `_parse_query_response_prompting`: the stored answer and its reasoning text. */
  parseAnswer(text: string): { readonly answer: string; readonly reasoningContent: string };
  /** `_add_assistant_message_prompting`: the history entry of an answer. */
  assistantMessage(answer: string, reasoningContent: string): PyDict;
  /** `extra_body` fields some handlers send (`stop_token_ids`, `skip_special_tokens`); none here. */
  readonly extraBody?: PyDict;
}

/** `message["content"]` when it is a str, else undefined. */
export function contentText(message: PyDict): string | undefined {
  const content = message.get('content');
  return typeof content === 'string' ? content : undefined;
}

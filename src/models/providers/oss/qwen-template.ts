/**
 * The Qwen chat template of the reference's `QwenHandler` (`local_inference/qwen.py`), written out
 * by hand there from the model's Jinja template: a system block, user/assistant turns, thinking
 * blocks for the answers after the last real user query, and tool results folded into user turns.
 */

import { pyStr } from '../../../py/repr.js';
import type { PyDict, PyValue } from '../../../py/value.js';
import { chatMessage } from '../wire.js';
import { contentText, type ChatTemplate } from './chat-template.js';

const IM_START = '<|im_start|>';
const IM_END = '<|im_end|>';
const THINK_END = '</think>';

/** Python `s.strip("\n")`, `s.lstrip("\n")`, `s.rstrip("\n")`. */
const stripNewlines = (s: string): string => s.replace(/^\n+/, '').replace(/\n+$/, '');
const lstripNewlines = (s: string): string => s.replace(/^\n+/, '');
const rstripNewlines = (s: string): string => s.replace(/\n+$/, '');

/**
 * Splits `<think>…</think>answer` as the reference does: the reasoning is the text between the last
 * `<think>` before the first `</think>` and that `</think>`; the answer is what follows the last `</think>`.
 */
export function splitThinking(text: string): { answer: string; reasoningContent: string } | undefined {
  if (!text.includes(THINK_END)) return undefined;
  const parts = text.split(THINK_END);
  const reasoningContent = lstripNewlines(rstripNewlines(parts[0]!).split('<think>').at(-1)!);
  return { answer: lstripNewlines(parts.at(-1)!), reasoningContent };
}

/** A user message that is a real query, not a `<tool_response>` wrapper. */
function isQuery(message: PyDict): boolean {
  const content = contentText(message);
  if (message.get('role') !== 'user' || content === undefined) return false;
  return !(content.startsWith('<tool_response>') && content.endsWith('</tool_response>'));
}

function roleOf(message: PyDict | undefined): PyValue | undefined {
  return message?.get('role');
}

export const QWEN_TEMPLATE: ChatTemplate = {
  handler: 'QwenHandler',

  formatPrompt(messages: readonly PyDict[]): string {
    let prompt = '';
    if (roleOf(messages[0]) === 'system') prompt += `${IM_START}system\n${pyStr(messages[0]!.get('content')!)}${IM_END}\n`;

    let lastQueryIndex = messages.length - 1;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (isQuery(messages[i]!)) {
        lastQueryIndex = i;
        break;
      }
    }

    messages.forEach((message, index) => {
      const role = message.get('role');
      let content = pyStr(message.get('content') ?? null);
      if (role === 'user' || (role === 'system' && index !== 0)) {
        prompt += `${IM_START}${pyStr(role)}\n${content}${IM_END}\n`;
      } else if (role === 'assistant') {
        let reasoning = '';
        const stored = message.get('reasoning_content');
        if (typeof stored === 'string' && stored !== '') {
          reasoning = stored;
        } else {
          const split = splitThinking(content);
          if (split !== undefined) {
            reasoning = split.reasoningContent;
            content = split.answer;
          }
        }
        // Answers after the last real query show their thinking (always for the final message).
        if (index > lastQueryIndex && (index === messages.length - 1 || reasoning !== '')) {
          prompt += `${IM_START}assistant\n<think>\n${stripNewlines(reasoning)}\n</think>\n\n${lstripNewlines(content)}`;
        } else {
          prompt += `${IM_START}assistant\n${content}`;
        }
        prompt += `${IM_END}\n`;
      } else if (role === 'tool') {
        // Consecutive tool results share one user turn.
        if (index === 0 || roleOf(messages[index - 1]) !== 'tool') prompt += `${IM_START}user`;
        prompt += `\n<tool_response>\n${content}\n</tool_response>`;
        if (index === messages.length - 1 || roleOf(messages[index + 1]) !== 'tool') prompt += `${IM_END}\n`;
      }
    });

    return prompt + `${IM_START}assistant\n`;
  },

  parseAnswer(text: string) {
    return splitThinking(text) ?? { answer: text, reasoningContent: '' };
  },

  assistantMessage(answer: string, reasoningContent: string): PyDict {
    const message = chatMessage('assistant', answer);
    message.set('reasoning_content', reasoningContent);
    return message;
  },
};

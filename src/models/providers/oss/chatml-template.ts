/**
 * A generic ChatML template for locally served models whose reference handler is not ported
 * (and whose decoders are the default prompting ones). It is not any reference handler's template:
 * results made with it are comparable in spirit, not byte for byte.
 */

import { pyStr } from '../../../py/repr.js';
import type { PyDict } from '../../../py/value.js';
import { chatMessage } from '../wire.js';
import type { ChatTemplate } from './chat-template.js';

export const CHATML_TEMPLATE: ChatTemplate = {
  handler: 'generic',

  formatPrompt(messages: readonly PyDict[]): string {
    let prompt = '';
    messages.forEach((message, index) => {
      const role = pyStr(message.get('role') ?? null);
      const content = pyStr(message.get('content') ?? null);
      if (role === 'tool') {
        // Tool results are shown to the model as a user turn, consecutive results together.
        if (index === 0 || messages[index - 1]!.get('role') !== 'tool') prompt += '<|im_start|>user';
        prompt += `\n<tool_response>\n${content}\n</tool_response>`;
        if (index === messages.length - 1 || messages[index + 1]!.get('role') !== 'tool') prompt += '<|im_end|>\n';
      } else {
        prompt += `<|im_start|>${role}\n${content}<|im_end|>\n`;
      }
    });
    return prompt + '<|im_start|>assistant\n';
  },

  parseAnswer(text: string) {
    return { answer: text, reasoningContent: '' };
  },

  assistantMessage(answer: string): PyDict {
    return chatMessage('assistant', answer);
  },
};

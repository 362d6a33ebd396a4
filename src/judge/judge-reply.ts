/**
 * What a judge answered: the reply text Phoenix reads from a provider response (spec §3.2) with
 * its usage, and the label and explanation that text stands for under the run's template and mode.
 */

import { jsonDumps } from '../py/json.js';
import type { PyDict, PyValue } from '../py/value.js';
import type { JudgeTemplate } from './judge-template.js';
import type { JudgeMode, JudgeProvider } from './judge-request.js';
import { loadsNonStrict, parseLabelFromChainOfThought, readFunctionCallArguments } from './parse-label.js';
import { snapToRail } from './snap-to-rail.js';

/** Token counts of one answer, as the provider reported them. */
export interface JudgeUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

/** The text Phoenix reads from a response, with its usage. */
export interface ReplyText {
  readonly text: string;
  readonly usage: JudgeUsage | null;
  readonly finishReason: string | null;
}

/** A response body that is not a usable answer of the provider (retried like a server error). */
export class MalformedReplyError extends Error {}

/**
 * The reply text of a response body. OpenAI (OpenAIModel._extract_text): no choices → ""; the first
 * function tool call with arguments → its arguments; else a `function_call`'s arguments; else the
 * content. Claude (AnthropicModel._extract_text): a tool use → `json.dumps(input, ensure_ascii=False)`;
 * else the non-empty text blocks joined by a blank line.
 */
export function readReplyText(provider: JudgeProvider, bodyText: string): ReplyText {
  let body: PyValue;
  try {
    body = loadsNonStrict(bodyText);
  } catch (error) {
    throw new MalformedReplyError(`the answer is not JSON (${(error as Error).message}): ${bodyText.slice(0, 200)}`);
  }
  if (!(body instanceof Map)) throw new MalformedReplyError(`the answer is not a JSON object: ${bodyText.slice(0, 200)}`);
  return provider === 'openai' ? openAIText(body) : anthropicText(body);
}

function openAIText(body: PyDict): ReplyText {
  const usage = body.get('usage');
  const readUsage: JudgeUsage | null =
    usage instanceof Map
      ? { promptTokens: count(usage.get('prompt_tokens')), completionTokens: count(usage.get('completion_tokens')), totalTokens: count(usage.get('total_tokens')) }
      : null;
  const choices = body.get('choices');
  if (choices === undefined) throw new MalformedReplyError('the answer has no "choices"');
  if (!Array.isArray(choices) || choices.length === 0) return { text: '', usage: readUsage, finishReason: null };
  const choice = choices[0];
  if (!(choice instanceof Map)) throw new MalformedReplyError('choices[0] is not an object');
  const finishReason = stringOrNull(choice.get('finish_reason'));
  const message = choice.get('message');
  if (!(message instanceof Map)) throw new MalformedReplyError('choices[0] has no message');
  const toolCalls = message.get('tool_calls');
  if (Array.isArray(toolCalls)) {
    for (const call of toolCalls) {
      if (!(call instanceof Map) || call.get('type') !== 'function') continue;
      const fn = call.get('function');
      const args = fn instanceof Map ? fn.get('arguments') : undefined;
      if (typeof args === 'string' && args !== '') return { text: args, usage: readUsage, finishReason };
    }
  }
  const functionCall = message.get('function_call');
  if (functionCall instanceof Map) return { text: stringOrNull(functionCall.get('arguments')) ?? '', usage: readUsage, finishReason };
  return { text: stringOrNull(message.get('content')) ?? '', usage: readUsage, finishReason };
}

function anthropicText(body: PyDict): ReplyText {
  const usage = body.get('usage');
  let readUsage: JudgeUsage | null = null;
  if (usage instanceof Map) {
    const prompt = count(usage.get('input_tokens')) + count(usage.get('cache_creation_input_tokens')) + count(usage.get('cache_read_input_tokens'));
    const completion = count(usage.get('output_tokens'));
    readUsage = { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion };
  }
  const content = body.get('content');
  if (!Array.isArray(content)) throw new MalformedReplyError('the answer has no "content" list');
  const finishReason = stringOrNull(body.get('stop_reason'));
  for (const block of content) {
    if (block instanceof Map && block.get('type') === 'tool_use') {
      return { text: jsonDumps(block.get('input') ?? null, { ensureAscii: false }), usage: readUsage, finishReason };
    }
  }
  const texts = content.flatMap((block) => {
    if (!(block instanceof Map) || block.get('type') !== 'text') return [];
    const text = block.get('text');
    return typeof text === 'string' && text !== '' ? [text] : [];
  });
  return { text: texts.join('\n\n'), usage: readUsage, finishReason };
}

/** The label and explanation of a reply, or why Phoenix would retry the unit. */
export type ReplyReading =
  | { readonly ok: true; readonly label: string; readonly explanation: string | null }
  | { readonly ok: false; readonly error: string };

/**
 * Read a reply under the run's template and mode (spec §3.2 mode table, §3.7):
 * - legacy, fc: `record_response` arguments, `response` snapped to the rails, `explanation` as sent;
 * - legacy, text: the whole reply snapped, or with an explanation asked for, the chain-of-thought
 *   label snapped and the whole reply as the explanation;
 * - classification, fc: a JSON object whose `label` is exactly one of the choices (else an error,
 *   retried, as Phoenix's ClassificationEvaluator raises);
 * - classification, text (not a Phoenix path): as legacy text.
 */
export function readLabel(text: string, template: JudgeTemplate, mode: JudgeMode): ReplyReading {
  if (mode === 'text') {
    if (!template.explain) return { ok: true, label: snapToRail(text, template.rails), explanation: null };
    return { ok: true, label: snapToRail(parseLabelFromChainOfThought(text), template.rails), explanation: text };
  }
  if (template.kind === 'legacy') {
    const reading = readFunctionCallArguments(text);
    if (!reading.ok) return reading;
    return { ok: true, label: snapToRail(reading.label, template.rails), explanation: reading.explanation };
  }
  let value: PyValue;
  try {
    value = loadsNonStrict(text);
  } catch {
    return { ok: false, error: `ValueError: the structured output is not JSON: ${text.slice(0, 200)}` };
  }
  if (!(value instanceof Map)) return { ok: false, error: `ValueError: the structured output is not a JSON object: ${text.slice(0, 200)}` };
  const label = value.get('label');
  if (typeof label !== 'string' || !template.rails.includes(label)) {
    return { ok: false, error: `ValueError: received invalid label ${jsonDumps(label ?? null, { strFallback: true })}; expected one of ${template.rails.join(', ')}` };
  }
  const explanation = value.get('explanation');
  return { ok: true, label, explanation: typeof explanation === 'string' ? explanation : explanation === undefined || explanation === null ? null : jsonDumps(explanation) };
}

/** Phoenix's `ClassificationTemplate.score`: 1 for `correct`, 0 for anything else; null without a label. */
export function scoreOf(label: string | null): number | null {
  if (label === null) return null;
  return label === 'correct' ? 1 : 0;
}

function count(value: PyValue | undefined): number {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return 0;
}

function stringOrNull(value: PyValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

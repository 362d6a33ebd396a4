/**
 * Prompt configuration strings (`ret_fmt=…&tool_call_tag=…&func_doc_fmt=…&prompt_fmt=…&style=…`), as
 * found in format-sensitivity ids and in `DEFAULT_SYSTEM_PROMPT_FORMAT`.
 */

import { strRepr } from '../../py/repr.js';
import { PyException } from '../../py/value.js';
import type { FunctionDocFormat, PromptLayout, PromptReturnFormat, PromptStyle } from './default-prompts.js';

/** The five settings of a prompt configuration string. */
export interface PromptConfig {
  readonly returnFormat: PromptReturnFormat;
  /** Calls must be wrapped in `<TOOLCALL>…</TOOLCALL>`. */
  readonly hasToolCallTag: boolean;
  readonly functionDocFormat: FunctionDocFormat;
  readonly promptFormat: PromptLayout;
  readonly promptStyle: PromptStyle;
}

// BFCL parity: utils.py::parse_prompt_variation_params — Python's `$` also matches before one final
// newline, hence the optional `\n`.
const CONFIG_PATTERN =
  /^ret_fmt=(python|json|verbose_xml|concise_xml)&tool_call_tag=(True|False)&func_doc_fmt=(python|xml|json)&prompt_fmt=(plaintext|markdown)&style=(classic|experimental)\n?$/;

/**
 * Parses a configuration string; throws `PyException('ValueError', "Invalid query format: '<s>'")`
 * as the reference does.
 */
export function parsePromptConfig(config: string): PromptConfig {
  const match = CONFIG_PATTERN.exec(config);
  if (match === null) throw new PyException('ValueError', `Invalid query format: ${strRepr(config)}`);
  return {
    returnFormat: match[1] as PromptReturnFormat,
    hasToolCallTag: match[2] === 'True',
    functionDocFormat: match[3] as FunctionDocFormat,
    promptFormat: match[4] as PromptLayout,
    promptStyle: match[5] as PromptStyle,
  };
}

/**
 * The judge's prompt: which template (`--template`, `--template-file`), which variant (`--explain`)
 * and how the three inputs are put into it. Phoenix's tool-calling template and template files are
 * `str.format` templates with `{question}`, `{tool_call}`, `{tool_definitions}`; the tool_selection
 * and tool_invocation prompts are Mustache with `{{input}}`, `{{available_tools}}`, `{{tool_selection}}`.
 */

import { sha256Hex } from '../util/hash.js';
import { TOOL_INVOCATION_PROMPT, TOOL_SELECTION_PROMPT, type ClassificationPrompt } from './classification-templates.js';
import { LEGACY_TEMPLATE_VERSION, loadLegacyTemplates } from './legacy-templates.js';
import {
  TemplateSyntaxError,
  dedent,
  formatFields,
  parseFormatTemplate,
  renderFormat,
  renderMustache,
  type FormatPiece,
} from './render-template.js';
import { TOOL_CALLING_RAILS } from './snap-to-rail.js';

/** `--template` values. */
export const TEMPLATE_NAMES = ['tool-calling', 'tool-selection', 'tool-invocation'] as const;
/** A `--template` value. */
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** The three strings every judged unit provides (Phoenix's column names). */
export interface JudgeInputs {
  readonly question: string;
  readonly tool_call: string;
  readonly tool_definitions: string;
}

/** The input names a `str.format` template may use. */
export const INPUT_NAMES: readonly (keyof JudgeInputs)[] = ['question', 'tool_call', 'tool_definitions'];

/**
 * How replies are read: `legacy` is `llm_classify` (record_response function or text, snapped to
 * the rails, NOT_PARSABLE possible); `classification` is Phoenix's ClassificationEvaluator
 * (structured output whose label must be one of the choices).
 */
export type TemplateKind = 'legacy' | 'classification';

/** A template ready to render. */
export interface JudgeTemplate {
  readonly kind: TemplateKind;
  /** What records and reports call it, e.g. `tool_calling_with_explanation@2.13.0`. */
  readonly id: string;
  /** Whether an explanation is asked for (legacy: the explanation variant and/or the function's field). */
  readonly explain: boolean;
  readonly rails: readonly string[];
  /** The prompt text for one unit. */
  render(inputs: JudgeInputs): string;
}

/** A template file's text, checked and ready (`--template-file`). */
export interface TemplateFile {
  readonly path: string;
  readonly text: string;
}

/**
 * The template of a run. A template file is a plain string template as Phoenix's `llm_classify`
 * takes one: it has no explanation variant, so `explain` only changes how replies are read.
 * Throws `TemplateSyntaxError` for a template file Python could not format or that names other fields.
 */
export function resolveJudgeTemplate(name: TemplateName, explain: boolean, file?: TemplateFile): JudgeTemplate {
  if (file !== undefined) return formatTemplate(file.text, `file:${baseName(file.path)}#${sha256Hex(file.text).slice(0, 12)}`, explain);
  switch (name) {
    case 'tool-calling': {
      const templates = loadLegacyTemplates();
      return explain
        ? formatTemplate(templates.withExplanation, `tool_calling_with_explanation@${LEGACY_TEMPLATE_VERSION}`, true)
        : formatTemplate(templates.base, `tool_calling@${LEGACY_TEMPLATE_VERSION}`, false);
    }
    case 'tool-selection':
      return classificationTemplate(TOOL_SELECTION_PROMPT, explain);
    case 'tool-invocation':
      return classificationTemplate(TOOL_INVOCATION_PROMPT, explain);
  }
}

function formatTemplate(text: string, id: string, explain: boolean): JudgeTemplate {
  const pieces: FormatPiece[] = parseFormatTemplate(text);
  const unknown = formatFields(pieces).filter((field) => !(INPUT_NAMES as readonly string[]).includes(field));
  if (unknown.length > 0) {
    throw new TemplateSyntaxError(`unknown field${unknown.length === 1 ? '' : 's'} ${unknown.map((f) => `{${f}}`).join(', ')}; a template may use {question}, {tool_call} and {tool_definitions} (write {{ and }} for literal braces)`);
  }
  return {
    kind: 'legacy',
    id,
    explain,
    rails: TOOL_CALLING_RAILS,
    render: (inputs) => renderFormat(pieces, { ...inputs }),
  };
}

function classificationTemplate(prompt: ClassificationPrompt, explain: boolean): JudgeTemplate {
  return {
    kind: 'classification',
    id: `${prompt.name}@${prompt.version}`,
    explain,
    rails: [...prompt.choices.keys()],
    // Phoenix's evaluator inputs: input = the conversation, available_tools = the schemas, tool_selection = the calls.
    render: (inputs) =>
      dedent(renderMustache(prompt.content, { input: inputs.question, available_tools: inputs.tool_definitions, tool_selection: inputs.tool_call })),
  };
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

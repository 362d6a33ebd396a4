import type { ReturnFormat } from '../../exec/decode/index.js';
import { formatSensitivityHeaderFields } from '../../report/format-sensitivity-stats.js';
import { evaluateRunEntry } from './ast-runner.js';
import { tallyEntries, type CategoryRunInput, type CategoryRunOutput } from './category-input.js';

const CONFIG_PATTERN =
  /^ret_fmt=(python|json|verbose_xml|concise_xml)&tool_call_tag=(True|False)&func_doc_fmt=(python|xml|json)&prompt_fmt=(plaintext|markdown)&style=(classic|experimental)$/;

/** The prompt variation of a format-sensitivity id (`format_sensitivity_<k>:<config>:<original id>`). */
export function parseFormatConfig(config: string): { format: ReturnFormat; hasToolCallTag: boolean } | undefined {
  const m = CONFIG_PATTERN.exec(config);
  if (m === null) return undefined;
  return { format: m[1] as ReturnFormat, hasToolCallTag: m[2] === 'True' };
}

/** The reference's `format_sensitivity_runner`: AST checks per entry, accuracy per prompt configuration. */
export function runFormatSensitivityCategory(input: CategoryRunInput): CategoryRunOutput {
  const stats = new Map<string, { correct: number; total: number }>();
  const { correct, total, failures } = tallyEntries(input.results, (entry, i) => {
    const [, config = '', originalId = ''] = entry.id.split(':');
    const parsed = parseFormatConfig(config) ?? { format: 'python' as const, hasToolCallTag: false };
    const failure = evaluateRunEntry(input, entry, i, {
      checkerCategory: originalId,
      language: 'python',
      format: parsed.format,
      hasToolCallTag: parsed.hasToolCallTag,
    });
    const configStats = stats.get(config) ?? { correct: 0, total: 0 };
    configStats.total++;
    if (failure === undefined) configStats.correct++;
    stats.set(config, configStats);
    return failure;
  });

  const extraHeader = formatSensitivityHeaderFields(stats);
  return { correct, total, failures, extraHeader };
}

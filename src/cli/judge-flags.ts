/** `bfcl judge`'s flags: commander wiring only; the work is `runJudgeCommand` (loaded when the command runs). */

import { resolve } from 'node:path';

import { type Command, InvalidArgumentError, Option } from 'commander';

import type { DecoderMode } from '../evaluate/model-decoder.js';
import { parseAgreementGates } from '../judge/calibration-report.js';
import type { JudgeMode } from '../judge/judge-request.js';
import { TEMPLATE_NAMES, type TemplateName } from '../judge/judge-template.js';
import { UsageError } from '../util/errors.js';
import { dataDirOption, listOption } from './command-options.js';
import type { CliIo } from './io.js';
import type { JudgeOptions } from './judge-command.js';
import { dataDirOf, expandTestCategories, parseNonNegativeInt, parsePositiveInt, parsePositiveSeconds, parseTemperature, projectRootOf } from './option-parsers.js';
import type { CliOutcome } from './program.js';

/** Phoenix's default concurrency (`llm_classify`: the model's `default_concurrency`). */
export const DEFAULT_JUDGE_THREADS = 20;

/** Raw values commander collects for `judge`. */
interface JudgeFlags {
  model?: string[];
  judge?: string;
  judgeBaseUrl?: string;
  testCategory?: string[];
  numThreads?: number;
  template: TemplateName;
  templateFile?: string;
  explain?: boolean;
  judgeMode?: JudgeMode;
  judgeRole?: string;
  judgeTemperature?: number;
  judgeMaxTokens?: number;
  judgePrice?: { input: number; output: number };
  maxRetries?: number;
  timeout?: number;
  resultDir?: string;
  scoreDir?: string;
  dataDir?: string;
  allowOverwrite?: boolean;
  includePrompt?: boolean;
  input?: string;
  output?: string;
  json?: boolean;
  minAgreement?: string[];
  decoder?: DecoderMode;
  underscoreToDot?: boolean;
  dryRun?: boolean;
  exitOnError?: boolean;
}

/** `--judge-price 2.5,10`: USD per million input and output tokens. */
export function parseJudgePrice(value: string): { input: number; output: number } {
  const parts = value.split(',').map((p) => p.trim());
  const numbers = parts.map(Number);
  if (parts.length !== 2 || parts.some((p) => !/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(p)) || numbers.some((n) => !Number.isFinite(n))) {
    throw new InvalidArgumentError('Expected two prices in USD per million tokens, input then output, e.g. 2.5,10.');
  }
  return { input: numbers[0]!, output: numbers[1]! };
}

/** Add `judge` to the program. */
export function registerJudgeCommand(program: Command, io: CliIo, outcome: CliOutcome): void {
  program
    .command('judge')
    .description("Ask an LLM judge (Arize Phoenix's tool-calling eval) about a model's results and calibrate it against BFCL's verdicts; or judge your own traces (--input).")
    .addOption(listOption('--model <names>', 'The model(s) under test, whose result files are judged; comma-separated, repeatable.'))
    .option('--judge <name>', 'The judge: a registry model (bfcl models), or openai-compatible/<model id> with --judge-base-url.')
    .option('--judge-base-url <url>', 'Endpoint of the judge (an OpenAI-compatible server, or the provider), overriding OPENAI_BASE_URL / ANTHROPIC_BASE_URL.')
    .addOption(listOption('--test-category <names>', 'Test categories or groups, comma-separated; repeatable (default: all; agentic and format_sensitivity are not judged).'))
    .option('--num-threads <n>', `Concurrent judge requests (default ${DEFAULT_JUDGE_THREADS}, Phoenix's).`, parsePositiveInt)
    .addOption(new Option('--template <name>', 'tool-calling (Phoenix\'s legacy template, ELv2, the default), tool-selection or tool-invocation (Apache-2.0).').choices([...TEMPLATE_NAMES]).default('tool-calling'))
    .option('--template-file <file>', 'Your own template with {question}, {tool_call} and {tool_definitions} (Python str.format: {{ and }} are literal braces).')
    .option('--explain', 'Ask for an explanation (tool-calling: the explanation template; default on for tool-selection and tool-invocation).')
    .option('--no-explain', 'Ask for the label only.')
    .addOption(new Option('--judge-mode <mode>', "fc: the label comes back as function arguments / structured output; text: as plain text (default: Phoenix's choice, fc for OpenAI models, text otherwise).").choices(['fc', 'text']))
    .addOption(new Option('--judge-role <role>', "Role of the prompt message (default Phoenix's: system for gpt models, user for Claude; user helps servers that refuse system-only chats).").choices(['system', 'user', 'developer']))
    .option('--judge-temperature <t>', 'Judge temperature (default 0; none for o1/o3 models).', parseTemperature)
    .option('--judge-max-tokens <n>', 'Max output tokens of the judge (default: none for OpenAI, 1024 for Claude).', parsePositiveInt)
    .option('--judge-price <in,out>', 'USD per million input and output tokens, for the cost figure (default: the registry\'s price of the judge).', parseJudgePrice)
    .option('--max-retries <n>', 'Retries of one judge request (default 10): 429/5xx/timeouts with backoff, unreadable replies at once.', parseNonNegativeInt)
    .option('--timeout <seconds>', 'Time limit of one judge request (default 120 s).', parsePositiveSeconds)
    .option('--result-dir <dir>', 'Result directory, relative to the project root (default: result).')
    .option('--score-dir <dir>', 'Score directory: judge records go to <score-dir>/<model>/judge/ (default: score).')
    .addOption(dataDirOption())
    .option('-o, --allow-overwrite', 'Ask again about units whose answer is recorded already.')
    .option('--include-prompt', 'Keep the rendered prompt in each record.')
    .option('--input <file>', 'Judge your own records (JSON Lines with question, tool_call, tool_definitions; see README) instead of BFCL results.')
    .option('--output <file>', 'With --input: the record file (default: <input>.judge.jsonl beside the input).')
    .option('--json', 'Print the calibration (or, with --input, the summary) as JSON on stdout.')
    .addOption(listOption('--min-agreement <thresholds>', 'CI gate: minimum agreement with BFCL, overall (0.8 or 80%) or per scope (multi_turn=0.6, simple_python=90%, multi_turn:entry=0.5). Exit code 3 when one is missed.'))
    .addOption(new Option('--decoder <mode>', 'How to decode results of a model the registry does not know (default: guessed from the results).').choices(['fc', 'prompting']))
    .option('--underscore-to-dot', "The model wrote '_' for '.' in function names (default: the registry's setting, or on for unknown FC models).")
    .option('--no-underscore-to-dot', 'Function names are written as documented.')
    .option('--dry-run', 'Count the units and estimate the prompt tokens; ask nothing.')
    .option('--exit-on-error', "Stop at the first unit that fails (Phoenix's exit_on_error); default: record the failure and go on.")
    .action(async (flags: JudgeFlags) => {
      const options = toJudgeOptions(flags, io);
      const { runJudgeCommand } = await import('./judge-command.js');
      outcome.exitCode = await runJudgeCommand(options, io, { isTTY: process.stderr.isTTY === true });
    });
}

/** Validated options from the parsed flags. */
function toJudgeOptions(flags: JudgeFlags, io: CliIo): JudgeOptions {
  const projectRoot = projectRootOf(io);
  if (flags.judge === undefined || flags.judge.trim() === '') throw new UsageError('No judge given: --judge <model> (a registry name or openai-compatible/<model id>).');
  if (flags.input === undefined && (flags.model === undefined || flags.model.length === 0)) {
    throw new UsageError('No model given: --model <model under test> (or --input <traces.jsonl> to judge your own records).');
  }
  if (flags.input !== undefined && flags.model !== undefined) throw new UsageError('--input judges your own records: leave out --model.');
  if (flags.input !== undefined && flags.minAgreement !== undefined) throw new UsageError('--min-agreement needs BFCL verdicts: it cannot be used with --input.');
  if (flags.output !== undefined && flags.input === undefined) throw new UsageError('--output goes with --input (BFCL runs write their records under --score-dir).');
  return {
    models: flags.model ?? [],
    judge: flags.judge.trim(),
    ...(flags.judgeBaseUrl !== undefined && { judgeBaseUrl: flags.judgeBaseUrl }),
    testCategories: expandTestCategories(flags.testCategory),
    numThreads: flags.numThreads ?? DEFAULT_JUDGE_THREADS,
    template: flags.template,
    ...(flags.templateFile !== undefined && { templateFile: resolve(io.cwd, flags.templateFile) }),
    ...(flags.explain !== undefined && { explain: flags.explain }),
    ...(flags.judgeMode !== undefined && { judgeMode: flags.judgeMode }),
    ...(flags.judgeRole !== undefined && { judgeRole: flags.judgeRole }),
    ...(flags.judgeTemperature !== undefined && { judgeTemperature: flags.judgeTemperature }),
    ...(flags.judgeMaxTokens !== undefined && { judgeMaxTokens: flags.judgeMaxTokens }),
    ...(flags.judgePrice !== undefined && { judgePrice: flags.judgePrice }),
    ...(flags.maxRetries !== undefined && { maxRetries: flags.maxRetries }),
    ...(flags.timeout !== undefined && { timeoutSeconds: flags.timeout }),
    resultDir: resolve(projectRoot, flags.resultDir ?? 'result'),
    scoreDir: resolve(projectRoot, flags.scoreDir ?? 'score'),
    dataDir: dataDirOf(flags.dataDir, io),
    allowOverwrite: flags.allowOverwrite ?? false,
    includePrompt: flags.includePrompt ?? false,
    ...(flags.input !== undefined && { input: resolve(io.cwd, flags.input) }),
    ...(flags.output !== undefined && { output: resolve(io.cwd, flags.output) }),
    json: flags.json ?? false,
    minAgreement: parseAgreementGates(flags.minAgreement ?? []),
    ...(flags.decoder !== undefined && { decoder: flags.decoder }),
    ...(flags.underscoreToDot !== undefined && { underscoreToDot: flags.underscoreToDot }),
    dryRun: flags.dryRun ?? false,
    exitOnError: flags.exitOnError ?? false,
  };
}

/**
 * `bfcl judge`: asks an LLM judge about a model's results (or a user's own traces) with Phoenix's
 * tool-calling eval, records each answer beside the score files (never touching them), and prints
 * how far the judge agrees with BFCL's deterministic verdicts.
 *
 * Exit codes: 0 done; 3 a `--min-agreement` threshold was missed; 4 some units failed (the judge
 * endpoint kept failing: recorded as FAILED, asked again by the next run); 130 interrupted
 * (everything answered is recorded); 2 usage errors and 1 other errors come from run-cli.ts.
 */

import { setMaxListeners } from 'node:events';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

import type { DecoderMode } from '../evaluate/model-decoder.js';
import { readResultFile } from '../evaluate/read-results.js';
import { listResultFiles } from '../data/result-files.js';
import { collectBfclUnits, sortUnits, type JudgeUnit } from '../judge/bfcl-units.js';
import { calibrate, type JudgePrices } from '../judge/calibration.js';
import {
  calibrationCsv,
  calibrationDocument,
  checkAgreementGates,
  findDisagreements,
  renderCalibrationTable,
  type AgreementGate,
  type CalibrationMeta,
} from '../judge/calibration-report.js';
import { JudgeClient } from '../judge/judge-client.js';
import { resolveJudgeEndpoint, type JudgeEndpoint } from '../judge/judge-endpoint.js';
import { unitKey, type JudgeRecord } from '../judge/judge-record.js';
import { JudgeRecordStore } from '../judge/judge-record-store.js';
import { buildJudgeRequest, defaultJudgeMode, defaultPromptRole, defaultTemperature, type JudgeMode } from '../judge/judge-request.js';
import { resolveJudgeTemplate, type JudgeTemplate, type TemplateName } from '../judge/judge-template.js';
import { TemplateSyntaxError } from '../judge/render-template.js';
import { runJudgeUnits, type JudgeProgress, type JudgeRunSettings, type RunnableUnit } from '../judge/run-judge.js';
import { TRACE_CATEGORY, readTraceUnits } from '../judge/trace-input.js';
import type { RetryPolicy } from '../models/retry.js';
import { lazySimContext } from '../sim/simulated-api.js';
import type { Category } from '../spec/categories.js';
import { UsageError } from '../util/errors.js';
import { openCommandDataset } from './command-dataset.js';
import { modelSettingsResolver } from './evaluate-command.js';
import type { CliIo } from './io.js';

/** Validated `bfcl judge` options. */
export interface JudgeOptions {
  /** Models under test (result directory names or registry names); empty with `input`. */
  readonly models: readonly string[];
  readonly judge: string;
  readonly judgeBaseUrl?: string;
  readonly testCategories: readonly Category[];
  readonly numThreads: number;
  readonly template: TemplateName;
  readonly templateFile?: string;
  readonly explain?: boolean;
  readonly judgeMode?: JudgeMode;
  readonly judgeRole?: string;
  readonly judgeTemperature?: number;
  readonly judgeMaxTokens?: number;
  readonly judgePrice?: JudgePrices;
  readonly maxRetries?: number;
  readonly timeoutSeconds?: number;
  readonly resultDir: string;
  readonly scoreDir: string;
  readonly dataDir: string;
  readonly allowOverwrite: boolean;
  readonly includePrompt: boolean;
  readonly input?: string;
  readonly output?: string;
  readonly json: boolean;
  readonly minAgreement: readonly AgreementGate[];
  readonly decoder?: DecoderMode;
  readonly underscoreToDot?: boolean;
  readonly dryRun: boolean;
  readonly exitOnError: boolean;
}

/** Seams for tests. */
export interface JudgeDependencies {
  readonly isTTY?: boolean;
  /** An abort signal to use instead of installing a Ctrl-C handler. */
  readonly signal?: AbortSignal;
  /** The judge client's `fetch` (default undici's). */
  readonly fetch?: typeof globalThis.fetch;
  /** Backoff settings of the judge client (tests shorten the waits). */
  readonly retry?: Partial<Omit<RetryPolicy, 'maxAttempts'>>;
}

/** Exit code when a `--min-agreement` threshold is missed (as `evaluate --min-accuracy`). */
export const AGREEMENT_GATE_EXIT_CODE = 3;
/** Exit code when some units failed (the judge could not be asked). */
export const JUDGE_FAILURES_EXIT_CODE = 4;
const INTERRUPTED_EXIT_CODE = 130;

const STRUCTURED_OUTPUT_FALLBACK_NOTE = 'The judge refused the JSON-schema response format (HTTP 400): asked with a forced tool call instead, as Phoenix does.\n';

/** `bfcl judge`. */
export async function runJudgeCommand(options: JudgeOptions, io: CliIo, deps: JudgeDependencies = {}): Promise<number> {
  const template = loadTemplate(options);
  const endpoint = resolveJudgeEndpoint(options.judge, io.env, options.judgeBaseUrl);
  if (endpoint.provider === 'anthropic' && options.judgeRole !== undefined && options.judgeRole !== 'user') {
    throw new UsageError(`--judge-role ${options.judgeRole}: Claude takes the prompt as a user message only.`);
  }
  // Phoenix's classification evaluators always ask for structured output; llm_classify chooses by model.
  const mode = options.judgeMode ?? (template.kind === 'classification' ? 'fc' : defaultJudgeMode(endpoint.provider, endpoint.model));
  const prices: JudgePrices | null =
    options.judgePrice ?? (endpoint.inputPrice !== null && endpoint.outputPrice !== null ? { input: endpoint.inputPrice, output: endpoint.outputPrice } : null);
  const interrupt = deps.signal === undefined ? installInterruptHandler(io) : undefined;
  const signal = deps.signal ?? interrupt!.signal;
  // Every unit in flight links a signal of its own to this one: more listeners than node's default 10.
  setMaxListeners(Math.max(10, options.numThreads * 4), signal);
  const client = new JudgeClient(endpoint, {
    ...(options.timeoutSeconds !== undefined && { timeoutMs: options.timeoutSeconds * 1000 }),
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
    ...(deps.retry !== undefined && { retry: deps.retry }),
    ...(deps.fetch !== undefined && { fetch: deps.fetch }),
    signal,
  });
  const settings: JudgeRunSettings = {
    template,
    mode,
    request: {
      provider: endpoint.provider,
      model: endpoint.model,
      role: options.judgeRole ?? defaultPromptRole(endpoint.provider, endpoint.model),
      temperature: options.judgeTemperature ?? defaultTemperature(endpoint.provider, endpoint.model),
      ...(options.judgeMaxTokens !== undefined && { maxTokens: options.judgeMaxTokens }),
    },
    judgeName: options.judge,
    numThreads: options.numThreads,
    reuse: !options.allowOverwrite,
    includePrompt: options.includePrompt,
    exitOnError: options.exitOnError,
    signal,
  };
  try {
    if (options.input !== undefined) return await judgeTraces(options, options.input, settings, client, endpoint, prices, io, deps);
    const codes: number[] = [];
    for (const model of options.models) {
      const code = await judgeModel(options, model, settings, client, endpoint, prices, io, deps);
      if (code === INTERRUPTED_EXIT_CODE) return code;
      codes.push(code);
    }
    // A missed gate says more than failed units (which the next run retries).
    return codes.includes(AGREEMENT_GATE_EXIT_CODE) ? AGREEMENT_GATE_EXIT_CODE : codes.includes(JUDGE_FAILURES_EXIT_CODE) ? JUDGE_FAILURES_EXIT_CODE : 0;
  } finally {
    interrupt?.dispose();
  }
}

function loadTemplate(options: JudgeOptions): JudgeTemplate {
  // Phoenix's tool_selection / tool_invocation evaluators explain by default; llm_classify does not.
  const explain = options.explain ?? (options.templateFile === undefined && options.template !== 'tool-calling');
  let file;
  if (options.templateFile !== undefined) {
    try {
      file = { path: options.templateFile, text: readFileSync(options.templateFile, 'utf8') };
    } catch (error) {
      throw new UsageError(`Cannot read --template-file ${options.templateFile}: ${(error as Error).message}`);
    }
  }
  try {
    return resolveJudgeTemplate(options.template, explain, file);
  } catch (error) {
    if (error instanceof TemplateSyntaxError) throw new UsageError(`--template-file ${options.templateFile}: ${error.message}`);
    throw error;
  }
}

/** `<score-dir>/<model>/judge/<judge>/<template>-<mode>/`: one folder per judge configuration. */
export function judgeRecordDir(scoreDir: string, modelDir: string, judgeName: string, template: JudgeTemplate, mode: JudgeMode): string {
  const safe = (text: string): string => text.replace(/[^A-Za-z0-9._@+-]/g, '_');
  return join(scoreDir, modelDir, 'judge', safe(judgeName.replaceAll('/', '_')), safe(`${template.id}-${mode}`));
}

/** The record file of a category in a configuration folder. */
export function judgeRecordFile(dir: string, category: string): string {
  return join(dir, `BFCL_v4_${category}_judge.jsonl`);
}

async function judgeModel(
  options: JudgeOptions,
  model: string,
  settings: JudgeRunSettings,
  client: JudgeClient,
  endpoint: JudgeEndpoint,
  prices: JudgePrices | null,
  io: CliIo,
  deps: JudgeDependencies,
): Promise<number> {
  const modelDir = model.replaceAll('/', '_');
  const files = listResultFiles(options.resultDir).filter((f) => f.model === modelDir);
  if (files.length === 0) throw new UsageError(`No result files of ${model} under ${options.resultDir} (run "bfcl generate --model ${model}" first).`);
  const dataset = openCommandDataset(options.dataDir, io);
  const sample = readResultFile(files[0]!.file, { inferenceLogAsText: true, maxEntries: 50 }).entries;
  const collected = collectBfclUnits({
    dataset,
    resultDir: options.resultDir,
    modelDir,
    categories: options.testCategories,
    settings: modelSettingsResolver(options.decoder, options.underscoreToDot)(modelDir, sample),
    context: lazySimContext(() => dataset.longContext()),
  });
  for (const note of collected.notes) io.stderr(`Note: ${note}\n`);
  if (collected.notJudged.length > 0) {
    io.stderr(`Not judged (graded on a final answer, or not scoring): ${collected.notJudged.join(', ')}\n`);
  }
  if (collected.missingResultFiles.length > 0) io.stderr(`${model}: no result file for ${collected.missingResultFiles.join(', ')}\n`);
  if (collected.units.length === 0) throw new UsageError(`Nothing to judge for ${model} in the selected categories.`);

  const dir = judgeRecordDir(options.scoreDir, modelDir, options.judge, settings.template, settings.mode);
  const store = new JudgeRecordStore((record) => judgeRecordFile(dir, record.category));
  const previous = store.load(collected.categories);
  if (options.dryRun) return dryRun(collected.units, settings, previous, prices, io, `${model}, ${collected.categories.length} categories`);

  io.stderr(`Judging ${model} with ${options.judge} (${settings.template.id}, ${settings.mode} mode, ${settings.numThreads} threads): ${collected.units.length} units in ${collected.categories.join(', ')}\n`);
  const started = performance.now();
  const outcome = await runJudgeUnits(collected.units, client, settings, previous, {
    onRecord: (record) => store.append(record),
    onProgress: progressPrinter(io, deps.isTTY === true, started),
  });
  store.finish(outcome.records, (records) => sortUnits(records));

  const units = new Map(collected.units.map((u) => [unitKey(u), u]));
  const calibration = calibrate(outcome.records, prices);
  const disagreements = findDisagreements(outcome.records, units);
  const gates = checkAgreementGates(calibration, options.minAgreement);
  const meta: CalibrationMeta = { model: modelDir, judge: options.judge, judgeModelId: endpoint.model, template: settings.template.id, mode: settings.mode, prices };
  const document = calibrationDocument(calibration, meta, disagreements, gates, {
    categories: collected.categories,
    units: collected.units.length,
    records_dir: dir,
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'calibration.json'), JSON.stringify(document, null, 2) + '\n');
  writeFileSync(join(dir, 'calibration.csv'), calibrationCsv(calibration));
  writeFileSync(join(dir, 'disagreements.jsonl'), disagreements.map((d) => JSON.stringify(d) + '\n').join(''));

  if (options.json) io.stdout(JSON.stringify(document, null, 2) + '\n');
  else io.stdout(renderCalibrationTable(calibration, meta));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const failed = outcome.records.filter((r) => r.execution_status === 'FAILED').length;
  io.stderr(`${outcome.records.length} records in ${dir} (${seconds} s); calibration.json, calibration.csv and disagreements.jsonl (${disagreements.length}) beside them.\n`);
  if (outcome.structuredOutputFallback) io.stderr(STRUCTURED_OUTPUT_FALLBACK_NOTE);
  if (outcome.interrupted) {
    io.stderr('Interrupted: every answer received is recorded; run the same command again to judge the rest.\n');
    return INTERRUPTED_EXIT_CODE;
  }
  if (outcome.stoppedOnError) io.stderr(`Stopped after a failed unit (--exit-on-error); ${collected.units.length - outcome.records.length} units did not run.\n`);
  return finalCode(gates, failed, io);
}

function finalCode(gates: ReturnType<typeof checkAgreementGates>, failed: number, io: CliIo): number {
  if (failed > 0) io.stderr(`${failed} units failed (the judge could not be asked; see "exceptions" in their records): the next run asks again.\n`);
  const missed = gates.filter((g) => !g.passed);
  if (missed.length > 0) {
    io.stderr(`bfcl judge: ${missed.length} agreement threshold${missed.length === 1 ? '' : 's'} missed (exit code ${AGREEMENT_GATE_EXIT_CODE}):\n`);
    for (const g of missed) {
      const got = g.agreement === null ? 'no units to agree on' : `${(100 * g.agreement).toFixed(1)}%`;
      io.stderr(`  ${g.gate.target}: agreement ${got} < ${(100 * g.gate.threshold).toFixed(1)}%\n`);
    }
    return AGREEMENT_GATE_EXIT_CODE;
  }
  if (gates.length > 0) io.stderr(`All ${gates.length} agreement threshold${gates.length === 1 ? '' : 's'} met.\n`);
  return failed > 0 ? JUDGE_FAILURES_EXIT_CODE : 0;
}

async function judgeTraces(
  options: JudgeOptions,
  input: string,
  settings: JudgeRunSettings,
  client: JudgeClient,
  endpoint: JudgeEndpoint,
  prices: JudgePrices | null,
  io: CliIo,
  deps: JudgeDependencies,
): Promise<number> {
  const { units, skippedLines } = readTraceUnits(input);
  for (const line of skippedLines) io.stderr(`Skipped ${line}\n`);
  const output = options.output ?? join(dirname(input), `${basename(input, extname(input))}.judge.jsonl`);
  const store = new JudgeRecordStore(() => output);
  const previous = store.load([TRACE_CATEGORY]);
  if (options.dryRun) return dryRun(units, settings, previous, prices, io, input);
  io.stderr(`Judging ${units.length} records of ${input} with ${options.judge} (${settings.template.id}, ${settings.mode} mode)\n`);
  const started = performance.now();
  const outcome = await runJudgeUnits(units, client, settings, previous, {
    onRecord: (record) => store.append(record),
    onProgress: progressPrinter(io, deps.isTTY === true, started),
  });
  const order = new Map(units.map((u, i) => [u.id, i]));
  store.finish(outcome.records, (records) => [...records].sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity)));
  const counts: Record<string, number> = {};
  for (const r of outcome.records) {
    const key = r.label ?? r.execution_status;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  const usage = calibrate(outcome.records, prices).scopes.at(-1)!.usage;
  const summary = {
    input,
    output,
    judge: options.judge,
    judge_model_id: endpoint.model,
    judge_template: settings.template.id,
    judge_mode: settings.mode,
    records: outcome.records.length,
    labels: counts,
    skipped_lines: skippedLines.length,
    calls: usage.calls,
    cache_hits: usage.cacheHits,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    cost_usd: usage.cost,
  };
  if (options.json) io.stdout(JSON.stringify(summary, null, 2) + '\n');
  else {
    const labels = Object.entries(counts).map(([label, n]) => `${label} ${n}`).join(', ');
    io.stdout(`${outcome.records.length} records judged by ${options.judge}: ${labels}. Records: ${output}\n`);
  }
  io.stderr(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
  if (outcome.structuredOutputFallback) io.stderr(STRUCTURED_OUTPUT_FALLBACK_NOTE);
  if (outcome.interrupted) return INTERRUPTED_EXIT_CODE;
  const failed = outcome.records.filter((r) => r.execution_status === 'FAILED').length;
  return finalCode([], failed, io);
}

/** `--dry-run`: how many requests a run would make and their prompt size, nothing asked. */
function dryRun(
  units: readonly (RunnableUnit | JudgeUnit)[],
  settings: JudgeRunSettings,
  previous: ReadonlyMap<string, JudgeRecord>,
  prices: JudgePrices | null,
  io: CliIo,
  what: string,
): number {
  let toAsk = 0;
  let cached = 0;
  let skipped = 0;
  let bytes = 0;
  for (const unit of units) {
    if (unit.inputs === null) {
      skipped++;
      continue;
    }
    const request = buildJudgeRequest(settings.template.render(unit.inputs), {
      ...settings.request,
      kind: settings.template.kind,
      explain: settings.template.explain,
      rails: settings.template.rails,
      mode: settings.mode,
    });
    if (settings.reuse && previous.has(request.cacheKey)) {
      cached++;
      continue;
    }
    toAsk++;
    bytes += request.body.length;
  }
  // About four bytes of English or JSON per token: a rough figure, for a budget.
  const tokens = Math.round(bytes / 4);
  const cost = prices === null ? 'no price known (--judge-price in,out)' : `about $${((tokens * prices.input) / 1e6).toFixed(2)} of input`;
  io.stdout(
    `Dry run (${what}): ${units.length} units; ${toAsk} to ask, ${cached} answered before, ${skipped} skipped. ` +
      `Requests ${bytes} bytes, about ${tokens} prompt tokens; ${cost} (output tokens not counted).\n`,
  );
  return 0;
}

/** Progress on stderr: at most once a second, and at the end. */
function progressPrinter(io: CliIo, isTTY: boolean, started: number): (p: JudgeProgress) => void {
  let last = 0;
  return (p) => {
    const now = performance.now();
    if (p.done !== p.total && now - last < 1000) return;
    last = now;
    const rate = p.done / Math.max((now - started) / 1000, 1e-3);
    const text = `judged ${p.done}/${p.total} (${p.cacheHits} from earlier records, ${p.failed} failed), ${rate.toFixed(1)} units/s`;
    if (isTTY) io.stderr(`\r${text}${p.done === p.total ? '\n' : ''}`);
    else io.stderr(`${text}\n`);
  };
}

/** Ctrl-C stops starting units (answers in flight are abandoned); a second one exits at once. */
function installInterruptHandler(io: CliIo): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const handler = (): void => {
    if (controller.signal.aborted) process.exit(INTERRUPTED_EXIT_CODE);
    io.stderr('\nInterrupted: no new units will start (Ctrl-C again to exit at once).\n');
    controller.abort();
  };
  process.on('SIGINT', handler);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', handler) };
}

/**
 * `bfcl judge` on the real gpt-oss-20b run (shared/conformance/real-run) against a local judge that
 * answers instantly: what the harness costs per unit (units collected with their BFCL verdicts,
 * prompts rendered, requests sent through the SDK, records appended and rewritten, calibration
 * written). The judge server runs in its own process, so its work does not count.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { runJudgeCommand } from '../src/cli/judge-command.js';
import type { CliIo } from '../src/cli/io.js';
import { ALL_CATEGORIES } from '../src/spec/categories.js';
import { httpResponse, serveInChild, startChildServer } from './mock-http.js';

/** A Chat Completions answer calling record_response with `label`. */
function reply(label: string): Buffer {
  return httpResponse(
    JSON.stringify({
      id: 'chatcmpl-judge-bench',
      object: 'chat.completion',
      created: 0,
      model: 'judge-bench',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'record_response', arguments: `{"response": "${label}"}` } }] },
        },
      ],
      usage: { prompt_tokens: 1000, completion_tokens: 5, total_tokens: 1005 },
    }),
  );
}
const ANSWERS = [reply('correct'), reply('correct'), reply('incorrect')];

if (process.argv[2] === '--mock-judge') {
  let served = 0;
  await serveInChild(() => ANSWERS[served++ % ANSWERS.length]!);
}

/** Judge every unit of the real run (16 categories) with `threads` concurrent requests; the dataset parse cache off. */
export async function runJudgeBench(dataDir: string, resultDir: string, threads: number): Promise<{ entries: number; requests: number; ms: number; threads: number }> {
  const { child, url } = await startChildServer(fileURLToPath(import.meta.url), ['--mock-judge']);
  const scoreDir = mkdtempSync(join(tmpdir(), 'bfcl-bench-judge-'));
  let err = '';
  const io: CliIo = { stdout: () => {}, stderr: (text) => void (err += text), env: { BFCL_CACHE_DIR: 'off' }, cwd: scoreDir };
  try {
    const started = performance.now();
    const code = await runJudgeCommand(
      {
        models: ['openai/gpt-oss-20b'],
        judge: 'openai-compatible/judge-bench',
        judgeBaseUrl: url,
        testCategories: ALL_CATEGORIES,
        numThreads: threads,
        template: 'tool-calling',
        resultDir,
        scoreDir,
        dataDir: resolve(dataDir),
        allowOverwrite: true,
        includePrompt: false,
        json: false,
        minAgreement: [],
        dryRun: false,
        exitOnError: false,
      },
      io,
      { isTTY: false, signal: new AbortController().signal },
    );
    const ms = performance.now() - started;
    if (code !== 0) throw new Error(`bfcl judge exited ${code}: ${err}`);
    const units = Number(/: (\d+) units in /.exec(err)?.[1] ?? NaN);
    const dir = /^\d+ records in (.+?) \([\d.]+ s\)/m.exec(err)?.[1] ?? '';
    const calibration = JSON.parse(readFileSync(join(dir, 'calibration.json'), 'utf8')) as { scopes: { scope: string; calls: number }[] };
    const requests = calibration.scopes.find((scope) => scope.scope === 'overall')!.calls;
    return { entries: units, requests, ms, threads };
  } finally {
    child.stdin!.end();
    rmSync(scoreDir, { recursive: true, force: true });
  }
}

/**
 * Conformance: the synthetic runs (README §4) and the real gpt-oss-20b run (§2) decoded with our decoders agree with what the
 * reference's score files say its decoders produced.
 *
 * - AST categories: a score line of kind `ast_decoder:decoder_failed` means decoding failed, with
 *   `Invalid syntax. Failed to decode AST. <str(e)>`; `decoder_wrong_output_format` carries
 *   `str(decoded)`; other failures carry the decoded value; entries without a line decoded fine.
 * - Relevance categories: failing lines carry `decoded_result`; passing irrelevance entries did
 *   not decode to a call, passing live_relevance entries did.
 * - Multi-turn: each step's handler log records the `decode_execute` result or its error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decodeAstFC,
  decodeAstPrompting,
  decodeExecuteFC,
  decodeExecutePrompting,
  type DecodeResult,
  type ReturnFormat,
} from '../../../src/exec/decode/index.js';
import { parseJsonLossless } from '../../../src/py/json.js';
import { pyStr } from '../../../src/py/repr.js';
import type { PyValue } from '../../../src/py/value.js';
import { asJson, conformanceDir, get } from './helpers.js';

const dir = conformanceDir();

/** The runs with reference score files: the two synthetic ones and the real gpt-oss-20b FC run. */
const MODELS = [
  { run: 'synthetic', name: 'synthetic-fc-a', fc: true },
  { run: 'synthetic', name: 'synthetic-prompt-a', fc: false },
  { run: 'real-run', name: 'openai_gpt-oss-20b', fc: true },
] as const;
type Model = (typeof MODELS)[number];

const AST_CATEGORIES: [group: string, category: string][] = [
  ['non_live', 'simple_python'],
  ['non_live', 'simple_java'],
  ['non_live', 'simple_javascript'],
  ['non_live', 'multiple'],
  ['non_live', 'parallel'],
  ['non_live', 'parallel_multiple'],
  ['live', 'live_simple'],
  ['live', 'live_multiple'],
  ['live', 'live_parallel'],
  ['live', 'live_parallel_multiple'],
];
const RELEVANCE_CATEGORIES: [group: string, category: string][] = [
  ['non_live', 'irrelevance'],
  ['live', 'live_irrelevance'],
  ['live', 'live_relevance'],
];
const MULTI_TURN_CATEGORIES = ['multi_turn_base', 'multi_turn_miss_func', 'multi_turn_miss_param', 'multi_turn_long_context'];

const DECODE_FAILED_PREFIX = 'Invalid syntax. Failed to decode AST. ';
const RELEVANCE_FAILED_PREFIX = 'Invalid syntax. Failed to decode AST when it should have. ';

function readLines(path: string): PyValue[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parseJsonLossless(line));
}

/** A run's result file (empty when the run has none for the category). */
function resultFile(model: Model, group: string, category: string): PyValue[] {
  const path = join(dir!, model.run, 'result', model.name, group, `BFCL_v4_${category}_result.json`);
  return existsSync(path) ? readLines(path) : [];
}

/** Score lines by entry id (the first line is the summary). */
function scoreFile(model: Model, group: string, category: string): Map<string, PyValue> {
  const path = join(dir!, model.run, 'score', model.name, group, `BFCL_v4_${category}_score.json`);
  const lines = existsSync(path) ? readLines(path).slice(1) : [];
  return new Map(lines.map((line) => [get(line, 'id') as string, line]));
}

function languageOf(category: string): ReturnFormat {
  if (category === 'simple_java') return 'java';
  if (category === 'simple_javascript') return 'javascript';
  return 'python';
}

/** `is_empty_output` of the reference (eval_checker utils): not a list of one-entry call dicts, or no call. */
function isEmptyOutput(value: PyValue): boolean {
  if (!Array.isArray(value)) return true;
  for (const item of value) {
    if (!(item instanceof Map) || item.size !== 1 || !([...item.values()][0] instanceof Map)) return true;
  }
  return value.length === 0 || (value.length === 1 && (value[0] as Map<unknown, unknown>).size === 0);
}

interface Tally {
  entries: number;
  verdictAgree: number;
  valueAgree: number;
  valueChecked: number;
  failures: number;
  messagesExact: number;
  mismatches: string[];
}

const newTally = (): Tally => ({ entries: 0, verdictAgree: 0, valueAgree: 0, valueChecked: 0, failures: 0, messagesExact: 0, mismatches: [] });

function note(t: Tally, text: string): void {
  if (t.mismatches.length < 20) t.mismatches.push(text);
}

describe.skipIf(dir === undefined)('synthetic runs: decoders agree with the reference score files', () => {
  for (const model of MODELS) {
    it(`${model.name}: AST categories`, () => {
      const tally = newTally();
      for (const [group, category] of AST_CATEGORIES) {
        const scores = scoreFile(model, group, category);
        for (const entry of resultFile(model, group, category)) {
          const id = get(entry, 'id') as string;
          const raw = get(entry, 'result');
          const decoded = model.fc ? decodeAstFC(raw) : decodeAstPrompting(raw, languageOf(category), false);
          const score = scores.get(id);
          const errorType = score === undefined ? undefined : (get(score, 'error_type') as string);
          tally.entries++;
          if (errorType === 'ast_decoder:decoder_failed') {
            tally.failures++;
            if (decoded.ok) {
              note(tally, `${id}: reference failed, we decoded ${pyStr(decoded.value)}`);
              continue;
            }
            tally.verdictAgree++;
            const message = (get(score!, 'error') as PyValue[])[0] as string;
            if (message === DECODE_FAILED_PREFIX + decoded.error) tally.messagesExact++;
            else note(tally, `${id}: message ${JSON.stringify(message)} vs ${JSON.stringify(decoded.error)}`);
            continue;
          }
          if (!decoded.ok) {
            note(tally, `${id}: reference decoded, we failed: ${decoded.errorType}: ${decoded.error}`);
            continue;
          }
          tally.verdictAgree++;
          if (score === undefined) continue;
          tally.valueChecked++;
          const want = get(score, 'model_result_decoded');
          const same =
            errorType === 'ast_decoder:decoder_wrong_output_format'
              ? pyStr(decoded.value) === want
              : asJson(decoded.value) === asJson(want);
          if (same) tally.valueAgree++;
          else note(tally, `${id}: decoded ${asJson(decoded.value)} vs ${asJson(want)}`);
        }
      }
      console.log(
        `${model.name} AST: verdicts ${tally.verdictAgree}/${tally.entries}, decoded values ${tally.valueAgree}/${tally.valueChecked}, ` +
          `decoder error messages ${tally.messagesExact}/${tally.failures}`,
      );
      expect(tally.mismatches.filter((m) => !m.includes(': message '))).toEqual([]);
      expect(tally.verdictAgree).toBe(tally.entries);
      expect(tally.valueAgree).toBe(tally.valueChecked);
    });

    it(`${model.name}: relevance categories`, () => {
      const tally = newTally();
      for (const [group, category] of RELEVANCE_CATEGORIES) {
        const scores = scoreFile(model, group, category);
        const irrelevance = category.includes('irrelevance');
        for (const entry of resultFile(model, group, category)) {
          const id = get(entry, 'id') as string;
          const raw = get(entry, 'result');
          const decoded = model.fc ? decodeAstFC(raw) : decodeAstPrompting(raw, 'python', false);
          const containsCall = decoded.ok && !isEmptyOutput(decoded.value);
          const score = scores.get(id);
          const passed = score === undefined;
          tally.entries++;
          if (passed === (irrelevance ? !containsCall : containsCall)) tally.verdictAgree++;
          else note(tally, `${id}: verdict differs (${decoded.ok ? asJson(decoded.value) : decoded.error})`);
          if (score === undefined) continue;
          const want = get(score, 'decoded_result');
          tally.valueChecked++;
          if (decoded.ok ? asJson(decoded.value) === asJson(want) : want === null) tally.valueAgree++;
          else note(tally, `${id}: decoded_result differs`);
          if (!irrelevance) {
            tally.failures++;
            const message = (get(score, 'error') as PyValue[])[0] as string;
            const decodeError = decoded.ok ? 'None' : decoded.error;
            if (message === RELEVANCE_FAILED_PREFIX + decodeError) tally.messagesExact++;
          }
        }
      }
      console.log(
        `${model.name} relevance: verdicts ${tally.verdictAgree}/${tally.entries}, decoded_result ${tally.valueAgree}/${tally.valueChecked}, ` +
          `live_relevance messages ${tally.messagesExact}/${tally.failures}`,
      );
      expect(tally.mismatches).toEqual([]);
    });

    it(`${model.name}: multi-turn handler logs`, () => {
      const tally = newTally();
      for (const category of MULTI_TURN_CATEGORIES) {
        for (const entry of resultFile(model, 'multi_turn', category)) {
          const id = get(entry, 'id') as string;
          const turns = get(entry, 'result');
          const fullLog = get(entry, 'inference_log');
          if (!Array.isArray(turns) || !Array.isArray(fullLog)) continue;
          // One dict per turn (the reference's own logs also hold lists of state snapshots).
          const log = fullLog.filter((item) => item instanceof Map && item.has('begin_of_turn_query'));
          turns.forEach((turn, t) => {
            if (!Array.isArray(turn) || log[t] === undefined) return;
            turn.forEach((step, s) => {
              const stepLog = get(log[t]!, `step_${s}`);
              if (!Array.isArray(stepLog)) return;
              const handlerLog = stepLog.find((m) => get(m, 'role') === 'handler_log');
              if (handlerLog === undefined) return;
              const content = get(handlerLog, 'content') as string;
              if (content.startsWith('Model has been forced to quit')) return;
              const decoded: DecodeResult<string[]> = model.fc ? decodeExecuteFC(step) : decodeExecutePrompting(step, false);
              tally.entries++;
              if (content.startsWith('Error decoding')) {
                tally.failures++;
                if (decoded.ok) {
                  note(tally, `${id} turn ${t} step ${s}: reference failed, we decoded ${pyStr(decoded.value)}`);
                  return;
                }
                tally.verdictAgree++;
                if (decoded.error === get(handlerLog, 'error')) tally.messagesExact++;
                return;
              }
              if (!decoded.ok) {
                note(tally, `${id} turn ${t} step ${s}: reference decoded, we failed: ${decoded.error}`);
                return;
              }
              tally.verdictAgree++;
              tally.valueChecked++;
              const want = get(handlerLog, 'model_response_decoded');
              if (asJson(decoded.value) === asJson(want)) tally.valueAgree++;
              else note(tally, `${id} turn ${t} step ${s}: ${asJson(decoded.value)} vs ${asJson(want)}`);
            });
          });
        }
      }
      console.log(
        `${model.name} multi-turn steps: verdicts ${tally.verdictAgree}/${tally.entries}, call strings ${tally.valueAgree}/${tally.valueChecked}, ` +
          `error messages ${tally.messagesExact}/${tally.failures}`,
      );
      expect(tally.mismatches).toEqual([]);
    });
  }
});

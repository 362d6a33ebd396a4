/**
 * Consistency of our own dataset in data/ (official BFCL v4 layout): counts, id pairing, multi-turn
 * structure, function names against the class docs, long-context filler shape, and loading through
 * the project's dataset reader. When every simulated class exists, the multi-turn ground truth is
 * also replayed and compared with the trace the reference Python classes produce for it
 * (test/fixtures/own-dataset-reference-trace.jsonl).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = join(ROOT, 'data');
const REFERENCE_TRACE = join(ROOT, 'test', 'fixtures', 'own-dataset-reference-trace.jsonl');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Message = { role: string; content: string };
type Turn = Message[];

interface Entry {
  id: string;
  question: Turn[];
  function?: { name: string; parameters: { properties: Record<string, Json>; required: string[] } }[];
  initial_config?: Record<string, Json>;
  path?: string[];
  involved_classes?: string[];
  missed_function?: Record<string, string[]>;
  scenario?: string;
}

interface Answer {
  id: string;
  ground_truth: Json[];
}

function readJsonLines<T>(relative: string): T[] {
  const text = readFileSync(join(DATA, relative), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);
}

function readJson<T>(relative: string): T {
  return JSON.parse(readFileSync(join(DATA, relative), 'utf8')) as T;
}

const SINGLE_TURN_COUNTS = {
  simple_python: 6,
  simple_java: 5,
  simple_javascript: 5,
  multiple: 5,
  parallel: 5,
  parallel_multiple: 5,
  irrelevance: 5,
  live_simple: 5,
  live_multiple: 5,
  live_parallel: 5,
  live_parallel_multiple: 5,
  live_irrelevance: 5,
  live_relevance: 5,
} as const;
type SingleTurnCategory = keyof typeof SINGLE_TURN_COUNTS;
const NO_ANSWER: readonly SingleTurnCategory[] = ['irrelevance', 'live_irrelevance', 'live_relevance'];

const MULTI_TURN = ['multi_turn_base', 'multi_turn_miss_func', 'multi_turn_miss_param', 'multi_turn_long_context'] as const;

const FUNC_DOC_FILE: Record<string, string> = {
  GorillaFileSystem: 'gorilla_file_system.json',
  MathAPI: 'math_api.json',
  MessageAPI: 'message_api.json',
  TwitterAPI: 'posting_api.json',
  TicketAPI: 'ticket_api.json',
  TradingBot: 'trading_bot.json',
  TravelAPI: 'travel_booking.json',
  VehicleControlAPI: 'vehicle_control.json',
};
const EIGHT_CLASSES = Object.keys(FUNC_DOC_FILE);

/** Public method count of each reference class (one doc line per method). */
const METHOD_COUNT: Record<string, number> = {
  GorillaFileSystem: 18,
  MathAPI: 17,
  MessageAPI: 10,
  TwitterAPI: 14,
  TicketAPI: 9,
  TradingBot: 20,
  TravelAPI: 18,
  VehicleControlAPI: 22,
};

const MEMORY_SCENARIOS = ['customer', 'healthcare', 'finance', 'student', 'notetaker'];

interface FuncDoc {
  name: string;
  description: string;
  parameters: { type: string; properties: Record<string, { type: string; default?: Json }>; required: string[] };
  response: { type: string; properties: Record<string, Json> };
}

function funcDocs(className: string): FuncDoc[] {
  return readJsonLines<FuncDoc>(join('multi_turn_func_doc', FUNC_DOC_FILE[className]!));
}

/** Name of the function a Python call string invokes (`cd('x')` → `cd`). */
function calledName(call: string): string {
  const match = /^\s*([A-Za-z_]\w*)\s*\(/.exec(call);
  if (match === null) throw new Error(`not a call: ${call}`);
  return match[1]!;
}

describe('single-turn categories', () => {
  for (const [category, count] of Object.entries(SINGLE_TURN_COUNTS) as [SingleTurnCategory, number][]) {
    it(`${category}: ${count} entries with official ids`, () => {
      const entries = readJsonLines<Entry>(`BFCL_v4_${category}.json`);
      expect(entries).toHaveLength(count);
      const idPattern = category.startsWith('live_')
        ? new RegExp(`^${category}_(\\d+)-\\d+-\\d+$`)
        : new RegExp(`^${category}_(\\d+)$`);
      entries.forEach((entry, i) => {
        const match = idPattern.exec(entry.id);
        expect(match, entry.id).not.toBeNull();
        expect(Number(match![1])).toBe(i);
        expect(Object.keys(entry)).toEqual(['id', 'question', 'function']);
        expect(entry.question).toHaveLength(1);
        expect(entry.function!.length).toBeGreaterThan(0);
        for (const doc of entry.function!) {
          for (const name of doc.parameters.required) expect(doc.parameters.properties).toHaveProperty(name);
        }
      });
    });

    if (NO_ANSWER.includes(category)) {
      it(`${category}: has no possible-answer file`, () => {
        expect(existsSync(join(DATA, 'possible_answer', `BFCL_v4_${category}.json`))).toBe(false);
      });
      continue;
    }

    it(`${category}: every entry has its possible answer, calling documented functions and parameters`, () => {
      const entries = readJsonLines<Entry>(`BFCL_v4_${category}.json`);
      const answers = readJsonLines<Answer>(`possible_answer/BFCL_v4_${category}.json`);
      expect(answers.map((a) => a.id)).toEqual(entries.map((e) => e.id));
      entries.forEach((entry, i) => {
        const calls = answers[i]!.ground_truth as Record<string, Record<string, Json[]>>[];
        expect(calls.length).toBeGreaterThan(0);
        if (!category.includes('parallel')) expect(calls).toHaveLength(1);
        for (const call of calls) {
          const [name, params] = Object.entries(call)[0]!;
          const doc = entry.function!.find((f) => f.name === name);
          expect(doc, `${entry.id}: ${name}`).toBeDefined();
          for (const [param, values] of Object.entries(params)) {
            expect(doc!.parameters.properties, `${entry.id}: ${name}.${param}`).toHaveProperty(param);
            expect(Array.isArray(values) && values.length > 0).toBe(true);
            // A required parameter can never be marked optional.
            if (doc!.parameters.required.includes(param)) expect(values, `${entry.id}: ${param}`).not.toContain('');
          }
          for (const required of doc!.parameters.required) expect(params, `${entry.id}: ${required}`).toHaveProperty(required);
        }
      });
    });
  }
});

describe('multi-turn categories', () => {
  const allDocs = new Map(EIGHT_CLASSES.map((c) => [c, funcDocs(c)]));

  it('function docs: one line per public method, well-formed', () => {
    for (const className of EIGHT_CLASSES) {
      const docs = allDocs.get(className)!;
      expect(docs, className).toHaveLength(METHOD_COUNT[className]!);
      expect(new Set(docs.map((d) => d.name)).size).toBe(docs.length);
      for (const doc of docs) {
        expect(Object.keys(doc)).toEqual(['name', 'description', 'parameters', 'response']);
        expect(doc.parameters.type).toBe('dict');
        expect(doc.response.type).toBe('dict');
        const props = doc.parameters.properties;
        const optional = Object.keys(props).filter((p) => !doc.parameters.required.includes(p));
        // Required means "no default", as in the reference signatures.
        for (const p of optional) expect(props[p], `${className}.${doc.name}.${p}`).toHaveProperty('default');
        for (const p of doc.parameters.required) expect(props[p]).not.toHaveProperty('default');
      }
    }
  });

  for (const category of MULTI_TURN) {
    describe(category, () => {
      const entries = readJsonLines<Entry>(`BFCL_v4_${category}.json`);
      const answers = readJsonLines<{ id: string; ground_truth: string[][] }>(`possible_answer/BFCL_v4_${category}.json`);

      it('has at least three entries, paired with their ground truth by id and order', () => {
        expect(entries.length).toBeGreaterThanOrEqual(3);
        expect(entries.map((e) => e.id)).toEqual(entries.map((_, i) => `${category}_${i}`));
        expect(answers.map((a) => a.id)).toEqual(entries.map((e) => e.id));
      });

      it('ground-truth turn count equals question turn count', () => {
        entries.forEach((entry, i) => {
          expect(answers[i]!.ground_truth, entry.id).toHaveLength(entry.question.length);
        });
      });

      it('every ground-truth call names a documented method of an involved class', () => {
        entries.forEach((entry, i) => {
          const names = new Set(entry.involved_classes!.flatMap((c) => allDocs.get(c)!.map((d) => d.name)));
          for (const turn of answers[i]!.ground_truth) {
            for (const call of turn) expect(names.has(calledName(call)), `${entry.id}: ${call}`).toBe(true);
          }
          for (const step of entry.path!) {
            const [className, method] = step.split('.');
            expect(entry.involved_classes).toContain(className);
            expect(allDocs.get(className!)!.some((d) => d.name === method), step).toBe(true);
          }
        });
      });

      it('initial_config only configures involved classes', () => {
        for (const entry of entries) {
          for (const className of Object.keys(entry.initial_config!)) expect(entry.involved_classes).toContain(className);
        }
      });

      it('uses all eight simulated classes', () => {
        const used = new Set(entries.flatMap((e) => e.involved_classes!));
        expect([...used].sort()).toEqual([...EIGHT_CLASSES].sort());
      });

      it('has user-only question turns, and positional calls somewhere', () => {
        for (const entry of entries) {
          for (const turn of entry.question) for (const message of turn) expect(message.role).toBe('user');
        }
        const calls = answers.flatMap((a) => a.ground_truth.flat());
        expect(calls.some((c) => /^\w+\((?!\s*\w+\s*=)[^)]/.test(c))).toBe(true);
      });

      if (category === 'multi_turn_miss_func') {
        it('hold-out turns are [] and follow a turn with an empty ground truth', () => {
          for (const [i, entry] of entries.entries()) {
            const missed = entry.missed_function!;
            expect(Object.keys(missed).length).toBeGreaterThan(0);
            for (const [turn, names] of Object.entries(missed)) {
              const t = Number(turn);
              expect(entry.question[t], entry.id).toEqual([]);
              expect(answers[i]!.ground_truth[t - 1], entry.id).toEqual([]);
              const gtNames = answers[i]!.ground_truth[t]!.map(calledName);
              for (const name of names) expect(gtNames, entry.id).toContain(name);
            }
            // Only hold-out turns may be empty.
            entry.question.forEach((q, t) => {
              if (q.length === 0) expect(missed).toHaveProperty(String(t));
            });
          }
        });
      } else {
        it('has no hold-out turns', () => {
          for (const entry of entries) {
            expect(entry.missed_function).toBeUndefined();
            for (const turn of entry.question) expect(turn.length).toBeGreaterThan(0);
          }
        });
      }

      if (category === 'multi_turn_base' || category === 'multi_turn_miss_param') {
        it('has some turns whose ground truth is empty', () => {
          expect(answers.some((a) => a.ground_truth.some((t) => t.length === 0))).toBe(true);
        });
      }
    });
  }
});

describe('long_context.json', () => {
  const lc = readJson<Record<string, Json>>('long_context.json');

  it('has the official keys in the official order and shapes', () => {
    expect(Object.keys(lc)).toEqual([
      'WATCH_LIST_EXTENSION',
      'TRANSACTION_HISTORY_EXTENSION',
      'MA_5_EXTENSION',
      'MA_20_EXTENSION',
      'TECHNOLOGY_EXTENSION',
      'AUTOMOBILE_EXTENSION',
      'ORDER_DETAIL_EXTENSION',
      'FILE_CONTENT_EXTENSION',
      'POPULATE_FILE_EXTENSION',
      'CAR_STATUS_METADATA_EXTENSION',
      'LONG_WEATHER_EXTENSION',
      'PARKING_BRAKE_INSTRUCTION',
      'INTERMEDIARY_CITIES',
      'CREDIT_CARD_EXTENSION',
      'BOOKING_RECORD_EXTENSION',
      'FILES_TAIL_USED',
    ]);
    const watch = lc['WATCH_LIST_EXTENSION'] as string[];
    expect(watch.at(-1)).toBe('...');
    const populate = lc['POPULATE_FILE_EXTENSION'] as string[];
    expect(populate).toHaveLength(30);
    expect(new Set(populate).size).toBe(30);
    for (const key of ['FILE_CONTENT_EXTENSION', 'CAR_STATUS_METADATA_EXTENSION', 'PARKING_BRAKE_INSTRUCTION']) {
      expect(typeof lc[key]).toBe('string');
    }
    for (const t of lc['TRANSACTION_HISTORY_EXTENSION'] as { type: string; amount: number; timestamp: string }[]) {
      expect(['deposit', 'withdrawal']).toContain(t.type);
      expect(t.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/);
    }
    for (const day of Object.values(lc['LONG_WEATHER_EXTENSION'] as Record<string, Record<string, number>>)) {
      expect(Object.keys(day)).toEqual(['windSpeed', 'humidity', 'precipitation', 'uvIndex', 'visibility', 'airPressure', 'dewPoint']);
    }
    for (const card of Object.values(lc['CREDIT_CARD_EXTENSION'] as Record<string, Record<string, Json>>)) {
      expect(Object.keys(card)).toEqual(['card_number', 'expiration_date', 'cardholder_name', 'card_verification_number', 'balance']);
    }
    for (const booking of Object.values(lc['BOOKING_RECORD_EXTENSION'] as Record<string, Record<string, Json>>)) {
      expect(Object.keys(booking)).toEqual(['card_id', 'travel_date', 'travel_from', 'travel_to', 'travel_class', 'travel_cost', 'transaction_id']);
    }
  });

  it('order-detail texts only use the {symbol} placeholder (they go through str.format)', () => {
    for (const text of Object.values(lc['ORDER_DETAIL_EXTENSION'] as Record<string, string>)) {
      expect(text.replaceAll('{symbol}', '')).not.toMatch(/[{}]/);
    }
  });
});

describe('agentic and format-sensitivity files', () => {
  it('web search: entries and answers pair up', () => {
    const entries = readJsonLines<Entry>('BFCL_v4_web_search.json');
    const answers = readJsonLines<Answer & { source: Json[]; num_hops: number }>('possible_answer/BFCL_v4_web_search.json');
    expect(entries.length).toBeGreaterThanOrEqual(2);
    expect(answers.map((a) => a.id)).toEqual(entries.map((e, i) => (expect(e.id).toBe(`web_search_${i}`), e.id)));
    for (const entry of entries) expect(entry.involved_classes).toEqual(['WebSearchAPI']);
    for (const answer of answers) expect(answer.num_hops).toBe(answer.source.length);
  });

  it('memory: every scenario has prerequisite conversations and questions', () => {
    const entries = readJsonLines<Entry>('BFCL_v4_memory.json');
    const answers = readJsonLines<Answer>('possible_answer/BFCL_v4_memory.json');
    expect(answers.map((a) => a.id)).toEqual(entries.map((e) => e.id));
    expect(readdirSync(join(DATA, 'memory_prereq_conversation')).sort()).toEqual(
      MEMORY_SCENARIOS.map((s) => `memory_${s}.json`).sort(),
    );
    let prereqIndex = 0;
    let entryIndex = 0;
    for (const scenario of MEMORY_SCENARIOS) {
      const prereqs = readJsonLines<Entry & { topic: string }>(`memory_prereq_conversation/memory_${scenario}.json`);
      expect(prereqs.length).toBeGreaterThanOrEqual(2);
      prereqs.forEach((p, k) => expect(p.id).toBe(`memory_prereq_${prereqIndex++}-${scenario}-${k}`));
      const questions = entries.filter((e) => e.scenario === scenario);
      expect(questions.length).toBeGreaterThan(0);
      questions.forEach((q, k) => expect(q.id).toBe(`memory_${entryIndex++}-${scenario}-${k}`));
    }
  });

  it('format sensitivity lists only our own entries of Python categories', () => {
    const ids = readJson<Record<string, string[]>>('BFCL_v4_format_sensitivity.json');
    expect(Object.keys(ids)).toEqual([
      'simple_python',
      'parallel',
      'multiple',
      'parallel_multiple',
      'live_simple',
      'live_multiple',
      'live_parallel',
      'live_parallel_multiple',
    ]);
    for (const [category, list] of Object.entries(ids)) {
      const known = new Set(readJsonLines<Entry>(`BFCL_v4_${category}.json`).map((e) => e.id));
      expect(list.length).toBeGreaterThan(0);
      for (const id of list) expect(known.has(id), id).toBe(true);
    }
  });
});

describe('loading with the project dataset reader', () => {
  it('loads every category and its possible answers', async () => {
    const { BfclDataset } = await import('../../src/data/dataset.js');
    const { ALL_CATEGORIES, getCategoryInfo } = await import('../../src/spec/categories.js');
    const dataset = new BfclDataset(DATA);
    for (const category of ALL_CATEGORIES) {
      const entries = dataset.loadTestEntries(category);
      expect(entries.length, category).toBeGreaterThan(0);
      if (getCategoryInfo(category).hasPossibleAnswer) {
        expect(dataset.loadPossibleAnswers(category), category).toHaveLength(
          dataset.loadTestEntries(category, { includePrereq: false }).length,
        );
      }
    }
  });
});

const SIM_FILES = [
  'gorilla-file-system',
  'math-api',
  'message-api',
  'twitter-api',
  'ticket-api',
  'trading-bot',
  'travel-api',
  'vehicle-control-api',
].map((f) => join(ROOT, 'src', 'sim', `${f}.ts`));
const allSimsPresent = SIM_FILES.every((f) => existsSync(f));

describe('multi-turn ground truth on our executor', () => {
  it.skipIf(!allSimsPresent)('replays identically to the reference classes (own-dataset-reference-trace.jsonl)', async () => {
    const { BfclDataset } = await import('../../src/data/dataset.js');
    const { buildGroundTruthTrace, compareWithReferenceTrace } = await import('../../src/conformance/trace-check.js');
    const ours = buildGroundTruthTrace(new BfclDataset(DATA));
    const comparison = compareWithReferenceTrace(ours, REFERENCE_TRACE);
    expect(comparison.total).toBe(16);
    expect(comparison.mismatches).toEqual([]);
  });

  it('the reference trace shows no failing ground-truth call', () => {
    const lines = readFileSync(REFERENCE_TRACE, 'utf8').split('\n').filter((l) => l.length > 0);
    expect(lines).toHaveLength(16);
    for (const line of lines) {
      const trace = JSON.parse(line) as { id: string; turns: { results: string[] }[] };
      for (const turn of trace.turns) {
        for (const result of turn.results) {
          expect(result, trace.id).not.toMatch(/^Error during execution/);
          expect(result, trace.id).not.toMatch(/"error"|\['Error/);
        }
      }
    }
  });
});

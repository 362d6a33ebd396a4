/**
 * The judge's units of a real run (shared/conformance/real-run, gpt-oss-20b; skipped without
 * BFCL_DATA_DIR): BFCL verdicts equal to the reference's score files, turn verdicts consistent with
 * the entry's, inputs as spec §4 says. Plus the call renderer on its own.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { BfclDataset } from '../../src/data/dataset.js';
import { conformanceModelSettings } from '../../src/conformance/score-check.js';
import { collectBfclUnits, type CollectedUnits, type JudgeUnit } from '../../src/judge/bfcl-units.js';
import { NO_TOOL_USED, docSpelling, renderToolCalls } from '../../src/judge/tool-call-text.js';
import { PyTuple, pyDict } from '../../src/py/value.js';
import { lazySimContext } from '../../src/sim/simulated-api.js';
import { ALL_CATEGORIES } from '../../src/spec/categories.js';

describe('tool_call text (spec §4.1)', () => {
  it('renders Python call text with repr values in the model\'s argument order', () => {
    const calls = [
      { name: 'f', args: pyDict({ b: 1n, a: 1.0, s: "it's", t: true, n: null, l: [1e-5, 'x'], d: pyDict({ k: new PyTuple([1n]) }) }) },
      { name: 'g', args: new Map() },
    ];
    expect(renderToolCalls(calls, [])).toBe(`[f(b=1, a=1.0, s="it's", t=True, n=None, l=[1e-05, 'x'], d={'k': (1,)}), g()]`);
    expect(renderToolCalls([], [])).toBe(NO_TOOL_USED);
  });

  it('prints the doc name a FC model had to write with _ for .', () => {
    expect(docSpelling('math_factorial', ['math.factorial', 'other'])).toBe('math.factorial');
    expect(docSpelling('math_factorial', ['math.factorial', 'math_factorial'])).toBe('math_factorial');
    expect(docSpelling('a_b_c', ['a.b_c', 'a_b.c'])).toBe('a_b_c');
  });
});

const dataDir = process.env['BFCL_DATA_DIR'];
const realRun = dataDir === undefined ? undefined : join(resolve(process.env['BFCL_CONFORMANCE_DIR'] ?? join(dirname(resolve(dataDir)), 'conformance')), 'real-run');

describe.skipIf(realRun === undefined || !existsSync(realRun ?? ''))('units of the real gpt-oss-20b run', () => {
  let collected: CollectedUnits;
  let units: JudgeUnit[];
  beforeAll(() => {
    const dataset = new BfclDataset(resolve(dataDir!));
    collected = collectBfclUnits({
      dataset,
      resultDir: join(realRun!, 'result'),
      modelDir: 'openai_gpt-oss-20b',
      categories: ALL_CATEGORIES,
      settings: conformanceModelSettings('openai_gpt-oss-20b'),
      context: lazySimContext(() => dataset.longContext()),
    });
    units = collected.units;
  }, 60_000);

  /** The reference's score files: id → error type of every failed entry. */
  function referenceFailures(): Map<string, string> {
    const failures = new Map<string, string>();
    const root = join(realRun!, 'score', 'openai_gpt-oss-20b');
    for (const group of readdirSync(root)) {
      for (const file of readdirSync(join(root, group))) {
        const lines = readFileSync(join(root, group, file), 'utf8').split('\n').filter(Boolean).slice(1);
        for (const line of lines) {
          const record = JSON.parse(line) as { id: string; error_type?: string; error?: { error_type?: string } };
          failures.set(record.id, record.error_type ?? record.error?.error_type ?? '?');
        }
      }
    }
    return failures;
  }

  it('has every judged category of the run, and the agentic ones as not judged', () => {
    expect(collected.categories).toHaveLength(16);
    expect(collected.notes).toEqual([]);
  });

  it('gives each entry the verdict and error type of the reference score files', () => {
    const failures = referenceFailures();
    const entryVerdicts = new Map<string, JudgeUnit['bfcl']>();
    for (const unit of units) entryVerdicts.set(unit.id, unit.entryBfcl ?? unit.bfcl);
    expect(entryVerdicts.size).toBeGreaterThan(4000);
    for (const [id, verdict] of entryVerdicts) {
      expect(verdict.valid, id).toBe(!failures.has(id));
      if (!verdict.valid) expect(verdict.errorType, id).toBe(failures.get(id));
    }
  });

  it('gives turn verdicts consistent with the entry: valid turns before one invalid turn, none after', () => {
    const byId = new Map<string, JudgeUnit[]>();
    for (const unit of units.filter((u) => u.turn !== null)) byId.set(unit.id, [...(byId.get(unit.id) ?? []), unit]);
    let failedAtATurn = 0;
    for (const [id, turns] of byId) {
      const entry = turns[0]!.entryBfcl!;
      const verdicts = turns.map((t) => t.bfcl.valid);
      const invalid = verdicts.filter((v) => v === false).length;
      if (entry.valid === true) expect(invalid, id).toBe(0);
      if (invalid === 1) {
        failedAtATurn++;
        const at = verdicts.indexOf(false);
        expect(verdicts.slice(at + 1).every((v) => v === null), id).toBe(true);
        expect(verdicts.slice(0, at).every((v, i) => v === true || !turns[i]!.groundTruthCalls), id).toBe(true);
      }
      expect(invalid, id).toBeLessThanOrEqual(1);
    }
    expect(failedAtATurn).toBeGreaterThan(50);
  });

  it('skips inference errors with their reason and renders FC calls as Python calls', () => {
    for (const unit of units.filter((u) => u.inputs === null)) expect(unit.skipReason, unit.id).toMatch(/^inference error: |^the result is not a list/);
    const simple = units.find((u) => u.id === 'simple_python_0')!;
    expect(simple.inputs!.tool_call).toMatch(/^\[[\w.]+\(.*\)\]$|^No tool used$/);
    expect(simple.inputs!.tool_definitions.startsWith('[\n    {\n        "name": ')).toBe(true);
    expect(simple.inputs!.tool_definitions).toContain('Note that the provided function is in Python 3 syntax.');
    const java = units.find((u) => u.id === 'simple_java_0')!;
    expect(java.inputs!.tool_definitions).toContain('in Java 8 SDK syntax');
  });
});

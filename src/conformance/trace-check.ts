import { readFileSync } from 'node:fs';
import type { BfclDataset } from '../data/dataset.js';
import { traceGroundTruth } from '../exec/ground-truth-trace.js';
import type { PyDict } from '../py/value.js';
import type { SimContext } from '../sim/simulated-api.js';
import { MULTI_TURN_CATEGORY } from '../spec/categories.js';

/** The model name the reference trace was made with (shared/conformance/README.md §1). */
export const TRACE_MODEL_NAME = 'reference_trace_ground_truth';

/** Per-entry outcome of replaying the ground truth against the reference trace. */
export interface TraceComparison {
  readonly total: number;
  readonly identical: number;
  /** Ids whose line differs, with the first differing turn. */
  readonly mismatches: { id: string; turn: number; ours: string; reference: string }[];
}

/** Replay every official multi-turn ground truth and return our trace lines, in the trace's order. */
export function buildGroundTruthTrace(dataset: BfclDataset): Map<string, string> {
  const context: SimContext = { longContext: dataset.longContext() };
  const lines = new Map<string, string>();
  for (const category of MULTI_TURN_CATEGORY) {
    const entries = dataset.loadTestEntries(category, { includeLanguageHint: false });
    const answers = dataset.loadPossibleAnswers(category);
    entries.forEach((entry, i) => {
      const turns = answers[i]!.groundTruth as string[][];
      const line = traceGroundTruth(
        {
          id: entry.id,
          initialConfig: entry.initialConfig ?? (new Map() as PyDict),
          involvedClasses: entry.involvedClasses ?? [],
          turns,
          longContext: category.includes('long_context'),
        },
        context,
        TRACE_MODEL_NAME,
      );
      lines.set(entry.id, line);
    });
  }
  return lines;
}

function firstDifferentTurn(ours: string, reference: string): { turn: number; ours: string; reference: string } {
  const a = JSON.parse(ours) as { turns: unknown[] };
  const b = JSON.parse(reference) as { turns: unknown[] };
  for (let t = 0; t < Math.max(a.turns.length, b.turns.length); t++) {
    const x = JSON.stringify(a.turns[t]);
    const y = JSON.stringify(b.turns[t]);
    if (x !== y) {
      const ours = x ?? 'missing';
      const reference = y ?? 'missing';
      let at = 0;
      while (at < ours.length && ours[at] === reference[at]) at++;
      const from = Math.max(0, at - 200);
      return { turn: t, ours: ours.slice(from, at + 200), reference: reference.slice(from, at + 200) };
    }
  }
  return { turn: -1, ours: '', reference: '' };
}

/** Compare our trace with the reference file line by line (byte equality per entry). */
export function compareWithReferenceTrace(ours: Map<string, string>, traceFile: string): TraceComparison {
  const referenceLines = readFileSync(traceFile, 'utf8').split('\n').filter((l) => l.length > 0);
  let identical = 0;
  const mismatches: TraceComparison['mismatches'] = [];
  for (const reference of referenceLines) {
    const id = (JSON.parse(reference) as { id: string }).id;
    const line = ours.get(id);
    if (line === reference) identical++;
    else if (line === undefined) mismatches.push({ id, turn: -1, ours: 'missing', reference: '' });
    else mismatches.push({ id, ...firstDifferentTurn(line, reference) });
  }
  return { total: referenceLines.length, identical, mismatches };
}

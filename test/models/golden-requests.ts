/**
 * Reading the reference's golden generation requests (shared/conformance/requests, README §3) and the
 * dataset entries they were made from. Shared by the model conformance tests.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { BfclDataset } from '../../src/data/dataset.js';
import { parseJsonLossless } from '../../src/py/json.js';
import type { PyDict, PyValue } from '../../src/py/value.js';
import { extractTestCategoryFromId, isCategory } from '../../src/spec/categories.js';
import type { TestEntry } from '../../src/spec/schemas.js';

export const dataDir = process.env.BFCL_DATA_DIR;
export const requestsDir = dataDir === undefined ? '' : resolve(dataDir, '..', 'conformance', 'requests');
/** True when both the dataset and the golden requests are available. */
export const haveGoldenRequests = dataDir !== undefined && existsSync(requestsDir);

/** One line of a golden request file; `request` keeps Python's types and key order. */
export interface GoldenRequest {
  readonly model: string;
  readonly id: string;
  readonly turn: number;
  readonly step: number;
  readonly scenario: string;
  readonly request: PyDict;
}

export function readGoldenRequests(file: string): GoldenRequest[] {
  const text = readFileSync(join(requestsDir, file), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const d = parseJsonLossless(line) as PyDict;
      return {
        model: d.get('model') as string,
        id: d.get('id') as string,
        turn: Number(d.get('turn') as bigint),
        step: Number(d.get('step') as bigint),
        scenario: d.get('scenario') as string,
        request: d.get('request') as PyDict,
      };
    });
}

/** Entries by id, loaded the way `bfcl generate` loads them (language hints, multi-turn docs, hold-outs). */
export class EntryLookup {
  private readonly dataset = new BfclDataset(dataDir ?? '');
  private readonly byCategory = new Map<string, Map<string, TestEntry>>();

  get(id: string): TestEntry {
    const category = extractTestCategoryFromId(id);
    if (!isCategory(category)) throw new Error(`not a category: ${category}`);
    let entries = this.byCategory.get(category);
    if (entries === undefined) {
      entries = new Map(this.dataset.loadTestEntries(category).map((e) => [e.id, e]));
      this.byCategory.set(category, entries);
    }
    const entry = entries.get(id);
    if (entry === undefined) throw new Error(`no entry ${id}`);
    return entry;
  }
}

/** Function docs in effect at `turn`: the entry's, plus the held-out docs of every turn up to it (FC mode). */
export function functionDocsAtTurn(entry: TestEntry, turn: number): PyValue[] {
  const docs = [...entry.functionDocs];
  const heldOut = [...(entry.missedFunction ?? new Map<string, readonly PyValue[]>())].sort(
    ([a], [b]) => Number(a) - Number(b),
  );
  for (const [heldOutTurn, extra] of heldOut) if (Number(heldOutTurn) <= turn) docs.push(...extra);
  return docs;
}

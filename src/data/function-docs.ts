/**
 * Function docs of multi-turn and agentic entries, which the data files leave out: they are the
 * docs of the entry's `involved_classes`, and miss_func entries hold some of them back until a
 * later turn. Reference: utils.py::populate_test_cases_with_predefined_functions.
 */

import type { PyDict, PyValue } from '../py/value.js';
import { isAgentic, isMultiTurn } from '../spec/categories.js';
import { DatasetError } from '../util/errors.js';

/** Function-doc file (in `multi_turn_func_doc/`) of every simulated class (`MULTI_TURN_FUNC_DOC_FILE_MAPPING`). */
export const FUNC_DOC_FILE_BY_CLASS: ReadonlyMap<string, string> = new Map([
  ['GorillaFileSystem', 'gorilla_file_system.json'],
  ['MathAPI', 'math_api.json'],
  ['MessageAPI', 'message_api.json'],
  ['TwitterAPI', 'posting_api.json'],
  ['TicketAPI', 'ticket_api.json'],
  ['TradingBot', 'trading_bot.json'],
  ['TravelAPI', 'travel_booking.json'],
  ['VehicleControlAPI', 'vehicle_control.json'],
  ['WebSearchAPI', 'web_search.json'],
  ['MemoryAPI_kv', 'memory_kv.json'],
  ['MemoryAPI_vector', 'memory_vector.json'],
  ['MemoryAPI_rec_sum', 'memory_rec_sum.json'],
]);

/** Source of the docs of one class (the dataset's cached `multi_turn_func_doc/` files). */
export type FunctionDocLookup = (className: string, entryId: string) => readonly PyValue[];

/**
 * Multi-turn and agentic entries get `function` = the docs of their `involved_classes`, in order.
 * For each `missed_function` turn, the first doc of each named function is moved out of `function`
 * into that turn's list. Other entries are returned as they are.
 */
export function populateFunctionDocs(entries: readonly PyDict[], docsOf: FunctionDocLookup): PyDict[] {
  return entries.map((entry) => {
    const id = entry.get('id') as string;
    if (!isMultiTurn(id) && !isAgentic(id)) return entry;
    const functions: PyValue[] = [];
    for (const className of entry.get('involved_classes') as string[]) functions.push(...docsOf(className, id));
    const copy: PyDict = new Map(entry);
    copy.set('function', functions);
    const missed = entry.get('missed_function');
    if (missed instanceof Map) copy.set('missed_function', holdOutDocs(missed, functions));
    return copy;
  });
}

/** Turn → held-out doc dicts; removes them from `functions` (in place: it is the entry's own new list). */
function holdOutDocs(missed: PyDict, functions: PyValue[]): PyDict {
  const heldOut: PyDict = new Map();
  for (const [turn, names] of missed) {
    const docs: PyValue[] = [];
    for (const name of names as string[]) {
      const index = functions.findIndex((doc) => (doc as PyDict).get('name') === name);
      // BFCL parity: a name with no doc is skipped silently.
      if (index === -1) continue;
      docs.push(functions[index]!);
      functions.splice(index, 1);
    }
    heldOut.set(turn, docs);
  }
  return heldOut;
}

/** The doc file of a class, or a `DatasetError` naming the entry when the class is unknown. */
export function funcDocFileOf(className: string, entryId: string): string {
  const file = FUNC_DOC_FILE_BY_CLASS.get(className);
  if (file === undefined) {
    throw new DatasetError(
      { entryId, path: ['involved_classes'] },
      `unknown class "${className}"; known classes: ${[...FUNC_DOC_FILE_BY_CLASS.keys()].join(', ')}`,
    );
  }
  return file;
}

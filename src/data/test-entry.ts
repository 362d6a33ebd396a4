import type { PyDict, PyValue } from '../py/value.js';
import { extractTestCategoryFromId } from '../spec/categories.js';
import type { Message, PossibleAnswer, Role, TestEntry } from '../spec/schemas.js';

/**
 * Typed view of a loaded entry dict. The dict must already have been validated by one of the
 * entry schemas; the view shares its values.
 */
export function toTestEntry(raw: PyDict): TestEntry {
  const id = raw.get('id') as string;
  const missed = raw.get('missed_function');
  return {
    id,
    category: extractTestCategoryFromId(id),
    question: questionView(raw.get('question') as PyValue[]),
    functionDocs: (raw.get('function') as PyValue[] | undefined) ?? [],
    initialConfig: raw.get('initial_config') as PyDict | undefined,
    involvedClasses: raw.get('involved_classes') as string[] | undefined,
    missedFunction:
      missed instanceof Map ? new Map([...missed].map(([turn, docs]) => [String(turn), docs as PyValue[]])) : undefined,
    dependsOn: raw.get('depends_on') as string[] | undefined,
    scenario: raw.get('scenario') as string | undefined,
    raw,
  };
}

/** Typed view of a loaded ground-truth dict. */
export function toPossibleAnswer(raw: PyDict): PossibleAnswer {
  return { id: raw.get('id') as string, groundTruth: raw.get('ground_truth')!, raw };
}

function questionView(turns: readonly PyValue[]): Message[][] {
  return turns.map((turn) =>
    (turn as PyValue[]).map((message) => {
      const m = message as PyDict;
      return { role: m.get('role') as Role, content: m.get('content') as string };
    }),
  );
}

/**
 * Phoenix's `snap_to_rail` (arize-phoenix-evals 2.13.0, legacy/utils.py; spec §3.4): the label a
 * judge's text stands for, or `NOT_PARSABLE`. A plain substring match, longest rail first, each
 * rail's every occurrence removed once found; exactly one rail found wins.
 */

/** The label of a reply that names no rail, or more than one (a label, not an error). */
export const NOT_PARSABLE = 'NOT_PARSABLE';

/** The rails of the tool-calling judges, in Phoenix's order. */
export const TOOL_CALLING_RAILS: readonly string[] = ['correct', 'incorrect'];

/**
 * The rail `raw` names, lower-cased, or `NOT_PARSABLE`. JS `toLowerCase` is Python's `str.lower`
 * (full case mappings, final sigma included).
 */
export function snapToRail(raw: string | null | undefined, rails: readonly string[]): string {
  if (raw === null || raw === undefined || raw === '') return NOT_PARSABLE;
  let text = raw.toLowerCase();
  // Python sorts a set by length; rails of equal length keep their given order here (the set's order is unspecified).
  const ordered = [...new Set(rails.map((rail) => rail.toLowerCase()))].sort((a, b) => b.length - a.length);
  const found = new Set<string>();
  for (const rail of ordered) {
    if (!text.includes(rail)) continue;
    found.add(rail);
    // One pass, as Python's str.replace: pieces joined by the removal are not searched again for this rail.
    text = text.split(rail).join('');
  }
  return found.size === 1 ? [...found][0]! : NOT_PARSABLE;
}

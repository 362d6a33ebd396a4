/**
 * Compiled tools shared between conversations. A doc's tool depends only on the doc and the style,
 * and every entry of a multi-turn category sends the same few dozen docs (as separate but equal
 * objects), so each distinct doc is compiled, and its JSON encoded, once per run instead of once per
 * entry. Docs are matched by value; like all dataset docs they must never be changed in place
 * (the language hint makes new docs that share the unchanged parts, which the match recognises by
 * identity). The tools are frozen: no adapter that uses this cache may change them (Anthropic's
 * cache marks edit the last tool, so it compiles its own).
 */

import type { PyValue } from '../../py/value.js';
import { freezeForWire } from '../providers/wire.js';
import { convertToTool } from './convert-to-tool.js';
import type { ModelStyle } from './model-style.js';

/** Distinct docs kept at most; past that the cache starts over (single-turn runs have thousands). */
const MAX_DOCS = 2048;

interface CompiledDoc {
  /** The first doc seen with this value. */
  readonly doc: PyValue;
  /** Its tools (none or one) per style, frozen for the wire. */
  readonly tools: Map<ModelStyle, readonly PyValue[]>;
}

/** Compiled docs by function name. */
const byName = new Map<string, CompiledDoc[]>();
let cachedDocs = 0;

/** `convertToTool([doc], style)`, compiled once per distinct doc; a doc that fails to compile throws every time. */
export function convertToToolCached(doc: PyValue, style: ModelStyle): readonly PyValue[] {
  const compiled = findOrAdd(doc);
  if (compiled === undefined) return compile(doc, style);
  let tools = compiled.tools.get(style);
  if (tools === undefined) {
    tools = compile(compiled.doc, style);
    compiled.tools.set(style, tools);
  }
  return tools;
}

function compile(doc: PyValue, style: ModelStyle): readonly PyValue[] {
  return convertToTool([doc], style).map((tool) => (tool instanceof Map ? freezeForWire(tool) : tool));
}

/** The cache slot of a doc equal to `doc`, added when new; undefined for docs without a string name. */
function findOrAdd(doc: PyValue): CompiledDoc | undefined {
  const name = doc instanceof Map ? doc.get('name') : undefined;
  if (typeof name !== 'string') return undefined;
  let candidates = byName.get(name);
  const found = candidates?.find((candidate) => sameValue(candidate.doc, doc));
  if (found !== undefined) return found;
  if (cachedDocs >= MAX_DOCS) {
    byName.clear();
    cachedDocs = 0;
    candidates = undefined;
  }
  const added: CompiledDoc = { doc, tools: new Map() };
  if (candidates === undefined) byName.set(name, [added]);
  else candidates.push(added);
  cachedDocs++;
  return added;
}

/**
 * Whether two JSON-like values would compile and encode alike: same types (int vs float, -0.0 vs
 * 0.0), same dict key order, equal contents. Values other than JSON's never match.
 */
export function sameValue(a: PyValue, b: PyValue): boolean {
  if (typeof a !== 'object' || a === null) return typeof a === 'number' ? typeof b === 'number' && Object.is(a, b) : a === b;
  if (a === b) return true;
  if (typeof b !== 'object' || b === null || a.constructor !== b.constructor) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i]!, b[i]!)) return false;
    return true;
  }
  if (!(a instanceof Map) || !(b instanceof Map) || a.size !== b.size) return false;
  const other = b.entries();
  for (const [key, value] of a) {
    const next = other.next();
    if (next.done === true || next.value[0] !== key || !sameValue(value, next.value[1])) return false;
  }
  return true;
}

import { describe, expect, it } from 'vitest';
import { jsonDumps, parseJsonLossless } from '../../src/py/json.js';
import type { PyDict, PyValue } from '../../src/py/value.js';
import { convertToTool } from '../../src/models/tools/convert-to-tool.js';
import { ModelStyle } from '../../src/models/tools/model-style.js';
import { convertToToolCached, sameValue } from '../../src/models/tools/tool-cache.js';

const DOC = `{"name": "cache_probe.scale", "description": "Scale.", "parameters": {"type": "dict",
  "properties": {"value": {"type": "float", "description": "The value.", "default": 1.0}}, "required": ["value"]}}`;
const doc = (): PyValue => parseJsonLossless(DOC);

describe('convertToToolCached', () => {
  it('gives what convertToTool gives, per style, and the same objects for equal docs', () => {
    for (const style of [ModelStyle.OPENAI_COMPLETIONS, ModelStyle.OPENAI_RESPONSES, ModelStyle.GORILLA]) {
      const first = convertToToolCached(doc(), style);
      expect(jsonDumps([...first])).toBe(jsonDumps(convertToTool([doc()], style)));
      expect(convertToToolCached(doc(), style)).toBe(first);
    }
  });

  it('tells apart docs that differ only in type or key order', () => {
    const base = convertToToolCached(doc(), ModelStyle.OPENAI_COMPLETIONS);
    const intDefault = parseJsonLossless(DOC.replace('"default": 1.0', '"default": 1'));
    expect(jsonDumps([...convertToToolCached(intDefault, ModelStyle.OPENAI_COMPLETIONS)])).toContain('"default": 1, ');
    const reordered = parseJsonLossless(DOC.replace('"name": "cache_probe.scale", "description": "Scale."', '"description": "Scale.", "name": "cache_probe.scale"'));
    expect(convertToToolCached(reordered, ModelStyle.OPENAI_COMPLETIONS)).not.toBe(base);
  });

  it('recognises docs that share unchanged parts with a cached one, and tells apart a changed description', () => {
    const original = doc() as PyDict;
    const tools = convertToToolCached(original, ModelStyle.OPENAI_COMPLETIONS);
    const hinted = new Map(original);
    expect(convertToToolCached(hinted, ModelStyle.OPENAI_COMPLETIONS)).toBe(tools);
    hinted.set('description', 'Scale. Note that the provided function is in Python 3 syntax.');
    expect(jsonDumps([...convertToToolCached(hinted, ModelStyle.OPENAI_COMPLETIONS)])).toContain('Python 3 syntax.');
  });

  it('throws like convertToTool for a doc the reference cannot compile', () => {
    const bad = parseJsonLossless('{"name": "cache_probe.bad", "description": "x"}');
    expect(() => convertToToolCached(bad, ModelStyle.OPENAI_COMPLETIONS)).toThrow("'parameters'");
    expect(() => convertToToolCached(bad, ModelStyle.OPENAI_COMPLETIONS)).toThrow("'parameters'");
  });
});

describe('sameValue', () => {
  it('compares int vs float, -0.0, key order and nesting', () => {
    const p = (text: string): PyValue => parseJsonLossless(text);
    expect(sameValue(p('{"a": [1, 2.5, null, true, "x"]}'), p('{"a": [1, 2.5, null, true, "x"]}'))).toBe(true);
    expect(sameValue(p('1'), p('1.0'))).toBe(false);
    expect(sameValue(p('0.0'), p('-0.0'))).toBe(false);
    expect(sameValue(p('{"a": 1, "b": 2}'), p('{"b": 2, "a": 1}'))).toBe(false);
    expect(sameValue(p('[[1]]'), p('[[1, 2]]'))).toBe(false);
  });
});

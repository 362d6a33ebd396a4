import { describe, expect, it } from 'vitest';

import { parseDirectoryRepr } from '../../src/inspect/directory-repr.js';
import { describeTextChange, diffStates, renderStateChanges, truncateMiddle } from '../../src/inspect/state-diff.js';
import { createTextStyle, shouldColor } from '../../src/inspect/text-style.js';
import { parseJsonLossless } from '../../src/py/json.js';
import type { PyDict } from '../../src/py/value.js';

const plain = createTextStyle(false);
const view = (json: string): Map<string, PyDict> => parseJsonLossless(json) as Map<string, PyDict>;

describe('diffStates', () => {
  it('lists added, removed and changed values with their paths', () => {
    const before = view('{"TwitterAPI": {"tweets": {"0": {"likes": 1}}, "following": ["ann"], "username": "bo"}}');
    const after = view('{"TwitterAPI": {"tweets": {"0": {"likes": 2}, "1": {"likes": 0}}, "following": ["ann", "cy"], "username": "bo"}}');
    expect(renderStateChanges(diffStates(before, after), plain)).toEqual([
      '~ TwitterAPI.tweets["0"].likes: 1 → 2',
      '+ TwitterAPI.tweets["1"]: {"likes": 0}',
      '+ TwitterAPI.following[1]: "cy"',
    ]);
  });

  it('tells ints from floats and reports a whole list when it was not just extended', () => {
    const before = view('{"VehicleControlAPI": {"fuelLevel": 10, "doors": ["a", "b"]}}');
    const after = view('{"VehicleControlAPI": {"fuelLevel": 10.0, "doors": ["b"]}}');
    expect(renderStateChanges(diffStates(before, after), plain)).toEqual([
      '~ VehicleControlAPI.fuelLevel: 10 → 10.0',
      '~ VehicleControlAPI.doors: ["a", "b"] → ["b"]',
    ]);
  });

  it('is empty for equal states, and reports classes that appear or vanish', () => {
    const a = view('{"A": {"x": 1}}');
    expect(diffStates(a, view('{"A": {"x": 1}}'))).toEqual([]);
    expect(renderStateChanges(diffStates(a, view('{"B": {}}')), plain)).toEqual(['+ B: {}', '- A: {"x": 1}']);
  });

  it('reads file-system Directory reprs back into files', () => {
    const before = view(
      JSON.stringify({
        GorillaFileSystem: { root: "<Directory: maya, Parent: None, Contents: {'a.txt': <<File: a.txt, Content: one>>, 'sub': <Directory: sub, Parent: maya, Contents: {}>}>" },
      }),
    );
    const after = view(
      JSON.stringify({
        GorillaFileSystem: {
          root: "<Directory: maya, Parent: None, Contents: {'a.txt': <<File: a.txt, Content: two>>, 'sub': <Directory: sub, Parent: maya, Contents: {'it\\'s.md': <<File: it's.md, Content: x >> y>>}>}>",
        },
      }),
    );
    expect(renderStateChanges(diffStates(before, after), plain)).toEqual([
      '~ GorillaFileSystem.root["a.txt"]: "one" → "two"',
      '+ GorillaFileSystem.root.sub["it\'s.md"]: "x >> y"',
    ]);
  });

  it('shows other long texts as an excerpt around the change', () => {
    const before = 'x'.repeat(100) + 'OLD' + 'y'.repeat(100);
    const after = 'x'.repeat(100) + 'NEW' + 'y'.repeat(100);
    expect(describeTextChange(before, after, plain, 5)).toBe('…xxxxx[-OLD-]{+NEW+}yyyyy…');
    expect(renderStateChanges(diffStates(view(JSON.stringify({ A: { s: before } })), view(JSON.stringify({ A: { s: after } }))), plain)).toEqual([
      `~ A.s: …${'x'.repeat(30)}[-OLD-]{+NEW+}${'y'.repeat(30)}…`,
    ]);
  });
});

describe('parseDirectoryRepr', () => {
  it('parses nested directories and files, and gives up on anything else', () => {
    const tree = parseDirectoryRepr("<Directory: r, Parent: None, Contents: {'d': <Directory: d, Parent: r, Contents: {'f': <<File: f, Content: a\nb>>}>}>");
    expect(tree).toEqual(new Map([['d', new Map([['f', 'a\nb']])]]));
    expect(parseDirectoryRepr('<Directory: r, Parent: None, Contents: {')).toBeUndefined();
    expect(parseDirectoryRepr('plain text')).toBeUndefined();
  });
});

describe('text helpers', () => {
  it('truncates in the middle', () => {
    expect(truncateMiddle('abcdefghij', 5)).toBe('ab…ij');
    expect(truncateMiddle('abc', 5)).toBe('abc');
  });

  it('colours only when asked, on a terminal, without NO_COLOR', () => {
    expect(shouldColor('auto', true, {})).toBe(true);
    expect(shouldColor('auto', false, {})).toBe(false);
    expect(shouldColor('auto', true, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor('auto', true, { NO_COLOR: '' })).toBe(true);
    expect(shouldColor('always', false, { NO_COLOR: '1' })).toBe(true);
    expect(shouldColor('never', true, {})).toBe(false);
    expect(createTextStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(createTextStyle(false).red('x')).toBe('x');
  });
});

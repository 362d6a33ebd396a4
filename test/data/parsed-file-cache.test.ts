import { mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { BfclDataset } from '../../src/data/dataset.js';
import { packageDataDir } from '../../src/data/data-dir.js';
import { DiskParsedFileCache, NO_CACHE, cacheDirOf, parsedFileCache } from '../../src/data/parsed-file-cache.js';
import { PyTuple, type PyValue } from '../../src/py/value.js';
import { ALL_CATEGORIES, getCategoryInfo } from '../../src/spec/categories.js';
import { DatasetError } from '../../src/util/errors.js';
import { filesUnder } from '../../src/util/files-under.js';

/** A value with every type distinction spelled out (ints vs floats, -0, dict key order), for exact comparison. */
function typed(value: unknown): unknown {
  if (typeof value === 'bigint') return { int: value.toString() };
  if (typeof value === 'number') return { float: Object.is(value, -0) ? '-0' : String(value) };
  if (Array.isArray(value)) return { list: value.map(typed) };
  if (value instanceof Map) return { dict: [...(value as Map<unknown, unknown>)].map(([k, v]) => [typed(k), typed(v)]) };
  return value;
}

/** A code stamp (16 hex digits) named after `build`. */
const stamp = (build: string): string => build.padStart(16, '0');

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'bfcl-parse-cache-'));
}

/** A cache, and a parse function that counts its calls. */
function countingParse(value: (text: string) => unknown = (text) => text.length) {
  let calls = 0;
  const storing: boolean[] = [];
  return {
    parse: (bytes: Buffer | undefined, willStore: boolean) => {
      calls++;
      storing.push(willStore);
      return value(bytes?.toString('utf8') ?? '');
    },
    get calls() {
      return calls;
    },
    /** What each call was told about the cache keeping its value. */
    storing,
  };
}

describe('where the cache lives', () => {
  it('BFCL_CACHE_DIR first (relative to the cwd), then XDG_CACHE_HOME, then HOME', () => {
    expect(cacheDirOf({ BFCL_CACHE_DIR: 'c', XDG_CACHE_HOME: '/x', HOME: '/h' }, '/work')).toBe('/work/c');
    expect(cacheDirOf({ XDG_CACHE_HOME: '/x', HOME: '/h' }, '/work')).toBe('/x/bfcl-ts');
    expect(cacheDirOf({ HOME: '/h' }, '/work')).toBe('/h/.cache/bfcl-ts');
  });

  it('none when turned off or when the environment names no home', () => {
    for (const off of ['off', 'OFF', '0', 'false', 'none']) expect(cacheDirOf({ BFCL_CACHE_DIR: off, HOME: '/h' }, '/w')).toBeUndefined();
    expect(cacheDirOf({}, '/w')).toBeUndefined();
    expect(parsedFileCache(undefined)).toBe(NO_CACHE);
  });
});

describe('DiskParsedFileCache', () => {
  it('stores a file the second time it is parsed, then serves the stored value with its Python types intact', () => {
    const dir = tempDir();
    const file = join(dir, 'data.json');
    writeFileSync(file, 'x');
    const stored: PyValue = new Map<string, PyValue>([
      ['b', 1n],
      ['a', [1.0, -0, 2n ** 70n, 'é\ud800', null, true, new Map([[3n, 'three']])]],
      ['bytes', Buffer.from('é€', 'utf8') as unknown as PyValue],
    ]);
    const counter = countingParse(() => stored);
    const read = () => new DiskParsedFileCache(join(dir, 'cache'), stamp('b1')).read(file, 'lines:x:checked', counter.parse);
    const buildDir = join(dir, 'cache', 'parsed-files', stamp('b1'));
    // A first run leaves only a marker (a one-off run pays nothing for a cache no run will read).
    expect(read()).toBe(stored);
    expect(readdirSync(buildDir).map((name) => name.replace(/^[0-9a-f]{64}/, 'KEY'))).toEqual(['KEY.v8.parsed']);
    // A second run parses again and stores the value (in place of the marker).
    expect(read()).toBe(stored);
    expect(readdirSync(buildDir).map((name) => name.replace(/^[0-9a-f]{64}/, 'KEY'))).toEqual(['KEY.v8']);
    // Later runs read it back.
    const served = read();
    expect(counter.calls).toBe(2);
    // Only the parse whose value is stored is told so.
    expect(counter.storing).toEqual([false, true]);
    expect(served).not.toBe(stored);
    expect(typed(served)).toEqual(typed(stored));
    expect(((served as Map<string, PyValue>).get('bytes') as unknown as Buffer).toString('utf8')).toBe('é€');
  });

  it('parses again when the bytes, the way of reading or the build change', () => {
    const dir = tempDir();
    const file = join(dir, 'data.json');
    const counter = countingParse();
    const read = (build: string, way = 'w'): unknown => new DiskParsedFileCache(join(dir, 'cache'), stamp(build)).read(file, way, counter.parse);
    /** Read until the value comes from the cache; the number of parses it took. */
    const parsesUntilServed = (build: string, way?: string): number => {
      const before = counter.calls;
      for (let i = 0; i < 3; i++) read(build, way);
      return counter.calls - before;
    };
    writeFileSync(file, 'one');
    expect(parsesUntilServed('b1')).toBe(2);
    expect(read('b1')).toBe(3);
    writeFileSync(file, 'three');
    expect(parsesUntilServed('b1')).toBe(2);
    expect(parsesUntilServed('b1', 'other way')).toBe(2);
    expect(parsesUntilServed('b2')).toBe(2);
    expect(parsesUntilServed('b2')).toBe(0);
    expect(read('b2')).toBe(5);
  });

  it("keeps the most recently used builds' folders: a build's first store removes all but the two newest others", () => {
    const dir = tempDir();
    const file = join(dir, 'data.json');
    writeFileSync(file, 'x');
    const cacheDir = join(dir, 'cache');
    const builds = join(cacheDir, 'parsed-files');
    // Two runs of a build store the file (see above).
    const store = (build: string): void => {
      for (let run = 0; run < 2; run++) new DiskParsedFileCache(cacheDir, stamp(build)).read(file, 'w', () => 1);
    };
    store('b1');
    ['b1', 'b2', 'b3', 'b4'].forEach((build, age) => {
      mkdirSync(join(builds, stamp(build)), { recursive: true });
      const when = new Date(Date.UTC(2026, 0, 1 + age));
      utimesSync(join(builds, stamp(build)), when, when);
    });
    // Whatever else is in the folder the user named is never touched, however old.
    mkdirSync(join(cacheDir, 'notes'));
    writeFileSync(join(cacheDir, 'notes', 'keep.txt'), 'mine');
    mkdirSync(join(builds, 'not-a-build'));
    writeFileSync(join(builds, '0000000000000000'), 'a file, not a build folder');
    for (const path of [join(cacheDir, 'notes'), join(builds, 'not-a-build')]) utimesSync(path, new Date(0), new Date(0));
    // A run of b1 that finds its blob marks b1 as used...
    expect(new DiskParsedFileCache(cacheDir, stamp('b1')).read(file, 'w', () => 2)).toBe(1);
    // ...so a new build keeps b1 and b4, and drops b2 and b3.
    store('b5');
    expect(readdirSync(builds).sort()).toEqual(['0000000000000000', ...['b1', 'b4', 'b5'].map(stamp), 'not-a-build'].sort());
    expect(readdirSync(cacheDir).sort()).toEqual(['notes', 'parsed-files']);
    expect(readdirSync(join(builds, stamp('b5')))).toHaveLength(1); // the blob, no marker
  });

  it('parses again, and repairs the blob, when a stored blob is corrupt or truncated', () => {
    const dir = tempDir();
    const file = join(dir, 'data.json');
    writeFileSync(file, 'abc');
    const cacheDir = join(dir, 'cache');
    const counter = countingParse((text) => new Map([['text', text]]));
    const read = () => new DiskParsedFileCache(cacheDir, stamp('b')).read(file, 'w', counter.parse);
    read();
    read();
    const buildDir = join(cacheDir, 'parsed-files', stamp('b'));
    const blob = join(buildDir, readdirSync(buildDir).find((name) => name.endsWith('.v8'))!);
    for (const damaged of [readFileSync(blob).subarray(0, 5), Buffer.from('not a blob')]) {
      writeFileSync(blob, damaged);
      expect(typed(read())).toEqual(typed(new Map([['text', 'abc']])));
    }
    expect(counter.calls).toBe(4);
    read();
    expect(counter.calls).toBe(4);
  });

  it('works without a usable cache folder, and stores nothing that would not come back the same', () => {
    const dir = tempDir();
    const file = join(dir, 'data.json');
    writeFileSync(file, 'x');
    writeFileSync(join(dir, 'blocked'), 'a file where the cache folder should be');
    const counter = countingParse();
    const blocked = new DiskParsedFileCache(join(dir, 'blocked'), stamp('b'));
    expect(blocked.read(file, 'w', counter.parse)).toBe(1);
    expect(blocked.read(file, 'w', counter.parse)).toBe(1);
    expect(counter.calls).toBe(2);

    // Class instances would come back as plain objects.
    const cacheDir = join(dir, 'cache');
    const tuple = new PyTuple([1n]);
    for (let run = 0; run < 2; run++) expect(new DiskParsedFileCache(cacheDir, stamp('b')).read(file, 'w', () => [tuple])).toEqual([tuple]);
    const again = new DiskParsedFileCache(cacheDir, stamp('b')).read(file, 'w', () => 'parsed again');
    expect(again).toBe('parsed again');
  });

  it("leaves a missing file to the parser's own error", () => {
    const dir = tempDir();
    const seen: (Buffer | undefined)[] = [];
    new DiskParsedFileCache(join(dir, 'cache'), stamp('b')).read(join(dir, 'missing.json'), 'w', (bytes) => seen.push(bytes));
    expect(seen).toEqual([undefined]);
  });
});

/**
 * Every file a dataset reads, as loaded: test entries and ground truth of every category (format
 * sensitivity copies other categories' files, so it is left out).
 */
function loadEverything(dataset: BfclDataset): unknown[] {
  const loaded: unknown[] = [];
  for (const category of ALL_CATEGORIES) {
    if (category === 'format_sensitivity') continue;
    loaded.push(dataset.loadTestEntries(category, { includeLanguageHint: false }).map((e) => typed(e.raw)));
    if (getCategoryInfo(category).hasPossibleAnswer) loaded.push(dataset.loadPossibleAnswers(category).map((a) => typed(a.raw)));
  }
  loaded.push(typed(dataset.longContext()));
  return loaded;
}

describe('a dataset read through the cache', () => {
  it('loads exactly what a dataset without the cache loads (our data/, every category)', () => {
    const cacheDir = tempDir();
    const plain = loadEverything(new BfclDataset(packageDataDir()));
    const cached = () => loadEverything(new BfclDataset(packageDataDir(), { cache: parsedFileCache(cacheDir) }));
    const [marking, storing, stored] = [cached(), cached(), cached()];
    const blobs = [...filesUnder(cacheDir)].filter((f) => f.endsWith('.v8'));
    expect(blobs.length).toBeGreaterThan(30);
    expect(marking).toEqual(plain);
    expect(storing).toEqual(plain);
    expect(stored).toEqual(plain);
  });

  it('reports a bad file the same way every time and stores nothing for it', () => {
    const dataDir = tempDir();
    const cacheDir = tempDir();
    writeFileSync(join(dataDir, getCategoryInfo('simple_python').dataFile), '{"id": "simple_python_0", "question": 5}\n');
    const load = () => new BfclDataset(dataDir, { cache: parsedFileCache(cacheDir) }).loadTestEntries('simple_python');
    for (let i = 0; i < 2; i++) {
      expect(load).toThrow(DatasetError);
      expect(load).toThrow(/simple_python\.json:1.*simple_python_0/);
    }
    expect([...filesUnder(cacheDir)]).toEqual([]);
  });

  it('keeps checked and unchecked readings apart: an unchecked reading never vouches for a file', () => {
    const dataDir = tempDir();
    const cacheDir = tempDir();
    writeFileSync(
      join(dataDir, getCategoryInfo('simple_python').dataFile),
      '{"id": "simple_python_0", "question": [[{"role": "user", "content": 5}]], "function": []}\n',
    );
    const open = (validate: boolean) => new BfclDataset(dataDir, { validate, cache: parsedFileCache(cacheDir) });
    // Twice, so that the unchecked reading is stored.
    for (let run = 0; run < 2; run++) expect(open(false).loadTestEntries('simple_python', { includeLanguageHint: false })).toHaveLength(1);
    expect(() => open(true).loadTestEntries('simple_python', { includeLanguageHint: false })).toThrow(DatasetError);
  });
});

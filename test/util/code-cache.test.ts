import { isAscii } from 'node:buffer';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { CODE_CACHE_FOLDER, codeCacheFileName, codeCachePlace, contentStamp, loadBundle } from '../../src/util/code-cache.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'bfcl-code-cache-'));
}

/** A CommonJS bundle of a few functions; `answer` is baked into one of them. */
function writeBundle(dir: string, answer: number): string {
  const bundle = join(dir, 'bundle.cjs');
  const helpers = Array.from({ length: 50 }, (_, i) => `function helper${i}(x) { return x + ${i}; }`).join('\n');
  writeFileSync(
    bundle,
    `"use strict";\n${helpers}\n` +
      `exports.answer = function () { return helper0(${answer}); };\n` +
      `exports.where = function () { return new Error('here').stack; };\n` +
      `exports.strict = function () { return (function () { return this; })() === undefined; };\n` +
      `exports.dir = __dirname;\n`,
  );
  return bundle;
}

interface BundleApi {
  answer(): number;
  where(): string;
  strict(): boolean;
  dir: string;
}

const api = (loaded: { exports: unknown }): BundleApi => loaded.exports as BundleApi;

describe('loadBundle', () => {
  it('runs the bundle as a CommonJS module (exports, __dirname, strict mode, line numbers) without a cache folder', () => {
    const dir = tempDir();
    const bundle = writeBundle(dir, 41);
    const loaded = loadBundle({ bundle, cacheDir: undefined, variant: 'test' });
    expect(loaded.cache).toBe('off');
    expect(api(loaded).answer()).toBe(41);
    expect(api(loaded).dir).toBe(dir);
    expect(api(loaded).strict()).toBe(true);
    // `where` is on line 53 of the file (1 "use strict" + 50 helpers + answer): stack traces point into the bundle.
    expect(api(loaded).where()).toContain(`${bundle}:53:`);
    loaded.saveCodeCache();
  });

  it('reads a bundle with non-ASCII text as UTF-8 (an ASCII one, as the build makes, skips the decoding)', () => {
    const dir = tempDir();
    const bundle = join(dir, 'bundle.cjs');
    writeFileSync(bundle, '"use strict";\n// a comment — with a dash\nexports.text = "é😀";\n');
    expect((loadBundle({ bundle, cacheDir: undefined, variant: 'test' }).exports as { text: string }).text).toBe('é😀');
  });

  it.skipIf(!existsSync('dist/bin/bfcl-main.cjs'))('the built program bundles are ASCII', () => {
    for (const file of ['dist/bin/bfcl-main.cjs', 'dist/bin/evaluate-worker.cjs', 'dist/bin/bfcl.cjs', 'dist/bin/evaluate-worker-launcher.cjs']) {
      expect(isAscii(readFileSync(file)), file).toBe(true);
    }
  });

  it('stores the compiled code at the end of a run and uses it on the next run of the same variant', () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const bundle = writeBundle(dir, 1);
    const first = loadBundle({ bundle, cacheDir, variant: 'evaluate' });
    expect(first.cache).toBe('missing');
    expect(api(first).answer()).toBe(1);
    first.saveCodeCache();
    const place = codeCachePlace(cacheDir, contentStamp(readFileSync(bundle)), 'evaluate');
    expect(readFileSync(place.file).length).toBeGreaterThan(0);

    const second = loadBundle({ bundle, cacheDir, variant: 'evaluate' });
    expect(second.cache).toBe('used');
    expect(api(second).answer()).toBe(1);
    // Another variant (command) has its own cache.
    expect(loadBundle({ bundle, cacheDir, variant: 'show' }).cache).toBe('missing');
  });

  it('never runs a stale cache: a rebuilt bundle of the same length gets a cache of its own', () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const bundle = writeBundle(dir, 1);
    const first = loadBundle({ bundle, cacheDir, variant: 'v' });
    api(first).answer();
    first.saveCodeCache();
    writeBundle(dir, 2); // same length, other content
    const rebuilt = loadBundle({ bundle, cacheDir, variant: 'v' });
    expect(rebuilt.cache).toBe('missing');
    expect(api(rebuilt).answer()).toBe(2);
  });

  it('compiles afresh when V8 refuses the stored cache, and stores a good one at the end', () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const bundle = writeBundle(dir, 7);
    const place = codeCachePlace(cacheDir, contentStamp(readFileSync(bundle)), 'v');
    mkdirSync(place.buildDir, { recursive: true });
    writeFileSync(place.file, Buffer.from('not a code cache'));
    const refused = loadBundle({ bundle, cacheDir, variant: 'v' });
    expect(refused.cache).toBe('rejected');
    expect(api(refused).answer()).toBe(7);
    refused.saveCodeCache();
    expect(loadBundle({ bundle, cacheDir, variant: 'v' }).cache).toBe('used');
  });

  it('keeps the folders of the two most recently used other builds and nothing else it did not make', () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const builds = join(cacheDir, CODE_CACHE_FOLDER);
    const old = (name: string, seconds: number): void => {
      mkdirSync(join(builds, name), { recursive: true });
      utimesSync(join(builds, name), seconds, seconds);
    };
    old('000000000000000a', 1000);
    old('000000000000000b', 3000);
    old('000000000000000c', 2000);
    old('my-notes', 10);
    const bundle = writeBundle(dir, 3);
    loadBundle({ bundle, cacheDir, variant: 'v' }).saveCodeCache();
    const place = codeCachePlace(cacheDir, contentStamp(readFileSync(bundle)), 'v');
    expect(readdirSync(builds).sort()).toEqual(['000000000000000b', '000000000000000c', place.stamp, 'my-notes'].sort());
  });

  it('runs without storing anything when the cache folder cannot be written', () => {
    const dir = tempDir();
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, '');
    const bundle = writeBundle(dir, 5);
    const loaded = loadBundle({ bundle, cacheDir: blocked, variant: 'v' });
    expect(api(loaded).answer()).toBe(5);
    expect(() => loaded.saveCodeCache()).not.toThrow();
    expect(loadBundle({ bundle, cacheDir: blocked, variant: 'v' }).cache).toBe('missing');
  });
});

describe('loadBundle with the caches the build shipped', () => {
  /** A bundle and, in `<dir>/shipped`, the cache a run of `variant` made (as scripts/bundle.mjs copies it). */
  function shippedBundle(variant: string) {
    const dir = tempDir();
    const bundle = writeBundle(dir, 4);
    const made = loadBundle({ bundle, cacheDir: join(dir, 'made'), variant });
    api(made).answer();
    made.saveCodeCache();
    const shippedDir = join(dir, 'shipped');
    mkdirSync(shippedDir);
    const file = codeCachePlace(join(dir, 'made'), contentStamp(readFileSync(bundle)), variant).file;
    writeFileSync(join(shippedDir, codeCacheFileName(variant, [])), readFileSync(file));
    return { dir, bundle, shippedDir };
  }

  it('starts from the shipped cache when the cache folder has none, or there is no cache folder', () => {
    const { dir, bundle, shippedDir } = shippedBundle('evaluate');
    const cacheDir = join(dir, 'cache');
    const first = loadBundle({ bundle, cacheDir, variant: 'evaluate', shippedDir });
    expect(first.cache).toBe('shipped');
    expect(api(first).answer()).toBe(4);
    // The run then keeps what it compiled (its own workload), which the next run uses.
    first.saveCodeCache();
    expect(loadBundle({ bundle, cacheDir, variant: 'evaluate', shippedDir }).cache).toBe('used');
    expect(loadBundle({ bundle, cacheDir: undefined, variant: 'evaluate', shippedDir }).cache).toBe('shipped');
    // Other commands have no shipped cache.
    expect(loadBundle({ bundle, cacheDir, variant: 'show', shippedDir }).cache).toBe('missing');
    expect(loadBundle({ bundle, cacheDir: undefined, variant: 'show', shippedDir }).cache).toBe('off');
  });

  it("prefers the cache folder's own cache", () => {
    const { dir, bundle, shippedDir } = shippedBundle('evaluate');
    const cacheDir = join(dir, 'cache');
    loadBundle({ bundle, cacheDir, variant: 'evaluate' }).saveCodeCache();
    expect(loadBundle({ bundle, cacheDir, variant: 'evaluate', shippedDir }).cache).toBe('used');
  });

  it('compiles afresh when V8 refuses the shipped cache (another node), and stores its own', () => {
    const dir = tempDir();
    // A source this process never compiled: V8 would otherwise take it from its in-memory cache.
    const bundle = writeBundle(dir, 8);
    const shippedDir = join(dir, 'shipped');
    mkdirSync(shippedDir);
    writeFileSync(join(shippedDir, codeCacheFileName('evaluate', [])), 'made by another node');
    const cacheDir = join(dir, 'cache');
    const refused = loadBundle({ bundle, cacheDir, variant: 'evaluate', shippedDir });
    expect(refused.cache).toBe('rejected');
    expect(api(refused).answer()).toBe(8);
    refused.saveCodeCache();
    expect(loadBundle({ bundle, cacheDir, variant: 'evaluate', shippedDir }).cache).toBe('used');
  });
});

describe('contentStamp', () => {
  it('is the same for the text and its UTF-8 bytes (the build stamps the file, the launcher may hash the text)', () => {
    const text = '"use strict";\n// — non-ASCII in a comment\nexports.x = 1;\n';
    expect(contentStamp(text)).toBe(contentStamp(Buffer.from(text, 'utf8')));
    expect(contentStamp(text)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('names the folder the launcher uses when the build gives the stamp', () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const bundle = writeBundle(dir, 9);
    const given = loadBundle({ bundle, cacheDir, variant: 'v', stamp: contentStamp(readFileSync(bundle)) });
    given.saveCodeCache();
    expect(loadBundle({ bundle, cacheDir, variant: 'v' }).cache).toBe('used');
  });
});

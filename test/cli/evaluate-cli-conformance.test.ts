/**
 * The evaluate command end to end (in-process CLI) on the reference's synthetic FC run: with the
 * model's registration given by flags, every score file is byte-identical to the reference's, whether
 * the dataset is parsed, parsed and stored, or read back from the parse cache.
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { filesUnder } from '../../src/util/files-under.js';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';

const dataDir = process.env.BFCL_DATA_DIR;
const conformanceDir = dataDir === undefined ? '' : resolve(dirname(resolve(dataDir)), 'conformance');

describe.skipIf(dataDir === undefined || !existsSync(conformanceDir))('bfcl evaluate on the synthetic FC run', () => {
  it('writes the reference score files byte for byte with --no-underscore-to-dot, with the dataset parsed or read from the cache', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'bfcl-eval-cli-cache-'));
    // The first run parses the dataset (and marks its files), the second parses and stores them, the
    // third reads them back from the cache.
    let storedBlobs = new Map<string, number>();
    for (const pass of ['parsed', 'stored', 'cached']) {
      const root = mkdtempSync(join(tmpdir(), 'bfcl-eval-cli-'));
      const out = { stdout: '', stderr: '' };
      const env = { BFCL_CACHE_DIR: cacheDir };
      const io: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env, cwd: root };
      const code = await runCli(
        [
          'evaluate',
          '--model', 'synthetic-fc-a',
          '--result-dir', join(conformanceDir, 'synthetic', 'result'),
          '--score-dir', join(root, 'score'),
          '--data-dir', dataDir!,
          '--no-underscore-to-dot',
        ],
        io,
      );
      expect(code, out.stderr).toBe(0);
      // A blob is written only when its file was parsed: the last run must rewrite none.
      const blobs = new Map([...filesUnder(cacheDir)].filter((f) => f.endsWith('.v8')).map((f) => [f, statSync(f).ino]));
      if (pass === 'parsed') expect(blobs.size, pass).toBe(0);
      if (pass === 'stored') expect(blobs.size, pass).toBeGreaterThanOrEqual(17);
      if (pass === 'cached') expect(blobs).toEqual(storedBlobs);
      storedBlobs = blobs;
      const referenceDir = join(conformanceDir, 'synthetic', 'score', 'synthetic-fc-a');
      const files = [...filesUnder(referenceDir)].filter((f) => f.endsWith('_score.json'));
      expect(files.length).toBe(17);
      for (const file of files) {
        const ours = readFileSync(join(root, 'score', 'synthetic-fc-a', relative(referenceDir, file)), 'utf8');
        expect(ours === readFileSync(file, 'utf8'), `${pass}: ${file}`).toBe(true);
      }
    }
  });
});

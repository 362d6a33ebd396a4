// Bundles the compiled program (dist/src) into dist/bin, as CommonJS so that the launcher can
// compile it with V8's code cache (src/util/code-cache.ts):
//   bfcl.cjs             the `bfcl` binary: the small launcher (src/cli/launcher.ts)
//   bfcl-main.cjs        the program, which the launcher runs
//   evaluate-worker.cjs  the worker thread of `bfcl evaluate --num-threads`, and
//   evaluate-worker-launcher.cjs  its entry, which runs it with V8's code cache
//   build-stamp          a stamp of the two program bundles' content, for the parse cache's keys
//   code-cache/          V8's code caches of `generate`, `evaluate`, `scores` and `show`, made by
//                        running them on the package's own data with this node: a first run
//                        starts compiled too
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

import { contentStamp } from '../dist/src/util/code-cache.js';

rmSync('dist/bin', { recursive: true, force: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  // The model SDKs load only when a model is called.
  external: ['openai', '@anthropic-ai/sdk'],
  // `import()` becomes `require()`: a script compiled through node:vm has no dynamic import.
  supported: { 'dynamic-import': false },
  // ES module code reads its own location from import.meta.url; the bundle stays strict as ES modules are.
  define: { 'import.meta.url': '__bfclModuleUrl' },
  banner: { js: '"use strict"; var __bfclModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
};

// commander requires node:child_process at load time, for subcommands run as separate executables,
// which bfcl has none of; loading it (and what it loads: net, stream, dgram...) took 6-8 ms of every
// start. commander gets a stand-in that loads the real module when a property is first read.
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'lazy-child-process', namespace: 'bfcl-lazy' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'bfcl-lazy' }, () => ({
      contents: 'module.exports = new Proxy({}, { get: (_, key) => require("node:child_process")[key] });',
      loader: 'js',
    }));
  },
};

await build({
  ...common,
  plugins: [lazyChildProcessForCommander],
  entryPoints: { 'bfcl-main': 'dist/src/cli/run-cli.js', 'evaluate-worker': 'dist/src/evaluate/evaluate-worker.js' },
  outdir: 'dist/bin',
  outExtension: { '.js': '.cjs' },
});
// esbuild writes code in ASCII (escaping other characters), but keeps some comments of dependencies
// as they are; an ASCII bundle is read without UTF-8 decoding (code-cache.ts), about 3 ms sooner.
for (const file of ['dist/bin/bfcl-main.cjs', 'dist/bin/evaluate-worker.cjs']) {
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(/^([ \t]*\/\/.*)$/gm, (comment) => comment.replace(/[^\x00-\x7f]/g, '?'));
  if (ascii !== text) writeFileSync(file, ascii);
}
// One stamp of the two program bundles' content (tsc has built code-cache.js already) keys both
// caches: the launchers keep the code caches of a build in one folder (code-cache.ts), and the
// parse cache keys stored values by the code that parsed them (parsed-file-cache.ts's
// runningCodeStamp), by content since an installed package's files may all have one modification time.
const stampOf = (...files) => contentStamp(Buffer.concat(files.map((file) => readFileSync(file))));
const programStamp = stampOf('dist/bin/bfcl-main.cjs', 'dist/bin/evaluate-worker.cjs');
writeFileSync('dist/bin/build-stamp', `${programStamp}\n`);
// The two launchers, each a bundle of its own.
await build({
  ...common,
  entryPoints: { bfcl: 'dist/src/cli/launcher.js', 'evaluate-worker-launcher': 'dist/src/evaluate/evaluate-worker-launcher.js' },
  outdir: 'dist/bin',
  outExtension: { '.js': '.cjs' },
  define: { ...common.define, __BFCL_PROGRAM_STAMP__: JSON.stringify(programStamp) },
});

// The shipped code caches: the launcher stores a run's cache in its cache folder, from where it is
// copied. A failure here only costs first runs their head start, so it is reported, not fatal.
const work = mkdtempSync(join(tmpdir(), 'bfcl-code-cache-'));
try {
  const bfcl = (...args) =>
    execFileSync(process.execPath, [resolve('dist/bin/bfcl.cjs'), ...args], {
      cwd: work,
      env: { PATH: process.env.PATH ?? '', HOME: work, BFCL_CACHE_DIR: join(work, 'cache') },
      stdio: 'pipe',
    });
  const data = resolve('data');
  bfcl('generate', '--model', 'oracle', '--data-dir', data, '--result-dir', join(work, 'result'));
  const runDirs = ['--result-dir', join(work, 'result'), '--score-dir', join(work, 'score')];
  bfcl('evaluate', '--data-dir', data, ...runDirs);
  bfcl('scores', '--score-dir', join(work, 'score'));
  bfcl('show', '--id', 'multi_turn_base_0', '--model', 'oracle', '--data-dir', data, '--color', 'never', ...runDirs);
  const made = join(work, 'cache', 'compiled-code', programStamp);
  if (!existsSync(made) || readdirSync(made).length === 0) throw new Error('the runs stored no code cache');
  cpSync(made, 'dist/bin/code-cache', { recursive: true });
} catch (error) {
  console.warn(`bundle: no code cache shipped (${error instanceof Error ? error.message.split('\n')[0] : error})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

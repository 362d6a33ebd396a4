// Bundles the compiled program (dist/src) into dist/bin with esbuild:
//   bfcl.cjs             the `bfcl` binary (src/cli/main.ts and everything it imports but the model SDKs)
//   evaluate-worker.cjs  the worker thread of `bfcl evaluate --num-threads`
//   build-stamp          a stamp of the two bundles' content, which keys the parse cache (parsed-file-cache.ts)
// One file instead of ~200 ES modules: node resolves and reads one file at start-up (README, Performance).
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/bin', { recursive: true, force: true });

await build({
  entryPoints: { bfcl: 'dist/src/cli/main.js', 'evaluate-worker': 'dist/src/evaluate/evaluate-worker.js' },
  outdir: 'dist/bin',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  // The model SDKs and undici are loaded from node_modules, and only when a model is called.
  external: ['openai', '@anthropic-ai/sdk', 'undici'],
  // ES module code reads its own location from import.meta.url; the bundle stays strict as ES modules are.
  define: { 'import.meta.url': '__bfclModuleUrl' },
  banner: { js: '#!/usr/bin/env node\n"use strict"; var __bfclModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
});

const stamp = createHash('sha256');
for (const file of ['dist/bin/bfcl.cjs', 'dist/bin/evaluate-worker.cjs']) stamp.update(readFileSync(file));
writeFileSync('dist/bin/build-stamp', `${stamp.digest('hex').slice(0, 16)}\n`);

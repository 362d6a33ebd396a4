// Bundles the compiled program (dist/src) into dist/bin with esbuild:
//   bfcl.cjs             the `bfcl` binary (src/cli/main.ts and everything it imports but the model SDKs)
//   build-stamp          a stamp of the bundle's content, which keys the parse cache (parsed-file-cache.ts)
// One file instead of ~200 ES modules: node resolves and reads one file at start-up (README, Performance).
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/bin', { recursive: true, force: true });

await build({
  entryPoints: { bfcl: 'dist/src/cli/main.js' },
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

const stamp = createHash('sha256').update(readFileSync('dist/bin/bfcl.cjs')).digest('hex').slice(0, 16);
writeFileSync('dist/bin/build-stamp', `${stamp}\n`);

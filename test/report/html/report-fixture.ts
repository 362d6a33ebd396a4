/**
 * A small score folder made the real way: `bfcl generate --model oracle` on our own data/, a
 * second model made from the oracle's results with a few deliberate mistakes (one of them model
 * output carrying HTML), then `bfcl evaluate`.
 */

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

import type { CliIo } from '../../../src/cli/io.js';
import { runCli } from '../../../src/cli/main.js';
import { packageDataDir } from '../../../src/data/data-dir.js';

export const FIXTURE_CATEGORIES = ['simple_python', 'multiple', 'irrelevance', 'live_relevance', 'multi_turn_base', 'multi_turn_miss_func'] as const;

/** Name of the model directory with the mistakes. */
export const FLAWED_MODEL = 'flawed-model';

/** Model output that must reach the page as text, never as markup. */
export const HOSTILE_OUTPUT = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> I won't call anything.`;

export interface ScoreFixture {
  readonly root: string;
  readonly resultDir: string;
  readonly scoreDir: string;
  readonly dataDir: string;
}

function capturingIo(root: string): CliIo & { readonly out: string[] } {
  const out: string[] = [];
  return { stdout: (t) => void out.push(t), stderr: (t) => void out.push(t), env: {}, cwd: root, out };
}

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/** Result line of `id` in a JSON Lines text, changed by `edit`. */
function editLine(text: string, id: string, edit: (line: string) => string): string {
  let found = false;
  const lines = text.split('\n').map((line) => {
    if (!line.startsWith(`{"id": "${id}"`)) return line;
    found = true;
    return edit(line);
  });
  if (!found) throw new Error(`fixture: no result line for ${id}`);
  return lines.join('\n');
}

/** The oracle's result files with one mistake per chosen entry. */
const MISTAKES: Readonly<Record<string, (text: string) => string>> = {
  'BFCL_v4_simple_python_result.json': (text) => {
    let t = editLine(text, 'simple_python_1', (l) => l.replace('\\"value\\": 98.6', '\\"value\\": 37.0'));
    t = editLine(t, 'simple_python_2', () => JSON.stringify({ id: 'simple_python_2', result: HOSTILE_OUTPUT, input_token_count: 120, output_token_count: 14, latency: 0.75 }));
    return t;
  },
  'BFCL_v4_multiple_result.json': (text) => editLine(text, 'multiple_0', (l) => l.replace(/"result": \[\{"[^"]+"/, '"result": [{"no_such_function"')),
  'BFCL_v4_irrelevance_result.json': (text) =>
    editLine(text, 'irrelevance_0', () => JSON.stringify({ id: 'irrelevance_0', result: [{ get_weather: '{"city": "Paris"}' }], input_token_count: 50, output_token_count: 9, latency: 0.5 })),
  // The echoed text differs from the ground truth's: the file system state differs after turn 3.
  'BFCL_v4_multi_turn_base_result.json': (text) =>
    editLine(text, 'multi_turn_base_0', (l) => l.replaceAll('Robin average: 17.67\\"', 'Robin average: 17.6\\"').replaceAll("content='Robin average: 17.67'", "content='Robin average: 17.6'")),
};

/** Generate, spoil and evaluate into a fresh temporary folder. */
export async function buildScoreFixture(): Promise<ScoreFixture> {
  const root = mkdtempSync(join(tmpdir(), 'bfcl-report-'));
  const resultDir = join(root, 'result');
  const scoreDir = join(root, 'score');
  const dataDir = packageDataDir();
  const io = capturingIo(root);
  const categories = FIXTURE_CATEGORIES.join(',');

  const generated = await runCli(['generate', '--model', 'oracle', '--test-category', categories, '--result-dir', resultDir, '--data-dir', dataDir], io);
  if (generated !== 0) throw new Error(`fixture: generate failed\n${io.out.join('')}`);

  const oracleDir = join(resultDir, 'oracle');
  for (const file of files(oracleDir)) {
    const target = join(resultDir, FLAWED_MODEL, relative(oracleDir, file));
    mkdirSync(dirname(target), { recursive: true });
    const spoil = MISTAKES[file.slice(file.lastIndexOf('/') + 1)];
    const text = readFileSync(file, 'utf8');
    writeFileSync(target, spoil === undefined ? text : spoil(text));
  }

  const evaluated = await runCli(
    ['evaluate', '--test-category', categories, '--result-dir', resultDir, '--score-dir', scoreDir, '--decoder', 'fc', '--data-dir', dataDir],
    io,
  );
  if (evaluated !== 0) throw new Error(`fixture: evaluate failed\n${io.out.join('')}`);
  return { root, resultDir, scoreDir, dataDir };
}

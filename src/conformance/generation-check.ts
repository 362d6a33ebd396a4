/**
 * Generation parity (shared/conformance/generation/README.md): the built CLI generates against the
 * shipped scripted agent, and every result line must equal the reference's except `latency`, and
 * every memory snapshot must be byte-identical. Reading the two result folders and comparing them
 * are pure functions over parsed files; starting the agent and the CLI is the thin runner at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';

import { jsonDumps, parseJsonLossless } from '../py/json.js';
import type { PyDict, PyValue } from '../py/value.js';
import { extractTestCategoryFromFileName, getGeneralGrouping, isAgentic, VERSION_PREFIX } from '../spec/categories.js';
import { DatasetError, ProviderError } from '../util/errors.js';

/** The model the reference registered for the scripted agent, and the folder its results are in. */
export const GENERATION_MODEL = 'openai-compatible/mock';
/** The agent the reference results were generated against (`--salt`). */
export const GENERATION_SALT = 'shared-1';
/** Result fields that are wall-clock measurements and never comparable. */
export const UNCOMPARABLE_FIELDS: ReadonlySet<string> = new Set(['latency']);

const SNAPSHOT_FOLDER = 'memory_snapshot';
const RESULT_FILE = new RegExp(`^${VERSION_PREFIX}_\\w+_result\\.json$`);
/** How much of a value a mismatch shows. */
const EXCERPT_CHARS = 300;

/** One line of a result file: its id and parsed value, or why it could not be read. */
export interface ResultLine {
  /** The entry id, or `<line N>` when the line has none. */
  readonly id: string;
  /** 1-based line number in its file. */
  readonly line: number;
  readonly value?: PyDict;
  readonly error?: string;
}

/** One `BFCL_v4_<category>_result.json` of a model folder, parsed. */
export interface ResultFile {
  /** Path relative to the model folder, `/`-separated. */
  readonly relativePath: string;
  readonly category: string;
  readonly lines: readonly ResultLine[];
}

/** What a model folder holds that the check compares: result files and memory snapshot bytes. */
export interface ResultFolder {
  readonly files: readonly ResultFile[];
  /** Every file under a `memory_snapshot/` folder, by path relative to the model folder. */
  readonly snapshots: ReadonlyMap<string, Uint8Array>;
}

/** Where one entry first differs from the reference. */
export interface EntryMismatch {
  readonly id: string;
  /** Path of the first differing field (`result[1][0].du`), or `(entry)` for a missing or unreadable line. */
  readonly path: string;
  readonly ours: string;
  readonly reference: string;
}

/** The comparison of one category (a memory category includes its prereq file). */
export interface GenerationCategoryComparison {
  readonly category: string;
  /** Reference entries. */
  readonly total: number;
  /** Reference entries whose line we wrote with equal values (all fields but the uncomparable ones). */
  readonly identical: number;
  /** Entries we wrote for the category. */
  readonly oursEntries: number;
  /** Value differences, missing and unreadable entries, in reference order. */
  readonly mismatches: readonly EntryMismatch[];
  /** Entries with equal values whose object keys come in another order (still counted identical). */
  readonly keyOrder: readonly EntryMismatch[];
  /** Other differences in the files: extra or duplicate ids, file paths, line order. */
  readonly notes: readonly string[];
}

/** The byte comparison of one `memory_snapshot/` folder. */
export interface SnapshotComparison {
  /** The category whose results sit beside the folder. */
  readonly category: string;
  /** The folder relative to the model folder. */
  readonly folder: string;
  /** Reference files in the folder. */
  readonly total: number;
  readonly identical: number;
  /** Differing or missing files: path inside the folder, and ours/reference excerpts. */
  readonly mismatches: readonly EntryMismatch[];
  /** Files we wrote that the reference has not. */
  readonly extra: readonly string[];
}

/** Every category and snapshot folder the reference has, compared with ours. */
export interface GenerationComparison {
  readonly categories: readonly GenerationCategoryComparison[];
  readonly snapshots: readonly SnapshotComparison[];
}

// ---------------------------------------------------------------------------------------------
// Parsing (pure)

/** Parse a result file's text: one JSON object per non-blank line, ints and floats kept apart. */
export function parseResultFile(relativePath: string, category: string, text: string): ResultFile {
  const lines: ResultLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const line = i + 1;
    try {
      // Lossless: a float written as 1.0 must not equal an int 1, as it would after JSON.parse.
      const value = parseJsonLossless(raw);
      if (!(value instanceof Map)) {
        lines.push({ id: `<line ${line}>`, line, error: 'not a JSON object' });
        return;
      }
      const id = value.get('id');
      lines.push(typeof id === 'string' ? { id, line, value } : { id: `<line ${line}>`, line, value, error: 'no string "id"' });
    } catch (error) {
      lines.push({ id: `<line ${line}>`, line, error: (error as Error).message });
    }
  });
  return { relativePath, category, lines };
}

// ---------------------------------------------------------------------------------------------
// Comparison (pure)

/** A field one side has and the other has not. */
const ABSENT = Symbol('absent');
type Side = PyValue | typeof ABSENT;

interface Difference {
  readonly path: string;
  readonly ours: Side;
  readonly reference: Side;
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`;
}

function sameScalar(a: PyValue, b: PyValue): boolean {
  // Object.is: NaN equals NaN, and -0.0 differs from 0.0 as their JSON texts do.
  return typeof a === typeof b && Object.is(a, b);
}

/** The first place where `ours` and `reference` differ in value (object key order ignored). */
function findValueDifference(ours: PyValue, reference: PyValue, path: string, ignored: ReadonlySet<string>): Difference | undefined {
  if (ours instanceof Map && reference instanceof Map) {
    for (const [key, value] of reference) {
      if (typeof key === 'string' && ignored.has(key)) continue;
      const at = childPath(path, String(key));
      if (!ours.has(key)) return { path: at, ours: ABSENT, reference: value };
      const found = findValueDifference(ours.get(key)!, value, at, new Set());
      if (found !== undefined) return found;
    }
    for (const [key, value] of ours) {
      if (typeof key === 'string' && ignored.has(key)) continue;
      if (!reference.has(key)) return { path: childPath(path, String(key)), ours: value, reference: ABSENT };
    }
    return undefined;
  }
  if (Array.isArray(ours) && Array.isArray(reference)) {
    for (let i = 0; i < Math.max(ours.length, reference.length); i++) {
      const at = childPath(path, i);
      if (i >= ours.length) return { path: at, ours: ABSENT, reference: reference[i]! };
      if (i >= reference.length) return { path: at, ours: ours[i]!, reference: ABSENT };
      const found = findValueDifference(ours[i]!, reference[i]!, at, ignored);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const container = (v: PyValue): boolean => v instanceof Map || Array.isArray(v);
  if (container(ours) || container(reference) || !sameScalar(ours, reference)) return { path, ours, reference };
  return undefined;
}

/** The first object (in values already found equal) whose keys come in another order. */
function findKeyOrderDifference(ours: PyValue, reference: PyValue, path: string): Difference | undefined {
  if (ours instanceof Map && reference instanceof Map) {
    const oursKeys = [...ours.keys()];
    const referenceKeys = [...reference.keys()];
    if (oursKeys.some((key, i) => key !== referenceKeys[i])) {
      return { path: path === '' ? '(keys)' : path, ours: oursKeys.map(String), reference: referenceKeys.map(String) };
    }
    for (const [key, value] of reference) {
      const found = findKeyOrderDifference(ours.get(key)!, value, childPath(path, String(key)));
      if (found !== undefined) return found;
    }
  } else if (Array.isArray(ours) && Array.isArray(reference)) {
    for (let i = 0; i < reference.length; i++) {
      const found = findKeyOrderDifference(ours[i]!, reference[i]!, childPath(path, i));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function renderSide(value: Side): string {
  if (value === ABSENT) return '(absent)';
  try {
    return jsonDumps(value, { ensureAscii: false });
  } catch {
    return String(value);
  }
}

/**
 * Both texts cut to about `width` characters around their first difference, so a long state log
 * shows where it diverges rather than its common start.
 */
export function excerptPair(ours: string, reference: string, width = EXCERPT_CHARS): [string, string] {
  let at = 0;
  while (at < ours.length && at < reference.length && ours[at] === reference[at]) at++;
  const from = at < width - 60 ? 0 : at - 100;
  const cut = (text: string): string => {
    const body = text.slice(from, from + width);
    return (from > 0 ? '…' : '') + body + (from + width < text.length ? '…' : '');
  };
  return [cut(ours), cut(reference)];
}

function toMismatch(id: string, difference: Difference): EntryMismatch {
  const [ours, reference] = excerptPair(renderSide(difference.ours), renderSide(difference.reference));
  return { id, path: difference.path, ours, reference };
}

/**
 * Compare one result line with the reference's: the first value difference outside `ignored`
 * fields, else the first key-order difference, else nothing.
 */
export function compareResultEntry(
  id: string,
  ours: PyDict,
  reference: PyDict,
  ignored: ReadonlySet<string> = UNCOMPARABLE_FIELDS,
): { readonly value?: EntryMismatch; readonly keyOrder?: EntryMismatch } {
  const difference = findValueDifference(ours, reference, '', ignored);
  if (difference !== undefined) return { value: toMismatch(id, difference) };
  const order = findKeyOrderDifference(ours, reference, '');
  return order === undefined ? {} : { keyOrder: toMismatch(id, order) };
}

/** The category a result file is reported under: a memory prereq file counts with its questions. */
export function checkCategoryOf(category: string): string {
  // BFCL parity: utils.py::extract_test_category_from_id(remove_prereq=True) — every "_prereq" goes.
  return category.replaceAll('_prereq', '');
}

const GROUP_ORDER = ['non_live', 'live', 'multi_turn', 'agentic', 'format_sensitivity'];

function groupRank(category: string): number {
  try {
    return GROUP_ORDER.indexOf(getGeneralGrouping(category));
  } catch {
    // A name outside the taxonomy goes last rather than failing the whole check.
    return GROUP_ORDER.length;
  }
}

/** The reference's categories in report order: non-live, live, multi-turn, agentic. */
export function referenceCategories(reference: ResultFolder): string[] {
  const categories = [...new Set(reference.files.map((f) => checkCategoryOf(f.category)))];
  // Stable sort: within a group the reference folder's (sorted) order stays.
  return categories.sort((a, b) => groupRank(a) - groupRank(b));
}

function compareCategory(category: string, ours: ResultFolder, reference: ResultFolder, ignored: ReadonlySet<string>): GenerationCategoryComparison {
  const referenceFiles = reference.files.filter((f) => checkCategoryOf(f.category) === category);
  const oursFiles = ours.files.filter((f) => checkCategoryOf(f.category) === category);
  const notes: string[] = [];

  const oursById = new Map<string, ResultLine>();
  const duplicates = new Set<string>();
  for (const line of oursFiles.flatMap((f) => f.lines)) {
    if (oursById.has(line.id)) duplicates.add(line.id);
    else oursById.set(line.id, line);
  }
  const referenceIds = new Set(referenceFiles.flatMap((f) => f.lines.map((l) => l.id)));

  let total = 0;
  let identical = 0;
  const mismatches: EntryMismatch[] = [];
  const keyOrder: EntryMismatch[] = [];
  for (const line of referenceFiles.flatMap((f) => f.lines)) {
    total++;
    const mine = oursById.get(line.id);
    if (line.value === undefined || line.error !== undefined) {
      mismatches.push({ id: line.id, path: '(entry)', ours: mine === undefined ? 'missing' : 'present', reference: `unreadable: ${line.error ?? ''}` });
    } else if (mine === undefined) {
      mismatches.push({ id: line.id, path: '(entry)', ours: 'missing', reference: 'present' });
    } else if (mine.value === undefined || mine.error !== undefined) {
      mismatches.push({ id: line.id, path: '(entry)', ours: `unreadable line ${mine.line}: ${mine.error ?? ''}`, reference: 'present' });
    } else {
      const result = compareResultEntry(line.id, mine.value, line.value, ignored);
      if (result.value !== undefined) mismatches.push(result.value);
      else {
        identical++;
        if (result.keyOrder !== undefined) keyOrder.push(result.keyOrder);
      }
    }
  }

  const extra = [...oursById.keys()].filter((id) => !referenceIds.has(id));
  if (extra.length > 0) notes.push(`${extra.length} entries only in ours (${extra.slice(0, 3).join(', ')}${extra.length > 3 ? ', …' : ''})`);
  if (duplicates.size > 0) notes.push(`ids written twice by us: ${[...duplicates].slice(0, 3).join(', ')}`);
  for (const file of referenceFiles) {
    const mine = oursFiles.find((f) => f.category === file.category);
    if (mine === undefined) continue;
    if (mine.relativePath !== file.relativePath) notes.push(`ours at ${mine.relativePath}, reference at ${file.relativePath}`);
    const oursOrder = mine.lines.map((l) => l.id).filter((id) => referenceIds.has(id));
    const referenceOrder = file.lines.map((l) => l.id).filter((id) => oursById.has(id));
    const at = oursOrder.findIndex((id, i) => id !== referenceOrder[i]);
    if (at >= 0) notes.push(`${file.category}: line order differs from line ${at + 1} (ours ${oursOrder[at]}, reference ${referenceOrder[at]})`);
  }
  return { category, total, identical, oursEntries: oursById.size, mismatches, keyOrder, notes };
}

function firstByteDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** Compare the files of one snapshot folder byte for byte. */
export function compareSnapshotFolder(
  category: string,
  folder: string,
  ours: ReadonlyMap<string, Uint8Array>,
  reference: ReadonlyMap<string, Uint8Array>,
): SnapshotComparison {
  const prefix = folder + '/';
  const inFolder = (map: ReadonlyMap<string, Uint8Array>): string[] => [...map.keys()].filter((p) => p.startsWith(prefix)).sort();
  let identical = 0;
  const mismatches: EntryMismatch[] = [];
  const referencePaths = inFolder(reference);
  for (const path of referencePaths) {
    const name = path.slice(prefix.length);
    const mine = ours.get(path);
    const theirs = reference.get(path)!;
    if (mine === undefined) {
      mismatches.push({ id: name, path: '(file)', ours: 'missing', reference: `${theirs.length} bytes` });
      continue;
    }
    const at = firstByteDifference(mine, theirs);
    if (at < 0) {
      identical++;
      continue;
    }
    // Excerpts of the decoded text around the first differing byte (snapshots are UTF-8 JSON).
    const from = Math.max(0, at - 100);
    const text = (bytes: Uint8Array): string => Buffer.from(bytes.subarray(from, from + EXCERPT_CHARS)).toString('utf8');
    mismatches.push({
      id: name,
      path: `byte ${at} (ours ${mine.length} bytes, reference ${theirs.length})`,
      ours: (from > 0 ? '…' : '') + text(mine),
      reference: (from > 0 ? '…' : '') + text(theirs),
    });
  }
  const extra = inFolder(ours)
    .filter((p) => !reference.has(p))
    .map((p) => p.slice(prefix.length));
  return { category, folder, total: referencePaths.length, identical, mismatches, extra };
}

/** The `memory_snapshot/` folders among `paths` (relative to the model folder). */
function snapshotFolders(paths: Iterable<string>): string[] {
  const folders = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    const at = parts.indexOf(SNAPSHOT_FOLDER);
    if (at >= 0) folders.add(parts.slice(0, at + 1).join('/'));
  }
  return [...folders].sort();
}

/**
 * Compare our generated folder with the reference's: every reference category per id (all
 * fields but `ignored`), and every reference snapshot folder byte for byte.
 */
export function compareGenerationResults(
  ours: ResultFolder,
  reference: ResultFolder,
  ignored: ReadonlySet<string> = UNCOMPARABLE_FIELDS,
): GenerationComparison {
  const categories = referenceCategories(reference).map((c) => compareCategory(c, ours, reference, ignored));
  const snapshots = snapshotFolders(reference.snapshots.keys()).map((folder) => {
    // The snapshot folder belongs to the category whose result file sits beside it.
    const parent = folder.split('/').slice(0, -1).join('/');
    const beside = reference.files.find((f) => f.relativePath.split('/').slice(0, -1).join('/') === parent);
    return compareSnapshotFolder(beside === undefined ? folder : checkCategoryOf(beside.category), folder, ours.snapshots, reference.snapshots);
  });
  return { categories, snapshots };
}

// ---------------------------------------------------------------------------------------------
// Reading a model folder (I/O)

function walkFiles(dir: string): string[] {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walkFiles(path);
    return entry.isFile() ? [path] : [];
  });
}

/** Read a model folder's result files and snapshot files; a missing folder reads as empty. */
export function readResultFolder(modelDir: string): ResultFolder {
  let paths: string[];
  try {
    paths = walkFiles(modelDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { files: [], snapshots: new Map() };
    throw error;
  }
  const files: ResultFile[] = [];
  const snapshots = new Map<string, Uint8Array>();
  for (const path of paths) {
    const relativePath = relative(modelDir, path).split(sep).join('/');
    if (relativePath.split('/').includes(SNAPSHOT_FOLDER)) {
      snapshots.set(relativePath, readFileSync(path));
      continue;
    }
    const name = relativePath.split('/').at(-1)!;
    const category = RESULT_FILE.test(name) ? extractTestCategoryFromFileName(name) : undefined;
    if (category !== undefined) files.push(parseResultFile(relativePath, category, readFileSync(path, 'utf8')));
  }
  return { files, snapshots };
}

// ---------------------------------------------------------------------------------------------
// Runner (processes)

/** Where the check finds its programs and data. */
export interface GenerationCheckOptions {
  /** The bundled `bfcl` CLI (`dist/bin/bfcl.cjs`). */
  readonly cliPath: string;
  /** The official dataset (`--data-dir`). */
  readonly dataDir: string;
  /** shared/conformance/generation: `mock_agent.mjs` and `result/<model folder>/`. */
  readonly generationDir: string;
  readonly numThreads?: number;
}

/** One `bfcl generate` invocation of the check. */
export interface GenerateRun {
  readonly categories: readonly string[];
  /** Exit code, or the signal that ended it. */
  readonly exit: number | string;
  readonly ms: number;
  /** The last lines the command printed (stdout and stderr together). */
  readonly outputTail: string;
}

/** Everything the check found, for the caller to print. */
export interface GenerationCheckReport {
  readonly comparison: GenerationComparison;
  readonly runs: readonly GenerateRun[];
  /** Requests the scripted agent answered. */
  readonly agentRequests: number | undefined;
  readonly ms: number;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

function getJson(url: string): Promise<unknown> {
  return new Promise((resolveBody, reject) => {
    const request = http.get(url, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        try {
          resolveBody(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    request.once('error', reject);
    request.setTimeout(2000, () => request.destroy(new Error('timeout')));
  });
}

interface RunningAgent {
  readonly port: number;
  readonly child: ChildProcess;
}

/**
 * Start the scripted agent on a free port. It prints nothing when listening, so readiness is its
 * `GET /stats` answering; an agent that exits first (say the port was taken meanwhile) is retried.
 */
async function startAgent(script: string): Promise<RunningAgent> {
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [script, '--port', String(port), '--salt', GENERATION_SALT, '--latency-ms', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    let exited = false;
    child.once('exit', () => (exited = true));
    for (let waited = 0; waited < 10_000 && !exited; waited += 50) {
      try {
        await getJson(`http://127.0.0.1:${port}/stats`);
        return { port, child };
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    if (!exited) child.kill();
    lastError = stderr.trim().split('\n').slice(-3).join(' ') || (exited ? 'it exited' : 'no answer within 10 s');
  }
  throw new ProviderError(`the scripted agent ${script} did not start: ${lastError}`, { serverUnreachable: true });
}

async function stopAgent(agent: RunningAgent): Promise<void> {
  if (agent.child.exitCode !== null || agent.child.signalCode !== null) return;
  const exited = new Promise((r) => agent.child.once('exit', r));
  agent.child.kill();
  await exited;
}

function runGenerate(options: GenerationCheckOptions, port: number, categories: readonly string[], resultDir: string): Promise<GenerateRun> {
  const started = performance.now();
  const args = [
    options.cliPath,
    'generate',
    '--model',
    GENERATION_MODEL,
    '--base-url',
    `http://127.0.0.1:${port}/v1`,
    '--test-category',
    categories.join(','),
    '--num-threads',
    String(options.numThreads ?? 8),
    '--data-dir',
    options.dataDir,
    '--result-dir',
    resultDir,
  ];
  return new Promise((resolveRun) => {
    // The agent needs no key, but the OpenAI-compatible provider requires one to be set.
    const child = spawn(process.execPath, args, {
      env: { ...process.env, OPENAI_API_KEY: 'sk-conformance-dummy' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer): void => {
      // Only the end matters (the error, the summary); progress lines would grow without bound.
      output = (output + chunk.toString('utf8')).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const finish = (exit: number | string): void => {
      const outputTail = output.trim().split('\n').slice(-8).join('\n');
      resolveRun({ categories, exit, ms: performance.now() - started, outputTail });
    };
    child.once('error', (error) => finish(error.message));
    child.once('close', (code, signal) => finish(code ?? signal ?? 'unknown'));
  });
}

/**
 * Generate the reference's categories with the bundled CLI against the scripted agent, into a
 * fresh temporary folder, and compare. Agentic categories run in their own invocation so a
 * failure there cannot cost the others their results.
 */
export async function runGenerationCheck(options: GenerationCheckOptions): Promise<GenerationCheckReport> {
  const started = performance.now();
  const modelFolder = GENERATION_MODEL.replaceAll('/', '_');
  const referenceDir = join(options.generationDir, 'result', modelFolder);
  const reference = readResultFolder(referenceDir);
  if (reference.files.length === 0) throw new DatasetError({ file: referenceDir }, 'no reference result files found');
  const categories = referenceCategories(reference);
  const batches = [categories.filter((c) => !isAgentic(c)), categories.filter(isAgentic)].filter((b) => b.length > 0);

  const resultDir = mkdtempSync(join(tmpdir(), 'bfcl-conformance-generation-'));
  const agent = await startAgent(join(options.generationDir, 'mock_agent.mjs'));
  const stopOnExit = (): void => void agent.child.kill();
  process.once('exit', stopOnExit);
  try {
    const runs: GenerateRun[] = [];
    for (const batch of batches) runs.push(await runGenerate(options, agent.port, batch, resultDir));
    let agentRequests: number | undefined;
    try {
      const stats = (await getJson(`http://127.0.0.1:${agent.port}/stats`)) as { requests?: unknown };
      if (typeof stats.requests === 'number') agentRequests = stats.requests;
    } catch {
      // The counters are informational only.
    }
    const ours = readResultFolder(join(resultDir, modelFolder));
    return { comparison: compareGenerationResults(ours, reference), runs, agentRequests, ms: performance.now() - started };
  } finally {
    process.removeListener('exit', stopOnExit);
    await stopAgent(agent);
    rmSync(resultDir, { recursive: true, force: true });
  }
}


/**
 * The record/replay cache of web searches and page fetches (agentic spec §15.2): one JSON file per
 * request in a directory, named by the sha256 of the request's canonical JSON, written atomically
 * (temporary file, fsync, rename) so that concurrent workers and interrupted runs never leave a
 * half-written record. The cache stores what the network answered (search body text, page bytes),
 * not tool results, so a replay runs the same parsing and conversions as a live run.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { WebCacheCorruptError, WebCacheError, WebCacheMissError } from './web-errors.js';

/** `off`: no cache; `record`: live, then (over)write; `replay`: cache only, a miss fails; `auto`: replay a hit, record a miss. */
export type WebCacheMode = 'off' | 'record' | 'replay' | 'auto';

/** Every mode, for option validation. */
export const WEB_CACHE_MODES: readonly WebCacheMode[] = ['off', 'record', 'replay', 'auto'];

/** A JSON value as stored in a record. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The request a record answers; its canonical JSON is what the key hashes. */
export type CacheRequest = { readonly kind: string } & { readonly [key: string]: JsonValue };

/** How one kind of outcome is stored and read back. */
export interface OutcomeCodec<T> {
  readonly schema: z.ZodType<JsonValue>;
  encode(outcome: T): JsonValue;
  decode(stored: JsonValue): T;
}

/** Bump when the record layout changes: older files are then reported, not misread. */
const RECORD_VERSION = 1;

const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

const recordSchema = z.object({
  version: z.number(),
  key: z.string(),
  request: z.record(z.string(), jsonValue),
  recorded_at: z.string(),
  outcome: jsonValue,
});

/** Options of the cache store. */
export interface SearchCacheOptions {
  readonly dir: string;
  readonly mode: Exclude<WebCacheMode, 'off'>;
  /** The clock for `recorded_at` (injected so tests are deterministic). */
  readonly now?: () => Date;
}

/** The directory of records and the mode that decides when it is read and written. */
export class SearchCache {
  readonly dir: string;
  readonly mode: Exclude<WebCacheMode, 'off'>;
  private readonly now: () => Date;
  private dirReady: Promise<void> | undefined;

  constructor(options: SearchCacheOptions) {
    this.dir = options.dir;
    this.mode = options.mode;
    this.now = options.now ?? (() => new Date());
  }

  /** The canonical JSON of a request and its key (sha256 hex). */
  keyOf(request: CacheRequest): { key: string; canonical: string } {
    const canonical = JSON.stringify(request);
    return { key: createHash('sha256').update(canonical).digest('hex'), canonical };
  }

  /** The file that holds (or would hold) the record of `key`. */
  fileOf(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  /**
   * The outcome of `request` as the mode decides: from the record, or from `live` (then recorded).
   * `live` is undefined when no live source is configured (a replay-only set-up).
   */
  async through<T>(request: CacheRequest, codec: OutcomeCodec<T>, live: (() => Promise<T>) | undefined): Promise<T> {
    const { key, canonical } = this.keyOf(request);
    if (this.mode !== 'record') {
      const stored = await this.read(key, canonical, codec);
      if (stored !== undefined) return stored;
      if (this.mode === 'replay') throw new WebCacheMissError(key, canonical, this.fileOf(key));
    }
    if (live === undefined) throw new WebCacheError(`web cache mode ${this.mode} needs a live source for ${canonical}, and none is configured`);
    const outcome = await live();
    await this.write(key, request, codec.encode(outcome));
    return outcome;
  }

  /** The stored outcome of `key`, undefined when there is no record; a record that cannot be used throws. */
  async read<T>(key: string, canonical: string, codec: OutcomeCodec<T>): Promise<T | undefined> {
    const file = this.fileOf(key);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new WebCacheError(`cannot read web cache file ${file}: ${(error as Error).message}`, { cause: error });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new WebCacheCorruptError(file, `not valid JSON (${(error as Error).message})`, { cause: error });
    }
    const record = recordSchema.safeParse(parsed);
    if (!record.success) throw new WebCacheCorruptError(file, `not a web cache record (${describeIssue(record.error)})`);
    const { version, request, outcome } = record.data;
    if (version !== RECORD_VERSION) throw new WebCacheCorruptError(file, `record version ${version}, this version reads ${RECORD_VERSION}`);
    if (record.data.key !== key) throw new WebCacheCorruptError(file, `it holds the record of key ${record.data.key}`);
    if (JSON.stringify(request) !== canonical) {
      throw new WebCacheCorruptError(file, `it records ${JSON.stringify(request)}, not ${canonical}`);
    }
    const checked = codec.schema.safeParse(outcome);
    if (!checked.success) throw new WebCacheCorruptError(file, `unusable outcome (${describeIssue(checked.error)})`);
    try {
      return codec.decode(checked.data);
    } catch (error) {
      throw new WebCacheCorruptError(file, `unusable outcome (${(error as Error).message})`, { cause: error });
    }
  }

  /** Write the record of `request` atomically, replacing any earlier one. */
  async write(key: string, request: CacheRequest, outcome: JsonValue): Promise<void> {
    const record = { version: RECORD_VERSION, key, request, recorded_at: this.now().toISOString(), outcome };
    this.dirReady ??= mkdir(this.dir, { recursive: true }).then(() => undefined);
    await this.dirReady;
    await writeFileAtomic(this.fileOf(key), `${JSON.stringify(record, null, 1)}\n`);
  }
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}

/** Write `text` to a temporary file beside `file`, flush it to disk, then rename it over `file`. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw new WebCacheError(`cannot write web cache file ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** What a cache directory holds: record count and a digest over the sorted sha256 of the record files. */
export interface WebCacheSummary {
  readonly records: number;
  readonly digest: string;
}

/** Summarise a cache directory (for the run log and the manifest); an absent directory is empty. */
export async function summarizeWebCache(dir: string): Promise<WebCacheSummary> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => /^[0-9a-f]{64}\.json$/.test(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    names = [];
  }
  const hashes: string[] = [];
  for (const name of names) {
    hashes.push(createHash('sha256').update(await readFile(join(dir, name))).digest('hex'));
  }
  hashes.sort();
  return { records: hashes.length, digest: createHash('sha256').update(hashes.join('\n')).digest('hex') };
}

/** Write `manifest.json` beside the records: creation time, tool version, record count and digest. */
export async function writeWebCacheManifest(dir: string, toolVersion: string, now: Date = new Date()): Promise<WebCacheSummary> {
  const summary = await summarizeWebCache(dir);
  await mkdir(dir, { recursive: true });
  const manifest = { created: now.toISOString(), tool_version: toolVersion, record_count: summary.records, digest: summary.digest };
  await writeFileAtomic(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  return summary;
}

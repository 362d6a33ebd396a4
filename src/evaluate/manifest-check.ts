/**
 * Before `bfcl evaluate` scores a model folder, compare the dataset files its results were generated
 * from (the run manifest, src/generate/run-manifest.ts) with the files this evaluation reads. A
 * difference means the scores say more about the data change than about the model (a forgotten
 * `BFCL_DATA_DIR` scores every entry 0%), so it stops the evaluation with a usage error unless
 * `--allow-data-mismatch` turns it into a warning. Folders without a manifest (e.g. results of the
 * reference BFCL) are not checked.
 */

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { BfclDataset } from '../data/dataset.js';
import { resultFilesOfCategory } from '../generate/result-store.js';
import {
  RUN_MANIFEST_FILE,
  type RunRecord,
  datasetFilesOfCategory,
  readRunManifest,
  sha256OfFile,
} from '../generate/run-manifest.js';
import type { Category } from '../spec/categories.js';
import { UsageError } from '../util/errors.js';

/** One dataset file whose content differs from what a generation run read. */
export interface DriftedFile {
  /** Relative to the data directories, `/`-separated. */
  readonly file: string;
  /** Hash of the evaluated data directory's file; null when it is absent there. */
  readonly current: string | null;
  /** Hash recorded by the run; null when the file was absent then. */
  readonly recorded: string | null;
  /** Categories of this evaluation that read the file. */
  readonly categories: readonly Category[];
}

/** A model folder whose results were generated from other data than the evaluation's. */
export interface DatasetDrift {
  /** Model folder name. */
  readonly model: string;
  readonly manifestFile: string;
  /** The data directories of the runs that read different files, in run order. */
  readonly generatedFrom: readonly string[];
  /** The data directory of this evaluation. */
  readonly evaluatedWith: string;
  readonly files: readonly DriftedFile[];
}

/**
 * The runs whose results of `category` may still be in the folder: the runs covering it since the
 * last one that regenerated it from scratch (`--allow-overwrite` without `--run-ids` deletes the
 * category's result files first).
 */
function runsBehindCategory(runs: readonly RunRecord[], category: Category): RunRecord[] {
  const covering = runs.filter((run) => run.flags.categories.includes(category));
  let start = 0;
  covering.forEach((run, i) => {
    if (run.flags.allow_overwrite && !run.flags.run_ids) start = i;
  });
  return covering.slice(start);
}

/**
 * Compare `modelDir`'s manifest with `dataset` for the categories that have a result file there.
 * Undefined when there is no readable manifest or nothing differs.
 */
export function findDatasetDrift(modelDir: string, model: string, dataset: BfclDataset, categories: readonly Category[]): DatasetDrift | undefined {
  const manifest = readRunManifest(modelDir);
  if (manifest === undefined) return undefined;

  const currentHashes = new Map<string, string | null>();
  const currentHash = (file: string): string | null => {
    if (!currentHashes.has(file)) currentHashes.set(file, sha256OfFile(join(dataset.dir, file)));
    return currentHashes.get(file)!;
  };
  const drifted = new Map<string, { current: string | null; recorded: string | null; categories: Category[] }>();
  const generatedFrom = new Set<string>();

  for (const category of categories) {
    if (!existsSync(resultFilesOfCategory(modelDir, category)[0]!)) continue;
    const runs = runsBehindCategory(manifest.runs, category);
    if (runs.length === 0) continue;
    for (const file of datasetFilesOfCategory(dataset, category)) {
      for (const run of runs) {
        if (!Object.hasOwn(run.dataset.files, file)) continue;
        const recorded = run.dataset.files[file] ?? null;
        const current = currentHash(file);
        if (recorded === current) continue;
        generatedFrom.add(run.dataset.dir);
        const seen = drifted.get(file) ?? { current, recorded, categories: [] };
        if (!seen.categories.includes(category)) seen.categories.push(category);
        drifted.set(file, seen);
      }
    }
  }
  if (drifted.size === 0) return undefined;
  return {
    model,
    manifestFile: join(modelDir, RUN_MANIFEST_FILE),
    generatedFrom: [...generatedFrom],
    evaluatedWith: dataset.dir,
    files: [...drifted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([file, d]) => ({ file, ...d })),
  };
}

function driftLines(drift: DatasetDrift, lead: string): string[] {
  const count = drift.files.length === 1 ? '1 dataset file differs' : `${drift.files.length} dataset files differ`;
  const lines = [`${lead}the results of ${drift.model} were generated from different data than this evaluation reads; ${count}:`];
  for (const f of drift.files) {
    const note = f.current === null ? '; absent from the evaluated data directory' : f.recorded === null ? '; absent when generated' : '';
    lines.push(`  ${f.file}  (${f.categories.join(', ')}${note})`);
  }
  const sameDir = drift.generatedFrom.length === 1 && drift.generatedFrom[0] === drift.evaluatedWith;
  lines.push(`  generated from:    ${drift.generatedFrom.join(', ')}`);
  lines.push(`  evaluated against: ${drift.evaluatedWith}${sameDir ? ' (the same directory: its files changed since generation)' : ''}`);
  return lines;
}

/** The stderr warning for a drift that `--allow-data-mismatch` lets through. */
export function formatDatasetDriftWarning(drift: DatasetDrift): string {
  const lines = driftLines(drift, 'Warning: ');
  lines.push('  The scores of these categories may not match the results (evaluated anyway: --allow-data-mismatch).');
  lines.push(`  (Recorded in ${drift.manifestFile}.)`);
  return `${lines.join('\n')}\n`;
}

/** The message of the usage error that stops an evaluation on drifts (one block per model). */
export function formatDatasetDriftError(drifts: readonly DatasetDrift[]): string {
  const lines: string[] = [];
  for (const drift of drifts) lines.push(...driftLines(drift, ''), `  (Recorded in ${drift.manifestFile}.)`);
  const dirs = [...new Set(drifts.flatMap((d) => d.generatedFrom))];
  const sameDir = drifts.every((d) => d.generatedFrom.length === 1 && d.generatedFrom[0] === d.evaluatedWith);
  const fix = sameDir
    ? 'The data directory changed since generation: generate again with --allow-overwrite'
    : `Evaluate against the data the results came from (--data-dir ${dirs.join(' or ')}, or BFCL_DATA_DIR), or generate again with --allow-overwrite`;
  lines.push(`Nothing was scored: scores against other data than the results were made from would be wrong. ${fix}; --allow-data-mismatch scores anyway.`);
  return lines.join('\n');
}

export interface ManifestCheckOptions {
  readonly resultDir: string;
  /** `--model` names (registry form accepted); undefined: every model folder. */
  readonly models: readonly string[] | undefined;
  readonly categories: readonly Category[];
  readonly dataset: BfclDataset;
}

/**
 * Check every model folder of the evaluation that has a manifest. A check that cannot be made (a
 * broken dataset or manifest) is skipped silently: evaluation reports real dataset errors itself.
 * Returns the drifts found.
 */
export function findDatasetDrifts(options: ManifestCheckOptions): DatasetDrift[] {
  const drifts: DatasetDrift[] = [];
  for (const model of modelFolders(options)) {
    let drift: DatasetDrift | undefined;
    try {
      drift = findDatasetDrift(join(options.resultDir, model), model, options.dataset, options.categories);
    } catch {
      continue;
    }
    if (drift !== undefined) drifts.push(drift);
  }
  return drifts;
}

/**
 * `bfcl evaluate`'s check before it scores anything: a `UsageError` naming every drift, or with
 * `allowMismatch` one warning per drift. Returns the drifts found.
 */
export function checkDatasetDrift(options: ManifestCheckOptions & { readonly allowMismatch: boolean; readonly warn: (text: string) => void }): DatasetDrift[] {
  const drifts = findDatasetDrifts(options);
  if (drifts.length === 0) return drifts;
  if (!options.allowMismatch) throw new UsageError(formatDatasetDriftError(drifts));
  for (const drift of drifts) options.warn(formatDatasetDriftWarning(drift));
  return drifts;
}

/** Model folders of the result directory that hold a manifest, restricted to `--model`. */
function modelFolders(options: ManifestCheckOptions): string[] {
  if (options.models !== undefined) {
    return [...new Set(options.models.map((m) => m.replaceAll('/', '_')))].filter((m) =>
      existsSync(join(options.resultDir, m, RUN_MANIFEST_FILE)),
    );
  }
  if (!existsSync(options.resultDir)) return [];
  return readdirNames(options.resultDir).filter((m) => existsSync(join(options.resultDir, m, RUN_MANIFEST_FILE)));
}

function readdirNames(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

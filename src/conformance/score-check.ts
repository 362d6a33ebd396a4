import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { BfclDataset } from '../data/dataset.js';
import { datasetEntryCounter } from '../data/dataset-size.js';
import { evaluatedModelsOf, runEvaluation, type ModelEvaluationSettings } from '../evaluate/run-evaluate.js';
import { parseJsonLossless } from '../py/json.js';
import type { PyDict } from '../py/value.js';
import { LEADERBOARD_CSV_FILES, type ModelMetadata } from '../report/leaderboard.js';
import { buildRunLeaderboard } from '../report/run-leaderboard.js';
import { ALL_CATEGORIES, extractTestCategoryFromFileName } from '../spec/categories.js';
import { filesUnder } from '../util/files-under.js';

/** Agreement of our score file with the reference's for one model and category. */
export interface ScoreFileComparison {
  readonly model: string;
  readonly category: string;
  /** Entries in the category (the reference's total_count). */
  readonly total: number;
  /** Entries with the same verdict: both pass, or both fail with the same error type. */
  readonly sameVerdict: number;
  readonly headerIdentical: boolean;
  /** Score-file lines identical byte for byte (header included). */
  readonly identicalLines: number;
  readonly lines: number;
  /** A few ids whose verdict differs: id → [ours, reference]. */
  readonly differences: [string, string, string][];
}

function verdicts(lines: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const entry = parseJsonLossless(line) as PyDict;
    const error = entry.get('error');
    const type = entry.get('error_type') ?? (error instanceof Map ? error.get('error_type') : undefined);
    out.set(String(entry.get('id')), String(type));
  }
  return out;
}

function headerFields(line: string): string {
  const header = parseJsonLossless(line) as PyDict;
  return ['accuracy', 'correct_count', 'total_count'].map((k) => String(header.get(k))).join('/');
}

/** Our leaderboard CSV against the reference's, byte for byte. */
export interface CsvComparison {
  readonly file: string;
  readonly identical: boolean;
  /** The first differing line, as [ours, reference], when they differ. */
  readonly firstDifference?: [string, string];
}

/** What a conformance run's evaluation agrees on: every score file, and the six CSVs. */
export interface RunComparison {
  readonly scoreFiles: ScoreFileComparison[];
  readonly csvs: CsvComparison[];
}

/**
 * Evaluate a conformance run's result folder with our evaluator into a scratch score folder, then
 * compare every score file and the leaderboard CSVs (built as `bfcl evaluate` builds them, with the
 * run's model registrations) with the reference's.
 */
export function compareScoreFiles(
  runDir: string,
  dataset: BfclDataset,
  settings: (modelDir: string) => ModelEvaluationSettings,
): RunComparison {
  const scratch = mkdtempSync(join(tmpdir(), 'bfcl-conformance-'));
  try {
    const summary = runEvaluation({
      resultDir: join(runDir, 'result'),
      scoreDir: scratch,
      dataset,
      categories: ALL_CATEGORIES,
      partial: false,
      resolveSettings: (modelDir) => settings(modelDir),
    });
    const { csvs } = buildRunLeaderboard(evaluatedModelsOf(summary), scratch, conformanceModelMetadata, {
      datasetSize: datasetEntryCounter(dataset),
    });
    const csvComparisons = LEADERBOARD_CSV_FILES.map((file) => compareCsv(file, csvs.get(file) ?? '', join(runDir, 'score', file)));
    const comparisons: ScoreFileComparison[] = [];
    const referenceDir = join(runDir, 'score');
    for (const file of filesUnder(referenceDir)) {
      const category = extractTestCategoryFromFileName(file.slice(file.lastIndexOf('/') + 1));
      if (category === undefined || !file.endsWith('_score.json')) continue;
      const rel = relative(referenceDir, file);
      const model = rel.split('/')[0]!;
      const reference = readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0);
      const oursFile = join(scratch, rel);
      const ours = existsSync(oursFile) ? readFileSync(oursFile, 'utf8').split('\n').filter((l) => l.length > 0) : [];
      const total = Number((parseJsonLossless(reference[0]!) as PyDict).get('total_count'));
      const refVerdicts = verdicts(reference);
      const ourVerdicts = ours.length > 0 ? verdicts(ours) : new Map<string, string>();
      const differences: [string, string, string][] = [];
      for (const id of new Set([...refVerdicts.keys(), ...ourVerdicts.keys()])) {
        const a = ourVerdicts.get(id) ?? 'pass';
        const b = refVerdicts.get(id) ?? 'pass';
        if (a !== b) differences.push([id, a, b]);
      }
      const identicalLines = reference.filter((line, i) => ours[i] === line).length;
      comparisons.push({
        model,
        category,
        total,
        sameVerdict: ours.length === 0 ? 0 : total - differences.length,
        headerIdentical: ours.length > 0 && headerFields(ours[0]!) === headerFields(reference[0]!),
        identicalLines,
        lines: reference.length,
        differences: differences.slice(0, 10),
      });
    }
    return { scoreFiles: comparisons, csvs: csvComparisons };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The evaluation settings of the conformance runs' models (shared/conformance/README.md §2, §4). */
export function conformanceModelSettings(modelDir: string): ModelEvaluationSettings {
  if (modelDir === 'openai_gpt-oss-20b') return { decoderMode: 'fc', underscoreToDot: true };
  if (modelDir === 'synthetic-prompt-a') return { decoderMode: 'prompting', underscoreToDot: false };
  return { decoderMode: 'fc', underscoreToDot: false };
}

function compareCsv(file: string, ours: string, referenceFile: string): CsvComparison {
  const reference = existsSync(referenceFile) ? readFileSync(referenceFile, 'utf8') : '';
  if (ours === reference) return { file, identical: true };
  const oursLines = ours.split('\n');
  const referenceLines = reference.split('\n');
  const at = oursLines.findIndex((line, i) => line !== referenceLines[i]);
  const index = at === -1 ? oursLines.length : at;
  return { file, identical: false, firstDifference: [oursLines[index] ?? '', referenceLines[index] ?? ''] };
}

/** The registrations the conformance runs were scored with (shared/conformance/README.md §2, §4). */
const CONFORMANCE_MODEL_METADATA: ReadonlyMap<string, ModelMetadata> = new Map([
  [
    'openai_gpt-oss-20b',
    {
      displayName: 'openai/gpt-oss-20b (FC) (vLLM)',
      url: 'https://huggingface.co/openai/gpt-oss-20b',
      org: 'OpenAI',
      license: 'apache-2.0',
      inputPrice: null,
      outputPrice: null,
    },
  ],
  ...(['synthetic-fc-a', 'synthetic-prompt-a'] as const).map(
    (name) =>
      [
        name,
        {
          displayName: `${name} (${name.includes('fc') ? 'FC' : 'Prompt'})`,
          url: `https://example.invalid/bfcl-conformance/${name}`,
          org: 'BFCL conformance',
          license: 'n/a',
          inputPrice: null,
          outputPrice: null,
        },
      ] as const,
  ),
]);

/** Metadata columns of a conformance run's model; a model the README does not register gets its directory name. */
export function conformanceModelMetadata(modelDir: string): ModelMetadata {
  return (
    CONFORMANCE_MODEL_METADATA.get(modelDir) ?? { displayName: modelDir, url: '', org: '', license: '', inputPrice: null, outputPrice: null }
  );
}

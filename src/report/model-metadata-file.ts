/**
 * Leaderboard metadata for a model the registry does not know (a local server's model, a fine-tune):
 * `<result dir>/<model dir>/bfcl_model_metadata.json`, next to the model's result files and run
 * manifest, so it travels with the results and every `evaluate` (and `report`) finds it without a
 * flag. Every field is optional; a given field replaces the registry's value (or, for an unknown
 * model, the default: the folder name and empty cells).
 *
 * ```json
 * { "display_name": "Qwen2.5-7B-Instruct (FC, vLLM)", "organization": "Qwen", "license": "apache-2.0",
 *   "link": "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct", "input_price": null, "output_price": null }
 * ```
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { z } from 'zod';

import { UsageError } from '../util/errors.js';
import type { ModelMetadata } from './leaderboard.js';

/** File name of the metadata file inside a model's result folder. */
export const MODEL_METADATA_FILE = 'bfcl_model_metadata.json';

/** USD per million tokens, as the registry's prices; null: not priced (cost from latency, as for local models). */
const price = z.number().finite().nonnegative().nullable();

/** A CSV cell: the leaderboard CSVs are written unquoted, as the reference writes them, so a comma would shift the columns. */
const cellText = z.string().regex(/^[^,\r\n]*$/, 'must not contain a comma or a line break (the leaderboard CSVs are not quoted)');

const modelMetadataFileSchema = z
  .strictObject({
    display_name: cellText.trim().min(1, 'must not be empty').optional(),
    organization: cellText.optional(),
    license: cellText.optional(),
    link: cellText.optional(),
    input_price: price.optional(),
    output_price: price.optional(),
  })
  // The cost column needs both prices (tokens × price); one alone would silently price nothing.
  .refine((m) => (m.input_price === undefined || m.input_price === null) === (m.output_price === undefined || m.output_price === null), {
    message: 'give both input_price and output_price (USD per million tokens), or neither',
    path: ['output_price'],
  });

/** The fields a metadata file sets. */
export type ModelMetadataOverrides = Partial<ModelMetadata>;

/**
 * The metadata file of a model folder, or undefined when there is none. A file that is not JSON or
 * does not match the schema is a `UsageError` naming the file and the field.
 */
export function readModelMetadataFile(modelDir: string): ModelMetadataOverrides | undefined {
  const file = join(modelDir, MODEL_METADATA_FILE);
  if (!existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = modelMetadataFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.map(String).join('.');
    const where = field === '' ? '' : ` ${field}:`;
    const fields = 'display_name, organization, license, link, input_price, output_price';
    const hint = issue.code === 'unrecognized_keys' ? ` (the fields are ${fields})` : '';
    throw new UsageError(`${file}:${where} ${issue.message}${hint}`);
  }
  const m = parsed.data;
  const overrides: { -readonly [K in keyof ModelMetadata]?: ModelMetadata[K] } = {};
  if (m.display_name !== undefined) overrides.displayName = m.display_name;
  if (m.organization !== undefined) overrides.org = m.organization;
  if (m.license !== undefined) overrides.license = m.license;
  if (m.link !== undefined) overrides.url = m.link;
  if (m.input_price !== undefined) overrides.inputPrice = m.input_price;
  if (m.output_price !== undefined) overrides.outputPrice = m.output_price;
  return overrides;
}

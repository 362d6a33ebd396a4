/**
 * What `evaluate` and `report` know about a model directory: its registry entry (our offline
 * `oracle` model included) and the display facts of the leaderboard.
 */
import { OPENAI_COMPATIBLE_PREFIX, fallbackModelConfig, findModel, type ModelConfig } from '../models/model-registry.js';
import { ORACLE_MODEL_CONFIG, ORACLE_MODEL_NAME } from '../models/oracle.js';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { ModelMetadata } from '../report/leaderboard.js';
import { readModelMetadataFile, type ModelMetadataOverrides } from '../report/model-metadata-file.js';

/** The registry entry of a model directory or registry name, plus our offline `oracle` model. */
export function findModelOrOracle(modelDir: string): ModelConfig | undefined {
  return findModel(modelDir) ?? (modelDir === ORACLE_MODEL_NAME ? ORACLE_MODEL_CONFIG : undefined);
}

/**
 * Display name, links and prices from the registry, so names match data_overall.csv; an unknown
 * directory shows under its own name.
 */
export function modelMetadata(modelDir: string): ModelMetadata {
  const config = findModelOrOracle(modelDir);
  if (config === undefined) return { displayName: modelDir, url: '', org: '', license: '', inputPrice: null, outputPrice: null };
  return {
    displayName: config.displayName,
    url: config.url,
    org: config.org,
    license: config.license,
    inputPrice: config.inputPrice,
    outputPrice: config.outputPrice,
  };
}

/**
 * Metadata of the leaderboard's model folders: the registry's (`modelMetadata`), with the fields of
 * each folder's `bfcl_model_metadata.json` under `resultDir` on top. Every metadata file is read and
 * checked here, before any work, so a bad file stops the command before it writes anything.
 */
export function modelMetadataResolver(resultDir: string | undefined): (modelDir: string) => ModelMetadata {
  const overrides = new Map<string, ModelMetadataOverrides>();
  if (resultDir !== undefined && existsSync(resultDir)) {
    for (const entry of readdirSync(resultDir, { withFileTypes: true })) {
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
      const found = readModelMetadataFile(join(resultDir, entry.name));
      if (found !== undefined) overrides.set(entry.name, found);
    }
  }
  if (overrides.size === 0) return modelMetadata;
  return (modelDir) => ({ ...modelMetadata(modelDir), ...overrides.get(modelDir) });
}

/** The API model id of a `--model` name, as `bfcl generate` resolves it; null when unknown. */
export function apiModelIdOf(registryName: string): string | null {
  const config =
    findModelOrOracle(registryName) ??
    (registryName.startsWith(OPENAI_COMPATIBLE_PREFIX) ? fallbackModelConfig(registryName) : undefined);
  return config?.modelName ?? null;
}

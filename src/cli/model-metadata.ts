/**
 * What `evaluate` and `report` know about a model directory: its registry entry (our offline
 * `oracle` model included) and the display facts of the leaderboard.
 */
import { OPENAI_COMPATIBLE_PREFIX, fallbackModelConfig, findModel, type ModelConfig } from '../models/model-registry.js';
import { ORACLE_MODEL_CONFIG, ORACLE_MODEL_NAME } from '../models/oracle.js';
import type { ModelMetadata } from '../report/leaderboard.js';

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

/** The API model id of a `--model` name, as `bfcl generate` resolves it; null when unknown. */
export function apiModelIdOf(registryName: string): string | null {
  const config =
    findModelOrOracle(registryName) ??
    (registryName.startsWith(OPENAI_COMPATIBLE_PREFIX) ? fallbackModelConfig(registryName) : undefined);
  return config?.modelName ?? null;
}

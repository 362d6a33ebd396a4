import { type BfclDataset, openDataset } from '../data/dataset.js';
import { cacheDirOf, parsedFileCache } from '../data/parsed-file-cache.js';
import type { CliIo } from './io.js';

/**
 * The dataset a command reads (`dataDir` from `dataDirOf`), its parsed files cached between runs
 * where the command's environment says (`BFCL_CACHE_DIR`, see `cacheDirOf`).
 */
export function openCommandDataset(dataDir: string, io: CliIo): BfclDataset {
  return openDataset(dataDir, io.cwd, { cache: parsedFileCache(cacheDirOf(io.env, io.cwd)) });
}

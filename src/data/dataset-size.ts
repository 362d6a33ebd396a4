import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FORMAT_SENSITIVITY_CONFIGS,
  getCategoryInfo,
  isFormatSensitivity,
  isMemory,
  isWebSearch,
  type Category,
} from '../spec/categories.js';
import type { BfclDataset } from './dataset.js';

function countLines(file: string): number {
  if (!existsSync(file)) return 0;
  let count = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) if (line.trim() !== '') count++;
  return count;
}

/**
 * Number of test entries of a category (memory prerequisites excluded), without parsing the
 * category's file where counting its lines is enough. Used for missing categories in the leaderboard.
 */
export function datasetEntryCounter(dataset: BfclDataset): (category: Category) => number {
  const cache = new Map<Category, number>();
  return (category) => {
    let count = cache.get(category);
    if (count !== undefined) return count;
    if (isFormatSensitivity(category)) {
      count = 0;
      for (const ids of dataset.formatSensitivityIds().values()) count += ids.length;
      count *= FORMAT_SENSITIVITY_CONFIGS.length;
    } else if (isMemory(category) || isWebSearch(category)) {
      count = countLines(join(dataset.dir, getCategoryInfo(category).dataFile));
    } else {
      const info = getCategoryInfo(category);
      const v4 = join(dataset.dir, info.dataFile);
      count = existsSync(v4) || info.v3DataFile === undefined ? countLines(v4) : countLines(join(dataset.dir, info.v3DataFile));
    }
    cache.set(category, count);
    return count;
  };
}

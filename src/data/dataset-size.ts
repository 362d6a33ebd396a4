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

/** Lines of the file that are not blank (as `line.trim() !== ''`); the bytes are not decoded unless a line starts non-ASCII. */
export function countLines(file: string): number {
  if (!existsSync(file)) return 0;
  const bytes = readFileSync(file);
  let count = 0;
  for (let start = 0; start <= bytes.length; ) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    let i = start;
    while (i < end && isAsciiSpace(bytes[i]!)) i++;
    // A line of Unicode spaces is blank to trim() too: decode only the rare line that starts with one.
    if (i < end && (bytes[i]! < 0x80 || bytes.toString('utf8', i, end).trim() !== '')) count++;
    start = end + 1;
  }
  return count;
}

function isAsciiSpace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
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

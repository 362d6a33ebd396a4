import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dir`, folders entered in name order (symlinks followed). */
export function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) yield* filesUnder(path);
    else if (stat.isFile()) yield path;
  }
}

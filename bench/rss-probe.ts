/**
 * Loaded into a measured `bfcl` process with `node --import`: at exit, writes the process's peak
 * RSS in KB (all its threads) to the file named by BFCL_BENCH_RSS_FILE, which `npm run bench`
 * reads (a parent cannot ask Node for a finished child's peak RSS).
 */
import { writeFileSync } from 'node:fs';

const target = process.env.BFCL_BENCH_RSS_FILE;
if (target !== undefined && target !== '') {
  process.on('exit', () => writeFileSync(target, String(process.resourceUsage().maxRSS)));
}

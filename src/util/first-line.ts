import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK = 64 * 1024;

/**
 * The text of a file up to its first line break (`\n` or `\r`), reading only as much as needed:
 * score files are megabytes long, and the leaderboard needs only their header line.
 */
export function readFirstLine(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const chunks: Buffer[] = [];
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const read = readSync(fd, chunk, 0, CHUNK, null);
      const data = chunk.subarray(0, read);
      const lf = data.indexOf(0x0a);
      const cr = data.indexOf(0x0d);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end !== -1) {
        chunks.push(data.subarray(0, end));
        break;
      }
      chunks.push(data);
      if (read < CHUNK) break;
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

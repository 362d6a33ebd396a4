import { createHash } from 'node:crypto';

/** The SHA-256 of the parts, in hex. */
export function sha256Hex(...parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

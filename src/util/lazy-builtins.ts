/**
 * Node built-ins that a warm `bfcl evaluate` never needs, loaded on first use: `node:crypto` alone
 * took 3-4 ms of every start (with the streams it pulls in), and `node:worker_threads` about 1 ms.
 */
import { createRequire } from 'node:module';

const requireBuiltin = createRequire(import.meta.url);

type Crypto = typeof import('node:crypto');
type WorkerThreads = typeof import('node:worker_threads');

let crypto: Crypto | undefined;
let workerThreads: WorkerThreads | undefined;

/** `node:crypto`, loaded on first use. */
export function lazyCrypto(): Crypto {
  crypto ??= requireBuiltin('node:crypto') as Crypto;
  return crypto;
}

/** `node:worker_threads`, loaded on first use. */
export function lazyWorkerThreads(): WorkerThreads {
  workerThreads ??= requireBuiltin('node:worker_threads') as WorkerThreads;
  return workerThreads;
}

/** The SHA-256 of the parts, in hex. */
export function sha256Hex(...parts: readonly (string | Uint8Array)[]): string {
  const hash = lazyCrypto().createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

/**
 * A 64-bit FNV-1a hash of a string's UTF-16 code units, in 16 hex digits: for naming cache files
 * after short texts (a path, a variant) where a collision only costs a cache miss.
 */
export function fnv1a64Hex(text: string): string {
  // Four 16-bit limbs of the 64-bit state, multiplied by the FNV prime 2^40 + 0x1b3 limb-wise.
  let h0 = 0x2325, h1 = 0x8422, h2 = 0x9ce4, h3 = 0xcbf2;
  for (let i = 0; i < text.length; i++) {
    h0 ^= text.charCodeAt(i);
    // Each limb times 0x1b3, plus the 2^40 part (the state shifted by 40 bits), then the carries.
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (h0 << 8) + (t1 >>> 16);
    const t3 = h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  }
  return [h3, h2, h1, h0].map((limb) => limb.toString(16).padStart(4, '0')).join('');
}

import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { fnv1a64Hex, sha256Hex } from '../../src/util/lazy-builtins.js';
import { seededRandom } from '../helpers/random.js';

/** FNV-1a 64 over UTF-16 code units, in BigInt arithmetic (the definition). */
function fnv1a64Reference(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

describe('fnv1a64Hex', () => {
  it('is FNV-1a 64 (known vectors, and the BigInt definition on varied texts)', () => {
    expect(fnv1a64Hex('')).toBe('cbf29ce484222325');
    expect(fnv1a64Hex('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64Hex('foobar')).toBe('85944171f73967e8');
    const next = seededRandom(7);
    for (let n = 0; n < 300; n++) {
      const text = Array.from({ length: next(40) }, () => String.fromCharCode(next(3) === 0 ? next(0x10000) : 32 + next(95))).join('');
      expect(fnv1a64Hex(text), JSON.stringify(text)).toBe(fnv1a64Reference(text));
    }
  });
});

describe('sha256Hex', () => {
  it('hashes the parts as one stream', () => {
    expect(sha256Hex('ab', Buffer.from('c'))).toBe(createHash('sha256').update('abc').digest('hex'));
  });
});

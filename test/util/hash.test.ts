import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { sha256Hex } from '../../src/util/hash.js';

describe('sha256Hex', () => {
  it('hashes the concatenation of its parts', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('ab', Buffer.from('c'))).toBe(createHash('sha256').update('abc').digest('hex'));
  });
});

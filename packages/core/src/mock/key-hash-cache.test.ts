import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../auth/api-key.js';
import { createKeyHashCache } from './key-hash-cache.js';

const key = (c: string) => `sk_live_${c.repeat(48)}`;

describe('createKeyHashCache', () => {
  it('answers what hashApiKey answers, once per key', async () => {
    const hashKey = createKeyHashCache();
    expect(await hashKey(key('a'))).toBe(await hashApiKey(key('a')));
    expect(hashKey(key('a'))).toBe(hashKey(key('a'))); // the remembered promise, no second digest
    expect(await hashKey(key('b'))).toBe(await hashApiKey(key('b')));
  });

  it('forgets the oldest key beyond its size, and still hashes it right', async () => {
    const hashKey = createKeyHashCache(2);
    const first = hashKey(key('a'));
    hashKey(key('b'));
    expect(hashKey(key('a'))).toBe(first);
    hashKey(key('c')); // evicts a
    const again = hashKey(key('a'));
    expect(again).not.toBe(first);
    expect(await again).toBe(await first);
  });
});

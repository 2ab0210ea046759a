import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from './api-key.js';
import { MemoryKeyRegistry } from './memory-key-registry.js';

const seller = { sellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', customerLimit: 10 };

describe('MemoryKeyRegistry', () => {
  it('revokes a known key, ignores an unknown one, and forgets every key on clear', async () => {
    const keys = new MemoryKeyRegistry();
    const [kept, revoked] = [generateApiKey(), generateApiKey()];
    await keys.add(kept, seller);
    await keys.add(revoked, seller);
    await keys.revoke(revoked);
    await expect(keys.revoke(generateApiKey())).resolves.toBeUndefined();
    expect(await keys.lookup(await hashApiKey(kept))).toEqual({ ...seller, mode: 'live', scopes: null });
    expect(await keys.lookup(await hashApiKey(revoked))).toBeUndefined();
    keys.clear();
    expect(await keys.lookup(await hashApiKey(kept))).toBeUndefined();
  });
});

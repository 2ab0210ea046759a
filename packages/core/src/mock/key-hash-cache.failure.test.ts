import { expect, it, vi } from 'vitest';
import { hashApiKey } from '../auth/api-key.js';
import { createKeyHashCache } from './key-hash-cache.js';

vi.mock('../auth/api-key.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../auth/api-key.js')>();
  return { ...actual, hashApiKey: vi.fn(actual.hashApiKey) };
});

it('does not remember a failed digest: the next request for the key digests again', async () => {
  const key = `sk_live_${'a'.repeat(48)}`;
  const expected = await hashApiKey(key);
  const hashKey = createKeyHashCache();
  vi.mocked(hashApiKey).mockRejectedValueOnce(new Error('digest failed'));
  await expect(hashKey(key)).rejects.toThrow('digest failed');
  await Promise.resolve(); // the cache forgets it as the failure settles
  expect(await hashKey(key)).toBe(expected);
  expect(hashApiKey).toHaveBeenCalledTimes(3); // ours, the failed one, the retry
});

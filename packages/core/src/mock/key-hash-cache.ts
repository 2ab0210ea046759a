import { hashApiKey } from '../auth/api-key.js';

/** How many distinct keys a mock remembers the hash of; a test suite uses a handful. */
export const KEY_HASH_CACHE_SIZE = 256;

/**
 * Core's {@link hashApiKey}, remembered per key string in a small bounded map (the oldest entry goes first).
 * For mocks only: their keys are fake, and Web Crypto's digest per request was the mock's largest cost. A
 * server keeps hashing every request (it must not hold its sellers' keys in memory).
 *
 * @example
 * const hashKey = createKeyHashCache();
 * await hashKey(key); // digests once
 * await hashKey(key); // the same promise, no digest
 */
export function createKeyHashCache(size = KEY_HASH_CACHE_SIZE): (key: string) => Promise<string> {
  const hashes = new Map<string, Promise<string>>();
  return (key) => {
    let hash = hashes.get(key);
    if (hash === undefined) {
      if (hashes.size >= size) hashes.delete(hashes.keys().next().value!);
      hash = hashApiKey(key);
      hashes.set(key, hash);
      hash.catch(() => hashes.delete(key));
    }
    return hash;
  };
}

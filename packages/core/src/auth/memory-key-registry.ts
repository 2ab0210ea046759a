import type { SellerContext } from '../types.js';
import { hashApiKey } from './api-key.js';
import { type KeyLifecycle, type KeyLookup, isKeyUsable } from './authenticate.js';

interface KeyEntry extends KeyLifecycle {
  seller: SellerContext;
}

/**
 * API keys in memory, held only as SHA-256 hashes (like the server's table), for the MSW handlers and
 * tests. `lookup` is the {@link KeyLookup} that `authenticate` takes.
 *
 * @example
 * const keys = new MemoryKeyRegistry();
 * await keys.add(generateApiKey(), { sellerId: crypto.randomUUID(), customerLimit: 100 });
 */
export class MemoryKeyRegistry {
  readonly #byHash = new Map<string, KeyEntry>();
  readonly #now: () => number;

  /** `now`: the time expiry and revocation are judged by (milliseconds); default `Date.now`. A mock passes its clock. */
  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? (() => Date.now());
  }

  /** Registers a key for a seller; `lifecycle` may mark it revoked or expiring. */
  async add(key: string, seller: SellerContext, lifecycle: KeyLifecycle = {}): Promise<void> {
    this.#byHash.set(await hashApiKey(key), { ...lifecycle, seller: { ...seller } });
  }

  /** Revokes a key now; it answers 401 from then on. */
  async revoke(key: string, at: Date = new Date(this.#now())): Promise<void> {
    const entry = this.#byHash.get(await hashApiKey(key));
    if (entry) entry.revokedAt = at.toISOString();
  }

  readonly lookup: KeyLookup = async (keyHash) => {
    const entry = this.#byHash.get(keyHash);
    return entry && isKeyUsable(entry, new Date(this.#now())) ? { ...entry.seller } : undefined;
  };

  /** Forgets every key. */
  clear(): void {
    this.#byHash.clear();
  }
}

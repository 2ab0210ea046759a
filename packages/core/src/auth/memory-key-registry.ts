import type { SellerContext } from '../types.js';
import { hashApiKey, parseApiKey } from './api-key.js';
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

  /**
   * Registers a key for a seller; `lifecycle` may mark it revoked or expiring. The key's prefix gives its mode, and
   * a restricted key (`rk_`) holds the `scopes` of `seller` (none when it names none); a secret key holds every scope
   * and may not be given a list.
   */
  async add(key: string, seller: SellerContext, lifecycle: KeyLifecycle = {}): Promise<void> {
    const type = parseApiKey(key);
    if (type?.kind === 'secret' && seller.scopes) throw new Error('A secret key (sk_) holds every scope: scopes are for restricted keys (rk_)');
    const scopes = type?.kind === 'restricted' ? [...(seller.scopes ?? [])] : null;
    this.#byHash.set(await hashApiKey(key), {
      ...lifecycle,
      seller: { ...seller, mode: type?.mode ?? seller.mode ?? 'live', scopes },
    });
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

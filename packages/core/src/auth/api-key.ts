import { sha256Hex } from '../crypto/sha256.js';

/** A secret key (`sk_`) holds every scope; a restricted key (`rk_`) only the scopes granted to it. */
export type ApiKeyKind = 'secret' | 'restricted';
/** Which of the seller's data a key acts on: live (`_live_`) or test (`_test_`). */
export type ApiKeyMode = 'live' | 'test';
/** What a key's prefix says about it. */
export interface ApiKeyType {
  kind: ApiKeyKind;
  mode: ApiKeyMode;
}

/**
 * The four key kinds: `sk_live_`, `sk_test_`, `rk_live_` or `rk_test_`, followed by 48 alphanumeric characters
 * (product spec, section 5; issue 38).
 */
export const API_KEY_PATTERN = /^(sk|rk)_(live|test)_[A-Za-z0-9]{48}$/;
/** Every mode a key may have, live first (the default). */
export const API_KEY_MODES: readonly ApiKeyMode[] = ['live', 'test'];
const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** How much of a key the dashboard shows: the scheme prefix (8 characters for every kind) and four characters. */
const DISPLAY_PREFIX_LENGTH = 'sk_live_'.length + 4;

/**
 * A key's kind and mode from its prefix, or undefined for a string of any other shape (refused as an invalid key
 * without a lookup). The one parser of keys: the server, the MSW handlers and the HTTP mock all use it.
 *
 * @example
 * parseApiKey('rk_test_' + 'a'.repeat(48)); // { kind: 'restricted', mode: 'test' }
 * parseApiKey('pk_live_' + 'a'.repeat(48)); // undefined
 */
export function parseApiKey(key: string): ApiKeyType | undefined {
  const match = API_KEY_PATTERN.exec(key);
  if (!match) return undefined;
  return { kind: match[1] === 'rk' ? 'restricted' : 'secret', mode: match[2] as ApiKeyMode };
}

/**
 * Whether a string has the shape of an API key of any of the four kinds. A key of any other shape is refused
 * without a lookup.
 *
 * @example
 * isWellFormedApiKey('sk_live_' + 'a'.repeat(48)); // true
 * isWellFormedApiKey('sk_test_' + 'a'.repeat(48)); // true
 */
export function isWellFormedApiKey(key: string): boolean {
  return API_KEY_PATTERN.test(key);
}

/**
 * The prefix keys of this kind and mode start with.
 *
 * @example
 * apiKeyPrefix({ kind: 'restricted', mode: 'live' }); // "rk_live_"
 */
export function apiKeyPrefix({ kind, mode }: ApiKeyType): string {
  return `${kind === 'restricted' ? 'rk' : 'sk'}_${mode}_`;
}

/**
 * The kind a key with these granted scopes has: null or undefined (every scope) is a secret key, a list of scopes a
 * restricted one.
 *
 * @example
 * apiKeyKindFor(['customers:read']); // "restricted"
 */
export function apiKeyKindFor(scopes: readonly string[] | null | undefined): ApiKeyKind {
  return scopes ? 'restricted' : 'secret';
}

/**
 * A new random API key from Web Crypto, each character drawn uniformly (rejection sampling avoids the
 * modulo bias of 256 % 62); a live secret key unless told otherwise.
 *
 * @example
 * const key = generateApiKey(); // "sk_live_" + 48 characters; show it once, store only hashApiKey(key)
 * const testKey = generateApiKey({ kind: 'restricted', mode: 'test' }); // "rk_test_" + 48 characters
 */
export function generateApiKey(type: ApiKeyType = { kind: 'secret', mode: 'live' }): string {
  const limit = 256 - (256 % KEY_ALPHABET.length);
  let body = '';
  while (body.length < 48) {
    for (const byte of globalThis.crypto.getRandomValues(new Uint8Array(64))) {
      if (byte < limit && body.length < 48) body += KEY_ALPHABET[byte % KEY_ALPHABET.length];
    }
  }
  return `${apiKeyPrefix(type)}${body}`;
}

/**
 * The SHA-256 hex digest under which a key is stored and looked up; the key itself is never stored.
 *
 * @example
 * const hash = await hashApiKey(key); // 64 hex characters
 */
export function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}

/**
 * The short prefix stored beside the hash so the dashboard can show which key is which.
 *
 * @example
 * apiKeyDisplayPrefix('sk_live_AbCd...'); // "sk_live_AbCd"
 */
export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

/**
 * The mode a request acts in: its key's, live when the host did not say.
 *
 * @example
 * keyModeOf({ sellerId, customerLimit: 100, mode: 'test' }); // "test"
 */
export function keyModeOf(seller: { mode?: ApiKeyMode | undefined }): ApiKeyMode {
  return seller.mode ?? 'live';
}

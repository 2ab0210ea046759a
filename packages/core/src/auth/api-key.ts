import { sha256Hex } from '../crypto/sha256.js';

/** `sk_live_` followed by 48 alphanumeric characters (product spec, section 5). */
export const API_KEY_PATTERN = /^sk_live_[A-Za-z0-9]{48}$/;
const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** How much of a key the dashboard shows: the scheme prefix and four characters to tell keys apart. */
const DISPLAY_PREFIX_LENGTH = 'sk_live_'.length + 4;

/**
 * Whether a string has the shape of an API key. A key of any other shape is refused without a lookup.
 *
 * @example
 * isWellFormedApiKey('sk_live_' + 'a'.repeat(48)); // true
 */
export function isWellFormedApiKey(key: string): boolean {
  return API_KEY_PATTERN.test(key);
}

/**
 * A new random API key from Web Crypto, each character drawn uniformly (rejection sampling avoids the
 * modulo bias of 256 % 62).
 *
 * @example
 * const key = generateApiKey(); // "sk_live_" + 48 characters; show it once, store only hashApiKey(key)
 */
export function generateApiKey(): string {
  const limit = 256 - (256 % KEY_ALPHABET.length);
  let body = '';
  while (body.length < 48) {
    for (const byte of globalThis.crypto.getRandomValues(new Uint8Array(64))) {
      if (byte < limit && body.length < 48) body += KEY_ALPHABET[byte % KEY_ALPHABET.length];
    }
  }
  return `sk_live_${body}`;
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

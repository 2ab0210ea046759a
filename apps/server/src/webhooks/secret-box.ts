import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1.';

/** Seals and opens endpoint secrets with one 32-byte key (AES-256-GCM). */
export interface SecretBox {
  /** The first 16 hex digits of the key's SHA-256: stored beside each sealed secret, never the key. */
  readonly keyId: string;
  /** `v1.` and the base64 of IV, tag and ciphertext; `context` (the endpoint id) is bound in as associated data. */
  seal(plaintext: string, context: string): string;
  /** The plaintext, or a throw when the text was sealed with another key or context, or was altered. */
  open(sealed: string, context: string): string;
}

/**
 * AES-256-GCM with a fresh random IV per secret. The associated data ties a sealed secret to its endpoint, so a
 * sealed value copied onto another endpoint's row does not open.
 *
 * @example
 * const box = createSecretBox(randomBytes(32));
 * const sealed = box.seal('whsec_…', endpointId); // "v1.…", safe to store
 * box.open(sealed, endpointId); // "whsec_…"
 */
export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new Error('the webhook secret key must be 32 bytes');
  const keyBytes = Buffer.from(key);
  return {
    keyId: createHash('sha256').update(keyBytes).digest('hex').slice(0, 16),
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, keyBytes, iv).setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
    },
    open(sealed, context) {
      if (!sealed.startsWith(VERSION)) throw new Error('not a sealed webhook secret');
      const bytes = Buffer.from(sealed.slice(VERSION.length), 'base64');
      const decipher = createDecipheriv(ALGORITHM, keyBytes, bytes.subarray(0, IV_BYTES))
        .setAAD(Buffer.from(context, 'utf8'))
        .setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

// Standard Webhooks signatures (https://www.standardwebhooks.com/), with Web Crypto only: core also runs in
// browsers (MSW) and the HTTP mock signs with the same code as the server.

/** Every endpoint secret starts with this; the rest is the base64 of the key bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 24;
const SECRET = /^whsec_([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The three request headers of a signed delivery. */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** What is signed: the event id, the attempt's time and the exact body bytes sent. */
export interface SignedContent {
  id: string;
  /** Unix time in whole seconds. */
  timestamp: number;
  body: string;
}

/**
 * A new endpoint secret: `whsec_` and the base64 of 24 random bytes. Shown to its owner once; stored
 * encrypted, since signing needs it.
 *
 * @example
 * generateWebhookSecret(); // "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
 */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + toBase64(globalThis.crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** Whether `value` is a `whsec_` secret with a non-empty base64 key. */
export function isWebhookSecret(value: string): boolean {
  return value.length > WEBHOOK_SECRET_PREFIX.length && SECRET.test(value);
}

/**
 * The `v1,<base64>` signature of one delivery: HMAC-SHA256 keyed with the secret's bytes over
 * `{id}.{timestamp}.{body}`.
 *
 * @example
 * await signWebhook(secret, { id: 'evt_…', timestamp: 1764150000, body }); // "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
 */
export async function signWebhook(secret: string, content: SignedContent): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    webhookSecretBytes(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    // Stryker disable next-line BooleanLiteral: the key never leaves this function, so whether it could be exported cannot be seen
    false,
    ['sign'],
  );
  const mac = await globalThis.crypto.subtle.sign('HMAC', key, new TextEncoder().encode(signedWebhookText(content)));
  return webhookSignature(new Uint8Array(mac));
}

/** Signs one delivery with one secret, as {@link signWebhook} does; a host may pass a faster one of its own (the server's node:crypto HMAC). */
export type WebhookSigner = (secret: string, content: SignedContent) => string | Promise<string>;

/**
 * The key bytes of a `whsec_` secret (a throw for anything else): what any {@link WebhookSigner} keys its HMAC with.
 *
 * @example
 * webhookSecretBytes('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'); // Uint8Array(24)
 */
export function webhookSecretBytes(secret: string): Uint8Array<ArrayBuffer> {
  if (!isWebhookSecret(secret)) throw new TypeError('a webhook secret is "whsec_" followed by base64');
  return fromBase64(secret.slice(WEBHOOK_SECRET_PREFIX.length));
}

/**
 * The exact text a delivery's HMAC covers: `{id}.{timestamp}.{body}`.
 *
 * @example
 * signedWebhookText({ id: 'evt_1', timestamp: 1764150000, body: '{}' }); // "evt_1.1764150000.{}"
 */
export function signedWebhookText(content: SignedContent): string {
  return `${content.id}.${content.timestamp}.${content.body}`;
}

/**
 * One signature as it is sent: `v1,` and the base64 of the HMAC's 32 bytes.
 *
 * @example
 * webhookSignature(mac); // "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
 */
export function webhookSignature(mac: Uint8Array): string {
  return `v1,${toBase64(mac)}`;
}

/**
 * The headers of one delivery attempt, signed with every secret currently valid for the endpoint (two during
 * a rotation, space-separated, so a receiver with either secret accepts it).
 *
 * @example
 * const headers = await webhookHeaders([secret], { id: event.id, timestamp: Math.floor(Date.now() / 1000), body });
 * // The server signs with node:crypto, byte for byte the same: webhookHeaders(secrets, content, signWithNodeCrypto)
 */
export async function webhookHeaders(secrets: readonly string[], content: SignedContent, sign: WebhookSigner = signWebhook): Promise<WebhookHeaders> {
  if (secrets.length === 0) throw new TypeError('at least one webhook secret is needed to sign');
  const signatures = await Promise.all(secrets.map((secret) => sign(secret, content)));
  return {
    'webhook-id': content.id,
    'webhook-timestamp': String(content.timestamp),
    'webhook-signature': signatures.join(' '),
  };
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** After a secret is rotated, the previous one keeps signing (beside the new one) for this long: 24 hours. */
export const WEBHOOK_SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

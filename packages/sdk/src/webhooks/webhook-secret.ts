import { Refusal } from './refusal';

/** An endpoint's signing secret (`whsec_` + base64), or several: any one of them may have signed a request. */
export type WebhookSecret = string | readonly string[];

const PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The HMAC-SHA256 keys of the given secrets (the bytes after `whsec_`). Throws an `invalid_secret`
 * {@link Refusal} that never repeats the secret.
 */
export async function webhookKeys(secret: WebhookSecret | undefined): Promise<CryptoKey[]> {
  const secrets: readonly unknown[] = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? secret : [];
  if (secrets.length === 0) {
    throw new Refusal(
      'invalid_secret',
      "No webhook secret was given: pass the endpoint's whsec_ secret (shown once when the endpoint was created), or set the client's webhookSecret option or CUSTOMERS_API_WEBHOOK_SECRET.",
    );
  }
  return Promise.all(
    secrets.map((value) =>
      // Stryker disable next-line BooleanLiteral: the keys never leave this module, so whether they are extractable cannot be observed
      globalThis.crypto.subtle.importKey('raw', keyBytes(value), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
    ),
  );
}

function keyBytes(value: unknown): Uint8Array<ArrayBuffer> {
  const secret = typeof value === 'string' ? value.trim() : '';
  if (!secret.startsWith(PREFIX)) {
    const got = typeof value === 'string' ? `a value of ${secret.length} characters without it` : `a ${typeof value}`;
    throw new Refusal(
      'invalid_secret',
      `A webhook secret starts with whsec_ (copy all of it, as shown when the endpoint was created or its secret rotated); got ${got}.`,
    );
  }
  let binary: string;
  try {
    if (!BASE64.test(secret.slice(PREFIX.length))) throw new SyntaxError('not base64');
    binary = atob(secret.slice(PREFIX.length));
  } catch (cause) {
    throw new Refusal(
      'invalid_secret',
      'A webhook secret is whsec_ followed by base64, and this one is not: was it cut short or changed when copied?',
      cause,
    );
  }
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

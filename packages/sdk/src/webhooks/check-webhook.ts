import type { CustomerEvent } from './customer-event';
import { Refusal, type WebhookCheck } from './refusal';
import { readWebhookHeader, type WebhookRequestHeaders } from './webhook-headers';
import { webhookKeys, type WebhookSecret } from './webhook-secret';

/** How far `webhook-timestamp` may be from now by default, either way: 5 minutes, as `openapi.yaml` says. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** The raw request body, exactly as received: a string, a `Uint8Array` (Node's `Buffer` is one) or an `ArrayBuffer`. */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, in seconds, either way (default 300: 5 minutes). */
  toleranceSeconds?: number | undefined;
  /** The time to check `webhook-timestamp` against (default: now). For tests. */
  now?: Date | undefined;
}

const TIMESTAMP = /^[0-9]{1,15}$/;

/**
 * The checks of {@link verifyWebhook}, answering the event or why the request is refused (see {@link Refusal}): the `webhook-signature`
 * must hold a `v1` signature that matches the raw body with the secret (or one of the secrets), compared in
 * constant time, and `webhook-timestamp` must be within the tolerance of now. Web Crypto only.
 */
export async function checkWebhook(
  rawBody: WebhookBody,
  headers: WebhookRequestHeaders,
  secret: WebhookSecret,
  options: VerifyWebhookOptions = {},
): Promise<WebhookCheck> {
  try {
    return { ok: true, event: await check(rawBody, headers, secret, options) };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { ok: false, reason: error.reason, message: error.message, cause: error.cause };
  }
}

async function check(
  rawBody: WebhookBody,
  headers: WebhookRequestHeaders,
  secret: WebhookSecret,
  options: VerifyWebhookOptions,
): Promise<CustomerEvent> {
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (!(tolerance >= 0 && tolerance < Infinity)) {
    throw new Refusal('invalid_option', `toleranceSeconds must be a finite number of at least 0, got ${String(tolerance)}.`);
  }
  const keys = await webhookKeys(secret);
  const body = bodyBytes(rawBody);
  const id = readWebhookHeader(headers, 'webhook-id');
  const timestamp = readWebhookHeader(headers, 'webhook-timestamp');
  const signatures = readWebhookHeader(headers, 'webhook-signature');

  if (!TIMESTAMP.test(timestamp)) {
    throw new Refusal(
      'invalid_header',
      `webhook-timestamp must be whole seconds since the Unix epoch, got "${timestamp.slice(0, 32)}".`,
    );
  }
  const age = Math.floor((options.now ?? new Date()).getTime() / 1000) - Number(timestamp);
  if (age > tolerance) {
    throw new Refusal(
      'timestamp_too_old',
      `webhook-timestamp is ${age} s old, more than the ${tolerance} s tolerance: a replayed or late request, or this machine's clock is wrong.`,
    );
  }
  if (-age > tolerance) {
    throw new Refusal(
      'timestamp_in_future',
      `webhook-timestamp is ${-age} s in the future, more than the ${tolerance} s tolerance: check this machine's clock.`,
    );
  }

  // Space-separated `v1,<base64>` entries (Node and fetch join a repeated header with ", "); other versions are skipped.
  const candidates = signatures.split(/,?\s+/).flatMap((entry) => (entry.startsWith('v1,') ? [entry.slice(3)] : []));
  if (candidates.length === 0) {
    throw new Refusal('invalid_header', 'webhook-signature holds no v1,<base64> signature.');
  }
  for (const key of keys) {
    const expected = await v1Signature(key, id, timestamp, body);
    let matched = false;
    // Every candidate is compared in full, in constant time: how long this takes says nothing about `expected`.
    for (const candidate of candidates) matched = sameText(expected, candidate) || matched;
    if (matched) return parseEvent(body);
  }
  throw new Refusal(
    'no_matching_signature',
    `No signature in webhook-signature matches this body with the secret${keys.length > 1 ? 's' : ''} given: the body was changed after signing (verify the raw bytes before any JSON parsing), or the secret is not this endpoint's.`,
  );
}

/**
 * The base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint's key: a `v1` signature of Standard Webhooks
 * (`signWebhook` makes the same).
 */
export async function v1Signature(key: CryptoKey, id: string, timestamp: string, body: Uint8Array): Promise<string> {
  return toBase64(await globalThis.crypto.subtle.sign('HMAC', key, concat(new TextEncoder().encode(`${id}.${timestamp}.`), body)));
}

export function bodyBytes(raw: unknown): Uint8Array {
  if (typeof raw === 'string') return new TextEncoder().encode(raw);
  if (ArrayBuffer.isView(raw)) return new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
  if (Object.prototype.toString.call(raw) === '[object ArrayBuffer]') return new Uint8Array(raw as ArrayBuffer);
  const got = raw == null ? String(raw) : typeof raw === 'object' ? 'an object (already parsed?)' : `a ${typeof raw}`;
  throw new Refusal(
    'invalid_body',
    `The webhook body must be the raw request body (a string, Uint8Array, Buffer or ArrayBuffer), got ${got}: verify before parsing JSON, which changes the bytes.`,
  );
}

function concat(head: Uint8Array, tail: Uint8Array): Uint8Array<ArrayBuffer> {
  const all = new Uint8Array(head.byteLength + tail.byteLength);
  all.set(head);
  all.set(tail, head.byteLength);
  return all;
}

function toBase64(buffer: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(buffer)));
}

/** Equal strings, compared without stopping at the first difference (the length of a signature is no secret). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function parseEvent(body: Uint8Array): CustomerEvent {
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (cause) {
    throw new Refusal('invalid_body', 'The webhook body is correctly signed but is not JSON in UTF-8.', cause);
  }
  if (typeof (event as { type?: unknown } | null)?.type !== 'string') {
    throw new Refusal('invalid_body', 'The webhook body is correctly signed but is not an event object with a type.');
  }
  return event as CustomerEvent;
}

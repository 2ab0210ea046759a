import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { CustomerEvent } from '../../src/webhooks/customer-event';
import { ADA } from './fixtures';

/** A fresh endpoint secret as the server makes them: `whsec_` and the base64 of 24 random bytes. */
export function newSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))))}`;
}

export const EVENT_ID = 'evt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e';
/** 2026-11-26T09:00:00Z, in Unix seconds. */
export const SIGNED_AT = 1_764_147_600;
export const AT_SIGNING = new Date(SIGNED_AT * 1000);

export const UPDATED: CustomerEvent = {
  id: EVENT_ID,
  type: 'customer.updated',
  livemode: true,
  created_at: '2026-11-26T09:00:00.000Z',
  data: { customer: { ...ADA, status: 'suspended', updated_at: '2026-11-26T09:00:00.000Z' }, changed_fields: ['status'], sequence: 2 },
};

/**
 * The headers the server sends with `body`, signed by the Standard Webhooks reference library with every given
 * secret (space-separated, as during a rotation).
 */
export function signedHeaders(
  body: string,
  secrets: readonly string[],
  { id = EVENT_ID, timestamp = SIGNED_AT }: { id?: string; timestamp?: number } = {},
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, new Date(timestamp * 1000), body)).join(' '),
  };
}

/**
 * `v1,` and the HMAC-SHA256 of arbitrary bytes, by node:crypto: for bodies the reference library cannot sign
 * (it decodes a Buffer as UTF-8 first), such as bytes that are not UTF-8.
 */
export function signBytes(secret: string, body: Uint8Array, id = EVENT_ID, timestamp = SIGNED_AT): string {
  const mac = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'));
  mac.update(`${id}.${timestamp}.`).update(body);
  return `v1,${mac.digest('base64')}`;
}

import { sha256Hex } from '../crypto/sha256.js';
import type { IdempotencyRecord } from '../store.js';

/** How long a successful create is remembered under its Idempotency-Key (openapi.yaml: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** JSON with object keys sorted, so the same body sent with another key order or spacing matches. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The digest stored beside an idempotency key: SHA-256 of the body's canonical JSON. Two bodies match when
 * they are the same JSON value, whatever their key order or whitespace.
 *
 * @example
 * await fingerprintBody({ a: 1, b: 2 }) === await fingerprintBody({ b: 2, a: 1 }); // true
 */
export function fingerprintBody(body: unknown): Promise<string> {
  return sha256Hex(canonicalJson(body));
}

/**
 * The record a create passes to the store when it carries an Idempotency-Key.
 *
 * @example
 * await idempotencyRecord('key-1', body, '2026-11-25T09:30:00.000Z'); // expires a day later
 */
export async function idempotencyRecord(
  key: string,
  body: unknown,
  now: string,
): Promise<IdempotencyRecord> {
  return {
    key,
    fingerprint: await fingerprintBody(body),
    expiresAt: new Date(Date.parse(now) + IDEMPOTENCY_TTL_MS).toISOString(),
  };
}

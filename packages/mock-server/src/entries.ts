import { isWellFormedApiKey, type KeySeedLifecycle } from '@customers-api/core';

/** A JSON entry of a seed file or a control request that is not what it must be; the message names it. */
export class EntryError extends TypeError {
  constructor(at: string, problem: string) {
    super(`${at}: ${problem}`);
    this.name = 'EntryError';
  }
}

export type Json = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `value` as an object with only the `allowed` entries; anything else is refused so that a typo cannot pass
 * silently.
 *
 * @example
 * objectAt({ kyes: [] }, 'seed.sellers[0]', ['keys']); // EntryError: seed.sellers[0].kyes: is not allowed; use keys
 */
export function objectAt(value: unknown, at: string, allowed: readonly string[]): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new EntryError(at, 'must be an object');
  for (const name of Object.keys(value)) {
    if (!allowed.includes(name)) throw new EntryError(`${at}.${name}`, `is not allowed; use ${allowed.join(', ')}`);
  }
  return value as Json;
}

/**
 * `value` as an array (non-empty when asked).
 *
 * @example
 * arrayAt([], 'seed.sellers[0].keys', { nonEmpty: true }); // EntryError: ...keys: must be a non-empty array
 */
export function arrayAt(value: unknown, at: string, { nonEmpty = false } = {}): unknown[] {
  if (!Array.isArray(value) || (nonEmpty && value.length === 0)) {
    throw new EntryError(at, `must be ${nonEmpty ? 'a non-empty' : 'an'} array`);
  }
  return value;
}

/**
 * An optional API key entry: undefined, or `sk_live_` and 48 letters or digits.
 *
 * @example
 * apiKeyAt('sk_live_short', 'seed.sellers[1].keys[0].key'); // EntryError: ...: must be sk_live_ followed by 48 letters or digits
 */
export function apiKeyAt(value: unknown, at: string): string | undefined {
  if (value !== undefined && (typeof value !== 'string' || !isWellFormedApiKey(value))) {
    throw new EntryError(at, 'must be sk_live_ followed by 48 letters or digits');
  }
  return value;
}

/**
 * An optional seller id entry: undefined, or a UUID (lower-cased, as the API writes ids).
 *
 * @example
 * sellerIdAt('42', 'seed.sellers[0].id'); // EntryError: seed.sellers[0].id: must be a UUID
 */
export function sellerIdAt(value: unknown, at: string): string | undefined {
  if (value !== undefined && (typeof value !== 'string' || !UUID.test(value))) throw new EntryError(at, 'must be a UUID');
  return value?.toLowerCase();
}

/**
 * An optional plan limit entry: undefined, or a whole number, 0 or more.
 *
 * @example
 * customerLimitAt(-1, 'body.customerLimit'); // EntryError: body.customerLimit: must be a whole number, 0 or more
 */
export function customerLimitAt(value: unknown, at: string): number | undefined {
  if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) {
    throw new EntryError(at, 'must be a whole number, 0 or more');
  }
  return value as number | undefined;
}

/**
 * An optional instant entry: undefined, or an ISO 8601 date-time with a time zone.
 *
 * @example
 * instantAt('soon', 'seed.clock.now'); // EntryError: seed.clock.now: must be an ISO 8601 date-time ...
 */
export function instantAt(value: unknown, at: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !ISO_DATE_TIME.test(value) || Number.isNaN(Date.parse(value))) {
    throw new EntryError(at, 'must be an ISO 8601 date-time with a time zone, e.g. 2030-01-01T00:00:00Z');
  }
  return value;
}

/**
 * The `revoked` and `expiresAt` entries of a key object (`at` names the object).
 *
 * @example
 * keyLifecycleAt({ expiresAt: 'soon' }, 'body'); // EntryError: body.expiresAt: must be an ISO 8601 date-time ...
 */
export function keyLifecycleAt({ revoked, expiresAt }: Json, at: string): KeySeedLifecycle {
  if (revoked !== undefined && typeof revoked !== 'boolean') throw new EntryError(`${at}.revoked`, 'must be true or false');
  const expires = instantAt(expiresAt, `${at}.expiresAt`);
  return { ...(revoked !== undefined && { revoked }), ...(expires !== undefined && { expiresAt: expires }) };
}

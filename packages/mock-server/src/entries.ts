import { isWellFormedApiKey, parseApiKey, parseScopeList, type KeySeedKind, type KeySeedLifecycle } from '@customers-api/core';

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
 * apiKeyAt('sk_live_short', 'seed.sellers[1].keys[0].key'); // EntryError: ...: must be sk_live_, sk_test_, rk_live_ or rk_test_ followed by 48 letters or digits
 */
export function apiKeyAt(value: unknown, at: string): string | undefined {
  if (value !== undefined && (typeof value !== 'string' || !isWellFormedApiKey(value))) {
    throw new EntryError(at, `must be ${KEY_SHAPE}`);
  }
  return value;
}

/** What a key entry must look like: one of the four kinds (issue 38). */
export const KEY_SHAPE = 'sk_live_, sk_test_, rk_live_ or rk_test_ followed by 48 letters or digits';

/**
 * A key entry's kind (issue 38): `scopes` (a list of openapi.yaml's scope names: a restricted key) and `mode`
 * (`live` or `test`, for a generated key). A given `sk_` key with scopes, or an `rk_` key without, is refused.
 *
 * @example
 * keyKindAt({ scopes: ['customers:read'], mode: 'test' }, undefined, 'body'); // { scopes: ['customers:read'], mode: 'test' }
 */
export function keyKindAt({ scopes, mode }: Json, key: string | undefined, at: string): KeySeedKind {
  if (mode !== undefined && mode !== 'live' && mode !== 'test') throw new EntryError(`${at}.mode`, 'must be "live" or "test"');
  let granted: string[] | undefined;
  if (scopes !== undefined) {
    if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string')) throw new EntryError(`${at}.scopes`, 'must be a list of scope names');
    const parsed = parseScopeList(scopes as string[]);
    if (!parsed.ok) throw new EntryError(`${at}.scopes`, parsed.message);
    granted = parsed.scopes;
  }
  const type = key === undefined ? undefined : parseApiKey(key);
  if (type && mode !== undefined && type.mode !== mode) throw new EntryError(`${at}.mode`, `is "${String(mode)}" but the key is a ${type.mode} key`);
  if (type?.kind === 'secret' && granted) throw new EntryError(`${at}.scopes`, 'are for restricted keys (rk_live_ or rk_test_); an sk_ key holds every scope');
  if (type?.kind === 'restricted' && !granted) throw new EntryError(`${at}.scopes`, 'are required for a restricted key (rk_live_ or rk_test_)');
  return { ...(granted && { scopes: granted }), ...(mode !== undefined && { mode: mode as 'live' | 'test' }) };
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

import { errors } from '@customers-api/core';
import { parseKeyExpiry } from '../key-expiry.js';

export const KEY_NAME_MAX_LENGTH = 100;

/** Half of a UTF-16 surrogate pair without its other half: not text, and stored as U+FFFD (or refused). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * C0 and C1 controls and DEL, and the bidirectional marks, embeddings, overrides and isolates (U+061C,
 * U+200E–U+200F, U+202A–U+202E, U+2066–U+2069) that make a name display other than it reads ("Trojan Source").
 */
const FORBIDDEN_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * The body of "create a key": `name` (required, 1 to 100 characters once trimmed, well-formed Unicode without
 * control or bidirectional formatting characters, so what is stored is what was shown) and optional `expires_at`
 * (an ISO 8601 date or date-time in the future; a date alone is 00:00 UTC). Throws core's 400 otherwise.
 */
export function parseNewKey(body: unknown, now: Date): { name: string; expiresAt: string | null } {
  const input = body as Record<string, unknown>;
  for (const property of Object.keys(input)) {
    if (property !== 'name' && property !== 'expires_at') throw errors.badRequest(`${property} is not an allowed property`);
  }
  if (input.name === undefined || input.name === null) throw errors.badRequest('name is required');
  if (typeof input.name !== 'string') throw errors.badRequest('name must be a string');
  const name = input.name.trim();
  if (name === '') throw errors.badRequest('name must not be empty');
  if ([...name].length > KEY_NAME_MAX_LENGTH) {
    throw errors.badRequest(`name must be at most ${KEY_NAME_MAX_LENGTH} characters`);
  }
  if (LONE_SURROGATE.test(name)) throw errors.badRequest('name must be valid Unicode text (no unpaired surrogates)');
  if (FORBIDDEN_IN_NAMES.test(name)) {
    throw errors.badRequest('name must not contain control or bidirectional formatting characters');
  }
  if (input.expires_at === undefined || input.expires_at === null || input.expires_at === '') {
    return { name, expiresAt: null };
  }
  if (typeof input.expires_at !== 'string') throw errors.badRequest('expires_at must be a string');
  const expiry = parseKeyExpiry(input.expires_at, now);
  if (!expiry.ok) {
    throw errors.badRequest(
      expiry.reason === 'format'
        ? 'expires_at must be an ISO 8601 date or date-time, e.g. 2030-01-31 or 2030-01-31T00:00:00Z'
        : 'expires_at must be in the future',
    );
  }
  return { name, expiresAt: expiry.value };
}

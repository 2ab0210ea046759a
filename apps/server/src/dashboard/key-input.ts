import { SCOPES, errors, parseScopeList } from '@customers-api/core';
import { parseKeyExpiry } from '../key-expiry.js';
import { keyNameProblem } from '../key-name.js';

/**
 * The body of "create a key": `name` (required, 1 to 100 characters once trimmed, well-formed Unicode without
 * control or bidirectional formatting characters, so what is stored is what was shown) and optional `expires_at`
 * (an ISO 8601 date or date-time in the future; a date alone is 00:00 UTC), optional `mode` (live or test) and
 * `scopes` (a restricted key's scopes; null or omitted: a secret key). Throws core's 400 otherwise.
 */
export function parseNewKey(
  body: unknown,
  now: Date,
): { name: string; expiresAt: string | null; mode: 'live' | 'test'; scopes: string[] | null } {
  const input = body as Record<string, unknown>;
  for (const property of Object.keys(input)) {
    if (!NEW_KEY_PROPERTIES.includes(property)) throw errors.badRequest(`${property} is not an allowed property`, property);
  }
  if (input.name === undefined || input.name === null) throw errors.badRequest('name is required', 'name');
  if (typeof input.name !== 'string') throw errors.badRequest('name must be a string', 'name');
  const name = input.name.trim();
  const problem = keyNameProblem(name);
  if (problem) throw errors.badRequest(`name ${problem}`, 'name');
  const kind = { mode: modeOf(input.mode), scopes: scopesOf(input.scopes) };
  if (input.expires_at === undefined || input.expires_at === null || input.expires_at === '') {
    return { name, expiresAt: null, ...kind };
  }
  if (typeof input.expires_at !== 'string') throw errors.badRequest('expires_at must be a string', 'expires_at');
  const expiry = parseKeyExpiry(input.expires_at, now);
  if (!expiry.ok) {
    throw errors.badRequest(
      expiry.reason === 'format'
        ? 'expires_at must be an ISO 8601 date or date-time, e.g. 2030-01-31 or 2030-01-31T00:00:00Z'
        : 'expires_at must be in the future',
      'expires_at',
    );
  }
  return { name, expiresAt: expiry.value, ...kind };
}

const NEW_KEY_PROPERTIES = ['name', 'expires_at', 'mode', 'scopes'];

/** `mode`: live (the default) or test. */
function modeOf(value: unknown): 'live' | 'test' {
  if (value === undefined || value === null) return 'live';
  if (value !== 'live' && value !== 'test') throw errors.badRequest('mode must be one of live, test', 'mode');
  return value;
}

/** `scopes`: null or omitted for a secret key; a non-empty list of openapi.yaml's scopes for a restricted key. */
function scopesOf(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.some((scope) => typeof scope !== 'string')) throw errors.badRequest('scopes must be an array of scope names', 'scopes');
  if (value.length === 0) throw errors.badRequest(`scopes must name at least one scope (${SCOPES.join(', ')}), or be null for a secret key`, 'scopes');
  const parsed = parseScopeList(value as string[]);
  if (!parsed.ok) throw errors.badRequest(`scopes: ${parsed.message}`, 'scopes');
  return parsed.scopes;
}

/** The overlaps a roll offers, by name, in milliseconds. */
export const ROLL_OVERLAPS = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 } as const;

export type RollOverlap = keyof typeof ROLL_OVERLAPS;

/** The body of "roll a key": `overlap`, one of 1h, 24h, 7d (required). Throws core's 400 otherwise. */
export function parseKeyRoll(body: unknown): { overlapMs: number } {
  const input = body as Record<string, unknown>;
  for (const property of Object.keys(input)) {
    if (property !== 'overlap') throw errors.badRequest(`${property} is not an allowed property`, property);
  }
  if (input.overlap === undefined || input.overlap === null) throw errors.badRequest('overlap is required', 'overlap');
  const names = Object.keys(ROLL_OVERLAPS);
  if (typeof input.overlap !== 'string' || !names.includes(input.overlap)) {
    throw errors.badRequest(`overlap must be one of ${names.join(', ')}`, 'overlap');
  }
  return { overlapMs: ROLL_OVERLAPS[input.overlap as RollOverlap] };
}

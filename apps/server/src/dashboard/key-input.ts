import { errors } from '@customers-api/core';
import { parseKeyExpiry } from '../key-expiry.js';
import { keyNameProblem } from '../key-name.js';

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
  const problem = keyNameProblem(name);
  if (problem) throw errors.badRequest(`name ${problem}`);
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

import { errors } from '../errors/registry.js';
import * as generated from '../generated/validators.js';
import type { CustomerCreate, CustomerUpdate } from '../types.js';
import type { GeneratedValidator } from './ajv-error.js';
import { fieldFor, messageFor } from './messages.js';
import { findUnstorableText } from './unstorable-text.js';

const validators = generated as unknown as Record<keyof typeof generated, GeneratedValidator>;

/**
 * A body checked against one of the validators compiled from openapi.yaml, then for text no store keeps: the
 * body typed, or a 400 naming the property.
 *
 * @example
 * const input = checkBody<WebhookReplay>(validators.validateWebhookReplay, body);
 */
export function checkBody<T>(validator: GeneratedValidator, body: unknown): T {
  return check<T>(validator, body);
}

function check<T>(validator: GeneratedValidator, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.badRequest('body must be a JSON object');
  }
  // Stryker disable next-line ArrayDeclaration: ajv always sets `errors` when a validator returns false
  if (!validator(body)) throw errors.badRequest(messageFor(validator.errors ?? []), fieldFor(validator.errors ?? []));
  const unstorable = findUnstorableText(body);
  if (unstorable) throw errors.badRequest(unstorable);
  return body as T;
}

/**
 * Validates a create body against openapi.yaml's `CustomerCreate` (compiled by scripts/generate.mjs) and
 * returns it typed. Throws a 400 {@link ApiError} whose message names the failing property.
 *
 * @example
 * const input = parseCustomerCreate(JSON.parse(text)); // throws "first_name is required"
 */
export function parseCustomerCreate(body: unknown): CustomerCreate {
  return check<CustomerCreate>(validators.validateCustomerCreate, body);
}

/**
 * Validates a partial-update body against `CustomerUpdate` (at least one property, no unknown ones).
 *
 * @example
 * const changes = parseCustomerUpdate({ status: 'suspended' });
 */
export function parseCustomerUpdate(body: unknown): CustomerUpdate {
  return check<CustomerUpdate>(validators.validateCustomerUpdate, body);
}

/**
 * The canonical form (lowercase, no `urn:uuid:` prefix) of a path id that is a UUID as the `CustomerId`
 * parameter defines it, or undefined. Anything undefined is answered 404 (openapi.yaml: malformed ids are
 * indistinguishable from missing customers), so stores only ever see canonical UUIDs, and every target
 * finds the same customer for `3F1C...` as for `3f1c...` (PostgreSQL's uuid type would, SQLite's text not).
 *
 * @example
 * canonicalCustomerId('3F1C2A9E-6D1B-4C7A-9F0E-2B8D5C4A7E61'); // "3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61"
 * canonicalCustomerId('42'); // undefined
 */
export function canonicalCustomerId(id: string): string | undefined {
  if (!validators.validateCustomerId(id)) return undefined;
  // Stryker disable next-line Regex: the CustomerId pattern allows `urn:uuid:` only at the start, so `^` changes nothing
  return id.toLowerCase().replace(/^urn:uuid:/, '');
}

/**
 * Whether an `Idempotency-Key` header value is acceptable (1 to 255 visible ASCII characters, `!` to `~`).
 *
 * @example
 * isIdempotencyKey('6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90'); // true
 */
export function isIdempotencyKey(key: string): boolean {
  return validators.validateIdempotencyKey(key);
}

/**
 * Whether a caller's `X-Request-Id` may be echoed (1 to 128 of `A-Z a-z 0-9 . _ : -`).
 *
 * @example
 * isRequestId('req_7Hc2kQ9xWm'); // true
 */
export function isRequestId(id: string): boolean {
  return validators.validateRequestId(id);
}

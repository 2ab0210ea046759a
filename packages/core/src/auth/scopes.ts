import { errors } from '../errors/registry.js';
import { SPEC_SCOPES } from '../generated/operations.js';

/** A scope of openapi.yaml's operations (`x-scopes`), such as `customers:read`. */
export type Scope = (typeof SPEC_SCOPES)[number];

/** Every scope a restricted key may be granted, by resource, read before write (generated from openapi.yaml). */
export const SCOPES: readonly Scope[] = SPEC_SCOPES;

/** What scope checking needs of an operation: its id, method, path and the scopes it needs. */
export interface ScopedOperation {
  id: string;
  method: string;
  path: string;
  scopes: readonly string[];
}

/**
 * The first scope `operation` needs that the key does not hold, or undefined when it may run. A secret key (scopes
 * null or omitted) holds every scope; a restricted key holds only its list.
 *
 * @example
 * missingScope({ id: 'createCustomer', method: 'POST', path: '/api/customers', scopes: ['customers:write'] }, ['customers:read']);
 * // "customers:write"
 */
export function missingScope(operation: ScopedOperation, granted: readonly string[] | null | undefined): string | undefined {
  if (!granted) return undefined;
  return operation.scopes.find((scope) => !granted.includes(scope));
}

/**
 * Refuses a restricted key without a scope the operation needs: `403` naming the scope and the operation. Every
 * host runs it after authentication, the version check and the rate limit, before anything of the request is read
 * (openapi.yaml's order of checks); `runOperation` runs it too, so no host can skip it.
 *
 * @example
 * assertScope(operation, request.seller.scopes); // throws errors.missingScope(…) for a key without the scope
 */
export function assertScope(operation: ScopedOperation, granted: readonly string[] | null | undefined): void {
  const scope = missingScope(operation, granted);
  if (scope !== undefined) throw errors.missingScope(scope, operation);
}

/**
 * The scopes of a comma-separated list (the CLI's `--scopes`, a seed file's), checked against {@link SCOPES}:
 * the list, sorted and without repeats, or a message naming the first unknown scope.
 *
 * @example
 * parseScopeList('events:read, customers:read'); // { ok: true, scopes: ['customers:read', 'events:read'] }
 */
export function parseScopeList(text: string | readonly string[]): { ok: true; scopes: Scope[] } | { ok: false; message: string } {
  const names = (typeof text === 'string' ? text.split(',') : [...text]).map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.find((name) => !(SCOPES as readonly string[]).includes(name));
  if (unknown !== undefined) return { ok: false, message: `unknown scope "${unknown}"; the scopes are ${SCOPES.join(', ')}` };
  return { ok: true, scopes: SCOPES.filter((scope) => names.includes(scope)) };
}

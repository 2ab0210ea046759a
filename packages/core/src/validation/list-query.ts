import { errors } from '../errors/registry.js';
import * as generated from '../generated/query-validators.js';
import type { Status } from '../types.js';
import type { GeneratedValidator } from './ajv-error.js';
import { messageFor } from './messages.js';

const validateListQuery = (generated as unknown as Record<string, GeneratedValidator>)
  .validateListCustomersQuery as GeneratedValidator;

/** openapi.yaml's default page size. */
export const DEFAULT_PAGE_SIZE = 20;

/** The query of `GET /api/customers`, validated against openapi.yaml's parameters. */
export interface ListQuery {
  limit: number;
  cursor?: string;
  email?: string;
  status?: Status;
  created_after?: string;
  created_before?: string;
}

/**
 * Parses and validates a raw query string (without `?`) for `listCustomers`: unknown parameters, a parameter
 * given twice and values that break openapi.yaml's schemas are 400s naming the parameter.
 *
 * @example
 * parseListQuery('limit=50&status=active'); // { limit: 50, status: 'active' }
 * parseListQuery('limit=500'); // throws 400 "limit must be at most 100"
 */
export function parseListQuery(rawQuery: string): ListQuery {
  // No prototype: a parameter named `__proto__` is an unknown parameter like any other.
  const query: Record<string, unknown> = Object.create(null);
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (Object.hasOwn(query, name)) throw errors.badRequest(`${name} must be given at most once`);
    query[name] = value;
  }
  if (!validateListQuery(query)) {
    // Stryker disable next-line ArrayDeclaration: ajv always sets `errors` when a validator returns false
    throw errors.badRequest(messageFor(validateListQuery.errors ?? [], { root: 'query', member: 'query parameter' }));
  }
  return { limit: DEFAULT_PAGE_SIZE, ...query } as ListQuery;
}

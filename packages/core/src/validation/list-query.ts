import { errors } from '../errors/registry.js';
import * as generated from '../generated/query-validators.js';
import type { Status } from '../types.js';
import type { AjvError, GeneratedValidator } from './ajv-error.js';
import { EARLIEST_INSTANT, isDateTimeOutOfRange, LATEST_INSTANT } from './date-time.js';
import { fieldFor, messageFor } from './messages.js';

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
 * given twice, U+0000 anywhere (no database stores it faithfully), an integer not written in plain decimal digits,
 * an instant outside 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999Z and other values that break openapi.yaml's
 * schemas are 400s naming the parameter.
 *
 * @example
 * parseListQuery('limit=50&status=active'); // { limit: 50, status: 'active' }
 * parseListQuery('limit=500'); // throws 400 "limit must be at most 100"
 */
export function parseListQuery(rawQuery: string): ListQuery {
  return { limit: DEFAULT_PAGE_SIZE, ...parseQueryWith(validateListQuery, rawQuery) } as ListQuery;
}

/**
 * A raw query string (without `?`) checked by one of the validators generated from an operation's query
 * parameters, by the rules {@link parseListQuery} states; the parameters as the validator coerced them.
 *
 * @example
 * parseQueryWith(validators.validateListEventsQuery, 'type=customer.created'); // { type: 'customer.created' }
 */
export function parseQueryWith(validator: GeneratedValidator, rawQuery: string): Record<string, unknown> {
  // No prototype: a parameter named `__proto__` is an unknown parameter like any other.
  const query: Record<string, unknown> = Object.create(null);
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (name.includes('\u0000')) throw errors.badRequest('query parameter names must not contain U+0000');
    if (Object.hasOwn(query, name)) throw errors.badRequest(`${name} must be given at most once`);
    if (value.includes('\u0000')) throw errors.badRequest(`${name} must not contain U+0000`);
    query[name] = value;
  }
  if (!validator(query)) {
    // Stryker disable next-line ArrayDeclaration: ajv always sets `errors` when a validator returns false
    const failures = validator.errors ?? [];
    throw errors.badRequest(outOfRangeMessage(failures, query) ?? messageFor(failures, { root: 'query', member: 'query parameter' }), fieldFor(failures));
  }
  return { ...query };
}

/** For a date-time parameter that is well formed but names an instant no store keeps: say so, not the format. */
function outOfRangeMessage(failures: readonly AjvError[], query: Record<string, unknown>): string | undefined {
  const failure = failures[failures.length - 1];
  if (failure?.keyword !== 'format' || failure.params.format !== 'date-time') return undefined;
  const name = failure.instancePath.slice(1);
  const value = query[name];
  return typeof value === 'string' && isDateTimeOutOfRange(value)
    ? `${name} must be between ${EARLIEST_INSTANT} and ${LATEST_INSTANT}`
    : undefined;
}

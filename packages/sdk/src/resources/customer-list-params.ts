import type { operations } from '../generated/openapi';

/** The query of `GET /api/customers` exactly as the contract types it (date-times as strings). */
export type ListQuery = NonNullable<operations['listCustomers']['parameters']['query']>;

/**
 * Filters and paging of {@link Customers.list}: the query parameters of `GET /api/customers`, where the two
 * date-time bounds may also be `Date`s. Every later page repeats these filters.
 *
 * @example
 * const params: CustomerListParams = { status: 'active', created_after: new Date('2026-11-01T00:00:00Z'), limit: 100 };
 * const page = await client.customers.list(params);
 */
export interface CustomerListParams extends Omit<ListQuery, 'created_after' | 'created_before'> {
  /**
   * Only customers created at or after this instant (inclusive): a `Date`, or an ISO 8601 date-time with a time
   * zone such as `2026-11-01T00:00:00Z` (a bare date is a 400).
   */
  created_after?: string | Date | undefined;
  /** Only customers created before this instant (exclusive): a `Date` or an ISO 8601 date-time with a time zone. */
  created_before?: string | Date | undefined;
}

/** Date-time bounds a list takes as a `Date` or a string. */
interface DateBounds {
  created_after?: string | Date | undefined;
  created_before?: string | Date | undefined;
}

function isoString(value: string | Date | undefined): string | undefined {
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * @internal A list's query as the client sends it: `Date` bounds as ISO strings (`undefined` ones are left out of
 * the URL). Shared by every list whose query has `created_after` / `created_before` (customers, events).
 */
export function withIsoDates<T extends DateBounds>({ created_after, created_before, ...rest }: T) {
  return { ...rest, created_after: isoString(created_after), created_before: isoString(created_before) };
}

/** @internal The query the client sends: `Date`s as ISO strings (`undefined` ones are left out of the URL). */
export const listQuery: (params: CustomerListParams) => ListQuery = withIsoDates;

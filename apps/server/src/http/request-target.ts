import { splitRequestTarget } from '@customers-api/core';

/**
 * The path of a request URL (Node's `request.url`), without query string, as core routes it and the log shows it.
 *
 * @example
 * pathOf('/api/customers?limit=20'); // "/api/customers"
 */
export function pathOf(url: string): string {
  return splitRequestTarget(url).path;
}

/**
 * The raw query string of a request URL, without `?` ('' when none): core parses it by the spec's rules.
 *
 * @example
 * queryOf('/api/customers?limit=20'); // "limit=20"
 */
export function queryOf(url: string): string {
  return splitRequestTarget(url).query;
}

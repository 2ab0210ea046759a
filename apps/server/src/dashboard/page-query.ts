import { errors } from '@customers-api/core';
import { parseDeliveryCursor } from '../webhooks/delivery-pages.js';

// The query strings of the dashboard's newest-first lists (request logs, events): an unknown parameter, one given
// twice or a value outside its form is core's 400 naming it, so a mistyped filter never looks like an empty page.

export type Query = Record<string, unknown>;

/** The most rows such a page holds, and the default. */
export const PAGE_LIMIT_MAX = 100;
export const PAGE_LIMIT_DEFAULT = 50;

/** Refuses any parameter outside `allowed`. */
export function onlyKnown(query: Query, allowed: readonly string[]): void {
  const unknown = Object.keys(query).find((name) => !allowed.includes(name));
  if (unknown !== undefined) throw errors.badRequest(`${unknown} is not a known query parameter`, unknown);
}

/** One value of a parameter (a repeated one is refused), or undefined when absent. */
export function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw errors.badRequest(`${name} must be given once`, name);
  return value;
}

/** `cursor` (a row id, as the deliveries' and activity's cursors) and `limit` (1 to 100, 50 by default). */
export function pageOf(query: Query): { beforeId: number | undefined; limit: number } {
  const cursor = single(query, 'cursor');
  let beforeId: number | undefined;
  if (cursor !== undefined) {
    beforeId = parseDeliveryCursor(cursor);
    if (beforeId === undefined) throw errors.badRequest("cursor must be a previous page's next_cursor", 'cursor');
  }
  const limit = single(query, 'limit');
  if (limit !== undefined && (!/^[1-9][0-9]{0,2}$/.test(limit) || Number(limit) > PAGE_LIMIT_MAX)) {
    throw errors.badRequest(`limit must be an integer from 1 to ${PAGE_LIMIT_MAX}`, 'limit');
  }
  return { beforeId, limit: limit === undefined ? PAGE_LIMIT_DEFAULT : Number(limit) };
}

/** An ISO 8601 date-time with its offset, as an ISO string in UTC. */
export function dateTimeOf(query: Query, name: string): string | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) throw errors.badRequest(`${name} must be an ISO 8601 date-time with its offset (e.g. 2026-11-26T10:00:00Z)`, name);
  return new Date(time).toISOString();
}

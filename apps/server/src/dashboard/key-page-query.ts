import { errors } from '@customers-api/core';
import type { KeyCursor } from '../db/api-key-page.js';
import { KEY_PAGE_LIMIT } from './key-limit.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The opaque `next_cursor` of a page: the last key's creation time and id. */
export function encodeKeyCursor({ createdAt, id }: KeyCursor): string {
  return Buffer.from(`${createdAt} ${id}`).toString('base64url');
}

/**
 * `GET /dashboard/api/keys`'s `limit` (1 to 100, default 100) and `cursor` (a `next_cursor`); a bad one is core's
 * 400 naming it, any other parameter too.
 *
 * @example
 * parseKeyPageQuery({ limit: '20' }); // { limit: 20 }
 */
export function parseKeyPageQuery(query: Record<string, unknown>): { limit: number; after?: KeyCursor } {
  const extra = Object.keys(query).find((name) => name !== 'limit' && name !== 'cursor');
  if (extra !== undefined) throw errors.badRequest(`${extra} is not an allowed query parameter; use limit and cursor`, extra);
  const { limit: limitText, cursor } = query;
  let limit = KEY_PAGE_LIMIT;
  if (limitText !== undefined) {
    if (typeof limitText !== 'string' || !/^\d{1,3}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > KEY_PAGE_LIMIT) {
      throw errors.badRequest(`limit must be a whole number from 1 to ${KEY_PAGE_LIMIT}`, 'limit');
    }
    limit = Number(limitText);
  }
  if (cursor === undefined) return { limit };
  const [createdAt, id, ...rest] = typeof cursor === 'string' ? Buffer.from(cursor, 'base64url').toString().split(' ') : [];
  if (!createdAt || !id || rest.length > 0 || !ISO.test(createdAt) || !UUID.test(id)) throw errors.cursorInvalid();
  return { limit, after: { createdAt, id } };
}

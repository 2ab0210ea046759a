import { errors } from '../errors/registry.js';

/** A position in the list order (`created_at` desc, then `id` desc): the last customer of a page. */
export interface ListPosition {
  createdAt: string;
  id: string;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The ids of customers and webhook endpoints (canonical UUIDs); event cursors pass `isEventId`. */
const isUuid = (id: string): boolean => UUID.test(id);

/**
 * The opaque `next_cursor` for a position, bound to the seller and the filters of the walk: base64url of
 * `{ v, c, i, s }`, where `s` is a short digest of seller and filters. No secret is needed: every query is
 * scoped to the caller's seller, so an edited cursor can at most move within the caller's own customers.
 *
 * @example
 * const cursor = encodeCursor({ createdAt: last.created_at, id: last.id }, scopeOf(sellerId, filters));
 */
export function encodeCursor(position: ListPosition, scope: string): string {
  const json = JSON.stringify({ v: 1, c: position.createdAt, i: position.id, s: scope });
  // Today's payload is 108 bytes (no `=` padding) of ASCII digits, hex, `-:.TZ` and JSON punctuation, whose
  // base64 never holds `+` or `/`: the URL-safe swaps and the padding cut are for the day the payload changes.
  // Stryker disable next-line StringLiteral,Regex: equivalent for every payload encodeCursor can make (see above)
  return btoa(json).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * The position a cursor names, or a 400 naming `cursor` when it does not parse or was made for another seller
 * or other filters.
 *
 * @example
 * const after = decodeCursor(query.cursor, scopeOf(sellerId, filters));
 */
export function decodeCursor(cursor: string, scope: string, isId: (id: string) => boolean = isUuid): ListPosition {
  const { position, scope: made } = readCursor(cursor, isId);
  if (made !== scope) throw errors.cursorInvalid();
  return position;
}

/**
 * The position a cursor names and the scope it was made for, not yet checked against a seller: a 400 naming
 * `cursor` when it does not parse. {@link decodeCursor} is this plus the scope check.
 *
 * @example
 * const { position, scope } = readCursor(query.cursor); // scope === scopeOf(sellerId, filters) before it is used
 */
export function readCursor(
  cursor: string,
  isId: (id: string) => boolean = isUuid,
): { position: ListPosition; scope: string } {
  let parsed: unknown;
  try {
    // Stryker disable next-line StringLiteral: no cursor encodeCursor makes holds `-` or `_` (see encodeCursor)
    parsed = JSON.parse(atob(cursor.replaceAll('-', '+').replaceAll('_', '/')));
  }
  // Stryker disable next-line BlockStatement: emptied, `parsed` stays undefined, which the check below refuses alike
  catch {
    throw errors.cursorInvalid();
  }
  const { v, c, i, s } = (parsed ?? {}) as Record<string, unknown>;
  if (v !== 1 || typeof s !== 'string' || typeof c !== 'string' || !ISO_UTC.test(c) || typeof i !== 'string' || !isId(i)) {
    throw errors.cursorInvalid();
  }
  return { position: { createdAt: c, id: i }, scope: s };
}

/**
 * A short digest of the seller and the filters a cursor is valid for (FNV-1a, 32 bits: a collision only lets
 * a cursor move within the caller's own customers).
 *
 * @example
 * scopeOf(sellerId, { status: 'active' }); // "9f1c03a2"
 */
export function scopeOf(sellerId: string, filters: Readonly<Record<string, string | undefined>>): string {
  const text = [sellerId, ...Object.keys(filters).sort().map((name) => `${name}=${filters[name] ?? ''}`)].join('\n');
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

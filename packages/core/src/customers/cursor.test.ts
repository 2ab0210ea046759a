import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { decodeCursor, encodeCursor, scopeOf, type ListPosition } from './cursor.js';

const scope = scopeOf('9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', { status: 'active' });
const position: ListPosition = { createdAt: '2026-11-25T09:30:00.000Z', id: '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61' };

/** Many positions, so that their cursors cover a wide spread of base64 digits. */
function positions(count: number): ListPosition[] {
  return Array.from({ length: count }, (_, n) => {
    const hex = (n * 2654435761 >>> 0).toString(16).padStart(8, '0');
    const ms = String(n % 1000).padStart(3, '0');
    return { createdAt: `2026-11-25T09:30:00.${ms}Z`, id: `${hex}-6d1b-4c7a-9f0e-${hex}${hex.slice(0, 4)}` };
  });
}

/** The raw JSON a cursor carries, to craft cursors the encoder would never make. */
function craft(fields: Record<string, unknown>): string {
  return btoa(JSON.stringify(fields)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return `${error.status} ${error.message}`;
    throw error;
  }
  throw new Error('expected a refusal');
}

const INVALID = '400 cursor is not valid for this query; pass the next_cursor of the previous page with the same filters';

describe('cursors', () => {
  it('are URL-safe base64 without padding and decode to the position they were made for', () => {
    const cursors = positions(256).map((p) => [p, encodeCursor(p, scope)] as const);
    for (const [p, cursor] of cursors) {
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(cursor, scope)).toEqual(p);
    }
  });

  it('are refused for another scope, another version, or fields of the wrong type', () => {
    const fields = { v: 1, c: position.createdAt, i: position.id, s: scope };
    expect(decodeCursor(craft(fields), scope)).toEqual(position);
    expect(refusal(() => decodeCursor(encodeCursor(position, scope), scopeOf('other', {})))).toBe(INVALID);
    expect(refusal(() => decodeCursor(craft({ ...fields, v: 2 }), scope))).toBe(INVALID);
    // An array whose text is a valid date or id is still not a string.
    expect(refusal(() => decodeCursor(craft({ ...fields, c: [position.createdAt] }), scope))).toBe(INVALID);
    expect(refusal(() => decodeCursor(craft({ ...fields, i: [position.id] }), scope))).toBe(INVALID);
    expect(refusal(() => decodeCursor(craft({ ...fields, c: '2026-11-25T09:30:00Z' }), scope))).toBe(INVALID);
    expect(refusal(() => decodeCursor(craft({ ...fields, i: 'not-a-uuid' }), scope))).toBe(INVALID);
    expect(refusal(() => decodeCursor(craft(null as never), scope))).toBe(INVALID);
    expect(refusal(() => decodeCursor('%%%', scope))).toBe(INVALID);
  });
});

describe('scopeOf', () => {
  // Cursors handed out before a deploy must still work after it, so the digest is pinned (FNV-1a, 32 bits).
  it('is FNV-1a over the seller and the sorted filters, as 8 hex digits', () => {
    expect(scopeOf('a', {})).toBe('e40c292c');
    expect(scopeOf('foobar', {})).toBe('bf9cf968');
    expect(scopeOf('seller-408', {})).toBe('0dab564f');
    expect(scopeOf('seller', { status: undefined })).toBe('d3ae6139');
    expect(scopeOf('seller', { status: 'active', email: 'a@b.de' })).toBe('1683d820');
  });

  it('does not depend on the order the filters were given in, but on their values', () => {
    const a = scopeOf('seller', { email: 'a@b.de', status: 'active' });
    expect(scopeOf('seller', { status: 'active', email: 'a@b.de' })).toBe(a);
    expect(scopeOf('seller', { email: 'a@b.de', status: 'inactive' })).not.toBe(a);
  });
});

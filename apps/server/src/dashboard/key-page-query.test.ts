import { describe, expect, it } from 'vitest';
import { encodeKeyCursor, parseKeyPageQuery } from './key-page-query.js';

describe('parseKeyPageQuery', () => {
  it('reads limit and a cursor of encodeKeyCursor, and names a bad one', () => {
    const after = { createdAt: '2026-11-25T09:12:03.120Z', id: '0b6f2a52-1c1e-4a4e-9a57-3d1b8f0c2e11' };
    expect(parseKeyPageQuery({})).toEqual({ limit: 100 });
    expect(parseKeyPageQuery({ limit: '20', cursor: encodeKeyCursor(after) })).toEqual({ limit: 20, after });
    for (const limit of ['0', '101', '1.5', 'x']) expect(() => parseKeyPageQuery({ limit })).toThrow(/^limit must be a whole number from 1 to 100$/);
    for (const cursor of ['nope', encodeKeyCursor({ createdAt: 'x', id: after.id }), Buffer.from('a b c').toString('base64url')]) {
      expect(() => parseKeyPageQuery({ cursor })).toThrow(/cursor is not valid/);
    }
    expect(() => parseKeyPageQuery({ offset: '1' })).toThrow(/offset is not an allowed query parameter/);
  });
});

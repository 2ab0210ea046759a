import { describe, expect, it } from 'vitest';
import { canonicalCustomerId } from '../validation/validate.js';
import { uuidV7, uuidV7Hex } from './uuid-v7.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidV7', () => {
  it('is a canonical UUID of version 7 and variant 10, which the API accepts as a customer id', () => {
    for (let i = 0; i < 500; i++) {
      const id = uuidV7();
      expect(id).toMatch(V7);
      expect(canonicalCustomerId(id)).toBe(id);
    }
  });

  it('starts with the Unix time in milliseconds, as 48 bits of hex', () => {
    const at = Date.UTC(2026, 10, 26, 21, 30, 0, 123);
    const id = uuidV7(at);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
    expect(uuidV7(0).slice(0, 13)).toBe('00000000-0000');
  });

  it('sorts by creation time across milliseconds (as text, the way indexes compare them)', () => {
    const ids = Array.from({ length: 300 }, (_, i) => uuidV7(1_700_000_000_000 + i * 7));
    expect([...ids].sort()).toEqual(ids);
  });

  it('keeps 74 random bits: ids of one millisecond all differ and spread over every random hex digit', () => {
    const ids = Array.from({ length: 2000 }, () => uuidV7(1_700_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    // The random positions: 3 of group 3, the 2nd to 4th of group 4 (the 1st carries the variant), all of group 5.
    const tails = ids.map((id) => id.slice(15, 18) + id.slice(20, 23) + id.slice(24));
    for (let position = 0; position < tails[0]!.length; position++) {
      expect(new Set(tails.map((tail) => tail[position])).size, `position ${position}`).toBe(16);
    }
    expect(new Set(ids.map((id) => id[19]))).toEqual(new Set(['8', '9', 'a', 'b']));
  });
});

describe('uuidV7Hex', () => {
  it("is uuidV7's 32 hex digits without dashes, time first", () => {
    const at = Date.UTC(2026, 10, 28, 11, 0, 0, 5);
    for (let i = 0; i < 200; i++) {
      const hex = uuidV7Hex(at);
      expect(hex).toMatch(/^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
      expect(Number.parseInt(hex.slice(0, 12), 16)).toBe(at);
    }
    expect(new Set(Array.from({ length: 500 }, () => uuidV7Hex(at))).size).toBe(500);
  });
});

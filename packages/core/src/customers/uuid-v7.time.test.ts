import { describe, expect, it } from 'vitest';
import { uuidV7 } from './uuid-v7.js';

describe('uuidV7: the time field', () => {
  it('keeps the low 48 bits of a time past 2^48 ms (the year 10889), so ids keep their length and shape', () => {
    const id = uuidV7(2 ** 48 + 5);
    expect(id.slice(0, 13)).toBe('00000000-0005');
    expect(id).toHaveLength(36);
  });
});

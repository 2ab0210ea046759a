import { describe, expect, it } from 'vitest';
import { rateLimitOf } from './rate-limit';

const only = (ratelimit: string) => rateLimitOf(new Headers({ ratelimit }));

describe('rateLimitOf reads the structured-field syntax strictly', () => {
  it('takes the name only when the whole token is quoted', () => {
    for (const field of ['x"seller";r=1', '"seller"x;r=1', '"seller;r=1', 'seller";r=1']) {
      expect(only(field), field).toBeUndefined();
    }
  });

  it('takes only whole non-negative integers as parameter values', () => {
    for (const field of ['"seller";r=5x', '"seller";r=1.5', '"seller";r=', '"seller";r=0x10']) {
      expect(only(field), field).toBeUndefined();
    }
  });

  it('tolerates spaces around parameters and their values', () => {
    expect(only('"seller"; r = 42 ; t=1')).toEqual({ policy: 'seller', remaining: 42, resetSeconds: 1, limit: undefined });
  });

  it('skips a parameter without a value (a boolean flag) and keeps reading', () => {
    expect(only('"seller";flag;r=7;t=2')).toEqual({ policy: 'seller', remaining: 7, resetSeconds: 2, limit: undefined });
    expect(only('"seller";=3;r=7')).toEqual({ policy: 'seller', remaining: 7, resetSeconds: undefined, limit: undefined });
  });
});

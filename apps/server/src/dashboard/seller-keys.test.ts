import { describe, expect, it } from 'vitest';
import { keyStatus } from './seller-keys.js';

describe('keyStatus', () => {
  const now = new Date('2026-06-01T12:00:00.000Z');
  it.each([
    [{ expires_at: null, revoked_at: null }, 'active'],
    [{ expires_at: '2026-06-01T12:00:00.001Z', revoked_at: null }, 'active'],
    [{ expires_at: '2026-06-01T12:00:00.000Z', revoked_at: null }, 'expired'],
    [{ expires_at: '2026-01-01T00:00:00.000Z', revoked_at: null }, 'expired'],
    [{ expires_at: '2026-01-01T00:00:00.000Z', revoked_at: '2025-12-01T00:00:00.000Z' }, 'revoked'],
    [{ expires_at: null, revoked_at: '2026-05-01T00:00:00.000Z' }, 'revoked'],
  ])('%j is %s', (key, status) => {
    expect(keyStatus(key, now)).toBe(status);
  });
});

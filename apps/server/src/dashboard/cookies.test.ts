import { describe, expect, it } from 'vitest';
import { clearedSessionCookie, readCookie, sessionCookie } from './cookies.js';

describe('session cookies', () => {
  it('reads one cookie out of a Cookie header', () => {
    expect(readCookie('a=1; dashboard_session=abc; b=2', 'dashboard_session')).toBe('abc');
    expect(readCookie('xdashboard_session=abc', 'dashboard_session')).toBeUndefined();
    expect(readCookie(undefined, 'dashboard_session')).toBeUndefined();
  });

  it('is HttpOnly, SameSite=Strict, scoped to /dashboard, 12 hours, Secure only over HTTPS', () => {
    expect(sessionCookie('id', false)).toBe('dashboard_session=id; Path=/dashboard; Max-Age=43200; HttpOnly; SameSite=Strict');
    expect(sessionCookie('id', true)).toMatch(/; Secure$/);
    expect(clearedSessionCookie(false)).toBe('dashboard_session=; Path=/dashboard; Max-Age=0; HttpOnly; SameSite=Strict');
  });
});

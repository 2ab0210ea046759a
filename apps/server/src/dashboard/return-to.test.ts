import { describe, expect, it } from 'vitest';
import { returnPathOf, returnToCookie, safeReturnPath } from './return-to.js';

describe('the page to return to after sign-in', () => {
  it('keeps dashboard pages of this origin, normalised', () => {
    expect(safeReturnPath('/dashboard/settings/webhooks')).toBe('/dashboard/settings/webhooks');
    expect(safeReturnPath('/dashboard/settings/webhooks/0b6f2a52?status=failed')).toBe('/dashboard/settings/webhooks/0b6f2a52?status=failed');
    expect(safeReturnPath('/dashboard/settings/./activity')).toBe('/dashboard/settings/activity');
  });

  it('refuses anything that could leave the dashboard or this origin', () => {
    const refused = [
      undefined, 7, '', '/', '/dashboard', 'dashboard/settings', 'https://evil.example/dashboard/x', '//evil.example/dashboard/',
      '/dashboard/../api/customers', '/dashboard/%2e%2e/api/customers', '/dashboard\\..\\evil', '/\\evil.example/dashboard/',
      '/dashboard/settings\n/x', '/dashboard/\tx', '/dashboard/api/keys', '/dashboard/api', '/dashboard/login?token=x',
      `/dashboard/${'a'.repeat(600)}`, 'javascript:alert(1)//dashboard/',
    ];
    for (const value of refused) expect(safeReturnPath(value), String(value)).toBeUndefined();
  });

  it('round-trips through its cookie and ignores a tampered one', () => {
    const [pair] = returnToCookie('/dashboard/settings/activity?x=1&y=2', false).split(';');
    expect(returnPathOf({ headers: { cookie: `a=b; ${pair}` } })).toBe('/dashboard/settings/activity?x=1&y=2');
    expect(returnToCookie('/dashboard/x', false)).toMatch(/; Path=\/dashboard; Max-Age=3600; HttpOnly; SameSite=Strict$/);
    expect(returnPathOf({ headers: { cookie: 'dashboard_return_to=%2F%2Fevil.example' } })).toBeUndefined();
    expect(returnPathOf({ headers: { cookie: 'dashboard_return_to=%E0%A4%A' } })).toBeUndefined();
    expect(returnPathOf({ headers: {} })).toBeUndefined();
  });
});

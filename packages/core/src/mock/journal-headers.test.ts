import { describe, expect, it } from 'vitest';
import { journalHeader } from './journal-headers.js';

const key = `sk_live_${'A'.repeat(48)}`;

describe('journalHeader', () => {
  it('shows API keys only by their 12-character prefix', () => {
    expect(journalHeader('X-API-Key', key)).toBe('sk_live_AAAA…');
    expect(journalHeader('authorization', `Bearer ${key}`)).toBe('Bearer sk_live_AAAA…');
    expect(journalHeader('authorization', `bearer rk_test_${'b'.repeat(48)}`)).toBe('bearer rk_test_bbbb…');
    expect(journalHeader('idempotency-key', 'k-1')).toBe('k-1');
  });

  it('redacts whole a cookie, another Authorization scheme, a Bearer that is no API key and the secrets given', () => {
    expect(journalHeader('Cookie', 'session=abc')).toBe('[redacted]');
    expect(journalHeader('proxy-authorization', 'Basic dXNlcjpwYXNz')).toBe('[redacted]');
    expect(journalHeader('authorization', 'Basic dXNlcjpwYXNzd29yZA==')).toBe('[redacted]');
    expect(journalHeader('authorization', 'Bearer a-control-token-of-32-characters')).toBe('[redacted]');
    expect(journalHeader('authorization', key)).toBe('[redacted]');
    const token = 'sk_live_looks_like_a_key_but_is_the_token';
    expect(journalHeader('x-api-key', token, [token])).toBe('[redacted]');
    expect(journalHeader('x-note', `see ${token}`, [token])).toBe('[redacted]');
    expect(journalHeader('x-note', 'harmless', [''])).toBe('harmless');
  });
});

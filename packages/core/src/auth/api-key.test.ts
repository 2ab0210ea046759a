import { describe, expect, it } from 'vitest';
import { apiKeyDisplayPrefix, apiKeyKindFor, apiKeyPrefix, generateApiKey, hashApiKey, isWellFormedApiKey, parseApiKey } from './api-key.js';

describe('API keys', () => {
  it('generates distinct keys of the documented shape', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey()));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^sk_live_[A-Za-z0-9]{48}$/);
  });

  it('recognises the four kinds, each prefix plus 48 alphanumerics', () => {
    const body = 'a1B2'.repeat(12);
    expect(isWellFormedApiKey(`sk_live_${body}`)).toBe(true);
    expect(isWellFormedApiKey(`sk_test_${body}`)).toBe(true);
    expect(isWellFormedApiKey(`rk_live_${body}`)).toBe(true);
    expect(isWellFormedApiKey(`rk_test_${body}`)).toBe(true);
    expect(isWellFormedApiKey(`sk_live_${body}x`)).toBe(false);
    expect(isWellFormedApiKey(`rk_test_${body.slice(1)}`)).toBe(false);
    expect(isWellFormedApiKey(`pk_live_${body}`)).toBe(false);
    expect(isWellFormedApiKey(`sk_prod_${body}`)).toBe(false);
    expect(isWellFormedApiKey(`SK_LIVE_${body}`)).toBe(false);
    expect(isWellFormedApiKey(`sk_live_${body.slice(1)}-`)).toBe(false);
    expect(isWellFormedApiKey(` sk_live_${body}`)).toBe(false);
  });

  it('hashes with SHA-256 (known vector) and shows only a short prefix', async () => {
    expect(await hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const key = generateApiKey();
    expect(await hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKeyDisplayPrefix(key)).toBe(key.slice(0, 12));
  });

  it('parses each kind and mode from the prefix, and refuses anything else', () => {
    const body = 'Z9'.repeat(24);
    expect(parseApiKey(`sk_live_${body}`)).toEqual({ kind: 'secret', mode: 'live' });
    expect(parseApiKey(`sk_test_${body}`)).toEqual({ kind: 'secret', mode: 'test' });
    expect(parseApiKey(`rk_live_${body}`)).toEqual({ kind: 'restricted', mode: 'live' });
    expect(parseApiKey(`rk_test_${body}`)).toEqual({ kind: 'restricted', mode: 'test' });
    expect(parseApiKey(`rk_test_${body}!`)).toBeUndefined();
    expect(parseApiKey(`xk_test_${body}`)).toBeUndefined();
    expect(parseApiKey('')).toBeUndefined();
  });

  it('generates keys of every kind with their prefix, and a secret key for no scope list', () => {
    for (const kind of ['secret', 'restricted'] as const) {
      for (const mode of ['live', 'test'] as const) {
        const key = generateApiKey({ kind, mode });
        expect(key.startsWith(apiKeyPrefix({ kind, mode }))).toBe(true);
        expect(parseApiKey(key)).toEqual({ kind, mode });
        expect(apiKeyDisplayPrefix(key)).toBe(key.slice(0, 12));
      }
    }
    expect(apiKeyKindFor(null)).toBe('secret');
    expect(apiKeyKindFor(undefined)).toBe('secret');
    expect(apiKeyKindFor([])).toBe('restricted');
    expect(apiKeyKindFor(['events:read'])).toBe('restricted');
  });
});

import { describe, expect, it } from 'vitest';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key.js';

describe('API keys', () => {
  it('generates distinct keys of the documented shape', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^sk_live_[A-Za-z0-9]{48}$/);
  });

  it('recognises only sk_live_ plus 48 alphanumerics', () => {
    const body = 'a1B2'.repeat(12);
    expect(isWellFormedApiKey(`sk_live_${body}`)).toBe(true);
    expect(isWellFormedApiKey(`sk_live_${body}x`)).toBe(false);
    expect(isWellFormedApiKey(`sk_test_${body}`)).toBe(false);
    expect(isWellFormedApiKey(`sk_live_${body.slice(1)}-`)).toBe(false);
    expect(isWellFormedApiKey(` sk_live_${body}`)).toBe(false);
  });

  it('hashes with SHA-256 (known vector) and shows only a short prefix', async () => {
    expect(await hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const key = generateApiKey();
    expect(await hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKeyDisplayPrefix(key)).toBe(key.slice(0, 12));
  });
});

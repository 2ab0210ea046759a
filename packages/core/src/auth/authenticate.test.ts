import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { generateApiKey } from './api-key.js';
import { authenticate, isKeyUsable } from './authenticate.js';
import { MemoryKeyRegistry } from './memory-key-registry.js';
import { readApiKey } from './read-api-key.js';

const seller = { sellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', customerLimit: 10 };
const headers = (values: Record<string, string>) => {
  const h = new Headers(values);
  return (name: string) => h.get(name);
};

async function outcome(header: (name: string) => string | null, keys: MemoryKeyRegistry) {
  try {
    return await authenticate(header, keys.lookup);
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message, headers: error.headers };
    throw error;
  }
}

describe('readApiKey', () => {
  it('prefers X-API-Key and falls back to a Bearer token', () => {
    expect(readApiKey(headers({ 'X-API-Key': 'a', Authorization: 'Bearer b' }))).toBe('a');
    expect(readApiKey(headers({ Authorization: 'Bearer b' }))).toBe('b');
    expect(readApiKey(headers({ authorization: 'bearer   b  ' }))).toBe('b');
    expect(readApiKey(headers({ Authorization: 'Basic Zm9vOmJhcg==' }))).toBeUndefined();
    expect(readApiKey(headers({ Authorization: 'Bearer' }))).toBeUndefined();
    expect(readApiKey(headers({ 'X-API-Key': '  ' }))).toBeUndefined();
    expect(readApiKey(headers({}))).toBeUndefined();
  });
});

describe('authenticate', () => {
  it('gives the request the key’s mode and scopes: from the store when it says them, else from the prefix', async () => {
    const keys = new MemoryKeyRegistry();
    const testKey = generateApiKey({ kind: 'secret', mode: 'test' });
    const restricted = generateApiKey({ kind: 'restricted', mode: 'live' });
    const bare = generateApiKey({ kind: 'restricted', mode: 'test' });
    await keys.add(testKey, seller);
    await keys.add(restricted, { ...seller, scopes: ['customers:read'] });
    await keys.add(bare, seller);
    expect(await outcome(headers({ 'X-API-Key': testKey }), keys)).toEqual({ ...seller, mode: 'test', scopes: null });
    expect(await outcome(headers({ 'X-API-Key': restricted }), keys)).toEqual({ ...seller, mode: 'live', scopes: ['customers:read'] });
    expect(await outcome(headers({ 'X-API-Key': bare }), keys)).toEqual({ ...seller, mode: 'test', scopes: [] });
    // A lookup that says nothing of the key (a host's default seller): the prefix decides, a restricted key holds nothing.
    const plain = async () => ({ ...seller });
    expect(await authenticate(headers({ 'X-API-Key': bare }), plain)).toEqual({ ...seller, mode: 'test', scopes: [] });
    expect(await authenticate(headers({ 'X-API-Key': testKey }), plain)).toEqual({ ...seller, mode: 'test', scopes: null });
    // What the store says wins, and is passed on as it is.
    const stored = { ...seller, mode: 'live' as const, scopes: ['events:read'] };
    expect(await authenticate(headers({ 'X-API-Key': restricted }), async () => stored)).toBe(stored);
    await expect(keys.add(testKey, { ...seller, scopes: ['events:read'] })).rejects.toThrow(/secret key/);
  });

  it('finds the seller of a registered key, by either header', async () => {
    const keys = new MemoryKeyRegistry();
    const key = generateApiKey();
    await keys.add(key, seller);
    expect(await outcome(headers({ 'X-API-Key': key }), keys)).toEqual({ ...seller, mode: 'live', scopes: null });
    expect(await outcome(headers({ Authorization: `Bearer ${key}` }), keys)).toEqual({ ...seller, mode: 'live', scopes: null });
  });

  it('answers 401 "missing" without a key and 401 "invalid" for malformed, unknown, revoked, expired', async () => {
    const keys = new MemoryKeyRegistry();
    const revoked = generateApiKey();
    const expired = generateApiKey();
    await keys.add(revoked, seller);
    await keys.revoke(revoked);
    await keys.add(expired, seller, { expiresAt: '2020-01-01T00:00:00.000Z' });

    expect(await outcome(headers({}), keys)).toEqual({
      status: 401,
      message:
        'An API key is required; send it in the X-API-Key header or as an Authorization Bearer token',
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
    for (const key of ['sk_live_short', generateApiKey(), revoked, expired]) {
      expect(await outcome(headers({ 'X-API-Key': key }), keys)).toEqual({
        status: 401,
        message: 'The API key is invalid, revoked or expired',
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    }
  });

  it('passes only the hash to the lookup', async () => {
    const key = generateApiKey();
    const seen: string[] = [];
    await authenticate(headers({ 'X-API-Key': key }), async (hash) => {
      seen.push(hash);
      return seller;
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(seen[0]).not.toContain(key.slice(8));
  });

  it('refuses a malformed key without hashing it or asking the lookup', async () => {
    const asked: string[] = [];
    const lookup = async (hash: string) => {
      asked.push(hash);
      return seller;
    };
    const hashed: string[] = [];
    const hash = (key: string) => {
      hashed.push(key);
      return 'a'.repeat(64);
    };
    for (const key of ['sk_live_short', 'pk_live_' + 'a'.repeat(48), 'sk_prod_' + 'a'.repeat(48), 'x'.repeat(56)]) {
      await expect(authenticate(headers({ 'X-API-Key': key }), lookup, hash)).rejects.toMatchObject({ status: 401 });
    }
    expect([asked, hashed]).toEqual([[], []]);
  });
});

describe('isKeyUsable', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');
  it('refuses revoked keys and keys at or past their expiry', () => {
    expect(isKeyUsable({}, now)).toBe(true);
    expect(isKeyUsable({ expiresAt: '2026-11-25T12:00:00.001Z' }, now)).toBe(true);
    expect(isKeyUsable({ expiresAt: '2026-11-25T12:00:00.000Z' }, now)).toBe(false);
    expect(isKeyUsable({ revokedAt: '2026-11-01T00:00:00.000Z' }, now)).toBe(false);
  });

  it('takes from the store what it says (mode or scopes alone) and the rest from the key’s prefix', async () => {
    const restrictedTest = generateApiKey({ kind: 'restricted', mode: 'test' });
    const secretLive = generateApiKey();
    const modeOnly = async () => ({ ...seller, mode: 'live' as const });
    const scopesOnly = async () => ({ ...seller, scopes: ['customers:read'] });
    expect(await authenticate(headers({ 'X-API-Key': restrictedTest }), modeOnly)).toEqual({ ...seller, mode: 'live', scopes: [] });
    expect(await authenticate(headers({ 'X-API-Key': secretLive }), modeOnly)).toEqual({ ...seller, mode: 'live', scopes: null });
    expect(await authenticate(headers({ 'X-API-Key': restrictedTest }), scopesOnly)).toEqual({ ...seller, mode: 'test', scopes: ['customers:read'] });
    expect(await authenticate(headers({ 'X-API-Key': secretLive }), async () => ({ ...seller, scopes: null }))).toEqual({ ...seller, mode: 'live', scopes: null });
  });
});

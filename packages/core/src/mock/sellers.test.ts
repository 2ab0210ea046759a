import { generateApiKey, hashApiKey } from '../auth/api-key.js';
import { describe, expect, it } from 'vitest';
import { createSellerDirectory } from './sellers.js';

const lookup = async (directory: ReturnType<typeof createSellerDirectory>, key: string) =>
  directory.lookupKey(await hashApiKey(key));

describe('createSellerDirectory', () => {
  it('without sellers, maps every well-formed key to one default seller', async () => {
    const directory = createSellerDirectory({ customerLimit: 3 });
    const [one, two] = [generateApiKey(), generateApiKey()];
    const expected = { sellerId: directory.defaultSeller!.sellerId, customerLimit: 3 };
    expect(await lookup(directory, one)).toEqual(expected);
    expect(await lookup(directory, two)).toEqual(expected);
    expect(directory.sellers).toEqual([]);
    expect(directory.find({ apiKey: one })).toEqual(expected);
    expect(directory.find()).toEqual(expected);
    expect(directory.find({ apiKey: 'sk_live_short' })).toBeUndefined();
  });

  it('keeps an added seller apart from the default one, and revokes either kind of key', async () => {
    const directory = createSellerDirectory({});
    const added = directory.register({ customerLimit: 7 });
    await added.done;
    expect(await lookup(directory, added.seller.apiKey)).toEqual({ sellerId: added.seller.sellerId, customerLimit: 7, mode: 'live', scopes: null });

    const anyKey = generateApiKey();
    await directory.revoke(anyKey);
    await directory.revoke(added.seller.apiKey);
    expect(await lookup(directory, anyKey)).toBeUndefined();
    expect(await lookup(directory, added.seller.apiKey)).toBeUndefined();
    expect(await lookup(directory, generateApiKey())).toBeDefined();
  });

  it('finds a seller named by its key and its own id together', () => {
    const directory = createSellerDirectory({ sellers: [{ customerLimit: 2 }, {}] });
    const [first] = directory.sellers;
    expect(directory.find({ apiKey: first!.apiKey, sellerId: first!.sellerId })).toEqual({ sellerId: first!.sellerId, customerLimit: 2 });
  });

  it('with sellers, knows only their keys; the plan limit defaults to the mock’s', async () => {
    const directory = createSellerDirectory({ sellers: [{ customerLimit: 2 }, {}], customerLimit: 10 });
    const [first, second] = directory.sellers;
    expect(directory.defaultSeller).toBeUndefined();
    expect(second!.customerLimit).toBe(10);
    expect(await lookup(directory, first!.apiKey)).toEqual({ sellerId: first!.sellerId, customerLimit: 2, mode: 'live', scopes: null });
    expect(await lookup(directory, generateApiKey())).toBeUndefined();
    expect(directory.find({ sellerId: second!.sellerId })?.customerLimit).toBe(10);
    expect(directory.find({ apiKey: first!.apiKey, sellerId: second!.sellerId })).toBeUndefined();
    expect(directory.find()).toBeUndefined(); // two sellers: which one is ambiguous
    expect(createSellerDirectory({ sellers: [{}] }).find()).toBeDefined();
  });

  it('refuses keys that are revoked or expired from the start, and keys past their expiry', async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const directory = createSellerDirectory({
      sellers: [
        { revoked: true },
        { expiresAt: '2020-01-01T00:00:00Z' },
        { expiresAt: soon },
      ],
    });
    const [revoked, expired, expiring] = directory.sellers;
    expect(await lookup(directory, revoked!.apiKey)).toBeUndefined();
    expect(await lookup(directory, expired!.apiKey)).toBeUndefined();
    expect(await lookup(directory, expiring!.apiKey)).toEqual({ sellerId: expiring!.sellerId, customerLimit: 100, mode: 'live', scopes: null });
    expect(() => createSellerDirectory({ sellers: [{ expiresAt: 'tomorrow' }] })).toThrow(
      'expiresAt must be an ISO 8601 date-time, got "tomorrow"',
    );
  });

  it('gives a known seller more keys, each with its own lifecycle', async () => {
    const directory = createSellerDirectory({ sellers: [{}] });
    const [seller] = directory.sellers;
    const [extra, old] = [generateApiKey(), generateApiKey()];
    await directory.addKey(seller!.sellerId, { apiKey: extra });
    await directory.addKey(seller!.sellerId, { apiKey: old, expiresAt: '2001-01-01T00:00:00Z' });
    expect(await lookup(directory, extra)).toEqual({ sellerId: seller!.sellerId, customerLimit: 100, mode: 'live', scopes: null });
    expect(await lookup(directory, old)).toBeUndefined();
    expect(directory.find({ apiKey: extra })?.sellerId).toBe(seller!.sellerId);
    expect(() => directory.addKey('nobody', { apiKey: generateApiKey() })).toThrow('addKey: no seller has the id nobody');
  });

  it('keeps the default seller id it is given', () => {
    const sellerId = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
    expect(createSellerDirectory({ defaultSellerId: sellerId }).defaultSeller?.sellerId).toBe(sellerId);
  });

  it('authenticates a key right after it is given, before its hash is stored', async () => {
    const apiKey = generateApiKey();
    const hash = await hashApiKey(apiKey);
    const directory = createSellerDirectory({ sellers: [{ apiKey }] });
    // No await in between: the lookup waits for the registration still under way.
    expect(await directory.lookupKey(hash)).toEqual({ sellerId: directory.sellers[0]!.sellerId, customerLimit: 100, mode: 'live', scopes: null });
  });

  it('with sellers, revokes their keys, ignores unknown ones and finds a seller by key alone', async () => {
    const directory = createSellerDirectory({ sellers: [{}, {}] });
    const [first, second] = directory.sellers;
    expect(directory.find({ apiKey: second!.apiKey })).toEqual({ sellerId: second!.sellerId, customerLimit: 100 });
    await directory.revoke(generateApiKey());
    await directory.revoke('not-a-key');
    expect(await lookup(directory, first!.apiKey)).toBeDefined();
    await directory.revoke(first!.apiKey);
    expect(await lookup(directory, first!.apiKey)).toBeUndefined();
    expect(await lookup(directory, second!.apiKey)).toBeDefined();
  });
});

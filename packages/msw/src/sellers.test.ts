import { generateApiKey, hashApiKey } from '@customers-api/core';
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
    expect(await lookup(directory, added.seller.apiKey)).toEqual({ sellerId: added.seller.sellerId, customerLimit: 7 });

    const anyKey = generateApiKey();
    await directory.revoke(anyKey);
    await directory.revoke(added.seller.apiKey);
    expect(await lookup(directory, anyKey)).toBeUndefined();
    expect(await lookup(directory, added.seller.apiKey)).toBeUndefined();
    expect(await lookup(directory, generateApiKey())).toBeDefined();
  });

  it('with sellers, knows only their keys; the plan limit defaults to the mock’s', async () => {
    const directory = createSellerDirectory({ sellers: [{ customerLimit: 2 }, {}], customerLimit: 10 });
    const [first, second] = directory.sellers;
    expect(directory.defaultSeller).toBeUndefined();
    expect(second!.customerLimit).toBe(10);
    expect(await lookup(directory, first!.apiKey)).toEqual({ sellerId: first!.sellerId, customerLimit: 2 });
    expect(await lookup(directory, generateApiKey())).toBeUndefined();
    expect(directory.find({ sellerId: second!.sellerId })?.customerLimit).toBe(10);
    expect(directory.find({ apiKey: first!.apiKey, sellerId: second!.sellerId })).toBeUndefined();
    expect(directory.find()).toBeUndefined(); // two sellers: which one is ambiguous
    expect(createSellerDirectory({ sellers: [{}] }).find()).toBeDefined();
  });
});

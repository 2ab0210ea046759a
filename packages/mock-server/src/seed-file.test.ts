import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_VERSIONS, LATEST_API_VERSION, SCOPES } from '@customers-api/core';
import { parseSeed, readSeedFile, SeedFileError } from './seed-file.js';

const key = (c: string) => `sk_live_${c.repeat(48)}`;
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

describe('parseSeed', () => {
  it('turns sellers, keys and customers into core seeds, one customer seed per seller', () => {
    const id = '9B2E7D4C-1A3F-4E5B-8C6D-0F1E2D3C4B5A';
    const seed = parseSeed({
      sellers: [
        { id, customerLimit: 2, keys: [{ key: key('a') }, { key: key('b'), revoked: true }, { key: key('c'), expiresAt: '2020-01-01T00:00:00Z' }], customers: [ada] },
        { keys: [{ key: key('d') }], apiVersion: LATEST_API_VERSION },
      ],
    });
    expect(seed.sellers).toEqual([
      { apiKey: key('a'), sellerId: id.toLowerCase(), customerLimit: 2 },
      { apiKey: key('d'), sellerId: expect.stringMatching(/^[0-9a-f-]{36}$/), apiVersion: LATEST_API_VERSION },
    ]);
    expect(seed.moreKeys).toEqual([
      { sellerId: id.toLowerCase(), key: { apiKey: key('b'), revoked: true } },
      { sellerId: id.toLowerCase(), key: { apiKey: key('c'), expiresAt: '2020-01-01T00:00:00Z' } },
    ]);
    expect(seed.customers).toEqual([
      { sellerId: id.toLowerCase(), customers: [ada] },
      { sellerId: seed.sellers![1]!.sellerId, customers: [] },
    ]);
  });

  it('takes test and restricted keys (issue 38): the scopes of an rk_ key, sorted', () => {
    const restricted = `rk_test_${'r'.repeat(48)}`;
    const seed = parseSeed({ sellers: [{ keys: [{ key: `sk_test_${'t'.repeat(48)}` }, { key: restricted, scopes: ['events:read', 'customers:read'] }] }] });
    expect(seed.sellers![0]).toMatchObject({ apiKey: `sk_test_${'t'.repeat(48)}` });
    expect(seed.moreKeys[0]!.key).toEqual({ apiKey: restricted, scopes: ['customers:read', 'events:read'] });
  });

  it('refuses a bad entry, naming it', () => {
    const cases: Array<[unknown, string]> = [
      [[], 'seed: must be an object'],
      [{ sellers: {} }, 'seed.sellers: must be an array'],
      [{ sellers: [], seller: [] }, 'seed.seller: is not allowed; use $schema, sellers, webhooks, clock'],
      [{ sellers: [{ keys: [] }] }, 'seed.sellers[0].keys: must be a non-empty array'],
      [{ sellers: [{ keys: [{ key: key('a') }] }, { keys: [{ key: 'sk_live_short' }] }] }, 'seed.sellers[1].keys[0].key: must be sk_live_, sk_test_, rk_live_ or rk_test_ followed by 48 letters or digits'],
      [{ sellers: [{ keys: [{}] }] }, 'seed.sellers[0].keys[0].key: is required: sk_live_, sk_test_, rk_live_ or rk_test_ followed by 48 letters or digits'],
      [{ sellers: [{ keys: [{ key: key('a') }] }, { keys: [{ key: key('a') }] }] }, 'seed.sellers[1].keys[0].key: is already given at seed.sellers[0].keys[0].key'],
      [{ sellers: [{ keys: [{ key: key('a'), expiresAt: '2030-01-01' }] }] }, 'seed.sellers[0].keys[0].expiresAt: must be an ISO 8601 date-time with a time zone, e.g. 2030-01-01T00:00:00Z'],
      [{ sellers: [{ keys: [{ key: key('a'), revoked: 'yes' }] }] }, 'seed.sellers[0].keys[0].revoked: must be true or false'],
      [{ sellers: [{ keys: [{ key: key('a'), scopes: ['events:read'] }] }] }, 'seed.sellers[0].keys[0].scopes: are for restricted keys (rk_live_ or rk_test_); an sk_ key holds every scope'],
      [{ sellers: [{ keys: [{ key: `rk_test_${'a'.repeat(48)}` }] }] }, 'seed.sellers[0].keys[0].scopes: are required for a restricted key (rk_live_ or rk_test_)'],
      [{ sellers: [{ keys: [{ key: `rk_test_${'a'.repeat(48)}`, scopes: ['events:delete'] }] }] }, `seed.sellers[0].keys[0].scopes: unknown scope "events:delete"; the scopes are ${SCOPES.join(', ')}`],
      [{ sellers: [{ id: 'seller-1', keys: [{ key: key('a') }] }] }, 'seed.sellers[0].id: must be a UUID'],
      [{ sellers: [{ customerLimit: -1, keys: [{ key: key('a') }] }] }, 'seed.sellers[0].customerLimit: must be a whole number, 0 or more'],
      [{ sellers: [{ apiVersion: '2020-01-01', keys: [{ key: key('a') }] }] }, `seed.sellers[0].apiVersion: must be one of: ${API_VERSIONS.map((entry) => entry.version).join(', ')}`],
      [{ sellers: [{ apiVersion: 20261126, keys: [{ key: key('a') }] }] }, `seed.sellers[0].apiVersion: must be one of: ${API_VERSIONS.map((entry) => entry.version).join(', ')}`],
      [{ sellers: [{ keys: [{ key: key('a') }], customers: [ada, { ...ada, last_name: undefined }] }] }, 'seed.sellers[0].customers[1]: last_name is required'],
    ];
    for (const [value, message] of cases) expect(() => parseSeed(value), message).toThrow(new SeedFileError(message));
  });
});

describe('parseSeed: webhooks', () => {
  const seller = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';

  it('takes endpoints for every seller or one of the file, and needs no sellers', () => {
    const seed = parseSeed({
      sellers: [{ id: seller, keys: [{ key: key('a') }] }],
      webhooks: [{ url: 'http://127.0.0.1:9000/all' }, { url: 'http://127.0.0.1:9000/one', sellerId: seller, events: ['customer.updated'] }],
    });
    expect(seed.webhooks).toEqual([{ url: 'http://127.0.0.1:9000/all' }, { url: 'http://127.0.0.1:9000/one', sellerId: seller, events: ['customer.updated'] }]);
    expect(parseSeed({ webhooks: [{ url: 'http://localhost:9000/hook' }] })).toEqual({
      sellers: undefined, // any well-formed key: the default seller
      moreKeys: [],
      customers: [],
      webhooks: [{ url: 'http://localhost:9000/hook' }],
    });
    expect(parseSeed({}).webhooks).toEqual([]);
  });

  it('refuses a bad endpoint, naming it', () => {
    const cases: Array<[unknown, string]> = [
      [{ webhooks: {} }, 'seed.webhooks: must be an array'],
      [{ webhooks: [{ url: 'http://a.test' }, { url: 'mailto:a@b.de' }] }, 'seed.webhooks[1].url: must be an http or https URL'],
      [{ webhooks: [{ url: 'http://a.test', sellerId: seller }] }, 'seed.webhooks[0].sellerId: needs seed.sellers: without it there is one default seller, and it gets every event'],
      [{ sellers: [{ keys: [{ key: key('a') }] }], webhooks: [{ url: 'http://a.test', sellerId: seller }] }, 'seed.webhooks[0].sellerId: is not the id of a seller in seed.sellers'],
    ];
    for (const [value, message] of cases) expect(() => parseSeed(value), message).toThrow(new SeedFileError(message));
  });
});

describe('parseSeed: clock', () => {
  it('takes a start instant for the frozen clock, and refuses a bad one naming it', () => {
    expect(parseSeed({ clock: { now: '2020-01-01T00:00:00Z' } }).clockNow).toBe('2020-01-01T00:00:00Z');
    expect(parseSeed({}).clockNow).toBeUndefined();
    expect(() => parseSeed({ clock: {} })).toThrow('seed.clock.now: is required');
    expect(() => parseSeed({ clock: { now: 'yesterday' } })).toThrow('seed.clock.now: must be an ISO 8601 date-time');
    expect(() => parseSeed({ clock: { now: '2020-01-01T00:00:00Z', frozen: true } })).toThrow('seed.clock.frozen: is not allowed; use now');
  });
});

describe('readSeedFile', () => {
  it('names the file when it is missing or not JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-seed-'));
    try {
      const file = join(dir, 'seed.json');
      expect(() => readSeedFile(file)).toThrow(`cannot read the seed file ${file}`);
      writeFileSync(file, '{ "sellers": [ }');
      expect(() => readSeedFile(file)).toThrow(`the seed file ${file} is not valid JSON`);
      writeFileSync(file, JSON.stringify({ sellers: [{ keys: [{ key: key('z') }] }] }));
      expect(readSeedFile(file).sellers![0]!.apiKey).toBe(key('z'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { describe, expect, it } from 'vitest';
import { ADA, ID, json, KEY, scriptedFetch } from '../test/helpers/fixtures';
import { CustomersClient } from './client';
import { ConfigurationError } from './core/errors';

describe('per-call options', () => {
  it('are checked like the client options, with a message that names the option, and nothing is sent', () => {
    const { fetch, calls } = scriptedFetch([json(ADA)]);
    const client = new CustomersClient({ apiKey: KEY, fetch });
    expect(() => client.customers.get(ID, { maxRetries: -1 })).toThrow(ConfigurationError);
    expect(() => client.customers.get(ID, { maxRetries: -1 })).toThrow('maxRetries must be a finite number of at least 0, got -1.');
    expect(() => client.customers.get(ID, { timeout: 0 })).toThrow('timeout must be a finite number of at least 1, got 0.');
    expect(calls).toHaveLength(0);
  });
});

describe('baseUrl', () => {
  it('loses every trailing slash, so paths are never joined with //', async () => {
    const { fetch, calls } = scriptedFetch([json(ADA)]);
    const client = new CustomersClient({ apiKey: KEY, fetch, baseUrl: 'https://api.example.com/v2//' });
    expect(client.baseUrl).toBe('https://api.example.com/v2');
    await client.customers.get(ID);
    expect(calls[0]!.url).toBe(`https://api.example.com/v2/api/customers/${ID}`);
  });
});

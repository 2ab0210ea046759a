import { describe, expect, it } from 'vitest';
import { ADA, ID, json, KEY } from '../test/helpers/fixtures';
import { CustomersClient, type Fetch } from './client';

/** A fetch that records the init of every call. */
function recording() {
  const inits: RequestInit[] = [];
  const fetch: Fetch = async (_url, init) => {
    inits.push(init);
    return json(ADA);
  };
  return { fetch, inits };
}

describe('per-request fetchOptions', () => {
  it("adds fetch init fields to this call only; the SDK's method, headers, body and signal win", async () => {
    const { fetch, inits } = recording();
    const client = new CustomersClient({ apiKey: KEY, fetch });
    const dispatcher = { name: 'a proxy agent' };
    await client.customers.get(ID, {
      fetchOptions: { keepalive: true, cache: 'no-store', dispatcher, method: 'DELETE', headers: { 'x-api-key': 'no' } } as never,
    });
    await client.customers.get(ID);
    expect(inits[0]).toMatchObject({ keepalive: true, cache: 'no-store', dispatcher, method: 'GET', redirect: 'follow' });
    expect(new Headers(inits[0]!.headers).get('x-api-key')).toBe(KEY);
    expect(inits[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(inits[1]).not.toHaveProperty('keepalive');
    expect(inits[1]).not.toHaveProperty('dispatcher');
  });

  it('may change redirect handling', async () => {
    const { fetch, inits } = recording();
    await new CustomersClient({ apiKey: KEY, fetch }).customers.get(ID, { fetchOptions: { redirect: 'error' } });
    expect(inits[0]!.redirect).toBe('error');
  });
});

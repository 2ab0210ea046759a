import { expect, it } from 'vitest';
import { ADA, ID, json, KEY } from '../test/helpers/fixtures';
import { CustomersClient, type Fetch } from './client';

// Without an onRequest hook the headers go to fetch as a plain object (no Headers copy on the happy path): each
// attempt gets its own, so what a custom fetch does to them stays with that attempt.
it('gives each attempt its own headers, which a custom fetch may change without touching later calls', async () => {
  const seen: Array<Record<string, string>> = [];
  const fetch: Fetch = async (_url, init) => {
    const headers = init.headers as Record<string, string>;
    seen.push({ ...headers });
    headers['X-API-Key'] = 'changed';
    headers['X-Extra'] = 'leaked?';
    return json(ADA);
  };
  const client = new CustomersClient({ apiKey: KEY, fetch });
  await client.customers.get(ID);
  await client.customers.get(ID, { headers: { 'X-Trace': 't' } });
  await client.customers.get(ID);
  expect(seen.map((h) => h['X-API-Key'])).toEqual([KEY, KEY, KEY]);
  expect(seen.map((h) => h['X-Extra'])).toEqual([undefined, undefined, undefined]);
  expect(seen.map((h) => h['X-Trace'])).toEqual([undefined, 't', undefined]);
});

it('hands an onRequest hook live Headers, and fetch gets the headers as the hook left them', async () => {
  const sent: Headers[] = [];
  const fetch: Fetch = async (_url, init) => {
    sent.push(new Headers(init.headers));
    return json(ADA);
  };
  const client = new CustomersClient({ apiKey: KEY, fetch, hooks: { onRequest: ({ headers }) => headers.set('traceparent', '00-t') } });
  await client.customers.get(ID);
  expect(sent[0]!.get('traceparent')).toBe('00-t');
  expect(sent[0]!.get('x-api-key')).toBe(KEY);
});

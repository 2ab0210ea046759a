import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import type { ApiRequest, ApiResponse } from '../http/types.js';
import { createMockApi } from './mock-api.js';

const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const key = generateApiKey();
const listRequest = (): ApiRequest => {
  const headers = new Headers({ 'X-API-Key': key });
  return { method: 'GET', path: '/api/customers', header: (name) => headers.get(name), body: null };
};

describe('createMockApi seeding and requests', () => {
  it('reads and answers a request that arrives while seed() or reset() runs only after it', async () => {
    const api = createMockApi();
    const sellerId = api.defaultSeller!.sellerId;
    const countAtRead: number[] = [];
    const read = async () => {
      countAtRead.push(api.store.countCustomers(sellerId));
      return listRequest();
    };

    const seeding = api.seed({ customers: [ada] });
    const duringSeed = api.answer('GET', '/api/customers', read);
    await seeding;
    expect(((await duringSeed) as ApiResponse).body).toMatchObject({ data: [{ email: 'ada@example.com' }] });

    const resetting = api.reset();
    const duringReset = api.answer('GET', '/api/customers', read);
    await resetting;
    expect(((await duringReset) as ApiResponse).body).toMatchObject({ data: [] });
    expect(countAtRead).toEqual([1, 0]);
  });

  it('reads a request at once when nothing is queued: no waiting while idle', async () => {
    const api = createMockApi({ seed: [{ customers: [ada] }] });
    await api.ready;
    await new Promise<void>((resolve) => setImmediate(resolve));
    let read = false;
    const answer = api.answer('GET', '/api/customers', async () => {
      read = true;
      return listRequest();
    });
    expect(read).toBe(true);
    expect(((await answer) as ApiResponse).status).toBe(200);
  });

  it('fails every later request with the seed error, also long after the refused seed', async () => {
    const api = createMockApi({ seed: [{ customers: [ada, ada] }] });
    await expect(api.ready).rejects.toThrow(/already exists/);
    // Nothing is queued any more: the requests fail because the seed did, not because they waited for it.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await expect(api.answer('GET', '/api/customers', async () => listRequest())).rejects.toThrow(/already exists/);
    await expect(api.answer('GET', '/api/customers', async () => listRequest())).rejects.toThrow(/already exists/);
  });
});

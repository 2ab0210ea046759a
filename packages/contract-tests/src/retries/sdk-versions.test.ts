import { createMockServer } from '@customers-api/mock-server';
import { API_VERSION, BadRequestError, CustomersClient } from '@customers-api/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The SDK's Customers-Version end to end, against the stateful HTTP mock over real HTTP: what it sends, and the
// version the answer reports.
describe('SDK API versions against the stateful HTTP mock', () => {
  const sent: Array<string | null> = [];
  let close: () => Promise<void>;
  let client: CustomersClient;

  beforeAll(async () => {
    const mock = await createMockServer();
    const baseUrl = await mock.listen(0);
    close = () => mock.close();
    const fetch = (url: string, init: RequestInit) => {
      sent.push(new Headers(init.headers).get('customers-version'));
      return globalThis.fetch(url, init);
    };
    client = new CustomersClient({ apiKey: `sk_live_${'v'.repeat(48)}`, baseUrl, fetch, maxRetries: 0 });
  });
  afterAll(async () => {
    await close?.();
  });

  it('sends the version the SDK was generated for, and the answer says it applied it', async () => {
    const { apiVersion } = await client.customers.list({ limit: 1 }).withResponse();
    expect(sent.at(-1)).toBe(API_VERSION);
    expect(apiVersion).toBe(API_VERSION);
  });

  it('a version the API does not know is refused, and the error says which version answered', async () => {
    const error = await client
      .withOptions({ apiVersion: '2001-01-01' })
      .customers.list({ limit: 1 })
      .catch((e: unknown) => e);
    expect(sent.at(-1)).toBe('2001-01-01');
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).apiMessage).toContain('Customers-Version');
    expect((error as BadRequestError).headers.get('customers-version')).toBe(API_VERSION);
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { BASE_URL, KEY, apiError, json, scriptedClient } from '../../test/helpers/fixtures';
import { CustomersClient } from '../client';
import { PermissionDeniedError } from '../core/errors';

// client.testData: the request it sends and how the answer comes back, through a scripted fetch. The wipe's rules are
// the API's (the server's isolation suite and the contract suite).

const TEST_KEY = `sk_test_${'A1b2'.repeat(12)}`;
let sent: Request[];
let answers: Response[];
let client: CustomersClient;

beforeEach(() => {
  ({ client, sent, answers } = scriptedClient((fetch) => new CustomersClient({ apiKey: TEST_KEY, baseUrl: BASE_URL, maxRetries: 0, fetch })));
});

describe('client.testData.delete', () => {
  it('sends DELETE /api/test_data without a body and answers what was wiped', async () => {
    answers.push(json({ customers: 12, webhook_endpoints: 1, events: 30 }));
    const wiped = await client.testData.delete({ requestId: 'wipe-1' });
    expect(wiped).toEqual({ customers: 12, webhook_endpoints: 1, events: 30 });
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([`DELETE ${BASE_URL}/api/test_data`]);
    expect(sent[0]!.headers.get('x-api-key')).toBe(TEST_KEY);
    expect(sent[0]!.headers.get('x-request-id')).toBe('wipe-1');
    expect(sent[0]!.headers.has('content-type')).toBe(false);
    expect(await sent[0]!.text()).toBe('');
  });

  it('rejects with PermissionDeniedError when the key is a live one (403)', async () => {
    const live = new CustomersClient({ apiKey: KEY, baseUrl: BASE_URL, maxRetries: 0, fetch: async () => apiError(403, 'Forbidden', 'Only a test key may wipe the test data') });
    const error = await live.testData.delete().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as PermissionDeniedError).status).toBe(403);
  });

  it('is retried like any DELETE (a wipe repeated deletes what is left)', async () => {
    answers.push(apiError(503, 'Service Unavailable', 'try again', { 'retry-after': '0' }), json({ customers: 0, webhook_endpoints: 0, events: 0 }));
    const wiped = await client.withOptions({ maxRetries: 1 }).testData.delete();
    expect(wiped).toEqual({ customers: 0, webhook_endpoints: 0, events: 0 });
    expect(sent.map((r) => r.method)).toEqual(['DELETE', 'DELETE']);
  });

  it('hands the raw response over with withResponse()', async () => {
    answers.push(json({ customers: 1, webhook_endpoints: 0, events: 2 }, 200, { 'x-request-id': 'req_wipe' }));
    const { data, response } = await client.testData.delete().withResponse();
    expect(data.events).toBe(2);
    expect(response.headers.get('x-request-id')).toBe('req_wipe');
  });
});

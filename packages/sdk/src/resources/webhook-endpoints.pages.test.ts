import { beforeEach, describe, expect, it } from 'vitest';
import { BASE_URL, KEY, json, scriptedClient } from '../../test/helpers/fixtures';
import { CustomersClient } from '../client';

// client.webhookEndpoints.list, its other calls' optional parts (the caller's Idempotency-Key, a rotation's body)
// and client.events.list without filters: what is sent, page after page.

const ID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const endpoint = (n: number) => ({
  id: `7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4${n}`, url: `https://shop${n}.example.com/hooks`, events: ['customer.updated'], description: '',
  api_version: '2026-11-26', disabled: false, disabled_at: null, failing: false, failing_since: null, previous_secret_expires_at: null,
  created_at: '2026-11-25T09:12:03.120Z',
});
const page = (items: unknown[], next: string | null) => json({ data: items, has_more: next !== null, next_cursor: next });

let sent: Request[];
let answers: Response[];
let client: CustomersClient;

beforeEach(() => {
  ({ client, sent, answers } = scriptedClient((fetch) => new CustomersClient({ apiKey: KEY, baseUrl: BASE_URL, fetch, maxRetries: 0 })));
});

describe('client.webhookEndpoints.list', () => {
  it('asks GET /api/webhook_endpoints without a query when no filter is given', async () => {
    answers.push(page([endpoint(1)], null));
    const first = await client.webhookEndpoints.list();
    expect(first.data.map((e) => e.id)).toEqual([endpoint(1).id]);
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${BASE_URL}/api/webhook_endpoints`]);
  });

  it('walks every page with for await, repeating the limit with each cursor', async () => {
    answers.push(page([endpoint(3), endpoint(2)], 'c1'), page([endpoint(1)], null));
    const seen: string[] = [];
    for await (const item of client.webhookEndpoints.list({ limit: 2 })) seen.push(item.id);
    expect(seen).toEqual([endpoint(3).id, endpoint(2).id, endpoint(1).id]);
    expect(sent.map((r) => Object.fromEntries(new URL(r.url).searchParams))).toEqual([{ limit: '2' }, { limit: '2', cursor: 'c1' }]);
  });

  it('keeps the call’s options for later pages, unless getNextPage() is given new ones', async () => {
    answers.push(page([endpoint(3)], 'c1'), page([endpoint(2)], 'c2'), page([endpoint(1)], null));
    const first = await client.webhookEndpoints.list({}, { headers: { 'X-Trace': 'a' } });
    const second = await first.getNextPage();
    await second.getNextPage({}, { headers: { 'X-Trace': 'b' } });
    expect(sent.map((r) => r.headers.get('x-trace'))).toEqual(['a', 'a', 'b']);
    expect(sent.map((r) => new URL(r.url).searchParams.get('cursor'))).toEqual([null, 'c1', 'c2']);
  });
});

describe('client.webhookEndpoints: optional parts', () => {
  it('sends the caller’s Idempotency-Key as given', async () => {
    answers.push(json({ ...endpoint(1), secret: 'whsec_abc' }, 201));
    await client.webhookEndpoints.create({ url: 'https://shop1.example.com/hooks' }, { idempotencyKey: 'deploy-42' });
    expect(sent[0]!.headers.get('idempotency-key')).toBe('deploy-42');
  });

  it('sends a fresh Idempotency-Key per create call', async () => {
    answers.push(json({ ...endpoint(1), secret: 'whsec_a' }, 201), json({ ...endpoint(2), secret: 'whsec_b' }, 201));
    await client.webhookEndpoints.create({ url: 'https://shop1.example.com/hooks' });
    await client.webhookEndpoints.create({ url: 'https://shop2.example.com/hooks' });
    const [a, b] = sent.map((r) => r.headers.get('idempotency-key'));
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });

  it('sends a rotation’s overlap as the JSON body', async () => {
    answers.push(json({ ...endpoint(1), secret: 'whsec_new' }));
    await client.webhookEndpoints.rotateSecret(ID, { overlap_seconds: 3600 });
    expect(sent[0]!.url).toBe(`${BASE_URL}/api/webhook_endpoints/${ID}/rotate_secret`);
    expect(sent[0]!.headers.get('content-type')).toBe('application/json');
    expect(await sent[0]!.json()).toEqual({ overlap_seconds: 3600 });
  });

  it('sends no body and no content type for a rotation without options', async () => {
    answers.push(json({ ...endpoint(1), secret: 'whsec_new' }));
    await client.webhookEndpoints.rotateSecret(ID);
    expect(sent[0]!.headers.has('content-type')).toBe(false);
    expect(await sent[0]!.text()).toBe('');
  });
});

describe('client.events.list', () => {
  it('asks GET /api/events without a query when no filter is given, and keeps the call’s options for later pages', async () => {
    const event = (n: number) => ({
      id: `evt_${String(n).padStart(32, '0')}`, type: 'customer.deleted', api_version: '2026-11-26', created_at: '2026-11-25T11:00:00.000Z',
      data: { customer: { id: '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61', seller_id: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a' }, sequence: n },
    });
    answers.push(page([event(2)], 'c1'), page([event(1)], 'c2'), page([], null));
    const first = await client.events.list(undefined, { headers: { 'X-Trace': 'a' } });
    const second = await first.getNextPage();
    await second.getNextPage({}, { headers: { 'X-Trace': 'b' } });
    expect(sent.map((r) => r.url)).toEqual([`${BASE_URL}/api/events`, `${BASE_URL}/api/events?cursor=c1`, `${BASE_URL}/api/events?cursor=c2`]);
    expect(sent.map((r) => r.headers.get('x-trace'))).toEqual(['a', 'a', 'b']);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BASE_URL, KEY, json, scriptedClient } from '../../test/helpers/fixtures';
import { CustomersClient } from '../client';
import { NotFoundError, PermissionDeniedError } from '../core/errors';

// client.webhookEndpoints and client.events: the requests they send (method, path, query, headers, body) and how
// answers come back, through a scripted fetch. Their rules are the API's (core's tests and the contract suite).

const ENDPOINT_ID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const ENDPOINT = {
  id: ENDPOINT_ID, url: 'https://shop.example.com/hooks', events: ['customer.updated'], description: '', api_version: '2026-11-26',
  disabled: false, disabled_at: null, failing: false, failing_since: null, previous_secret_expires_at: null, created_at: '2026-11-25T09:12:03.120Z',
};
const event = (n: number) => ({
  id: `evt_${String(n).padStart(32, '0')}`, type: 'customer.deleted', api_version: '2026-11-26', created_at: '2026-11-25T11:00:00.000Z',
  data: { customer: { id: '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61', seller_id: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a' }, sequence: n },
});

let sent: Request[];
let answers: Response[];
let client: CustomersClient;

beforeEach(() => {
  ({ client, sent, answers } = scriptedClient((fetch) => new CustomersClient({ apiKey: KEY, baseUrl: BASE_URL, fetch })));
  vi.spyOn(Math, 'random').mockReturnValue(0); // zero backoff
});
afterEach(() => vi.restoreAllMocks());

describe('client.webhookEndpoints', () => {
  it('creates with an Idempotency-Key reused on the retry, and answers the secret', async () => {
    answers.push(json({ error: 'Internal Server Error', message: 'x' }, 500), json({ ...ENDPOINT, secret: 'whsec_abc' }, 201));
    const created = await client.webhookEndpoints.create({ url: 'https://shop.example.com/hooks', events: ['customer.updated'] });
    expect(created.secret).toBe('whsec_abc');
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${BASE_URL}/api/webhook_endpoints`, `POST ${BASE_URL}/api/webhook_endpoints`]);
    const keys = sent.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    expect(await sent[0]!.json()).toEqual({ url: 'https://shop.example.com/hooks', events: ['customer.updated'] });
  });

  it('gets, updates, deletes, rotates and replays at the contract’s paths', async () => {
    answers.push(json(ENDPOINT), json({ ...ENDPOINT, disabled: true }), new Response(null, { status: 204 }), json({ ...ENDPOINT, secret: 'whsec_new' }), json({ queued: 2, has_more: false, next_cursor: null }));
    await client.webhookEndpoints.get(ENDPOINT_ID);
    await client.webhookEndpoints.update(ENDPOINT_ID, { disabled: true });
    await client.webhookEndpoints.delete(ENDPOINT_ID);
    expect((await client.webhookEndpoints.rotateSecret(ENDPOINT_ID)).secret).toBe('whsec_new');
    expect(await client.webhookEndpoints.replay(ENDPOINT_ID, { since: '2026-11-25T08:00:00Z', only_undelivered: true })).toEqual({ queued: 2, has_more: false, next_cursor: null });
    const path = `${BASE_URL}/api/webhook_endpoints/${ENDPOINT_ID}`;
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${path}`, `PATCH ${path}`, `DELETE ${path}`, `POST ${path}/rotate_secret`, `POST ${path}/replay`]);
    expect(await sent[3]!.text()).toBe('');
    expect(await sent[4]!.json()).toEqual({ since: '2026-11-25T08:00:00Z', only_undelivered: true });
  });

  it('throws the typed errors of the answers', async () => {
    answers.push(json({ error: 'Not Found', message: 'Webhook endpoint not found' }, 404));
    await expect(client.webhookEndpoints.get(ENDPOINT_ID)).rejects.toBeInstanceOf(NotFoundError);
    answers.push(json({ error: 'Forbidden', message: 'Webhook endpoint limit reached' }, 403));
    await expect(client.webhookEndpoints.create({ url: 'https://a.example.com' })).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});

describe('client.events', () => {
  it('walks every page with for await, repeating the filters with the cursor', async () => {
    answers.push(json({ data: [event(3), event(2)], has_more: true, next_cursor: 'c1' }), json({ data: [event(1)], has_more: false, next_cursor: null }));
    const seen: string[] = [];
    const since = new Date('2026-11-25T08:00:00.000Z');
    for await (const item of client.events.list({ undelivered_to: ENDPOINT_ID, created_after: since, limit: 2 })) seen.push(item.id);
    expect(seen).toEqual([event(3).id, event(2).id, event(1).id]);
    const queries = sent.map((r) => new URL(r.url).searchParams);
    expect(Object.fromEntries(queries[0]!)).toEqual({ undelivered_to: ENDPOINT_ID, created_after: since.toISOString(), limit: '2' });
    expect(queries[1]!.get('cursor')).toBe('c1');
    expect(queries[1]!.get('undelivered_to')).toBe(ENDPOINT_ID);
  });

  it('gets one event by the id a delivery carries', async () => {
    answers.push(json(event(1)));
    expect(await client.events.get(event(1).id)).toEqual(event(1));
    expect(sent[0]!.url).toBe(`${BASE_URL}/api/events/${event(1).id}`);
  });
});

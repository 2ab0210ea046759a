import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import type { ApiResponse } from '../http/types.js';
import { createMockApi } from '../mock/mock-api.js';

// The webhook-endpoint and event operations through core's whole API (routing, the operation table, the
// service and the memory store), as every mock host runs them.

const NOW = '2026-11-25T09:00:00.000Z';

async function setup() {
  const api = createMockApi({ frozenAt: NOW });
  const seller = await api.addSeller({});
  const other = await api.addSeller({});
  const call = async (method: string, target: string, body?: unknown, headers: Record<string, string> = {}, key = seller.apiKey) => {
    const [path, query = ''] = target.split('?');
    const all = new Headers({ 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers });
    const bytes = body === undefined ? null : new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body));
    const answer = await api.answer(method, path!, async () => ({ method, path: path!, query, header: (name) => all.get(name), body: bytes }));
    return answer as ApiResponse & { body: Record<string, unknown> & { message?: string } };
  };
  return { api, seller, other, call };
}

const url = 'https://crm.example.com/hooks';

describe('webhook endpoints', () => {
  it('registers an endpoint, shows its secret once, and reads, lists, changes and deletes it', async () => {
    const { call } = await setup();
    const created = await call('POST', '/api/webhook_endpoints', { url: 'HTTPS://CRM.example.com:443/hooks', events: ['customer.updated'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url, events: ['customer.updated'], description: '', disabled: false, failing: false, api_version: '2026-11-26' });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created.headers.Location).toBe(`/api/webhook_endpoints/${created.body.id}`);
    const path = `/api/webhook_endpoints/${created.body.id}`;
    const { secret: _secret, ...shown } = created.body;
    expect((await call('GET', path)).body).toEqual(shown);
    expect((await call('GET', '/api/webhook_endpoints')).body).toEqual({ data: [shown], has_more: false, next_cursor: null });
    const changed = await call('PATCH', path, { events: ['customer.deleted', 'customer.created'], description: 'CRM', disabled: true });
    expect(changed.body).toMatchObject({ events: ['customer.created', 'customer.deleted'], description: 'CRM', disabled: true });
    expect(changed.body.disabled_at).toMatch(/^2026-11-25T09:00:00\.\d{3}Z$/);
    expect((await call('DELETE', path)).status).toBe(204);
    expect((await call('GET', path)).status).toBe(404);
  });

  it('pages the list with a cursor bound to the seller', async () => {
    const { call, other } = await setup();
    for (let i = 0; i < 3; i++) await call('POST', '/api/webhook_endpoints', { url: `${url}/${i}` });
    const first = await call('GET', '/api/webhook_endpoints?limit=2');
    expect((first.body.data as { url: string }[]).map((e) => e.url)).toEqual([`${url}/2`, `${url}/1`]);
    const next = await call('GET', `/api/webhook_endpoints?limit=2&cursor=${first.body.next_cursor}`);
    expect(next.body).toMatchObject({ has_more: false, next_cursor: null, data: [{ url: `${url}/0` }] });
    const foreign = await call('GET', `/api/webhook_endpoints?cursor=${first.body.next_cursor}`, undefined, {}, other.apiKey);
    expect(foreign.status).toBe(400);
    expect((await call('GET', '/api/webhook_endpoints?limit=0')).body.message).toBe('limit must be at least 1');
  });

  it('refuses bad input naming the property, changing nothing', async () => {
    const { call } = await setup();
    const refused = async (body: unknown) => (await call('POST', '/api/webhook_endpoints', body)).body.message;
    expect(await refused({ url: 'ftp://crm.example.com' })).toBe('url must be an http or https URL');
    expect(await refused({})).toBe('url is required');
    expect(await refused({ url, secret: 'whsec_x' })).toBe('secret is not an allowed property');
    expect(await refused({ url, events: ['customer.merged'] })).toBe('events.0 must be one of: customer.created, customer.updated, customer.deleted');
    expect(await refused({ url, events: [] })).toBe('events must have at least 1 item');
    expect(await refused({ url, description: 'a\u202eb' })).toBe('description must not contain control or bidirectional formatting characters');
    expect(await refused({ url, api_version: '2020-01-01' })).toBe('api_version must be one of: 2026-11-26');
    expect(await refused('[1]')).toBe('body must be a JSON object');
    expect((await call('PATCH', '/api/webhook_endpoints/7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', {})).body.message).toBe('body must have at least 1 property');
    expect((await call('GET', '/api/webhook_endpoints')).body.data).toEqual([]);
  });

  it('answers the cap with 403 and a taken URL with 409', async () => {
    const { call } = await setup();
    expect((await call('POST', '/api/webhook_endpoints', { url })).status).toBe(201);
    const taken = await call('POST', '/api/webhook_endpoints', { url });
    expect(taken).toMatchObject({ status: 409, body: { message: `url ${url}/ already has a webhook endpoint in this account; edit that one instead`.replace(`${url}/`, url) } });
    for (let i = 1; i < 10; i++) expect((await call('POST', '/api/webhook_endpoints', { url: `${url}/${i}` })).status).toBe(201);
    const over = await call('POST', '/api/webhook_endpoints', { url: `${url}/10` });
    expect(over.status).toBe(403);
    expect(over.body.message).toMatch(/at most 10 webhook endpoints/);
  });

  it('answers another seller’s endpoint and a malformed id as missing, on every operation', async () => {
    const { call, other } = await setup();
    const created = await call('POST', '/api/webhook_endpoints', { url });
    for (const id of [created.body.id as string, 'not-a-uuid']) {
      const path = `/api/webhook_endpoints/${id}`;
      const key = id === 'not-a-uuid' ? undefined : other.apiKey;
      const answers = [
        await call('GET', path, undefined, {}, key),
        await call('PATCH', path, { description: 'x' }, {}, key),
        await call('POST', `${path}/rotate_secret`, undefined, {}, key),
        await call('POST', `${path}/replay`, { since: NOW }, {}, key),
        await call('DELETE', path, undefined, {}, key),
      ];
      for (const answer of answers) expect(answer).toMatchObject({ status: 404, body: { error: 'Not Found', message: 'Webhook endpoint not found' } });
    }
    expect((await call('GET', `/api/webhook_endpoints/${created.body.id}`)).status).toBe(200);
  });

  it('answers an idempotent create again with the same endpoint and secret', async () => {
    const { call } = await setup();
    const headers = { 'Idempotency-Key': 'deploy-1' };
    const first = await call('POST', '/api/webhook_endpoints', { url }, headers);
    const again = await call('POST', '/api/webhook_endpoints', { url }, headers);
    expect(again).toMatchObject({ status: 201, body: { id: first.body.id, secret: first.body.secret } });
    expect((await call('POST', '/api/webhook_endpoints', { url: `${url}/2` }, headers)).status).toBe(400);
  });

  it('rotates the secret with a 24-hour overlap, another one, or none', async () => {
    const { call } = await setup();
    const created = await call('POST', '/api/webhook_endpoints', { url });
    const path = `/api/webhook_endpoints/${created.body.id}/rotate_secret`;
    const rotated = await call('POST', path);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    // The mock's clock is frozen; its timestamps still step a millisecond per call.
    const after = (body: Record<string, unknown>) => Date.parse(body.previous_secret_expires_at as string) - Date.parse(NOW);
    expect(Math.floor(after(rotated.body) / 1000)).toBe(86_400);
    expect(Math.floor(after((await call('POST', path, { overlap_seconds: 60 })).body) / 1000)).toBe(60);
    expect((await call('POST', path, { overlap_seconds: 0 })).body.previous_secret_expires_at).toBeNull();
    expect((await call('POST', path, { overlap_seconds: 604_801 })).body.message).toBe('overlap_seconds must be at most 604800');
  });
});

describe('events', () => {
  async function withEvents() {
    const context = await setup();
    const endpoint = await context.call('POST', '/api/webhook_endpoints', { url });
    const customer = await context.call('POST', '/api/customers', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    await context.call('PATCH', `/api/customers/${customer.body.id}`, { status: 'suspended' });
    return { ...context, endpointId: endpoint.body.id as string, customerId: customer.body.id as string };
  }

  it('lists the seller’s events newest first, reads one by the id a delivery carries, and filters', async () => {
    const { call, other, customerId, endpointId } = await withEvents();
    const list = await call('GET', '/api/events');
    const [updated, created] = list.body.data as { id: string; type: string }[];
    expect([updated!.type, created!.type]).toEqual(['customer.updated', 'customer.created']);
    expect((await call('GET', `/api/events/${created!.id}`)).body).toEqual(created);
    expect((await call('GET', `/api/events/${created!.id}`, undefined, {}, other.apiKey)).body).toEqual({ error: 'Not Found', message: 'Event not found' });
    expect((await call('GET', '/api/events/evt_nope')).status).toBe(404);
    expect((await call('GET', '/api/events?type=customer.created')).body.data).toEqual([created]);
    expect((await call('GET', `/api/events?customer_id=${customerId.toUpperCase()}`)).body.data).toHaveLength(2);
    expect((await call('GET', `/api/events?undelivered_to=${endpointId}`)).body.data).toHaveLength(2);
    const page = await call('GET', '/api/events?limit=1');
    expect(page.body).toMatchObject({ data: [updated], has_more: true });
    expect((await call('GET', `/api/events?limit=1&cursor=${page.body.next_cursor}`)).body).toMatchObject({ data: [created], has_more: false });
    expect((await call('GET', '/api/events', undefined, {}, other.apiKey)).body.data).toEqual([]);
  });

  it('refuses bad filters naming them', async () => {
    const { call, other } = await withEvents();
    const message = async (query: string, key?: string) => (await call('GET', `/api/events?${query}`, undefined, {}, key)).body.message;
    expect(await message('type=customer.merged')).toBe('type must be one of: customer.created, customer.updated, customer.deleted');
    expect(await message('undelivered_to=7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f')).toBe('undelivered_to is not a webhook endpoint of this account');
    expect(await message('created_after=yesterday')).toBe('created_after must be an ISO 8601 date-time with a time zone, such as 2026-11-25T09:30:00Z');
    expect(await message('sort=asc')).toBe('sort is not an allowed query parameter');
    const { body } = await call('GET', '/api/webhook_endpoints');
    const endpointId = (body.data as { id: string }[])[0]!.id;
    expect(await message(`undelivered_to=${endpointId}`, other.apiKey)).toBe('undelivered_to is not a webhook endpoint of this account');
  });

  it('replays the events an endpoint did not get, each once, and refuses for a disabled endpoint', async () => {
    const { api, call, seller, endpointId } = await withEvents();
    const events = (await call('GET', '/api/events')).body.data as { id: string }[];
    for (const event of events) api.webhookStore.setDeliveryState(seller.sellerId, event.id, endpointId, 'failed', NOW);
    const path = `/api/webhook_endpoints/${endpointId}/replay`;
    expect((await call('POST', path, { since: '2026-11-01T00:00:00Z', only_undelivered: true })).body).toEqual({ queued: 2, has_more: false, next_cursor: null });
    expect((await call('POST', path, { since: '2026-11-01T00:00:00Z', only_undelivered: true })).body).toEqual({ queued: 0, has_more: false, next_cursor: null });
    expect((await call('POST', path, { since: '2027-01-01T00:00:00Z' })).body.message).toBe('since must not be in the future');
    expect((await call('POST', path, {})).body.message).toBe('since is required');
    await call('PATCH', `/api/webhook_endpoints/${endpointId}`, { disabled: true });
    expect((await call('POST', path, { since: '2026-11-01T00:00:00Z' })).status).toBe(409);
  });
});

import { expect } from 'vitest';
import { send, type RawResponse } from '../support/http.js';
import { outcome, sdkFor } from '../support/sdk.js';
import type { Transcript } from '../support/transcript.js';
import type { Target, TargetSeller } from '../targets/target.js';
import { ada, step, type Scenario } from './scenario.js';

// The webhook-endpoint and event operations (issue 37): each operation with each status it documents that a
// client can provoke (not 429 or 500), on every stateful target. URLs are public names (no target resolves them
// when registering).

const UNKNOWN_ID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const hookUrl = (name: string) => `https://hooks.example.com/${name}`; // unique per seller; every run has new sellers
const HUGE = JSON.stringify({ description: 'x'.repeat(70_000) });

/** Records an answer with its cursor (different on every target) and any URL made random here as placeholders. */
function record(t: Transcript, label: string, response: RawResponse): RawResponse {
  const body = response.json;
  const scrub = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(/https:\/\/hooks\.example\.com\/[^ /]+\/[a-z0-9]+\/?/g, '<url>');
    if (Array.isArray(value)) return value.map(scrub);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'next_cursor' && typeof v === 'string' ? '<cursor>' : scrub(v)]));
    }
    return value;
  };
  t.record(label, response.status, scrub(body));
  return response;
}

async function endpointOf(target: Target, seller: TargetSeller, name: string, extra: Record<string, unknown> = {}) {
  const created = await send(target, 'POST', '/api/webhook_endpoints', { key: seller.key, body: { url: hookUrl(name), ...extra } });
  expect(created.status).toBe(201);
  return created.json as { id: string; url: string; secret: string };
}

export const webhookScenarios: Scenario[] = [
  {
    name: 'webhook endpoints and events: every operation answers its success status (Prism: from the examples)',
    stateless: true,
    validRequestsOnly: true,
    async run(target, t) {
      const seller = await target.newSeller();
      const call = async (label: string, method: string, path: string, body?: unknown) => {
        const response = await send(target, method, path, { key: seller.key, body });
        t.record(label, response.status, undefined);
        return response;
      };
      const created = await call('create', 'POST', '/api/webhook_endpoints', { url: hookUrl('examples') });
      expect(created.status).toBe(201);
      const path = `/api/webhook_endpoints/${created.json.id}`;
      expect((await call('get', 'GET', path)).status).toBe(200);
      expect((await call('list', 'GET', '/api/webhook_endpoints')).status).toBe(200);
      expect((await call('update', 'PATCH', path, { description: 'examples' })).status).toBe(200);
      expect((await call('rotate', 'POST', `${path}/rotate_secret`)).status).toBe(200);
      expect((await call('create customer', 'POST', '/api/customers', ada('examples'))).status).toBe(201);
      const events = await call('list events', 'GET', '/api/events');
      expect(events.status).toBe(200);
      expect((await call('get event', 'GET', `/api/events/${events.json.data[0].id}`)).status).toBe(200);
      expect((await call('replay', 'POST', `${path}/replay`, { since: '2026-01-01T00:00:00Z' })).status).toBe(200);
      expect((await call('delete', 'DELETE', path)).status).toBe(204);
    },
  },
  {
    name: 'webhook endpoints: create answers the secret once; get, list, update, delete; another seller gets 404',
    async run(target, t) {
      const seller = await target.newSeller();
      const other = await target.newSeller();
      const sdk = sdkFor(target, seller.key);
      const url = hookUrl('crud');
      const created = step(t, 'create', await outcome(sdk.webhookEndpoints.create({ url, events: ['customer.updated'], description: 'CRM' })));
      expect(created).toMatchObject({ status: 201, body: { url, events: ['customer.updated'], description: 'CRM', disabled: false } });
      expect(created.body.secret).toMatch(/^whsec_/);
      const path = `/api/webhook_endpoints/${created.body.id}`;
      const read = record(t, 'get', await send(target, 'GET', path, { key: seller.key }));
      expect(read.status).toBe(200);
      expect(read.json.secret).toBeUndefined();
      const list = record(t, 'list', await send(target, 'GET', '/api/webhook_endpoints?limit=1', { key: seller.key }));
      expect(list.json).toMatchObject({ data: [{ id: created.body.id }], has_more: false, next_cursor: null });
      const updated = record(t, 'update', await send(target, 'PATCH', path, { key: seller.key, body: { events: ['customer.deleted', 'customer.created'], disabled: true } }));
      expect(updated.json).toMatchObject({ events: ['customer.created', 'customer.deleted'], disabled: true });
      for (const [method, suffix, body] of [['GET', '', undefined], ['PATCH', '', { description: 'x' }], ['DELETE', '', undefined], ['POST', '/rotate_secret', undefined], ['POST', '/replay', { since: '2026-01-01T00:00:00Z' }]] as const) {
        const answer = record(t, `${method} ${suffix} of another seller`, await send(target, method, `${path}${suffix}`, { key: other.key, body }));
        expect(answer.json).toEqual({ error: 'Not Found', message: 'Webhook endpoint not found' });
      }
      expect(record(t, 'delete', await send(target, 'DELETE', path, { key: seller.key })).status).toBe(204);
      expect(record(t, 'delete again', await send(target, 'DELETE', path, { key: seller.key })).status).toBe(404);
      expect(record(t, 'get malformed id', await send(target, 'GET', '/api/webhook_endpoints/42', { key: seller.key })).status).toBe(404);
    },
  },
  {
    name: 'webhook endpoints: bad input is 400 naming the property, 401 without a key, 409 for a taken URL, 403 past the cap',
    async run(target, t) {
      const seller = await target.newSeller();
      const refused = async (label: string, body: unknown) => record(t, label, await send(target, 'POST', '/api/webhook_endpoints', { key: seller.key, body }));
      expect((await refused('ftp url', { url: 'ftp://hooks.example.com/x' })).json.message).toBe('url must be an http or https URL');
      expect((await refused('unknown event', { url: hookUrl('bad'), events: ['customer.merged'] })).json.message).toMatch(/^events\.0 must be one of/);
      expect((await refused('unknown property', { url: hookUrl('bad'), secret: 'whsec_x' })).json.message).toBe('secret is not an allowed property');
      expect(record(t, 'list bad limit', await send(target, 'GET', '/api/webhook_endpoints?limit=0', { key: seller.key })).status).toBe(400);
      expect(record(t, 'list without key', await send(target, 'GET', '/api/webhook_endpoints')).status).toBe(401);
      expect(record(t, 'create without key', await send(target, 'POST', '/api/webhook_endpoints', { body: { url: hookUrl('nokey') } })).status).toBe(401);
      expect(record(t, 'create not json', await send(target, 'POST', '/api/webhook_endpoints', { key: seller.key, raw: 'url=x', contentType: 'text/plain' })).status).toBe(415);
      expect(record(t, 'create too large', await send(target, 'POST', '/api/webhook_endpoints', { key: seller.key, raw: HUGE })).status).toBe(413);
      const first = await endpointOf(target, seller, 'taken');
      expect(record(t, 'taken url', await send(target, 'POST', '/api/webhook_endpoints', { key: seller.key, body: { url: first.url } })).status).toBe(409);
      const second = await endpointOf(target, seller, 'second');
      const path = `/api/webhook_endpoints/${second.id}`;
      expect(record(t, 'update to taken url', await send(target, 'PATCH', path, { key: seller.key, body: { url: first.url } })).status).toBe(409);
      expect(record(t, 'update empty', await send(target, 'PATCH', path, { key: seller.key, body: {} })).status).toBe(400);
      expect(record(t, 'update not json', await send(target, 'PATCH', path, { key: seller.key, raw: 'x', contentType: 'text/plain' })).status).toBe(415);
      expect(record(t, 'update too large', await send(target, 'PATCH', path, { key: seller.key, raw: HUGE })).status).toBe(413);
      expect(record(t, 'update unknown', await send(target, 'PATCH', `/api/webhook_endpoints/${UNKNOWN_ID}`, { key: seller.key, body: { description: 'x' } })).status).toBe(404);
      for (let i = 2; i < 10; i++) await endpointOf(target, seller, `fill${i}`);
      const over = record(t, 'eleventh', await send(target, 'POST', '/api/webhook_endpoints', { key: seller.key, body: { url: hookUrl('eleventh') } }));
      expect(over.status).toBe(403);
      expect(over.json.message).toMatch(/at most 10 webhook endpoints/);
      expect(record(t, 'get without key', await send(target, 'GET', path)).status).toBe(401);
      expect(record(t, 'delete without key', await send(target, 'DELETE', path)).status).toBe(401);
      expect(record(t, 'update without key', await send(target, 'PATCH', path, { body: { description: 'x' } })).status).toBe(401);
    },
  },
  {
    name: 'webhook endpoints: rotate answers a new secret (body optional); replay counts and refuses a disabled endpoint',
    async run(target, t) {
      const seller = await target.newSeller();
      const endpoint = await endpointOf(target, seller, 'rotate');
      const path = `/api/webhook_endpoints/${endpoint.id}`;
      const rotated = record(t, 'rotate', await send(target, 'POST', `${path}/rotate_secret`, { key: seller.key }));
      expect(rotated.status).toBe(200);
      expect(rotated.json.secret).not.toBe(endpoint.secret);
      expect(rotated.json.previous_secret_expires_at).toEqual(expect.any(String));
      const none = record(t, 'rotate without overlap', await send(target, 'POST', `${path}/rotate_secret`, { key: seller.key, body: { overlap_seconds: 0 } }));
      expect(none.json.previous_secret_expires_at).toBeNull();
      expect(record(t, 'rotate bad overlap', await send(target, 'POST', `${path}/rotate_secret`, { key: seller.key, body: { overlap_seconds: -1 } })).status).toBe(400);
      expect(record(t, 'rotate not json', await send(target, 'POST', `${path}/rotate_secret`, { key: seller.key, raw: 'x', contentType: 'text/plain' })).status).toBe(415);
      expect(record(t, 'rotate too large', await send(target, 'POST', `${path}/rotate_secret`, { key: seller.key, raw: HUGE })).status).toBe(413);
      expect(record(t, 'rotate without key', await send(target, 'POST', `${path}/rotate_secret`)).status).toBe(401);
      const since = new Date(Date.now() - 60_000).toISOString();
      const replay = record(t, 'replay', await send(target, 'POST', `${path}/replay`, { key: seller.key, body: { since, only_undelivered: true } }));
      expect(replay.json).toEqual({ queued: 0, has_more: false, next_cursor: null });
      expect(record(t, 'replay without since', await send(target, 'POST', `${path}/replay`, { key: seller.key, body: {} })).json.message).toBe('since is required');
      expect(record(t, 'replay future', await send(target, 'POST', `${path}/replay`, { key: seller.key, body: { since: '2999-01-01T00:00:00Z' } })).status).toBe(400);
      expect(record(t, 'replay not json', await send(target, 'POST', `${path}/replay`, { key: seller.key, raw: 'x', contentType: 'text/plain' })).status).toBe(415);
      expect(record(t, 'replay too large', await send(target, 'POST', `${path}/replay`, { key: seller.key, raw: HUGE })).status).toBe(413);
      expect(record(t, 'replay without key', await send(target, 'POST', `${path}/replay`, { body: { since } })).status).toBe(401);
      await send(target, 'PATCH', path, { key: seller.key, body: { disabled: true } });
      expect(record(t, 'replay disabled', await send(target, 'POST', `${path}/replay`, { key: seller.key, body: { since } })).status).toBe(409);
    },
  },
  {
    name: 'events: changes an endpoint subscribed to are listed newest first, read by id, filtered; others see none',
    async run(target, t) {
      const seller = await target.newSeller();
      const other = await target.newSeller();
      const endpoint = await endpointOf(target, seller, 'events');
      const sdk = sdkFor(target, seller.key);
      const customer = (await outcome(sdk.customers.create(ada('events')))).body;
      await outcome(sdk.customers.update(customer.id, { status: 'suspended' }));
      const list = record(t, 'list', await send(target, 'GET', `/api/events?undelivered_to=${endpoint.id}`, { key: seller.key }));
      expect(list.status).toBe(200);
      expect(list.json.data.map((e: { type: string }) => e.type)).toEqual(['customer.updated', 'customer.created']);
      const [updated, created] = list.json.data;
      expect(updated.data.changed_fields).toEqual(['status']);
      const page = record(t, 'first page', await send(target, 'GET', '/api/events?limit=1', { key: seller.key }));
      expect(page.json).toMatchObject({ data: [{ id: updated.id }], has_more: true });
      const next = record(t, 'next page', await send(target, 'GET', `/api/events?limit=1&cursor=${encodeURIComponent(page.json.next_cursor)}`, { key: seller.key }));
      expect(next.json).toMatchObject({ data: [{ id: created.id }], has_more: false });
      const byId = step(t, 'get', await outcome(sdk.events.get(created.id)));
      expect(byId).toEqual({ status: 200, body: created });
      expect(record(t, 'by type', await send(target, 'GET', '/api/events?type=customer.created', { key: seller.key })).json.data).toEqual([created]);
      expect(record(t, 'by customer', await send(target, 'GET', `/api/events?customer_id=${customer.id}`, { key: seller.key })).json.data).toHaveLength(2);
      expect(record(t, 'other seller get', await send(target, 'GET', `/api/events/${created.id}`, { key: other.key })).json).toEqual({ error: 'Not Found', message: 'Event not found' });
      expect(record(t, 'other seller list', await send(target, 'GET', '/api/events', { key: other.key })).json.data).toEqual([]);
      expect(record(t, 'malformed id', await send(target, 'GET', '/api/events/evt_1', { key: seller.key })).status).toBe(404);
      expect(record(t, 'bad type', await send(target, 'GET', '/api/events?type=customer.merged', { key: seller.key })).status).toBe(400);
      expect(record(t, 'foreign endpoint', await send(target, 'GET', `/api/events?undelivered_to=${endpoint.id}`, { key: other.key })).json.message).toBe('undelivered_to is not a webhook endpoint of this account');
      expect(record(t, 'list without key', await send(target, 'GET', '/api/events')).status).toBe(401);
      expect(record(t, 'get without key', await send(target, 'GET', `/api/events/${created.id}`)).status).toBe(401);
    },
  },
];

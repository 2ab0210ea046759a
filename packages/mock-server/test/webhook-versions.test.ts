// Events in each webhook endpoint's pinned version, over the mock's real HTTP, with the test-only fixture version
// (it called `company_name` `company`): core's chain renders them, the mock's store keeps the latest shape.
import { LATEST_API_VERSION, type CustomerEvent } from '@customers-api/core';
import { FIXTURE_OLD_VERSION, fixtureVersioning } from '@customers-api/core/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, parseSeed, type MockServer } from '../src/index.js';
import { ada, key, startReceiver, type Receiver } from './support.js';

const SHOP = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

let mock: MockServer;
let url: string;
let oldReceiver: Receiver;
let newReceiver: Receiver;

const control = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${url}/__mock${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
};

beforeAll(async () => {
  [oldReceiver, newReceiver] = await Promise.all([startReceiver(), startReceiver()]);
  mock = await createMockServer({
    seed: parseSeed({
      sellers: [{ id: SHOP, keys: [{ key: key('a') }] }],
      webhooks: [{ url: oldReceiver.url, secret: SECRET, apiVersion: FIXTURE_OLD_VERSION }],
    }),
    versioning: fixtureVersioning(),
  });
  url = await mock.listen(0);
});
afterAll(async () => {
  await mock.close();
  await Promise.all([oldReceiver.close(), newReceiver.close()]);
});

describe('webhook events in the endpoint’s version', () => {
  it('sends the old shape to an endpoint pinned to the older version and the new one to the latest, the store unchanged', async () => {
    const added = await control('POST', '/webhooks', { url: newReceiver.url, secret: SECRET, sellerId: SHOP });
    expect(added.status).toBe(201);
    // The seeded seller is pinned to the latest: so is its endpoint, when none is named.
    expect(added.body.apiVersion).toBe(LATEST_API_VERSION);
    expect((await control('GET', '/webhooks')).body.data.map((e: { apiVersion: string }) => e.apiVersion)).toEqual([
      FIXTURE_OLD_VERSION,
      LATEST_API_VERSION,
    ]);

    const created = await fetch(`${url}/api/customers`, {
      method: 'POST',
      headers: { 'X-API-Key': key('a'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...ada, company_name: 'Engines Ltd' }),
    });
    expect(created.status).toBe(201);
    const [[old], [latest]] = await Promise.all([oldReceiver.waitFor(1), newReceiver.waitFor(1)]);
    const oldEvent = new Webhook(SECRET).verify(old!.body, old!.headers) as CustomerEvent & { data: { customer: Record<string, unknown> } };
    const newEvent = new Webhook(SECRET).verify(latest!.body, latest!.headers) as CustomerEvent & { data: { customer: Record<string, unknown> } };

    expect(old!.headers['customers-version']).toBe(FIXTURE_OLD_VERSION);
    expect(oldEvent.api_version).toBe(FIXTURE_OLD_VERSION);
    expect(oldEvent.data.customer.company).toBe('Engines Ltd');
    expect(oldEvent.data.customer).not.toHaveProperty('company_name');

    expect(latest!.headers['customers-version']).toBe(LATEST_API_VERSION);
    expect(newEvent.api_version).toBe(LATEST_API_VERSION);
    expect(newEvent.data.customer.company_name).toBe('Engines Ltd');
    expect(newEvent.data.customer).not.toHaveProperty('company');
    expect(oldEvent.id).toBe(newEvent.id);

    // The deliveries list what each endpoint got; the store has the latest shape.
    const deliveries = (await control('GET', '/deliveries')).body.data as { event: { api_version: string } }[];
    expect(deliveries.map((d) => d.event.api_version).sort()).toEqual([LATEST_API_VERSION, FIXTURE_OLD_VERSION].sort());
    const stored = await mock.api.store.findCustomer({ sellerId: SHOP, mode: 'live' }, String(newEvent.data.customer.id));
    expect(stored).toMatchObject({ company_name: 'Engines Ltd' });
    expect(stored).not.toHaveProperty('company');
  });

  it('refuses an endpoint pinned to a version that is not open, naming apiVersion', async () => {
    const refused = await control('POST', '/webhooks', { url: newReceiver.url, apiVersion: '2020-01-01' });
    expect(refused).toEqual({
      status: 400,
      body: { error: 'Bad Request', message: `endpoint.apiVersion: must be one of: ${LATEST_API_VERSION}, ${FIXTURE_OLD_VERSION}` },
    });
    const malformed = await control('POST', '/webhooks', { url: newReceiver.url, apiVersion: '2020-13' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/apiVersion: must be an API version, YYYY-MM-DD/);
  });
});

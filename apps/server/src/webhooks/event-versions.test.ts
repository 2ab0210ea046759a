import { randomBytes } from 'node:crypto';
import { LATEST_API_VERSION } from '@customers-api/core';
import { FIXTURE_OLD_VERSION, fixtureVersioning } from '@customers-api/core/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSellerApiVersion } from '../db/sellers.js';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestServer } from '../test/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';
import { createEndpoint } from './endpoints.js';
import { createSecretBox } from './secret-box.js';

const box = createSecretBox(randomBytes(32));
const versions = fixtureVersioning().versions;

// The fixture version (test-only) called `company_name` `company`: an endpoint pinned to it gets the old shape.
describe.each(DIALECTS)('events in an endpoint’s pinned version on %s', (dialect) => {
  let server: TestServer;
  let oldReceiver: WebhookReceiver;
  let newReceiver: WebhookReceiver;
  beforeAll(async () => {
    server = await startTestServer(dialect, {
      versioning: fixtureVersioning(),
      webhooks: { secrets: box, allowPrivate: true, pollIntervalMs: 100 },
    });
    [oldReceiver, newReceiver] = await Promise.all([startWebhookReceiver(), startWebhookReceiver()]);
  });
  afterAll(async () => {
    await server.close();
    await Promise.all([oldReceiver.close(), newReceiver.close()]);
  });

  async function endpoint(sellerId: string, url: string, apiVersion?: string) {
    const result = await createEndpoint(server.handle, box, sellerId, { url, apiVersion }, { allowPrivate: true, versions });
    if (result.kind !== 'created') throw new Error(result.message);
    return result.endpoint;
  }

  it('sends the old shape to an endpoint pinned to the older version and the new one to the latest, the store unchanged', async () => {
    const seller = await server.seller();
    // Pinned to the seller's version (the older one) at creation; the other chooses the latest.
    await setSellerApiVersion(server.handle, seller.sellerId, FIXTURE_OLD_VERSION);
    const old = await endpoint(seller.sellerId, oldReceiver.url);
    const latest = await endpoint(seller.sellerId, newReceiver.url, LATEST_API_VERSION);
    expect([old.api_version, latest.api_version]).toEqual([FIXTURE_OLD_VERSION, LATEST_API_VERSION]);

    const created = await server.call('POST', '/api/customers', {
      key: seller.key,
      body: newCustomer({ company_name: 'Engines Ltd' }),
      headers: { 'Customers-Version': LATEST_API_VERSION },
    });
    expect(created.status).toBe(201);
    const id = String((created.json as { id: string }).id);
    const updated = await server.call('PATCH', `/api/customers/${id}`, {
      key: seller.key,
      body: { company_name: 'Babbage & Co' },
      headers: { 'Customers-Version': LATEST_API_VERSION },
    });
    expect(updated.status).toBe(200);

    const mine = (all: WebhookReceiver['received']) => all.filter((r) => r.event?.data?.customer?.id === id);
    const [oldGot, newGot] = await Promise.all([
      oldReceiver.waitUntil((all) => mine(all).length >= 2),
      newReceiver.waitUntil((all) => mine(all).length >= 2),
    ]);
    const [oldCreated, oldUpdated] = mine(oldGot);
    const [newCreated, newUpdated] = mine(newGot);

    expect(oldCreated!.event.api_version).toBe(FIXTURE_OLD_VERSION);
    expect(oldCreated!.headers['customers-version']).toBe(FIXTURE_OLD_VERSION);
    expect(oldCreated!.event.data.customer.company).toBe('Engines Ltd');
    expect(oldCreated!.event.data.customer).not.toHaveProperty('company_name');
    expect(oldUpdated!.event.data.changed_fields).toEqual(['company']);

    expect(newCreated!.event.api_version).toBe(LATEST_API_VERSION);
    expect(newCreated!.headers['customers-version']).toBe(LATEST_API_VERSION);
    expect(newCreated!.event.data.customer.company_name).toBe('Engines Ltd');
    expect(newCreated!.event.data.customer).not.toHaveProperty('company');
    expect(newUpdated!.event.data.changed_fields).toEqual(['company_name']);
    // One event, two renderings: the same id, each signed over the body its endpoint got.
    expect(oldCreated!.event.id).toBe(newCreated!.event.id);
    expect(new Webhook(old.secret).verify(oldCreated!.body, oldCreated!.headers as Record<string, string>)).toEqual(oldCreated!.event);
    expect(new Webhook(latest.secret).verify(newCreated!.body, newCreated!.headers as Record<string, string>)).toEqual(newCreated!.event);

    // The store keeps the latest shape only.
    const row = await server.handle.db.selectFrom('customers').select('company_name').where('id', '=', id).executeTakeFirst();
    expect(row?.company_name).toBe('Babbage & Co');
    const change = await server.handle.db.selectFrom('customer_changes').select('customer').where('customer_id', '=', id).executeTakeFirst();
    const stored = typeof change!.customer === 'string' ? JSON.parse(change!.customer) : change!.customer;
    expect(stored).toHaveProperty('company_name');
    expect(stored).not.toHaveProperty('company');
  });

  it('refuses an endpoint pinned to a version that is not open, naming api_version', async () => {
    const seller = await server.seller();
    const result = await createEndpoint(server.handle, box, seller.sellerId, { url: newReceiver.url, apiVersion: '2020-13-01' }, { allowPrivate: true, versions });
    expect(result).toEqual({
      kind: 'invalid',
      property: 'api_version',
      message: `api_version must be one of: ${LATEST_API_VERSION}, ${FIXTURE_OLD_VERSION}`,
    });
  });
});

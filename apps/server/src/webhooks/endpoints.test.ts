import { randomBytes } from 'node:crypto';
import { sampleCustomer } from '@customers-api/core/testing';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSeller } from '../db/sellers.js';
import { SqlCustomerStore } from '../db/sql-customer-store.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import {
  createEndpoint,
  deleteEndpoint,
  endpointOwner,
  findEndpoint,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  rotateEndpointSecret,
} from './endpoints.js';
import { editEndpoint } from './endpoint-edits.js';
import { createSecretBox } from './secret-box.js';
import { live } from '@customers-api/core/testing';

const box = createSecretBox(randomBytes(32));

describe.each(DIALECTS)('webhook endpoints on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  let seller: string;
  let other: string;
  beforeAll(async () => {
    seller = (await createSeller(db.handle, { name: 'Hooks', plan: 'starter' })).id;
    other = (await createSeller(db.handle, { name: 'Other', plan: 'starter' })).id;
  });

  it('creates an endpoint with a whsec_ secret shown once, every event type by default, and lists it', async () => {
    const result = await createEndpoint(db.handle, box, seller, { url: 'https://crm.example.com/hooks' });
    if (result.kind !== 'created') throw new Error(result.message);
    const { secret, ...endpoint } = result.endpoint;
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({
      seller_id: seller,
      url: 'https://crm.example.com/hooks',
      events: ['customer.created', 'customer.updated', 'customer.deleted'],
      failing: false,
      failing_since: null,
      disabled: false,
      disabled_at: null,
      previous_secret_expires_at: null,
    });
    expect(await listEndpoints(db.handle, seller)).toContainEqual(endpoint);
    expect(await findEndpoint(db.handle, seller, endpoint.id)).toEqual(endpoint);
    expect(await endpointOwner(db.handle, endpoint.id)).toBe(seller);
  });

  it('keeps no plaintext secret in the database, before or after a rotation', async () => {
    const created = await createEndpoint(db.handle, box, seller, { url: 'https://a.example.com/', events: ['customer.deleted'] });
    if (created.kind !== 'created') throw new Error(created.message);
    const rotated = await rotateEndpointSecret(db.handle, box, seller, created.endpoint.id);
    expect(rotated?.secret).toMatch(/^whsec_/);
    expect(rotated?.secret).not.toBe(created.endpoint.secret);
    const dump = JSON.stringify(await db.handle.db.selectFrom('webhook_endpoints').selectAll().execute());
    for (const secret of [created.endpoint.secret, rotated!.secret]) {
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(secret.slice('whsec_'.length));
    }
    const row = await db.handle.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', created.endpoint.id)
      .executeTakeFirstOrThrow();
    expect(box.open(row.secret, row.id)).toBe(rotated!.secret);
    expect(box.open(row.previous_secret!, row.id)).toBe(created.endpoint.secret);
    // Sealed for this endpoint only: the same text does not open as another endpoint's secret.
    expect(() => box.open(row.secret, crypto.randomUUID())).toThrow();
    expect((await findEndpoint(db.handle, seller, row.id))?.previous_secret_expires_at).toBe(rotated!.previous_secret_expires_at);
  });

  it('refuses a bad url or event list, naming the property', async () => {
    expect(await createEndpoint(db.handle, box, seller, { url: 'ftp://example.com/' })).toEqual({
      kind: 'invalid',
      property: 'url',
      message: 'url must be an http or https URL',
    });
    expect(await createEndpoint(db.handle, box, seller, { url: 'http://127.0.0.1:9/' })).toMatchObject({ property: 'url' });
    expect((await createEndpoint(db.handle, box, seller, { url: 'http://127.0.0.1:9/' }, { allowPrivate: true })).kind).toBe('created');
    expect(await createEndpoint(db.handle, box, seller, { url: 'https://x.example/', events: ['customer.moved'] })).toMatchObject({
      property: 'events',
      message: expect.stringMatching(/^events must be .*"customer.moved"/),
    });
    expect(await createEndpoint(db.handle, box, seller, { url: 'https://x.example/', events: [] })).toMatchObject({ property: 'events' });
  });

  it("refuses a URL the seller already has, also when creates and edits race, and leaves other sellers' URLs alone", async () => {
    const url = 'https://race.example.com/hooks';
    // Five creates in the same turn (one SQLite group commit, or five PostgreSQL transactions) at one URL.
    const results = await Promise.all(Array.from({ length: 5 }, () => createEndpoint(db.handle, box, seller, { url })));
    expect(results.filter((result) => result.kind === 'created')).toHaveLength(1);
    expect(results.filter((result) => result.kind === 'duplicate_url')).toEqual(
      Array.from({ length: 4 }, () => ({ kind: 'duplicate_url', message: `url ${url} already has a webhook endpoint in this account; edit that one instead` })),
    );
    // The same URL normalized (host case, default port) is the same URL.
    expect((await createEndpoint(db.handle, box, seller, { url: 'https://RACE.example.com:443/hooks' })).kind).toBe('duplicate_url');
    expect((await listEndpoints(db.handle, seller)).filter((endpoint) => endpoint.url === url)).toHaveLength(1);
    const third = (await createSeller(db.handle, { name: 'Third', plan: 'starter' })).id;
    expect((await createEndpoint(db.handle, box, third, { url })).kind).toBe('created');

    // Two endpoints moved to one new URL at once: one moves, the other is refused and keeps its URL.
    const first = await createEndpoint(db.handle, box, seller, { url: 'https://race-a.example.com/' });
    const second = await createEndpoint(db.handle, box, seller, { url: 'https://race-b.example.com/' });
    if (first.kind !== 'created' || second.kind !== 'created') throw new Error('setup');
    const target = 'https://race-target.example.com/';
    const edits = await Promise.all([first, second].map(({ endpoint }) => editEndpoint(db.handle, seller, endpoint.id, { url: target })));
    expect(edits.map((edit) => edit.kind).sort()).toEqual(['duplicate_url', 'updated']);
    const urls = (await listEndpoints(db.handle, seller)).map((endpoint) => endpoint.url);
    expect(urls.filter((u) => u === target)).toHaveLength(1);
    expect(urls.filter((u) => u === 'https://race-a.example.com/' || u === 'https://race-b.example.com/')).toHaveLength(1);
  });

  it('scopes every operation by seller', async () => {
    const created = await createEndpoint(db.handle, box, seller, { url: 'https://mine.example.com/' });
    if (created.kind !== 'created') throw new Error(created.message);
    const id = created.endpoint.id;
    expect(await findEndpoint(db.handle, other, id)).toBeUndefined();
    expect(await listEndpoints(db.handle, other)).toEqual([]);
    expect(await rotateEndpointSecret(db.handle, box, other, id)).toBeUndefined();
    expect(await listDeliveries(db.handle, other, id)).toBeUndefined();
    expect(await deleteEndpoint(db.handle, other, id)).toBe(false);
    expect(await findEndpoint(db.handle, seller, 'not-a-uuid')).toBeUndefined();
    expect(await deleteEndpoint(db.handle, seller, id)).toBe(true);
    expect(await findEndpoint(db.handle, seller, id)).toBeUndefined();
  });

  it('fans a change out to the subscribed endpoints only, lists its deliveries and resends one', async () => {
    const fresh = (await createSeller(db.handle, { name: 'Fan-out', plan: 'starter' })).id;
    const all = await createEndpoint(db.handle, box, fresh, { url: 'https://all.example.com/' });
    const deletes = await createEndpoint(db.handle, box, fresh, { url: 'https://deletes.example.com/', events: ['customer.deleted'] });
    if (all.kind !== 'created' || deletes.kind !== 'created') throw new Error('not created');
    const store = new SqlCustomerStore(db.handle);
    const ada = sampleCustomer(fresh);
    await store.insertCustomer(ada, { customerLimit: 10 });
    await store.deleteCustomer(live(fresh), ada.id);

    const toAll = await listDeliveries(db.handle, fresh, all.endpoint.id);
    expect(toAll?.map((d) => [d.event_type, d.sequence, d.status, d.attempts])).toEqual([
      ['customer.deleted', 2, 'pending', 0],
      ['customer.created', 1, 'pending', 0],
    ]);
    const toDeletes = await listDeliveries(db.handle, fresh, deletes.endpoint.id);
    expect(toDeletes?.map((d) => d.event_type)).toEqual(['customer.deleted']);
    expect(toDeletes![0]!.event_id).toBe(toAll![0]!.event_id);

    // A given-up delivery, resent: due now, attempts start over.
    await db.handle.db
      .updateTable('webhook_deliveries')
      .set({ attempts: 12, next_attempt_at: null, given_up_at: new Date().toISOString(), last_status: 500 })
      .where('endpoint_id', '=', deletes.endpoint.id)
      .execute();
    expect((await listDeliveries(db.handle, fresh, deletes.endpoint.id))![0]!.status).toBe('failed');
    expect(await resendDelivery(db.handle, other, deletes.endpoint.id, toDeletes![0]!.event_id)).toBe(false);
    expect(await resendDelivery(db.handle, fresh, deletes.endpoint.id, 'evt_0')).toBe(false);
    expect(await resendDelivery(db.handle, fresh, deletes.endpoint.id, toDeletes![0]!.event_id)).toBe(true);
    expect((await listDeliveries(db.handle, fresh, deletes.endpoint.id))![0]).toMatchObject({ status: 'pending', attempts: 0 });

    // Deleting the endpoint drops its deliveries; the outbox keeps the changes.
    expect(await deleteEndpoint(db.handle, fresh, all.endpoint.id)).toBe(true);
    const left = await sql<{ n: number }>`select count(*) as n from webhook_deliveries where endpoint_id = ${all.endpoint.id}`.execute(db.handle.db);
    expect(Number(left.rows[0]!.n)).toBe(0);
  });
});

import { randomBytes } from 'node:crypto';
import { describeWebhookStoreContract } from '@customers-api/core/testing';
import { describe, expect, it } from 'vitest';
import { listAuditRows } from '../audit/audit-log.js';
import { SqlCustomerStore } from '../db/sql-customer-store.js';
import { newTestSeller } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { createSecretBox } from './secret-box.js';
import { SqlWebhookStore } from './sql-webhook-store.js';
import { live } from '@customers-api/core/testing';

const box = createSecretBox(randomBytes(32));
const audit = { actor: { type: 'api_key' as const, id: 'key-1', label: 'sk_live_abc' }, requestId: 'req_1', clientAddress: null };

for (const dialect of DIALECTS) {
  const db = useTestDatabase(dialect);
  describeWebhookStoreContract(`SqlWebhookStore on ${dialect}`, {
    open: async () => ({ customers: new SqlCustomerStore(db.handle), webhooks: new SqlWebhookStore(db.handle, box, audit) }),
    newSeller: () => newTestSeller(db.handle),
    // The outbox triggers record a change in the write's own transaction.
    settle: async () => {},
    async setDeliveryState(sellerId, eventId, endpointId, state) {
      const at = new Date().toISOString();
      const change = await db.handle.db.selectFrom('customer_changes').select('id').where('seller_id', '=', sellerId).where('event_id', '=', eventId).executeTakeFirstOrThrow();
      const result = await db.handle.db
        .updateTable('webhook_deliveries')
        .set(state === 'delivered' ? { delivered_at: at, next_attempt_at: null } : { given_up_at: at, next_attempt_at: null })
        .where('change_id', '=', change.id)
        .where('endpoint_id', '=', endpointId)
        .executeTakeFirst();
      if (result.numUpdatedRows !== 1n) throw new Error('no such delivery');
    },
  });
}

describe.each(DIALECTS)('SqlWebhookStore on %s, beyond the contract', (dialect) => {
  const db = useTestDatabase(dialect);

  it('keeps secrets sealed at rest and writes an audit row with each change, for the store’s actor', async () => {
    const store = new SqlWebhookStore(db.handle, box, audit);
    const sellerId = await newTestSeller(db.handle);
    const id = globalThis.crypto.randomUUID();
    const secret = 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0';
    const endpoint = {
      id, sellerId, mode: 'live' as const, url: `https://hooks.example.com/${id}`, events: ['customer.created' as const], description: '', apiVersion: '2026-11-26',
      disabledAt: null, failingSince: null, secret, previousSecret: null, previousSecretExpiresAt: null, createdAt: new Date().toISOString(),
    };
    expect((await store.insertEndpoint(endpoint, { cap: 10 })).kind).toBe('created');
    const row = await db.handle.db.selectFrom('webhook_endpoints').select('secret').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(secret.slice(6));
    expect((await store.findEndpoint(live(sellerId), id))?.secret).toBe(secret);
    await store.updateEndpoint(live(sellerId), id, { disabledAt: new Date().toISOString() });
    await store.rotateSecret(live(sellerId), id, 'whsec_bmV3bmV3bmV3', null);
    await store.deleteEndpoint(live(sellerId), id);
    const rows = await listAuditRows(db.handle, { sellerId, limit: 10 });
    expect(rows.map((r) => [r.action, r.actor_type, r.actor_id, r.target_id, r.request_id]).reverse()).toEqual([
      ['webhook_endpoint.created', 'api_key', 'key-1', id, 'req_1'],
      ['webhook_endpoint.disabled', 'api_key', 'key-1', id, 'req_1'],
      ['webhook_endpoint.secret_rotated', 'api_key', 'key-1', id, 'req_1'],
      ['webhook_endpoint.deleted', 'api_key', 'key-1', id, 'req_1'],
    ]);
  });

  it('applies the seller’s own endpoint cap and says which', async () => {
    const store = new SqlWebhookStore(db.handle, box, audit);
    const sellerId = await newTestSeller(db.handle);
    await db.handle.db.updateTable('sellers').set({ webhook_endpoint_limit: 0 }).where('id', '=', sellerId).execute();
    const { sampleEndpoint } = await import('@customers-api/core/testing');
    expect(await store.insertEndpoint(sampleEndpoint(sellerId), { cap: 10 })).toEqual({ kind: 'limit_reached', limit: 0 });
  });
});

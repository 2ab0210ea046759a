import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { sameOrigin, signIn } from '../dashboard/dashboard-test-helpers.js';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestServer } from '../test/test-server.js';
import { changedFieldsOf, fieldChanges } from './audit-details.js';
import { listAuditRows } from './audit-log.js';

// Issue 35: a roll's row links the old and new key; an update records each changed field before and after,
// never a secret; the Activity page gets each object's name.

describe('audit details', () => {
  it('records only the fields that changed, and never a secret-like one', () => {
    expect(fieldChanges({ rate_limit: 5, api_version: 'a' }, { rate_limit: 10, api_version: 'a' }, ['rate_limit', 'api_version'])).toEqual({
      changes: { rate_limit: { before: 5, after: 10 } },
    });
    expect(fieldChanges({ a: 1 }, { a: 1 }, ['a'])).toBeUndefined();
    expect(changedFieldsOf({ secret: 'x', key_hash: 'h', updated_at: '1', name: 'a' }, { secret: 'y', key_hash: 'i', updated_at: '2', name: 'b' })).toEqual({
      changes: { name: { before: 'a', after: 'b' } },
    });
    expect(fieldChanges({ address: { city: 'A' } }, { address: { city: 'B' } }, ['address'])).toEqual({
      changes: { address: { before: { city: 'A' }, after: { city: 'B' } } },
    });
  });
});

describe.each(DIALECTS)('audit details on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  it("links a roll's old and new key, and records each update's changed fields, with names on the Activity page", async () => {
    const seller = await server.seller();
    const cookie = await signIn(server, seller.sellerId);
    const call = (method: string, path: string, body?: unknown) =>
      server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...sameOrigin(server) }, body });
    const secrets: string[] = [];

    const key = (await call('POST', '/keys', { name: 'Production checkout' })).json;
    secrets.push(key.key);
    const rolled = await call('POST', `/keys/${key.id}/roll`, { overlap: '1h' });
    expect(rolled.status).toBe(201);
    secrets.push(rolled.json.key.key ?? rolled.json.key);
    const newKeyId = rolled.json.key.id as string;

    const endpoint = (await call('POST', '/webhooks', { url: 'https://shop.example.com/hooks' })).json;
    secrets.push(endpoint.secret);
    const edited = await call('PATCH', `/webhooks/${endpoint.id}`, { url: 'https://shop.example.com/v2/hooks', description: 'orders' });
    expect(edited.status).toBe(200);

    const customer = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer({ first_name: 'Ada' }) })).json;
    expect((await call('PATCH', `/customers/${customer.id}`, { first_name: 'Grace' })).status).toBe(200);
    // A refused update records nothing.
    expect((await call('PATCH', `/customers/${customer.id}`, { status: 'nope' })).status).toBe(400);

    let out = '';
    const code = await runCli(['sellers', 'update', seller.sellerId, '--rate-limit', '42', '--database', server.database.url], { out: (t) => (out += t), err: () => {}, env: {} });
    expect(code, out).toBe(0);

    const rows = (await listAuditRows(server.handle, { sellerId: seller.sellerId, limit: 20 })).reverse();
    const byAction = (action: string) => rows.filter((row) => row.action === action);
    expect(byAction('api_key.rolled')).toHaveLength(1);
    expect(byAction('api_key.rolled')[0]).toMatchObject({ target_id: key.id, details: { previous_key_id: key.id, new_key_id: newKeyId } });
    expect(byAction('api_key.created').map((row) => [row.target_id, row.details])).toEqual([
      [key.id, null],
      [newKeyId, { rolled_from: key.id }],
    ]);
    expect(byAction('webhook_endpoint.updated')[0]!.details).toEqual({
      changes: {
        url: { before: 'https://shop.example.com/hooks', after: 'https://shop.example.com/v2/hooks' },
        description: { before: '', after: 'orders' },
      },
    });
    expect(byAction('customer.updated').map((row) => row.details)).toEqual([{ changes: { first_name: { before: 'Ada', after: 'Grace' } } }]);
    const sellerRow = byAction('seller.updated')[0]!;
    expect(Object.keys(sellerRow.details!.changes!)).toEqual(['rate_limit']);
    expect(sellerRow.details!.changes!.rate_limit!.after).toBe(42);
    expect(sellerRow).toMatchObject({ actor_type: 'cli' });

    const stored = JSON.stringify(await server.handle.db.selectFrom('audit_log').select('details').where('seller_id', '=', seller.sellerId).execute());
    for (const secret of secrets.filter(Boolean)) expect(stored).not.toContain(secret);
    expect(stored).not.toMatch(/whsec_|sk_live_/);

    // The Activity page: the key by its name, the endpoint by its URL, the customer by name, with the details.
    const activity = await call('GET', '/activity');
    expect(activity.status).toBe(200);
    const entries = activity.json.entries as { action: string; target_id: string | null; target_name: string | null; details: unknown }[];
    const named = (action: string) => entries.find((entry) => entry.action === action)!;
    expect(named('api_key.rolled')).toMatchObject({ target_name: 'Production checkout', details: { previous_key_id: key.id, new_key_id: newKeyId } });
    expect(named('webhook_endpoint.updated').target_name).toBe('https://shop.example.com/v2/hooks');
    expect(named('customer.updated').target_name).toMatch(/^Grace /);
    expect(named('seller.updated').target_name).toBeNull();
    expect(named('sign_in.used')).toMatchObject({ target_name: null, details: null });
  });

  it('names only the signed-in seller\'s objects', async () => {
    const seller = await server.seller();
    const other = await server.seller();
    const cookie = await signIn(server, seller.sellerId);
    // Another seller's key id written as this seller's target (as a forged row would be): no name lent.
    await server.handle.db.insertInto('audit_log').values({
      occurred_at: new Date().toISOString(), seller_id: seller.sellerId, actor_type: 'cli', actor_id: null, actor_label: null,
      action: 'api_key.revoked', target_id: other.keyId, request_id: null, client_address: null,
    }).execute();
    const activity = await server.call('GET', '/dashboard/api/activity', { headers: { cookie } });
    const entry = (activity.json.entries as { action: string; target_name: string | null }[]).find((e) => e.action === 'api_key.revoked')!;
    expect(entry.target_name).toBeNull();
  });
});

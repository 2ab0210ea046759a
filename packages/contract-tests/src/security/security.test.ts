import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listApiKeys } from '@customers-api/server';
import { createConformanceLog } from '../conformance/checked-fetch.js';
import { send } from '../support/http.js';
import { issuedKeyList, leakedKeys } from '../support/log-capture.js';
import { sdkFor } from '../support/sdk.js';
import { startServerTarget, type ServerTarget } from '../targets/server-target.js';

// Tenancy and revocation run as scenarios on every target; this file holds what only the server can show.
const log = createConformanceLog();
const servers: Partial<Record<'sqlite' | 'postgres', ServerTarget>> = {};
const issued: string[] = [];

beforeAll(async () => {
  servers.sqlite = await startServerTarget('sqlite', log);
  servers.postgres = await startServerTarget('postgres', log);
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.close()));
});

describe.each(['sqlite', 'postgres'] as const)('security on %s', (dialect) => {
  it('an expired key is refused from the moment it expires (no cache)', async () => {
    const server = servers[dialect]!;
    const owner = await server.newSeller();
    const expiring = await server.newKey(owner.sellerId, new Date(Date.now() + 3_600_000).toISOString());
    issued.push(owner.key, expiring.key);
    const sdk = sdkFor(server, expiring.key);
    const created = await sdk.customers.create({ first_name: 'Exp', last_name: 'Iry', email: `expiry.${dialect}@example.com` });
    expect((await send(server, 'GET', `/api/customers/${created.id}`, { key: expiring.key })).status).toBe(200);
    server.advanceClock(3_600_000 + 1_000);
    const refused = await send(server, 'GET', `/api/customers/${created.id}`, { key: expiring.key });
    expect({ status: refused.status, body: refused.json }).toEqual({ status: 401, body: { error: 'Unauthorized', message: expect.any(String) } });
    expect((await send(server, 'PATCH', `/api/customers/${created.id}`, { key: expiring.key, bearer: true, body: { status: 'inactive' } })).status).toBe(401);
    // The seller's other key still works and sees the customer unchanged.
    expect((await send(server, 'GET', `/api/customers/${created.id}`, { key: owner.key })).json).toEqual(created);
  });

  it('a key revoked between two requests is refused on the very next one', async () => {
    const server = servers[dialect]!;
    const seller = await server.newSeller();
    issued.push(seller.key);
    for (let round = 0; round < 3; round += 1) {
      const key = round === 0 ? seller : await server.newKey(seller.sellerId);
      issued.push(key.key);
      expect((await send(server, 'POST', '/api/customers', { key: key.key, body: { first_name: 'R', last_name: `${round}`, email: `rev.${round}@example.com` } })).status).toBe(201);
      await server.revokeKey(key);
      expect((await send(server, 'POST', '/api/customers', { key: key.key, body: { first_name: 'R', last_name: 'x', email: `revx.${round}@example.com` } })).status).toBe(401);
    }
    expect(await server.countCustomers(seller.sellerId)).toBe(3);
  });

  it('no key is stored in plain text, and listings show only a prefix', async () => {
    const server = servers[dialect]!;
    // Use every key once more so that last-used bookkeeping has written whatever it writes.
    const seller = await server.newSeller();
    issued.push(seller.key);
    await send(server, 'GET', `/api/customers/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, { key: seller.key });
    const listed = JSON.stringify(await listApiKeys(server.handle, seller.sellerId));
    expect(listed).not.toContain(seller.key);
    await server.app.drainKeyUsage();
    const stored = await storedText(server);
    expect(stored.length).toBeGreaterThan(1_000);
    const keys = issuedKeyList();
    expect(keys).toEqual(expect.arrayContaining(issued));
    const secretParts = keys.map((key) => key.slice('sk_live_'.length));
    expect(secretParts.filter((secret) => stored.includes(secret))).toEqual([]);
    console.log(`[security] ${dialect}: ${keys.length} keys searched in ${stored.length} characters of stored data, none found`);
  });
});

describe('security: logs and conformance', () => {
  it('every response matched openapi.yaml and no key reached the logs', () => {
    expect(log.violations).toEqual([]);
    expect(leakedKeys().leaked).toEqual([]);
  });
});

/** SQLite: the bytes of the database file, its WAL and shared memory. PostgreSQL: every table's rows as text. */
async function storedText(server: ServerTarget): Promise<string> {
  if (server.dialect === 'sqlite') {
    const file = server.database.url.slice('sqlite:'.length);
    const files = readdirSync(dirname(file)).filter((name) => name.startsWith(file.split('/').pop()!));
    expect(files).toEqual(expect.arrayContaining(['test.db', 'test.db-wal']));
    return files.map((name) => readFileSync(join(dirname(file), name)).toString('latin1')).join('\n');
  }
  const db = server.handle.db as any;
  const tables: Array<{ table_name: string }> = await db
    .selectFrom('information_schema.tables')
    .select('table_name')
    .where('table_schema', '=', 'public')
    .execute();
  expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['api_keys', 'customers', 'sellers']));
  const dumps = await Promise.all(tables.map(async ({ table_name }) => JSON.stringify(await db.selectFrom(table_name).selectAll().execute())));
  return dumps.join('\n');
}

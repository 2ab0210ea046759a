import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { buildCustomer } from '@customers-api/core';
import { sql } from 'kysely';
import * as currentServer from '@customers-api/server';
import type { DatabaseHandle } from '@customers-api/server';
import { sampleIds, type Fixture } from './fixture.js';

export interface SeedOptions {
  sellers: number;
  /** Customers in total, spread evenly over the sellers. */
  customers: number;
}

/**
 * A database brought up by the server's own migrations, with `sellers` sellers (one API key each, a limit high
 * enough for any run) and their customers built by core (the defaults a create would give). SQLite rows go in
 * through one prepared INSERT in one transaction (a million in seconds); PostgreSQL generates its own.
 */
export async function seedDatabase(
  url: string,
  { sellers, customers }: SeedOptions,
  server: Pick<typeof currentServer, 'connectDatabase' | 'migrateToLatest' | 'createSeller' | 'createApiKey'> = currentServer,
): Promise<Fixture> {
  const { connectDatabase, createApiKey, createSeller, migrateToLatest } = server;
  const handle = connectDatabase(url);
  const fixture: Fixture = { sellers: [] };
  const perSeller: Array<{ sellerId: string; ids: string[] }> = [];
  try {
    await migrateToLatest(handle);
    for (let s = 0; s < sellers; s++) {
      const seller = await createSeller(handle, { name: `bench seller ${s}`, plan: 'scale', customerLimit: 100_000_000 });
      const { key } = await createApiKey(handle, { sellerId: seller.id, name: 'bench' });
      fixture.sellers.push({ key, ids: [] });
      perSeller.push({ sellerId: seller.id, ids: [] });
    }
    if (handle.dialect === 'postgres') await insertPostgres(handle, perSeller, customers);
  } finally {
    await handle.close();
  }
  if (url.startsWith('sqlite:')) insertSqlite(url.slice('sqlite:'.length), perSeller, customers);
  perSeller.forEach(({ ids }, s) => {
    fixture.sellers[s]!.ids = sampleIds(ids);
  });
  return fixture;
}

function* customersOf(perSeller: Array<{ sellerId: string; ids: string[] }>, total: number) {
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  for (let i = 0; i < total; i++) {
    const seller = perSeller[i % perSeller.length]!;
    const customer = buildCustomer(
      { first_name: `First${i}`, last_name: `Last${i}`, email: `customer${i}@example.com`, company_name: `Company ${i % 97}` },
      { id: randomUUID(), sellerId: seller.sellerId, createdAt: new Date(start + i).toISOString() },
    );
    seller.ids.push(customer.id);
    yield customer;
  }
}

/** The server's column layout of a customer, exactly as its SQL store writes it. */
const customerRow = currentServer.customerToRow;

function insertSqlite(path: string, perSeller: Array<{ sellerId: string; ids: string[] }>, total: number): void {
  const sqlite = new Database(path);
  try {
    // A throwaway file: no journal, no syncs, a big page cache while loading; WAL again for the server.
    sqlite.pragma('journal_mode = OFF');
    sqlite.pragma('synchronous = OFF');
    sqlite.pragma('cache_size = -400000');
    const columns = Object.keys(customerRow(buildCustomer({ first_name: 'a', last_name: 'b', email: 'a@b.c' }, { id: '', sellerId: '', createdAt: '' })));
    const insert = sqlite.prepare(`insert into customers (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
    // Seeded customers are not changes anyone subscribed to: the outbox triggers (webhooks) are dropped while
    // loading and created again from their own SQL (SQLite cannot disable a trigger).
    const outbox = sqlite
      .prepare(`select name, sql from sqlite_master where type = 'trigger' and name like 'customers_outbox_%'`)
      .all() as Array<{ name: string; sql: string }>;
    sqlite.transaction(() => {
      for (const { name } of outbox) sqlite.exec(`drop trigger ${name}`);
      for (const customer of customersOf(perSeller, total)) insert.run(Object.values(customerRow(customer)));
      for (const { sql: create } of outbox) sqlite.exec(create);
    })();
    sqlite.pragma('journal_mode = WAL');
  } finally {
    sqlite.close();
  }
}

/**
 * PostgreSQL rows generated inside the database (one `INSERT … SELECT` from `generate_series`): a million rows in
 * seconds instead of a thousand round trips. Same layout and values as {@link customersOf} (customer i belongs to
 * seller i mod n, created at the same instant plus i ms); the ids are read back afterwards, in creation order.
 */
async function insertPostgres(
  handle: DatabaseHandle,
  perSeller: Array<{ sellerId: string; ids: string[] }>,
  total: number,
): Promise<void> {
  const sellerIds = perSeller.map((seller) => seller.sellerId);
  // The per-row count triggers would update the same few rows a million times in one transaction (each update a
  // new row version): off while loading, then the counts are written once. The outbox trigger (webhooks) is off
  // too: seeded customers are not changes anyone subscribed to.
  await sql`alter table customers disable trigger user`.execute(handle.db);
  await sql`
    insert into customers (id, seller_id, first_name, last_name, email, email_normalized, company_name, legal_entity,
      language, status, address_data, postal_redirect_address, source, created_at, updated_at)
    select gen_random_uuid(), (${sellerIds}::uuid[])[1 + i % ${sellerIds.length}], 'First' || i, 'Last' || i,
      'customer' || i || '@example.com', 'customer' || i || '@example.com', 'Company ' || (i % 97), null,
      'de', 'active', null, null, 'api',
      timestamptz '2026-01-01T00:00:00.000Z' + i * interval '1 millisecond',
      timestamptz '2026-01-01T00:00:00.000Z' + i * interval '1 millisecond'
    from generate_series(0, ${total - 1}::int) as i`.execute(handle.db);
  await sql`alter table customers enable trigger user`.execute(handle.db);
  await sql`
    insert into customer_counts (seller_id, mode, count)
    select seller_id, mode, count(*) from customers group by seller_id, mode
    on conflict (seller_id, mode) do update set count = excluded.count`.execute(handle.db);
  // Planner statistics now, not whenever autovacuum gets to them during the run: without them a list page was
  // planned as a sort of the seller's rows in some runs and an index walk of 21 in others (PostgreSQL CPU per page
  // 200-900 µs between runs of the same code).
  await sql`analyze`.execute(handle.db);
  for (const seller of perSeller) {
    const rows = await handle.db
      .selectFrom('customers')
      .select('id')
      .where('seller_id', '=', seller.sellerId)
      .orderBy('created_at')
      .execute();
    seller.ids.push(...rows.map((row) => String(row.id)));
  }
}

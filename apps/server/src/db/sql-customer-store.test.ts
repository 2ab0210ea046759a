import { randomUUID } from 'node:crypto';
import type { Customer } from '@customers-api/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import type { DatabaseHandle } from './connect.js';
import { SqlCustomerStore } from './sql-customer-store.js';

async function newSeller(handle: DatabaseHandle): Promise<string> {
  const id = randomUUID();
  await handle.db
    .insertInto('sellers')
    .values({ id, name: 'Test seller', plan: 'test', customer_limit: null, created_at: new Date().toISOString() })
    .execute();
  return id;
}

function customer(sellerId: string, overrides: Partial<Customer> = {}): Customer {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    seller_id: sellerId,
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: `ada.${randomUUID()}@example.com`,
    company_name: null,
    legal_entity: null,
    language: 'de',
    status: 'active',
    address_data: null,
    postal_redirect_address: null,
    source: 'api',
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

const roomy = { customerLimit: 1000 };

describe.each(DIALECTS)('SqlCustomerStore on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  let store: SqlCustomerStore;

  beforeAll(async () => {
    store = new SqlCustomerStore(db.handle);
  });

  /**
   * PostgreSQL: a second pool, as another server process would have. SQLite: one process shares one
   * connection (better-sqlite3 is synchronous, so two connections in one process would block each other);
   * other processes are kept out by BEGIN IMMEDIATE and busy_timeout.
   */
  async function secondStore(): Promise<SqlCustomerStore> {
    return dialect === 'postgres' ? new SqlCustomerStore(await db.database.open()) : store;
  }

  it('stores a customer and returns it unchanged, addresses and Unicode included', async () => {
    const sellerId = await newSeller(db.handle);
    const full = customer(sellerId, {
      first_name: 'Zoë 😀',
      company_name: 'Mustermann GmbH',
      legal_entity: 'GmbH',
      language: null,
      status: 'suspended',
      address_data: { street: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
      postal_redirect_address: { city: 'Hamburg' },
    });
    expect(await store.insertCustomer(full, roomy)).toEqual({ kind: 'created', customer: full });
    expect(await store.findCustomer(sellerId, full.id)).toEqual(full);
  });

  it('never shows, changes or deletes another seller’s customer', async () => {
    const owner = await newSeller(db.handle);
    const other = await newSeller(db.handle);
    const c = customer(owner);
    await store.insertCustomer(c, roomy);
    expect(await store.findCustomer(other, c.id)).toBeUndefined();
    expect(await store.updateCustomer(other, c.id, { first_name: 'X' }, new Date().toISOString())).toEqual({
      kind: 'not_found',
    });
    expect(await store.deleteCustomer(other, c.id)).toBe(false);
    expect(await store.findCustomer(owner, c.id)).toEqual(c);
  });

  it('rejects a second customer with the same email in any letter case, but not for another seller', async () => {
    const sellerId = await newSeller(db.handle);
    const other = await newSeller(db.handle);
    await store.insertCustomer(customer(sellerId, { email: 'Dup@Example.com' }), roomy);
    expect(await store.insertCustomer(customer(sellerId, { email: 'dup@example.COM' }), roomy)).toEqual({
      kind: 'email_taken',
    });
    expect((await store.insertCustomer(customer(other, { email: 'dup@example.com' }), roomy)).kind).toBe('created');
  });

  it('allows exactly customerLimit customers, and deleting frees a place', async () => {
    const sellerId = await newSeller(db.handle);
    const first = customer(sellerId);
    expect((await store.insertCustomer(first, { customerLimit: 2 })).kind).toBe('created');
    expect((await store.insertCustomer(customer(sellerId), { customerLimit: 2 })).kind).toBe('created');
    expect(await store.insertCustomer(customer(sellerId), { customerLimit: 2 })).toEqual({ kind: 'limit_reached' });
    expect(await store.deleteCustomer(sellerId, first.id)).toBe(true);
    expect((await store.insertCustomer(customer(sellerId), { customerLimit: 2 })).kind).toBe('created');
  });

  it('keeps each seller’s customer count (the limit check reads it) equal to its rows, also after refused writes', async () => {
    const sellerId = await newSeller(db.handle);
    const other = await newSeller(db.handle);
    const counted = async (id: string) => {
      const kept = await db.handle.db
        .selectFrom('seller_customer_counts')
        .select('count')
        .where('seller_id', '=', id)
        .executeTakeFirst();
      const actual = await db.handle.db
        .selectFrom('customers')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('seller_id', '=', id)
        .executeTakeFirstOrThrow();
      return [Number(kept?.count ?? 0), Number(actual.n)];
    };
    const kept = customer(sellerId, { email: 'kept@example.com' });
    const gone = customer(sellerId);
    for (const c of [kept, gone, customer(other)]) await store.insertCustomer(c, roomy);
    expect(await store.insertCustomer(customer(sellerId, { email: 'KEPT@example.com' }), roomy)).toEqual({ kind: 'email_taken' });
    expect(await store.insertCustomer(customer(sellerId), { customerLimit: 2 })).toEqual({ kind: 'limit_reached' });
    expect(await store.deleteCustomer(sellerId, gone.id)).toBe(true);
    expect(await store.deleteCustomer(sellerId, gone.id)).toBe(false);
    expect(await counted(sellerId)).toEqual([1, 1]);
    expect(await counted(other)).toEqual([1, 1]);
  });

  it('replays an idempotent create until the record expires, and stores nothing new', async () => {
    const sellerId = await newSeller(db.handle);
    const original = customer(sellerId);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const idempotency = { key: 'retry-1', fingerprint: 'f1', expiresAt: future };
    expect((await store.insertCustomer(original, { ...roomy, idempotency })).kind).toBe('created');
    const again = await store.insertCustomer(customer(sellerId), { ...roomy, idempotency });
    expect(again).toEqual({ kind: 'idempotent_replay', customer: original, fingerprint: 'f1' });
    // The same key of another seller is another record.
    const other = await newSeller(db.handle);
    expect((await store.insertCustomer(customer(other), { ...roomy, idempotency })).kind).toBe('created');
  });

  it('ignores and replaces an expired idempotency record', async () => {
    const sellerId = await newSeller(db.handle);
    const past = new Date(Date.now() - 1000).toISOString();
    await store.insertCustomer(customer(sellerId), {
      ...roomy,
      idempotency: { key: 'old', fingerprint: 'f1', expiresAt: past },
    });
    const fresh = customer(sellerId);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const result = await store.insertCustomer(fresh, {
      ...roomy,
      idempotency: { key: 'old', fingerprint: 'f2', expiresAt: future },
    });
    expect(result).toEqual({ kind: 'created', customer: fresh });
    expect(await store.insertCustomer(customer(sellerId), {
      ...roomy,
      idempotency: { key: 'old', fingerprint: 'f3', expiresAt: future },
    })).toEqual({ kind: 'idempotent_replay', customer: fresh, fingerprint: 'f2' });
  });

  it('updates only the given columns, clears nulls, and keeps created_at', async () => {
    const sellerId = await newSeller(db.handle);
    const c = customer(sellerId, { company_name: 'ACME', address_data: { city: 'Berlin' } });
    await store.insertCustomer(c, roomy);
    const later = new Date(Date.now() + 5000).toISOString();
    const result = await store.updateCustomer(
      sellerId,
      c.id,
      { status: 'inactive', company_name: null, postal_redirect_address: { street: 'Postfach 1' } },
      later,
    );
    expect(result).toEqual({
      kind: 'updated',
      customer: {
        ...c,
        status: 'inactive',
        company_name: null,
        postal_redirect_address: { street: 'Postfach 1' },
        updated_at: later,
      },
    });
    expect(await store.findCustomer(sellerId, c.id)).toEqual((result as { customer: Customer }).customer);
  });

  it('rejects an update to another customer’s email, allows one’s own in another case', async () => {
    const sellerId = await newSeller(db.handle);
    const a = customer(sellerId, { email: 'a@example.com' });
    const b = customer(sellerId, { email: 'b@example.com' });
    await store.insertCustomer(a, roomy);
    await store.insertCustomer(b, roomy);
    const now = new Date().toISOString();
    expect(await store.updateCustomer(sellerId, b.id, { email: 'A@example.com' }, now)).toEqual({
      kind: 'email_taken',
    });
    const own = await store.updateCustomer(sellerId, a.id, { email: 'A@EXAMPLE.com' }, now);
    expect(own.kind).toBe('updated');
    expect(await store.findCustomer(sellerId, b.id)).toEqual(b);
  });

  it('deletes permanently', async () => {
    const sellerId = await newSeller(db.handle);
    const c = customer(sellerId);
    await store.insertCustomer(c, roomy);
    expect(await store.deleteCustomer(sellerId, c.id)).toBe(true);
    expect(await store.findCustomer(sellerId, c.id)).toBeUndefined();
    expect(await store.deleteCustomer(sellerId, c.id)).toBe(false);
  });

  it('lets exactly one of many concurrent creates with one email through, across two pools on PostgreSQL', async () => {
    const sellerId = await newSeller(db.handle);
    const second = await secondStore();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? store : second).insertCustomer(customer(sellerId, { email: i % 2 ? 'same@example.com' : 'SAME@example.com' }), roomy),
      ),
    );
    expect(results.filter((r) => r.kind === 'created')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'email_taken')).toHaveLength(19);
  });

  it('never exceeds the limit under concurrent creates, across two pools on PostgreSQL', async () => {
    const sellerId = await newSeller(db.handle);
    const second = await secondStore();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? store : second).insertCustomer(customer(sellerId), { customerLimit: 7 })),
    );
    expect(results.filter((r) => r.kind === 'created')).toHaveLength(7);
    expect(results.filter((r) => r.kind === 'limit_reached')).toHaveLength(13);
    const { count } = await db.handle.db
      .selectFrom('customers')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('seller_id', '=', sellerId)
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(7);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { CustomerStore } from '../store.js';
import type { Customer } from '../types.js';
import { live, testData } from './tenants.js';

/** What the contract needs from one kind of store. */
export interface StoreHarness {
  /** A store on fresh or shared storage; called once per suite. */
  open(): Promise<CustomerStore>;
  /**
   * Another store on the same storage, as another process would have (its own connection pool); the same store
   * where the storage cannot be shared (memory).
   */
  another(): Promise<CustomerStore>;
  /** A seller that may own customers (SQL stores need its row). */
  newSeller(): Promise<string>;
  /** How many customers the seller has in storage, read around the store. */
  countCustomers(sellerId: string): Promise<number>;
}

const roomy = { customerLimit: 1000 };
const inADay = () => new Date(Date.now() + 86_400_000).toISOString();

/**
 * A customer as core's service builds one: every field set, a unique email unless overridden.
 *
 * @example
 * await store.insertCustomer(sampleCustomer(sellerId, { email: 'ada@example.com' }), { customerLimit: 10 });
 */
export function sampleCustomer(sellerId: string, overrides: Partial<Customer> = {}): Customer {
  const now = new Date().toISOString();
  const id = globalThis.crypto.randomUUID();
  return {
    id,
    seller_id: sellerId,
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: `ada.${id}@example.com`,
    company_name: null,
    legal_entity: null,
    language: 'de',
    status: 'active',
    address_data: null,
    postal_redirect_address: null,
    source: 'api',
    created_at: now,
    updated_at: now,
    livemode: true,
    ...overrides,
  };
}

/**
 * The one statement of what every {@link CustomerStore} must do: tenancy, case-insensitive email uniqueness,
 * the plan limit (checked before the email, so a full plan answers 403 before 409), idempotency records (replay
 * within their window, per seller, replaced once expired) and partial updates, also under concurrent writes
 * from two stores on one storage. Each store may enforce them its own fastest way; this suite says what they are.
 *
 * @example
 * describeStoreContract('MemoryCustomerStore', memoryHarness);
 */
export function describeStoreContract(name: string, harness: StoreHarness): void {
  describe(`${name}: the store contract`, () => {
    let store: CustomerStore;
    let seller: string;
    beforeAll(async () => {
      store = await harness.open();
    });
    const freshSeller = async () => (seller = await harness.newSeller());

    describe('test mode is a tenancy boundary', () => {
      it('never reads, changes, deletes or lists a customer of the other mode', async () => {
        await freshSeller();
        const liveOne = sampleCustomer(seller);
        const testOne = sampleCustomer(seller, { livemode: false });
        expect((await store.insertCustomer(liveOne, roomy)).kind).toBe('created');
        expect((await store.insertCustomer(testOne, roomy)).kind).toBe('created');
        for (const [mine, theirs, other] of [
          [live(seller), testData(seller), testOne],
          [testData(seller), live(seller), liveOne],
        ] as const) {
          expect(await store.findCustomer(mine, other.id)).toBeUndefined();
          expect(await store.updateCustomer(mine, other.id, { status: 'inactive' }, new Date().toISOString())).toEqual({ kind: 'not_found' });
          expect(await store.deleteCustomer(mine, other.id)).toBe(false);
          expect((await store.listCustomers(mine, { limit: 10 })).map((c) => c.id)).not.toContain(other.id);
          expect(await store.findCustomer(theirs, other.id)).toEqual(other);
        }
        expect((await store.listCustomers(testData(seller), { limit: 10 })).map((c) => c.livemode)).toEqual([false]);
        expect((await store.listCustomers(live(seller), { limit: 10 })).map((c) => c.livemode)).toEqual([true]);
      });

      it('keeps email uniqueness, the plan limit and idempotency keys per mode', async () => {
        await freshSeller();
        const email = `same.${globalThis.crypto.randomUUID()}@example.com`;
        const key = { key: 'same-key', fingerprint: 'f', expiresAt: inADay() };
        const liveOne = sampleCustomer(seller, { email });
        expect((await store.insertCustomer(liveOne, { customerLimit: 1, idempotency: key })).kind).toBe('created');
        // The same email, the same key and a limit the live customer already fills: none of it counts in test mode.
        const testOne = sampleCustomer(seller, { email: email.toUpperCase(), livemode: false });
        expect(await store.insertCustomer(testOne, { customerLimit: 1, idempotency: key })).toEqual({ kind: 'created', customer: testOne });
        expect((await store.insertCustomer(sampleCustomer(seller, { livemode: false }), { customerLimit: 1 })).kind).toBe('limit_reached');
        expect((await store.insertCustomer(sampleCustomer(seller, { livemode: false, email }), roomy)).kind).toBe('email_taken');
        // An update to an email the other mode has is no clash either.
        const second = sampleCustomer(seller, { livemode: false });
        expect((await store.insertCustomer(second, roomy)).kind).toBe('created');
        expect((await store.updateCustomer(testData(seller), second.id, { email: `x.${email}` }, new Date().toISOString())).kind).toBe('updated');
        expect((await store.updateCustomer(live(seller), liveOne.id, { email: `x.${email}` }, new Date().toISOString())).kind).toBe('updated');
      });
    });

    it('stores a customer and returns it unchanged, addresses and Unicode included', async () => {
      await freshSeller();
      const full = sampleCustomer(seller, {
        first_name: 'Zoë 😀',
        company_name: 'Mustermann GmbH',
        legal_entity: 'GmbH',
        language: null,
        status: 'suspended',
        address_data: { street: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
        postal_redirect_address: { city: 'Hamburg' },
      });
      expect(await store.insertCustomer(full, roomy)).toEqual({ kind: 'created', customer: full });
      expect(await store.findCustomer(live(seller), full.id)).toEqual(full);
    });

    it('never shows, changes or deletes another seller’s customer', async () => {
      const owner = await freshSeller();
      const other = await harness.newSeller();
      const c = sampleCustomer(owner);
      await store.insertCustomer(c, roomy);
      expect(await store.findCustomer(live(other), c.id)).toBeUndefined();
      expect(await store.updateCustomer(live(other), c.id, { first_name: 'X' }, new Date().toISOString())).toEqual({ kind: 'not_found' });
      expect(await store.deleteCustomer(live(other), c.id)).toBe(false);
      expect(await store.findCustomer(live(owner), c.id)).toEqual(c);
    });

    it('answers not_found for an unknown id of a seller who has customers', async () => {
      await freshSeller();
      await store.insertCustomer(sampleCustomer(seller), roomy);
      const unknown = globalThis.crypto.randomUUID();
      expect(await store.findCustomer(live(seller), unknown)).toBeUndefined();
      expect(await store.updateCustomer(live(seller), unknown, { status: 'inactive' }, new Date().toISOString())).toEqual({ kind: 'not_found' });
      expect(await store.deleteCustomer(live(seller), unknown)).toBe(false);
    });

    it('refuses a second customer with the same email in any letter case, but not for another seller', async () => {
      await freshSeller();
      const other = await harness.newSeller();
      await store.insertCustomer(sampleCustomer(seller, { email: 'Dup@Example.com' }), roomy);
      expect(await store.insertCustomer(sampleCustomer(seller, { email: 'dup@example.COM' }), roomy)).toEqual({ kind: 'email_taken' });
      expect((await store.insertCustomer(sampleCustomer(other, { email: 'dup@example.com' }), roomy)).kind).toBe('created');
      expect(await harness.countCustomers(seller)).toBe(1);
    });

    it('allows exactly customerLimit customers, and deleting frees a place', async () => {
      await freshSeller();
      const first = sampleCustomer(seller);
      expect((await store.insertCustomer(first, { customerLimit: 2 })).kind).toBe('created');
      expect((await store.insertCustomer(sampleCustomer(seller), { customerLimit: 2 })).kind).toBe('created');
      expect(await store.insertCustomer(sampleCustomer(seller), { customerLimit: 2 })).toEqual({ kind: 'limit_reached' });
      expect(await store.deleteCustomer(live(seller), first.id)).toBe(true);
      expect((await store.insertCustomer(sampleCustomer(seller), { customerLimit: 2 })).kind).toBe('created');
      expect(await harness.countCustomers(seller)).toBe(2);
    });

    it('checks the plan limit before the email: a full plan is limit_reached even for a taken email', async () => {
      await freshSeller();
      await store.insertCustomer(sampleCustomer(seller, { email: 'taken@example.com' }), { customerLimit: 1 });
      expect(await store.insertCustomer(sampleCustomer(seller, { email: 'TAKEN@example.com' }), { customerLimit: 1 })).toEqual({
        kind: 'limit_reached',
      });
    });

    it('replays an idempotent create until the record expires, per seller, and stores nothing new', async () => {
      await freshSeller();
      const original = sampleCustomer(seller);
      const idempotency = { key: 'retry-1', fingerprint: 'f1', expiresAt: inADay() };
      expect((await store.insertCustomer(original, { ...roomy, idempotency })).kind).toBe('created');
      const again = await store.insertCustomer(sampleCustomer(seller), { ...roomy, idempotency });
      expect(again).toEqual({ kind: 'idempotent_replay', customer: original, fingerprint: 'f1' });
      // A replay answers before the limit and the email are looked at: the retry of a create that filled the plan
      // still gets its customer.
      const replayAtLimit = await store.insertCustomer(sampleCustomer(seller, { email: original.email }), { customerLimit: 1, idempotency });
      expect(replayAtLimit).toEqual({ kind: 'idempotent_replay', customer: original, fingerprint: 'f1' });
      expect(await harness.countCustomers(seller)).toBe(1);
      const other = await harness.newSeller();
      expect((await store.insertCustomer(sampleCustomer(other), { ...roomy, idempotency })).kind).toBe('created');
    });

    it('remembers only successful creates: a refused create with a key leaves the key free', async () => {
      await freshSeller();
      await store.insertCustomer(sampleCustomer(seller, { email: 'first@example.com' }), roomy);
      const idempotency = { key: 'after-409', fingerprint: 'f1', expiresAt: inADay() };
      expect(await store.insertCustomer(sampleCustomer(seller, { email: 'FIRST@example.com' }), { ...roomy, idempotency })).toEqual({
        kind: 'email_taken',
      });
      const fixed = sampleCustomer(seller);
      expect(await store.insertCustomer(fixed, { ...roomy, idempotency })).toEqual({ kind: 'created', customer: fixed });
    });

    it('ignores and replaces an expired idempotency record', async () => {
      await freshSeller();
      const past = new Date(Date.now() - 1000).toISOString();
      await store.insertCustomer(sampleCustomer(seller), { ...roomy, idempotency: { key: 'old', fingerprint: 'f1', expiresAt: past } });
      const fresh = sampleCustomer(seller);
      const replacing = { key: 'old', fingerprint: 'f2', expiresAt: inADay() };
      expect(await store.insertCustomer(fresh, { ...roomy, idempotency: replacing })).toEqual({ kind: 'created', customer: fresh });
      expect(
        await store.insertCustomer(sampleCustomer(seller), { ...roomy, idempotency: { ...replacing, fingerprint: 'f3' } }),
      ).toEqual({ kind: 'idempotent_replay', customer: fresh, fingerprint: 'f2' });
    });

    it('updates only the given fields, sets values and clears nulls, and keeps id, seller and created_at', async () => {
      await freshSeller();
      const c = sampleCustomer(seller, { company_name: 'ACME', legal_entity: 'AG', address_data: { city: 'Berlin' } });
      await store.insertCustomer(c, roomy);
      const later = new Date(Date.now() + 5000).toISOString();
      const changes = {
        status: 'inactive',
        language: 'en',
        legal_entity: 'GmbH',
        company_name: null,
        postal_redirect_address: { street: 'Postfach 1' },
      } as const;
      const result = await store.updateCustomer(live(seller), c.id, changes, later);
      const expected = { ...c, ...changes, updated_at: later };
      expect(result).toEqual({ kind: 'updated', customer: expected });
      expect(await store.findCustomer(live(seller), c.id)).toEqual(expected);
      const cleared = await store.updateCustomer(live(seller), c.id, { language: null, legal_entity: null, address_data: null }, later);
      expect(cleared).toEqual({ kind: 'updated', customer: { ...expected, language: null, legal_entity: null, address_data: null } });
    });

    it('refuses an update to another customer’s email, allows one’s own in another case', async () => {
      await freshSeller();
      const a = sampleCustomer(seller, { email: 'a@example.com' });
      const b = sampleCustomer(seller, { email: 'b@example.com' });
      await store.insertCustomer(a, roomy);
      await store.insertCustomer(b, roomy);
      const now = new Date().toISOString();
      expect(await store.updateCustomer(live(seller), b.id, { email: 'A@example.com' }, now)).toEqual({ kind: 'email_taken' });
      expect((await store.updateCustomer(live(seller), a.id, { email: 'A@EXAMPLE.com' }, now)).kind).toBe('updated');
      expect(await store.findCustomer(live(seller), b.id)).toEqual(b);
      // The old address is free again once changed.
      expect((await store.updateCustomer(live(seller), a.id, { email: 'new-a@example.com' }, now)).kind).toBe('updated');
      expect((await store.updateCustomer(live(seller), b.id, { email: 'a@example.com' }, now)).kind).toBe('updated');
    });

    it('deletes permanently, and a deleted customer’s email is free again', async () => {
      await freshSeller();
      const c = sampleCustomer(seller, { email: 'gone@example.com' });
      await store.insertCustomer(c, roomy);
      expect(await store.deleteCustomer(live(seller), c.id)).toBe(true);
      expect(await store.findCustomer(live(seller), c.id)).toBeUndefined();
      expect(await store.deleteCustomer(live(seller), c.id)).toBe(false);
      expect((await store.insertCustomer(sampleCustomer(seller, { email: 'GONE@example.com' }), roomy)).kind).toBe('created');
    });

    it('lets exactly one of many concurrent creates with one email through, from two stores', async () => {
      await freshSeller();
      const second = await harness.another();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? store : second).insertCustomer(sampleCustomer(seller, { email: i % 2 ? 'same@example.com' : 'SAME@example.com' }), roomy),
        ),
      );
      expect(results.filter((r) => r.kind === 'created')).toHaveLength(1);
      expect(results.filter((r) => r.kind === 'email_taken')).toHaveLength(19);
    });

    it('never exceeds the limit under concurrent creates from two stores', async () => {
      await freshSeller();
      const second = await harness.another();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? store : second).insertCustomer(sampleCustomer(seller), { customerLimit: 7 })),
      );
      expect(results.filter((r) => r.kind === 'created')).toHaveLength(7);
      expect(results.filter((r) => r.kind === 'limit_reached')).toHaveLength(13);
      expect(await harness.countCustomers(seller)).toBe(7);
    });

    it('lists newest first, ties broken by id, page after page by position, only the seller’s own', async () => {
      await freshSeller();
      const other = await harness.newSeller();
      const at = (minute: number) => `2026-11-25T09:${String(minute).padStart(2, '0')}:00.000Z`;
      // Three share one created_at (two processes may stamp the same millisecond): the id orders them.
      const customers = [at(1), at(2), at(2), at(2), at(3)].map((createdAt) => sampleCustomer(seller, { created_at: createdAt, updated_at: createdAt }));
      for (const c of customers) await store.insertCustomer(c, roomy);
      await store.insertCustomer(sampleCustomer(other, { created_at: at(2) }), roomy);
      const newestFirst = [...customers].sort((a, b) => (a.created_at === b.created_at ? b.id.localeCompare(a.id) : b.created_at.localeCompare(a.created_at)));
      expect(await store.listCustomers(live(seller), { limit: 10 })).toEqual(newestFirst);
      const walked: Customer[] = [];
      let after: { createdAt: string; id: string } | undefined;
      for (;;) {
        const page = await store.listCustomers(live(seller), { limit: 2, after });
        walked.push(...page);
        const last = page[page.length - 1];
        if (!last) break;
        after = { createdAt: last.created_at, id: last.id };
      }
      expect(walked).toEqual(newestFirst);
    });

    it('filters by email key, status and created_at bounds (from inclusive, before exclusive)', async () => {
      await freshSeller();
      const at = (minute: number) => `2026-11-25T10:${String(minute).padStart(2, '0')}:00.000Z`;
      const a = sampleCustomer(seller, { email: 'Find.Me@example.com', created_at: at(1), status: 'suspended' });
      const b = sampleCustomer(seller, { created_at: at(2), status: 'suspended' });
      const c = sampleCustomer(seller, { created_at: at(3) });
      for (const x of [a, b, c]) await store.insertCustomer(x, roomy);
      expect(await store.listCustomers(live(seller), { limit: 10, emailKey: 'find.me@example.com' })).toEqual([a]);
      expect(await store.listCustomers(live(seller), { limit: 10, emailKey: 'find.me@example.com', status: 'active' })).toEqual([]);
      expect(await store.listCustomers(live(seller), { limit: 10, status: 'suspended' })).toEqual([b, a]);
      expect(await store.listCustomers(live(seller), { limit: 10, createdFrom: at(2) })).toEqual([c, b]);
      expect(await store.listCustomers(live(seller), { limit: 10, createdBefore: at(2) })).toEqual([a]);
      expect(await store.listCustomers(live(seller), { limit: 10, createdFrom: at(1), createdBefore: at(3), status: 'suspended' })).toEqual([b, a]);
      expect(await store.listCustomers(live(await harness.newSeller()), { limit: 10 })).toEqual([]);
    });

    it('never returns a customer twice nor skips one that existed for a whole walk, under random creates and deletes', async () => {
      await freshSeller();
      const random = seededRandom(20261126);
      for (let round = 0; round < 4; round++) {
        const kept = new Map<string, Customer>();
        for (let i = 0; i < 15; i++) {
          const c = sampleCustomer(seller);
          await store.insertCustomer(c, roomy);
          kept.set(c.id, c);
        }
        const existedThroughout = new Set(kept.keys());
        const seen: string[] = [];
        let after: { createdAt: string; id: string } | undefined;
        for (let steps = 0; steps < 200; steps++) {
          const action = random();
          if (action < 0.3) {
            const c = sampleCustomer(seller);
            await store.insertCustomer(c, roomy);
            kept.set(c.id, c);
          } else if (action < 0.55 && kept.size > 0) {
            const ids = [...kept.keys()];
            const id = ids[Math.floor(random() * ids.length)] as string;
            await store.deleteCustomer(live(seller), id);
            kept.delete(id);
            existedThroughout.delete(id);
          } else {
            const page = await store.listCustomers(live(seller), { limit: 1 + Math.floor(random() * 4), after });
            const last = page[page.length - 1];
            seen.push(...page.map((c) => c.id));
            if (!last) break;
            after = { createdAt: last.created_at, id: last.id };
          }
        }
        for (;;) {
          const page = await store.listCustomers(live(seller), { limit: 5, after });
          const last = page[page.length - 1];
          seen.push(...page.map((c) => c.id));
          if (!last) break;
          after = { createdAt: last.created_at, id: last.id };
        }
        expect(new Set(seen).size, `round ${round}: no duplicates`).toBe(seen.length);
        for (const id of existedThroughout) expect(seen, `round ${round}: ${id} skipped`).toContain(id);
        for (const id of kept.keys()) await store.deleteCustomer(live(seller), id);
      }
    });

    it('gives one customer to many concurrent creates with one idempotency key, from two stores', async () => {
      await freshSeller();
      const second = await harness.another();
      const idempotency = { key: 'burst', fingerprint: 'f', expiresAt: inADay() };
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? store : second).insertCustomer(sampleCustomer(seller), { ...roomy, idempotency })),
      );
      const created = results.filter((r) => r.kind === 'created');
      expect(created).toHaveLength(1);
      const id = (created[0] as { customer: Customer }).customer.id;
      for (const r of results) expect((r as { customer: Customer }).customer.id).toBe(id);
      expect(await harness.countCustomers(seller)).toBe(1);
    });
  });
}

/** A small deterministic PRNG (mulberry32), so a failing interleaving can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

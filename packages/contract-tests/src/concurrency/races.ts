import { expect } from 'vitest';
import { send } from '../support/http.js';
import type { Target } from '../targets/target.js';

/** Targets serving one database; request i goes to targets[i % n], all sent at once. */
const spread = <T>(targets: Target[], count: number, make: (target: Target, i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: count }, (_, i) => make(targets[i % targets.length]!, i)));

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

/** 100 concurrent creates with one email (in varying case): exactly one 201, 99 409s, one stored customer. */
export async function oneEmailManyCreates(targets: Target[]): Promise<void> {
  const seller = await targets[0]!.newSeller({ customerLimit: 1_000 });
  const results = await spread(targets, 100, (target, i) =>
    send(target, 'POST', '/api/customers', {
      key: seller.key,
      body: { first_name: `Racer ${i}`, last_name: 'Same', email: i % 2 ? 'race@example.com' : 'RACE@example.com' },
    }),
  );
  expect(tally(results.map((r) => r.status))).toEqual({ 201: 1, 409: 99 });
  expect(await targets[0]!.countCustomers(seller.sellerId)).toBe(1);
}

/** 40 concurrent creates (distinct emails) for a plan limit of 5: exactly 5 stored, the rest 403. */
export async function planLimitUnderRace(targets: Target[], limit = 5, attempts = 40): Promise<void> {
  const seller = await targets[0]!.newSeller({ customerLimit: limit });
  const results = await spread(targets, attempts, (target, i) =>
    send(target, 'POST', '/api/customers', { key: seller.key, body: { first_name: 'Limit', last_name: `${i}`, email: `limit.${i}@example.com` } }),
  );
  expect(tally(results.map((r) => r.status))).toEqual({ 201: limit, 403: attempts - limit });
  expect(await targets[0]!.countCustomers(seller.sellerId)).toBe(limit);
}

/** 30 concurrent PATCHes of one customer, each writing a whole consistent state: one of them is what remains. */
export async function patchesOfOneCustomer(targets: Target[], writers = 30): Promise<void> {
  const seller = await targets[0]!.newSeller();
  const created = await send(targets[0]!, 'POST', '/api/customers', { key: seller.key, body: { first_name: 'P', last_name: 'Q', email: 'patched@example.com' } });
  const path = `/api/customers/${created.json.id}`;
  const states = Array.from({ length: writers }, (_, i) => ({
    first_name: `First ${i}`,
    last_name: `Last ${i}`,
    company_name: `Company ${i}`,
    status: (['active', 'inactive', 'suspended'] as const)[i % 3],
    address_data: { city: `City ${i}`, postal_code: `${10000 + i}` },
  }));
  const results = await spread(targets, writers, (target, i) => send(target, 'PATCH', path, { key: seller.key, body: states[i] }));
  expect(results.map((r) => r.status)).toEqual(states.map(() => 200));
  for (const [i, result] of results.entries()) expect(result.json).toMatchObject(states[i]!);
  const final = (await send(targets[targets.length - 1]!, 'GET', path, { key: seller.key })).json;
  const { first_name, last_name, company_name, status, address_data } = final;
  expect(states).toContainEqual({ first_name, last_name, company_name, status, address_data });
  // The last answered write is not necessarily the last applied one, but the final state was answered as written.
  expect(results.map((r) => r.json)).toContainEqual(final);
}

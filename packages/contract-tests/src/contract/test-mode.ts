import { describe, expect, it } from 'vitest';
import { NotFoundError } from '@customers-api/sdk';
import { runScenarios, type Scenario } from '../scenarios/index.js';
import { ada } from '../scenarios/scenario.js';
import { sdkFor } from '../support/sdk.js';
import type { Target } from '../targets/target.js';

/** What the test-mode pass saw: how many `livemode` fields its answers carried, and where one was not `false`. */
export interface LivemodeCheck {
  seen: number;
  wrong: string[];
}

/** Counts every `livemode` field of a JSON value (customers, events, list items, nested objects). */
function visit(value: unknown, where: string, check: LivemodeCheck): void {
  if (Array.isArray(value)) {
    for (const item of value) visit(item, where, check);
    return;
  }
  if (!value || typeof value !== 'object') return;
  for (const [name, field] of Object.entries(value)) {
    if (name === 'livemode') {
      check.seen += 1;
      if (field !== false) check.wrong.push(`${where}: livemode ${JSON.stringify(field)}`);
    } else visit(field, where, check);
  }
}

/**
 * The target seen through test keys (issue 38): every seller a scenario makes gets a secret test key (`sk_test_`) of
 * the same seller instead of its live key, so the scenario acts on the seller's test data; every JSON answer is
 * checked for `livemode: false` (each customer and event, in lists too). Revoking revokes that test key.
 */
export function inTestMode(target: Target): { target: Target; check: LivemodeCheck } {
  const { testKey } = target;
  if (!testKey) throw new Error(`${target.name} cannot make test keys`);
  const check: LivemodeCheck = { seen: 0, wrong: [] };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await target.fetch(input, init);
    if (response.headers.get('content-type')?.includes('application/json')) {
      const text = await response.clone().text();
      const where = `${init?.method ?? 'GET'} ${String(input instanceof Request ? input.url : input).replace(target.baseUrl, '')} ${response.status}`;
      if (text) visit(JSON.parse(text), where, check);
    }
    return response;
  };
  // Where the target cannot read its test customers directly (the HTTP mock's control API counts live ones), they
  // are counted through the API with a test key of the seller's own that no scenario revokes.
  const counters = new Map<string, string>();
  const countThroughApi = async (sellerId: string): Promise<number> => {
    let total = 0;
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const response = await target.fetch(`${target.baseUrl}/api/customers?limit=100${query}`, { headers: { 'x-api-key': counters.get(sellerId)! } });
      const page = (await response.json()) as { data: unknown[]; has_more: boolean; next_cursor: string | null };
      total += page.data.length;
      cursor = page.has_more ? page.next_cursor : null;
    } while (cursor);
    return total;
  };
  const inTest: Target = {
    ...target,
    name: `${target.name}, test mode`,
    fetch,
    async newSeller(options) {
      const seller = await target.newSeller(options);
      if (!target.countTestCustomers) counters.set(seller.sellerId, (await testKey.call(target, seller)).key);
      return testKey.call(target, seller);
    },
    countCustomers: (sellerId) => (target.countTestCustomers ? target.countTestCustomers(sellerId) : countThroughApi(sellerId)),
  };
  return { target: inTest, check };
}

/**
 * Registers the scenarios again against `target()` in test mode (`sk_test_` keys of the same sellers), then a test
 * that every answer's `livemode` was `false` and that there were such answers to check.
 */
export function describeTestMode(title: string, scenarios: Scenario[], target: () => Target): void {
  let testMode: ReturnType<typeof inTestMode> | undefined;
  const current = () => (testMode ??= inTestMode(target()));
  describe(`${title} in test mode (sk_test_ keys of the same sellers)`, () => {
    runScenarios(scenarios.filter((scenario) => !scenario.ownKeyModes), () => current().target);
    it("the SDK's client.testData.delete() wipes the test customers and leaves the live ones", async () => {
      const { target: inTest } = current();
      const live = await target().newSeller();
      const test = await target().testKey!(live);
      const liveClient = sdkFor(target(), live.key);
      const testClient = sdkFor(inTest, test.key);
      const kept = await liveClient.customers.create(ada());
      const made = await testClient.customers.create(ada());
      expect([kept.livemode, made.livemode]).toEqual([true, false]);
      expect(await testClient.testData.delete()).toEqual({ customers: 1, webhook_endpoints: 0, events: 0 });
      await expect(testClient.customers.get(made.id)).rejects.toBeInstanceOf(NotFoundError);
      expect((await liveClient.customers.get(kept.id)).id).toBe(kept.id);
      expect(await testClient.testData.delete()).toEqual({ customers: 0, webhook_endpoints: 0, events: 0 });
    });

    it('answered livemode: false on every customer and event', () => {
      const { seen, wrong } = current().check;
      console.log(`[test mode] ${target().name}: ${scenarios.length} scenarios, ${seen} livemode fields checked, ${wrong.length} not false`);
      expect(wrong).toEqual([]);
      expect(seen).toBeGreaterThan(50);
    });
  });
}

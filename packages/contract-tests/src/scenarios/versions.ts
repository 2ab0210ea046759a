import { LATEST_API_VERSION } from '@customers-api/core';
import { expect } from 'vitest';
import { send } from '../support/http.js';
import type { Target } from '../targets/target.js';
import { ada, step, type Scenario } from './scenario.js';

const MALFORMED = { 'Customers-Version': '2020-13-01' };
const LATEST = { 'Customers-Version': LATEST_API_VERSION };
// Below /api/customers, where every host (MSW included) routes: no operation has this path.
const UNKNOWN = '/api/customers/3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61/notes';

/**
 * A path that is no operation, sent past the conformance check (which refuses paths outside openapi.yaml): its
 * status and Customers-Version. Every target answers on the global fetch (MSW patches it).
 */
async function unknownPath(target: Target, headers: Record<string, string>) {
  const response = await globalThis.fetch(`${target.baseUrl}${UNKNOWN}`, { headers });
  const json: unknown = await response.json();
  return { status: response.status, headers: response.headers, json, body: json };
}

/** Customers-Version on every host (Prism has no versions): answers before the seller is known included. */
export const versionScenarios: Scenario[] = [
  {
    name: 'answers before the seller is known carry the requested version when valid, else the latest',
    async run(target, t) {
      const seller = await target.newSeller();
      const answers: [string, { status: number; headers: Headers; json: any; body: any }, number][] = [
        ['401 asking for the latest', await send(target, 'GET', '/api/customers', { headers: LATEST }), 401],
        ['401 asking for none', await send(target, 'POST', '/api/customers', { body: ada('nokey') }), 401],
        ['401 bad key asking for the latest', await send(target, 'GET', '/api/customers', { key: `sk_live_${'Q7'.repeat(24)}`, headers: LATEST }), 401],
        ['unknown path asking for the latest', await unknownPath(target, { 'X-API-Key': seller.key, ...LATEST }), 404],
        // The route is checked before the header, the header before the key.
        ['unknown path, malformed header', await unknownPath(target, MALFORMED), 404],
        ['malformed header, no key', await send(target, 'GET', '/api/customers', { headers: MALFORMED }), 400],
        ['malformed header, valid key', await send(target, 'POST', '/api/customers', { key: seller.key, body: ada('malformed'), headers: MALFORMED }), 400],
      ];
      for (const [label, response, status] of answers) {
        step(t, label, response);
        expect(response.status, label).toBe(status);
        expect(response.headers.get('customers-version'), label).toBe(LATEST_API_VERSION);
      }
      const refused = answers.at(-1)![1];
      expect(refused.json.message).toBe(`Customers-Version header must be one of: ${LATEST_API_VERSION}`);
      expect(await target.countCustomers(seller.sellerId)).toBe(0);
    },
  },
];

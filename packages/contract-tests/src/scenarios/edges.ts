import { LATEST_API_VERSION } from '@customers-api/core';
import { expect } from 'vitest';
import { send } from '../support/http.js';
import type { Target } from '../targets/target.js';
import { ada, step, type Scenario } from './scenario.js';

const MALFORMED = { 'Customers-Version': '2020-13-01' };

/**
 * A request to a path outside openapi.yaml, sent past the conformance check (which refuses such paths): every
 * target answers on the global fetch (MSW patches it). HEAD has no body to read.
 */
async function offContract(target: Target, method: string, path: string, headers: Record<string, string>) {
  const response = await globalThis.fetch(`${target.baseUrl}${path}`, { method, headers });
  const text = await response.text();
  const json: unknown = text ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, json, body: json };
}

/** Where the targets disagreed at the edges (issue 40): the same answer everywhere, in the documented order. */
export const edgeScenarios: Scenario[] = [
  {
    name: 'the trailing slash (/api/customers/) is no route: 404 before the version and the key, on every method',
    async run(target, t) {
      const seller = await target.newSeller();
      const withKey = { 'X-API-Key': seller.key };
      for (const method of ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE']) {
        for (const [label, headers] of [
          ['a valid key', withKey],
          ['no key', {}],
          ['a malformed version', { ...withKey, ...MALFORMED }],
          ['a malformed version, no key', MALFORMED],
        ] as const) {
          const response = step(t, `${method} /api/customers/ with ${label}`, await offContract(target, method, '/api/customers/', headers));
          expect(response.status, `${method} with ${label}`).toBe(404);
          if (method !== 'HEAD') expect(response.json).toEqual({ error: 'Not Found', message: 'No route matches /api/customers/' });
          expect(response.headers.get('customers-version')).toBe(LATEST_API_VERSION);
          expect(response.headers.get('cache-control')).toBe('no-store');
          expect(response.headers.get('x-request-id')).toBeTruthy();
        }
      }
      expect(await target.countCustomers(seller.sellerId)).toBe(0);
    },
  },
  {
    name: 'a malformed Customers-Version is the documented 400 on every operation, get and delete included',
    async run(target, t) {
      const seller = await target.newSeller();
      const created = step(t, 'create', await send(target, 'POST', '/api/customers', { key: seller.key, body: ada('version-400') }));
      const path = `/api/customers/${created.json.id}`;
      const calls = [
        ['GET', '/api/customers', undefined],
        ['POST', '/api/customers', ada('version-400b')],
        ['GET', path, undefined],
        ['PATCH', path, { status: 'inactive' }],
        ['DELETE', path, undefined],
        // The webhook-endpoint and event operations too (the version is checked before the id is looked up).
        ['GET', '/api/webhook_endpoints/7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', undefined],
        ['DELETE', '/api/webhook_endpoints/7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', undefined],
        ['GET', '/api/events/evt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e', undefined],
      ] as const;
      for (const [method, where, body] of calls) {
        // Through the checked fetch: the conformance log fails the file on a 400 openapi.yaml does not declare.
        const response = step(t, `${method} ${where === path ? '{id}' : where}`, await send(target, method, where, { key: seller.key, body, headers: MALFORMED }));
        expect({ status: response.status, body: response.json }, `${method} ${where}`).toEqual({
          status: 400,
          body: { error: 'Bad Request', message: `Customers-Version header must be one of: ${LATEST_API_VERSION}` },
        });
      }
      expect(await target.countCustomers(seller.sellerId)).toBe(1);
    },
  },
];

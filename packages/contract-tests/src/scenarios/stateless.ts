import { expect } from 'vitest';
import { send } from '../support/http.js';
import { outcome, sdkFor } from '../support/sdk.js';
import { ada, step, type Scenario } from './scenario.js';

/** Scenarios a stateless mock can honour: statuses only, bodies left to the conformance check. */
export const statelessScenarios: Scenario[] = [
  {
    name: 'create, get, update and delete answer 201, 200, 200, 204',
    validRequestsOnly: true,
    stateless: true,
    async run(target, t) {
      const seller = await target.newSeller();
      const sdk = sdkFor(target, seller.key);
      const created = step(t, 'create', await outcome(sdk.customers.create(ada('life'))));
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect(step(t, 'get', await outcome(sdk.customers.get(id))).status).toBe(200);
      expect(step(t, 'update', await outcome(sdk.customers.update(id, { status: 'suspended' }))).status).toBe(200);
      expect(step(t, 'delete', await outcome(sdk.customers.delete(id))).status).toBe(204);
      expect(step(t, 'list', await send(target, 'GET', '/api/customers?limit=5', { key: seller.key })).status).toBe(200);
    },
  },
  {
    name: 'a request without an API key is 401 on every operation',
    stateless: true,
    async run(target, t) {
      const id = '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61';
      const calls = [
        ['GET', '/api/customers', undefined],
        ['POST', '/api/customers', ada('nokey')],
        ['GET', `/api/customers/${id}`, undefined],
        ['PATCH', `/api/customers/${id}`, { status: 'active' }],
        ['DELETE', `/api/customers/${id}`, undefined],
      ] as const;
      for (const [method, path, body] of calls) {
        const response = step(t, `${method} without key`, await send(target, method, path, { body }));
        expect(response.status).toBe(401);
      }
    },
  },
  {
    name: 'the key is accepted as an Authorization Bearer token',
    validRequestsOnly: true,
    stateless: true,
    async run(target, t) {
      const seller = await target.newSeller();
      const created = step(t, 'create with Bearer', await send(target, 'POST', '/api/customers', { key: seller.key, bearer: true, body: ada('bearer') }));
      expect(created.status).toBe(201);
      const read = step(t, 'get with Bearer', await send(target, 'GET', `/api/customers/${created.json.id}`, { key: seller.key, bearer: true }));
      expect(read.status).toBe(200);
    },
  },
  {
    name: 'create bodies missing a required property, with an unknown property or a wrong type are 400',
    stateless: true,
    async run(target, t) {
      const seller = await target.newSeller();
      const bodies: Record<string, unknown> = {
        'missing email': { first_name: 'Ada', last_name: 'Lovelace' },
        'unknown property': { ...ada('unknown'), nickname: 'Countess' },
        'server-assigned id': { ...ada('id'), id: '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61' },
        'number as first_name': { ...ada('type'), first_name: 42 },
        'status not allowed': { ...ada('status'), status: 'deleted' },
      };
      for (const [label, body] of Object.entries(bodies)) {
        const response = step(t, label, await send(target, 'POST', '/api/customers', { key: seller.key, body }));
        expect(response.status, label).toBe(400);
      }
    },
  },
  {
    name: 'a body that is not JSON by content type is 415',
    stateless: true,
    async run(target, t) {
      const seller = await target.newSeller();
      const response = step(t, 'create as text/plain', await send(target, 'POST', '/api/customers', {
        key: seller.key,
        raw: JSON.stringify(ada('text')),
        contentType: 'text/plain',
      }));
      expect(response.status).toBe(415);
    },
  },
];

import { expect } from 'vitest';
import { send } from '../support/http.js';
import { outcome, sdkFor } from '../support/sdk.js';
import { ada, step, type Scenario } from './scenario.js';

const notFound = { error: 'Not Found', message: expect.stringMatching(/not found/i) };
const badRequest = (property: RegExp) => ({ error: 'Bad Request', message: expect.stringMatching(property) });
const UNKNOWN_ID = '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61';

const full = {
  first_name: 'Zoë 😀 مرحبا',
  last_name: 'Ne\u0301e  ',
  email: 'Max.Mustermann+tag@Example.DE',
  company_name: 'Mustermann GmbH & Co. KG <b>',
  legal_entity: 'GmbH',
  language: 'en',
  status: 'inactive',
  address_data: { street: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
  postal_redirect_address: { city: '東京' },
} as const;

/** Scenarios that need state: what was written is read back, and rules span requests. */
export const statefulScenarios: Scenario[] = [
  {
    name: 'create applies the defaults and get returns the same customer',
    validRequestsOnly: true,
    async run(target, t) {
      const seller = await target.newSeller();
      const sdk = sdkFor(target, seller.key);
      const created = step(t, 'create', await outcome(sdk.customers.create(ada('defaults'))));
      expect(created).toMatchObject({
        status: 201,
        body: { ...ada('defaults'), seller_id: seller.sellerId, company_name: null, legal_entity: null, language: 'de', status: 'active', address_data: null, postal_redirect_address: null, source: 'api' },
      });
      expect(created.body.created_at).toBe(created.body.updated_at);
      const read = step(t, 'get', await outcome(sdk.customers.get(created.body.id)));
      expect(read).toEqual({ status: 200, body: created.body });
    },
  },
  {
    name: 'every field is stored and returned exactly as sent (Unicode, spaces, markup)',
    validRequestsOnly: true,
    async run(target, t) {
      const seller = await target.newSeller();
      const sdk = sdkFor(target, seller.key);
      const created = step(t, 'create full', await outcome(sdk.customers.create({ ...full })));
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject(full);
      const read = step(t, 'get full', await outcome(sdk.customers.get(created.body.id)));
      expect(read.body).toEqual(created.body);
      const explicitNull = step(t, 'create language null', await outcome(sdk.customers.create({ ...ada('nulllang'), language: null })));
      expect(explicitNull.body.language).toBeNull();
    },
  },
  {
    name: 'a partial update changes only the given fields; an empty one is 400',
    async run(target, t) {
      const seller = await target.newSeller();
      const sdk = sdkFor(target, seller.key);
      const created = (await outcome(sdk.customers.create({ ...full, email: 'partial@example.com' }))).body;
      const updated = step(t, 'update', await outcome(sdk.customers.update(created.id, { status: 'suspended', company_name: null, address_data: { city: 'Köln' } })));
      expect(updated.status).toBe(200);
      expect(updated.body).toEqual({ ...created, status: 'suspended', company_name: null, address_data: { city: 'Köln' }, updated_at: updated.body.updated_at });
      expect(updated.body.updated_at > created.updated_at).toBe(true);
      const empty = step(t, 'empty update', await send(target, 'PATCH', `/api/customers/${created.id}`, { key: seller.key, body: {} }));
      expect(empty).toMatchObject({ status: 400, json: { error: 'Bad Request' } });
      expect((await outcome(sdk.customers.get(created.id))).body).toEqual(updated.body);
    },
  },
  {
    name: 'delete is permanent: afterwards get, update and delete are 404',
    validRequestsOnly: true,
    async run(target, t) {
      const seller = await target.newSeller();
      const sdk = sdkFor(target, seller.key);
      const { id } = (await outcome(sdk.customers.create(ada('gone')))).body;
      expect(step(t, 'delete', await outcome(sdk.customers.delete(id)))).toEqual({ status: 204, body: null });
      expect(step(t, 'get deleted', await outcome(sdk.customers.get(id)))).toEqual({ status: 404, body: notFound });
      expect(step(t, 'update deleted', await outcome(sdk.customers.update(id, { status: 'active' })))).toEqual({ status: 404, body: notFound });
      expect(step(t, 'delete deleted', await outcome(sdk.customers.delete(id)))).toEqual({ status: 404, body: notFound });
      expect(await target.countCustomers(seller.sellerId)).toBe(0);
    },
  },
  {
    name: 'emails are unique per seller, case-insensitively, on create and update (409)',
    validRequestsOnly: true,
    async run(target, t) {
      const seller = await target.newSeller();
      const other = await target.newSeller();
      const sdk = sdkFor(target, seller.key);
      const first = (await outcome(sdk.customers.create({ ...ada(), email: 'Grace@Example.com' }))).body;
      const dup = step(t, 'create duplicate', await outcome(sdk.customers.create({ ...ada(), email: 'grace@EXAMPLE.com' })));
      expect(dup).toEqual({ status: 409, body: { error: 'Conflict', message: expect.any(String) } });
      const second = (await outcome(sdk.customers.create(ada('second')))).body;
      const clash = step(t, 'update to taken email', await outcome(sdk.customers.update(second.id, { email: 'GRACE@example.com' })));
      expect(clash.status).toBe(409);
      const self = step(t, 'update own email case', await outcome(sdk.customers.update(first.id, { email: 'grace@example.com' })));
      expect(self).toMatchObject({ status: 200, body: { email: 'grace@example.com' } });
      const elsewhere = step(t, 'same email, other seller', await outcome(sdkFor(target, other.key).customers.create({ ...ada(), email: 'grace@example.com' })));
      expect(elsewhere.status).toBe(201);
      expect(await target.countCustomers(seller.sellerId)).toBe(2);
    },
  },
  {
    name: 'the plan limit is 403 quoting the limit; deleting frees a place',
    validRequestsOnly: true,
    async run(target, t) {
      const seller = await target.newSeller({ customerLimit: 2 });
      const sdk = sdkFor(target, seller.key);
      const a = step(t, 'create 1', await outcome(sdk.customers.create(ada('l1'))));
      step(t, 'create 2', await outcome(sdk.customers.create(ada('l2'))));
      const over = step(t, 'create 3', await outcome(sdk.customers.create(ada('l3'))));
      expect(over).toEqual({ status: 403, body: { error: 'Forbidden', message: expect.stringMatching(/\b2\b/) } });
      expect(await target.countCustomers(seller.sellerId)).toBe(2);
      step(t, 'delete 1', await outcome(sdk.customers.delete(a.body.id)));
      expect(step(t, 'create 3 again', await outcome(sdk.customers.create(ada('l3')))).status).toBe(201);
    },
  },
  {
    name: "another seller's customer is a 404 for get, update and delete, and stays unchanged",
    validRequestsOnly: true,
    async run(target, t) {
      const owner = await target.newSeller();
      const intruder = sdkFor(target, (await target.newSeller()).key);
      const sdk = sdkFor(target, owner.key);
      const customer = (await outcome(sdk.customers.create(ada('tenant')))).body;
      expect(step(t, 'get other', await outcome(intruder.customers.get(customer.id)))).toEqual({ status: 404, body: notFound });
      expect(step(t, 'update other', await outcome(intruder.customers.update(customer.id, { first_name: 'Eve' })))).toEqual({ status: 404, body: notFound });
      expect(step(t, 'delete other', await outcome(intruder.customers.delete(customer.id)))).toEqual({ status: 404, body: notFound });
      expect((await outcome(sdk.customers.get(customer.id))).body).toEqual(customer);
    },
  },
  {
    name: 'malformed and unknown ids are 404 Customer not found',
    async run(target, t) {
      const seller = await target.newSeller();
      for (const id of ['not-a-uuid', UNKNOWN_ID, '3F1C2A9E-6D1B-4C7A-9F0E-2B8D5C4A7E6', "1' OR '1'='1", '%E0%A4%A']) {
        for (const method of ['GET', 'PATCH', 'DELETE']) {
          const body = method === 'PATCH' ? { status: 'active' } : undefined;
          const response = step(t, `${method} ${id}`, await send(target, method, `/api/customers/${encodeURI(id).replace(/%25/g, '%')}`, { key: seller.key, body }));
          expect({ status: response.status, body: response.json }, `${method} ${id}`).toEqual({ status: 404, body: notFound });
        }
      }
    },
  },
  {
    name: 'malformed, unknown and revoked keys are 401 at once',
    validRequestsOnly: true,
    async run(target, t) {
      const seller = await target.newSeller();
      const sdk = sdkFor(target, seller.key);
      const { id } = (await outcome(sdk.customers.create(ada('keys')))).body;
      const keys = {
        malformed: 'sk_live_short',
        'wrong prefix': `pk_live_${'A'.repeat(48)}`,
        unknown: `sk_live_${'Z9'.repeat(24)}`,
      };
      for (const [label, key] of Object.entries(keys)) {
        const response = step(t, `${label} key`, await send(target, 'GET', `/api/customers/${id}`, { key }));
        expect(response.status, label).toBe(401);
        expect(response.json).toEqual({ error: 'Unauthorized', message: expect.any(String) });
      }
      await target.revokeKey(seller);
      expect(step(t, 'revoked key', await outcome(sdk.customers.get(id))).status).toBe(401);
      expect(step(t, 'revoked key, Bearer', await send(target, 'DELETE', `/api/customers/${id}`, { key: seller.key, bearer: true })).status).toBe(401);
      expect(await target.countCustomers(seller.sellerId)).toBe(1);
    },
  },
  {
    name: 'invalid bodies are 400 naming the property, and store nothing',
    async run(target, t) {
      const seller = await target.newSeller();
      const post = (raw: string) => send(target, 'POST', '/api/customers', { key: seller.key, raw });
      const cases: Array<[string, string, RegExp]> = [
        ['malformed JSON', '{"first_name": "Ada",', /./],
        ['array body', '[]', /object/],
        ['missing last_name', JSON.stringify({ first_name: 'Ada', email: 'a@example.com' }), /last_name/],
        ['first_name too long', JSON.stringify({ ...ada(), first_name: 'x'.repeat(101) }), /first_name/],
        ['astral name too long', JSON.stringify({ ...ada(), last_name: '😀'.repeat(101) }), /last_name/],
        ['city too long', JSON.stringify({ ...ada(), address_data: { city: 'c'.repeat(101) } }), /address_data\.city/],
        ['bad email', JSON.stringify({ ...ada(), email: 'not-an-email' }), /email/],
        ['NUL in name', JSON.stringify({ ...ada(), first_name: 'A\u0000da' }), /first_name/],
        ['lone surrogate', `{"first_name":"\\ud800","last_name":"L","email":"s@example.com"}`, /first_name/],
        ['unknown address key', JSON.stringify({ ...ada(), address_data: { zip: '1' } }), /zip/],
        ['source is server-assigned', JSON.stringify({ ...ada(), source: 'api' }), /source/],
      ];
      for (const [label, raw, names] of cases) {
        const response = step(t, label, await post(raw));
        expect({ status: response.status, body: response.json }, label).toEqual({ status: 400, body: badRequest(names) });
      }
      const limit = step(t, 'lengths at the limit', await send(target, 'POST', '/api/customers', {
        key: seller.key,
        body: { first_name: 'x'.repeat(100), last_name: '😀'.repeat(100), email: 'edge@example.com', company_name: 'c'.repeat(200), address_data: { postal_code: '9'.repeat(20) } },
      }));
      expect(limit.status).toBe(201);
      const update = step(t, 'update unknown property', await send(target, 'PATCH', `/api/customers/${limit.json.id}`, { key: seller.key, body: { nickname: 'x' } }));
      expect({ status: update.status, body: update.json }).toEqual({ status: 400, body: badRequest(/nickname/) });
      expect(await target.countCustomers(seller.sellerId)).toBe(1);
    },
  },
  {
    name: 'non-JSON content types are 415 and bodies over 64 KiB are 413; nothing is stored',
    async run(target, t) {
      const seller = await target.newSeller();
      const { id } = (await send(target, 'POST', '/api/customers', { key: seller.key, body: ada('size') })).json;
      const huge = JSON.stringify({ ...ada('huge'), company_name: 'x'.repeat(70_000) });
      const cases = [
        ['create text/plain', 'POST', '/api/customers', { raw: JSON.stringify(ada('plain')), contentType: 'text/plain' }, 415],
        ['update form', 'PATCH', `/api/customers/${id}`, { raw: 'status=active', contentType: 'application/x-www-form-urlencoded' }, 415],
        ['create charset json', 'POST', '/api/customers', { raw: JSON.stringify(ada('charset')), contentType: 'application/json; charset=utf-8' }, 201],
        ['create over 64 KiB', 'POST', '/api/customers', { raw: huge }, 413],
        ['update over 64 KiB', 'PATCH', `/api/customers/${id}`, { raw: JSON.stringify({ company_name: 'x'.repeat(70_000) }) }, 413],
      ] as const;
      for (const [label, method, path, options, status] of cases) {
        const response = step(t, label, await send(target, method, path, { key: seller.key, ...options }));
        expect(response.status, label).toBe(status);
        if (status >= 400) expect(Object.keys(response.json).sort()).toEqual(['error', 'message']);
      }
      expect(await target.countCustomers(seller.sellerId)).toBe(2);
    },
  },
  {
    name: 'the order of checks: a bad key beats a bad body, a bad body beats an unknown id',
    async run(target, t) {
      const seller = await target.newSeller();
      const badKey = step(t, 'bad key and bad body', await send(target, 'POST', '/api/customers', { key: 'nope', raw: '{' }));
      expect(badKey.status).toBe(401);
      const badBody = step(t, 'bad body, unknown id', await send(target, 'PATCH', `/api/customers/${UNKNOWN_ID}`, { key: seller.key, body: { status: 'gone' } }));
      expect(badBody.status).toBe(400);
      const wrongType = step(t, 'bad content type, bad body', await send(target, 'POST', '/api/customers', { key: seller.key, raw: '{', contentType: 'text/plain' }));
      expect(wrongType.status).toBe(415);
    },
  },
  {
    name: 'an idempotent create answers the same customer twice and stores one',
    validRequestsOnly: true,
    async run(target, t) {
      const seller = await target.newSeller();
      const sdk = sdkFor(target, seller.key);
      const first = step(t, 'create with key', await outcome(sdk.customers.create(ada('idem'), { idempotencyKey: 'contract-idem-1' })));
      const again = step(t, 'replay', await outcome(sdk.customers.create(ada('idem'), { idempotencyKey: 'contract-idem-1' })));
      expect(again).toEqual(first);
      const changed = step(t, 'same key, other body', await outcome(sdk.customers.create(ada('other'), { idempotencyKey: 'contract-idem-1' })));
      expect(changed.status).toBe(400);
      expect(await target.countCustomers(seller.sellerId)).toBe(1);
    },
  },
];


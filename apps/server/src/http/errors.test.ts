import { connect } from 'node:net';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';

/** A string of `n` Unicode characters (code points), several of them outside the BMP. */
const chars = (n: number) => '😀é'.repeat(Math.floor(n / 2)) + (n % 2 ? 'a' : '');

const LIMITS: [field: string, max: number][] = [
  ['first_name', 100],
  ['last_name', 100],
  ['company_name', 200],
  ['legal_entity', 100],
];
const ADDRESS_LIMITS: [field: string, max: number][] = [
  ['street', 200],
  ['city', 100],
  ['postal_code', 20],
  ['country', 100],
];

describe.each(DIALECTS)('errors and limits over HTTP on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;
  const create = (body: unknown, headers?: Record<string, string>) =>
    server.call('POST', '/api/customers', { key: seller.key, body, ...(headers ? { headers } : {}) });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seller = await server.seller();
  });
  afterAll(async () => {
    await server.close();
  });

  describe('400 names the failing property', () => {
    it.each(['first_name', 'last_name', 'email'])('%s is required on create', async (field) => {
      const body = newCustomer();
      delete body[field];
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.json).toEqual(errorBody('Bad Request', `${field} is required`));
    });

    it.each(LIMITS)('%s: %i characters pass, one more is 400 (create and update)', async (field, max) => {
      const ok = await create(newCustomer({ [field]: chars(max) }));
      expect(ok.status).toBe(201);
      expect(ok.json[field]).toBe(chars(max));
      const tooLong = await create(newCustomer({ [field]: chars(max + 1) }));
      expect(tooLong.status).toBe(400);
      expect(tooLong.json).toEqual(errorBody('Bad Request', `${field} must be at most ${max} characters`));
      const patch = await server.call('PATCH', `/api/customers/${ok.json.id}`, { key: seller.key, body: { [field]: chars(max + 1) } });
      expect(patch.status).toBe(400);
      expect(patch.json).toEqual(errorBody('Bad Request', `${field} must be at most ${max} characters`));
    });

    it.each(ADDRESS_LIMITS)('address %s: %i characters pass, one more is 400', async (field, max) => {
      for (const address of ['address_data', 'postal_redirect_address']) {
        const ok = await create(newCustomer({ [address]: { [field]: chars(max) } }));
        expect(ok.status).toBe(201);
        const tooLong = await create(newCustomer({ [address]: { [field]: chars(max + 1) } }));
        expect(tooLong.status).toBe(400);
        expect(tooLong.json).toEqual(errorBody('Bad Request', `${address}.${field} must be at most ${max} characters`));
      }
    });

    it('email: 254 characters pass, 255 is 400; an invalid address is 400', async () => {
      const local = 'a'.repeat(64);
      const domainOf = (length: number) => {
        const labels: string[] = [];
        let rest = length - 4; // ".com"
        while (rest > 0) {
          const size = Math.min(rest === 1 ? 1 : 63, rest - (rest > 63 ? 1 : 0));
          labels.push('b'.repeat(size));
          rest -= size + (rest > size ? 1 : 0);
        }
        return `${labels.join('.')}.com`;
      };
      const at254 = `${local}@${domainOf(254 - 65)}`;
      expect(at254.length).toBe(254);
      expect((await create(newCustomer({ email: at254 }))).status).toBe(201);
      const at255 = `${local}@${domainOf(255 - 65)}`;
      expect(at255.length).toBe(255);
      const tooLong = await create(newCustomer({ email: at255 }));
      expect(tooLong.status).toBe(400);
      expect(tooLong.json.message).toMatch(/^email /);
      const invalid = await create(newCustomer({ email: 'not-an-email' }));
      expect(invalid.json).toEqual(errorBody('Bad Request', 'email must be a valid email address'));
    });

    it('an unknown or server-assigned property is 400 naming it', async () => {
      for (const field of ['nickname', 'id', 'source', 'created_at']) {
        const res = await create(newCustomer({ [field]: 'x' }));
        expect(res.status).toBe(400);
        expect(res.json).toEqual(errorBody('Bad Request', `${field} is not an allowed property`));
      }
    });

    it('values outside the enums and wrong types are 400', async () => {
      const status = await create(newCustomer({ status: 'deleted' }));
      expect(status.json).toEqual(errorBody('Bad Request', 'status must be one of: active, inactive, suspended'));
      const language = await create(newCustomer({ language: 'fr' }));
      expect(language.status).toBe(400);
      expect(language.json.message).toMatch(/^language /);
      const type = await create(newCustomer({ first_name: 42 }));
      expect(type.status).toBe(400);
      expect(type.json.message).toMatch(/^first_name /);
    });

    it('an update needs at least one property', async () => {
      const created = (await create(newCustomer())).json;
      const res = await server.call('PATCH', `/api/customers/${created.id}`, { key: seller.key, body: {} });
      expect(res.json).toEqual(errorBody('Bad Request', 'body must have at least 1 property'));
    });

    it('malformed JSON, a non-object body and a missing body are 400', async () => {
      const json = { 'content-type': 'application/json' };
      const malformed = await server.call('POST', '/api/customers', { key: seller.key, raw: '{"first_name":', headers: json });
      expect(malformed.status).toBe(400);
      expect(malformed.json.error).toBe('Bad Request');
      for (const raw of ['[]', '"text"', 'null', '42']) {
        const res = await server.call('POST', '/api/customers', { key: seller.key, raw, headers: json });
        expect(res.json).toEqual(errorBody('Bad Request', 'body must be a JSON object'));
      }
      const none = await server.call('POST', '/api/customers', { key: seller.key });
      expect(none.json).toEqual(errorBody('Bad Request', 'body must be a JSON object'));
      const empty = await server.call('PATCH', '/api/customers/6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90', { key: seller.key, raw: '', headers: json });
      expect(empty.status).toBe(400);
    });
  });

  it('415 for a body that is not application/json (charset allowed)', async () => {
    const text = await server.call('POST', '/api/customers', { key: seller.key, raw: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.json).toEqual(errorBody('Unsupported Media Type', 'Content-Type must be application/json'));
    const form = await server.call('POST', '/api/customers', { key: seller.key, raw: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    const charset = await server.call('POST', '/api/customers', {
      key: seller.key,
      raw: JSON.stringify(newCustomer()),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(charset.status).toBe(201);
  });

  it('413 for a body over 65536 bytes; exactly 65536 bytes is read (and judged by the schema)', async () => {
    const base = JSON.stringify(newCustomer({ company_name: '' }));
    const pad = (size: number) => base.replace('"company_name":""', `"company_name":"${'x'.repeat(size - base.length)}"`);
    const atLimit = await server.call('POST', '/api/customers', { key: seller.key, raw: pad(65_536), headers: { 'content-type': 'application/json' } });
    expect(atLimit.status).toBe(400);
    expect(atLimit.json).toEqual(errorBody('Bad Request', 'company_name must be at most 200 characters'));
    const over = await server.call('POST', '/api/customers', { key: seller.key, raw: pad(65_537), headers: { 'content-type': 'application/json' } });
    expect(over.status).toBe(413);
    expect(over.json).toEqual(errorBody('Payload Too Large', 'Request body must be at most 65536 bytes'));
  });

  it('404 for a malformed, unknown or deleted id, with the same message', async () => {
    for (const id of ['42', 'not-a-uuid', '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90', '%zz', `${'a'.repeat(300)}`, "1'%20OR%20'1'='1"]) {
      const res = await server.call('GET', `/api/customers/${id}`, { key: seller.key });
      expect(res.status, id).toBe(404);
      expect(res.json).toEqual(errorBody('Not Found', 'Customer not found'));
    }
  });

  it('404 for unknown routes and 405 with Allow for other methods, in the error shape', async () => {
    const unknown = await server.call('GET', '/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual(errorBody('Not Found', /\/api\/nothing-here/));
    expect(unknown.headers.get('x-request-id')).toBeTruthy();
    const put = await server.call('PUT', '/api/customers/6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90', { key: seller.key });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE');
    expect(put.json).toEqual(errorBody('Method Not Allowed', /PUT/));
    const collection = await server.call('PATCH', '/api/customers', { key: seller.key });
    expect(collection.status).toBe(405);
    expect(collection.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('405 with Allow for methods fetch cannot send (TRACE, PROPFIND, LINK, QUERY), after the key; HEAD is GET without a body', async () => {
    const item = `/api/customers/${(await create(newCustomer())).json.id}`;
    for (const method of ['TRACE', 'PROPFIND', 'LINK', 'QUERY', 'OPTIONS', 'PUT']) {
      for (const [path, allow] of [['/api/customers', 'GET, HEAD, POST'], [item, 'GET, HEAD, PATCH, DELETE']] as const) {
        const res = await rawRequest(server.url, method, path, { 'x-api-key': seller.key });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.allow, `${method} ${path}`).toBe(allow);
        expect(JSON.parse(res.body), `${method} ${path}`).toEqual(errorBody('Method Not Allowed', new RegExp(method)));
        expect(res.headers['x-request-id']).toBeTruthy();
      }
      expect((await rawRequest(server.url, method, '/api/customers', {})).status, `${method} without a key`).toBe(401);
    }
    const head = await rawRequest(server.url, 'HEAD', item, { 'x-api-key': seller.key });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['cache-control']).toBe('no-store');
    expect((await rawRequest(server.url, 'HEAD', '/api/customers/nope', { 'x-api-key': seller.key })).status).toBe(404);
  });

  it('409 on create and on update for an email taken in any letter case', async () => {
    const first = (await create(newCustomer({ email: 'taken@example.com' }))).json;
    const dup = await create(newCustomer({ email: 'TAKEN@Example.com' }));
    expect(dup.status).toBe(409);
    expect(dup.json).toEqual(errorBody('Conflict', 'A customer with email TAKEN@Example.com already exists'));
    const other = (await create(newCustomer())).json;
    const patch = await server.call('PATCH', `/api/customers/${other.id}`, { key: seller.key, body: { email: 'Taken@example.com' } });
    expect(patch.status).toBe(409);
    expect(patch.json.error).toBe('Conflict');
    expect((await server.call('GET', `/api/customers/${other.id}`, { key: seller.key })).json).toEqual(other);
    expect(first.email).toBe('taken@example.com');
  });

  it('403 at the plan limit, stating the number; deleting frees a place', async () => {
    const limited = await server.seller({ customerLimit: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await server.call('POST', '/api/customers', { key: limited.key, body: newCustomer() });
      expect(res.status).toBe(201);
      ids.push(res.json.id);
    }
    const over = await server.call('POST', '/api/customers', { key: limited.key, body: newCustomer() });
    expect(over.status).toBe(403);
    expect(over.json).toEqual(errorBody('Forbidden', 'Customer limit reached; your subscription plan allows 3 customers'));
    await server.call('DELETE', `/api/customers/${ids[0]}`, { key: limited.key });
    expect((await server.call('POST', '/api/customers', { key: limited.key, body: newCustomer() })).status).toBe(201);
  });

  it('a rejected create stores nothing', async () => {
    const fresh = await server.seller({ customerLimit: 1 });
    for (const body of [newCustomer({ status: 'x' }), newCustomer({ extra: 1 }), { first_name: 'A' }]) {
      expect((await server.call('POST', '/api/customers', { key: fresh.key, body })).status).toBe(400);
    }
    expect((await server.call('POST', '/api/customers', { key: fresh.key, body: newCustomer() })).status).toBe(201);
  });

  it('odd inputs never produce a 500', async () => {
    const json = { 'content-type': 'application/json' };
    const bad = (message: string) => ({ error: 'Bad Request', message });
    // Each odd body with its exact answer: a 400 naming the problem, or (for a duplicated key) the last value wins.
    const bodies: Array<[string, number, unknown]> = [
      ['{"__proto__":{"first_name":"x"},"first_name":"A","last_name":"B","email":"a@b.de"}', 400, bad('__proto__ is not an allowed property')],
      ['{"constructor":{"prototype":{}}}', 400, bad('first_name is required')],
      ['{"first_name":"\\u0000","last_name":"B","email":"nul@b.de"}', 400, bad('first_name must not contain U+0000 or unpaired surrogates')],
      ['{"first_name":"\\ud800","last_name":"B","email":"lone@b.de"}', 400, bad('first_name must not contain U+0000 or unpaired surrogates')],
      ['\uFEFF{"first_name":"A"}', 400, bad('last_name is required')],
      ['{"address_data":[],"first_name":"A","last_name":"B","email":"arr@b.de"}', 400, bad('address_data must be an object or null')],
      ['{"first_name":"A","last_name":"B","email":"a@b.de","first_name":"dup"}', 201, { first_name: 'dup', last_name: 'B', email: 'a@b.de' }],
      [Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString('latin1'), 400, bad('body must be valid JSON (UTF-8)')],
    ];
    for (const [raw, status, body] of bodies) {
      const res = await server.call('POST', '/api/customers', { key: seller.key, raw, headers: json });
      expect(res.status, raw).toBe(status);
      if (status === 201) expect(res.json, raw).toMatchObject(body as object);
      else expect(res.json, raw).toEqual(body);
    }
    const binary = await server.call('POST', '/api/customers', { key: seller.key, raw: new Uint8Array([0xc3, 0x28]), headers: json });
    expect(binary.status).toBe(400);
  });

  it('every error carries X-Request-Id and exactly { error, message }', async () => {
    const json = { 'content-type': 'application/json' };
    const responses = [
      await server.call('GET', '/api/customers/x'),
      await server.call('GET', '/api/customers/x', { key: seller.key }),
      await server.call('POST', '/api/customers', { key: seller.key, raw: '{', headers: json }),
      await server.call('POST', '/api/customers', { key: seller.key, raw: 'x', headers: { 'content-type': 'text/plain' } }),
      await server.call('POST', '/api/customers', { key: seller.key, raw: 'x'.repeat(70_000), headers: json }),
      await server.call('DELETE', '/api/customers', { key: seller.key }),
      await server.call('GET', '/missing'),
    ];
    for (const res of responses) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(Object.keys(res.json).sort()).toEqual(['error', 'message']);
    }
  });

  it('requests rejected by the HTTP parser get the same error shape', async () => {
    const raw = (text: string) =>
      new Promise<string>((resolveText, reject) => {
        const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString()));
        socket.on('close', () => resolveText(received));
        socket.on('error', reject);
        socket.end(text);
      });
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(garbage).toMatch(/x-request-id: \S+/i);
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toEqual(errorBody('Bad Request', 'The request is not valid HTTP'));
    const huge = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4)).message).toBe('Request headers are too large');
  });

  it('checks in the documented order: route, key, method, content type, size, body, id, limit, email', async () => {
    const unknownId = '/api/customers/6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90';
    const text = { 'content-type': 'text/plain' };
    expect((await server.call('PUT', '/api/elsewhere', { raw: 'x', headers: text })).status).toBe(404);
    expect((await server.call('PUT', unknownId, { raw: 'x', headers: text })).status).toBe(401);
    expect((await server.call('PUT', unknownId, { key: seller.key, raw: 'x', headers: text })).status).toBe(405);
    expect((await server.call('PATCH', unknownId, { key: seller.key, raw: 'x'.repeat(70_000), headers: text })).status).toBe(415);
    const big = { 'content-type': 'application/json' };
    expect((await server.call('PATCH', unknownId, { key: seller.key, raw: 'x'.repeat(70_000), headers: big })).status).toBe(413);
    expect((await server.call('PATCH', unknownId, { key: seller.key, body: { status: 'nope' } })).status).toBe(400);
    expect((await server.call('PATCH', unknownId, { key: seller.key, body: { status: 'active' } })).status).toBe(404);
    const full = await server.seller({ customerLimit: 1 });
    const taken = newCustomer();
    expect((await server.call('POST', '/api/customers', { key: full.key, body: taken })).status).toBe(201);
    expect((await server.call('POST', '/api/customers', { key: full.key, body: taken })).status).toBe(403);
  });
});

/** A request with any method (fetch refuses TRACE and friends), answered as status, headers and body text. */
function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

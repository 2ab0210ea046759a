// openapi.dashboard.yaml is the dashboard's contract: every operation exists, and real responses (status and
// body) match what it documents.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestServer } from '../test/test-server.js';
import { postLogin, rawCall, sameOrigin, signIn } from './dashboard-test-helpers.js';
import { createLoginLink } from './login-links.js';

const SPEC_FILE = join(dirname(fileURLToPath(import.meta.url)), '../../../../openapi.dashboard.yaml');
const spec = parse(readFileSync(SPEC_FILE, 'utf8'));
type Operation = { responses: Record<string, { $ref?: string; content?: Record<string, { schema: object }> }> };

const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ $id: 'dashboard', components: spec.components });
const rewrite = (schema: object) =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"dashboard#/components/')) as object;

/** Checks that a response has the expected status, that openapi.dashboard.yaml documents it, and its JSON schema. */
function expectDocumented(method: string, path: string, status: number, response: { status: number; text: string }) {
  expect(response.status, `${method} ${path}: ${response.text}`).toBe(status);
  const operation = spec.paths[path]?.[method.toLowerCase()] as Operation | undefined;
  expect(operation, `${method} ${path} is documented`).toBeDefined();
  let documented = operation!.responses[String(response.status)];
  expect(documented, `${method} ${path} documents ${response.status}`).toBeDefined();
  if (documented!.$ref) documented = spec.components.responses[documented!.$ref.split('/').pop()!];
  const schema = documented!.content?.['application/json']?.schema;
  if (!schema) return;
  const validate = ajv.compile(rewrite(schema));
  const body = JSON.parse(response.text);
  expect(validate(body), `${method} ${path} ${response.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

describe.each(DIALECTS)('openapi.dashboard.yaml against the server on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  it('documents only routes the server has', () => {
    for (const [path, operations] of Object.entries(spec.paths as Record<string, object>)) {
      for (const method of Object.keys(operations)) {
        const url = path.replace(/\{(\w+)\}/g, ':$1');
        expect(server.app.hasRoute({ method: method.toUpperCase() as 'GET', url }), `${method} ${path}`).toBe(true);
      }
    }
  });

  it('answers every operation as documented, successes and errors', async () => {
    const seller = await server.seller();
    const { token } = await createLoginLink(server.handle, seller.sellerId);
    expectDocumented('GET', '/dashboard/login', 200, await rawCall(server, 'GET', `/dashboard/login?token=${token}`));
    expectDocumented('GET', '/dashboard/login', 401, await rawCall(server, 'GET', '/dashboard/login'));
    expectDocumented('POST', '/dashboard/login', 303, await postLogin(server, token));
    expectDocumented('POST', '/dashboard/login', 401, await postLogin(server, token));
    expectDocumented('POST', '/dashboard/login', 403, await postLogin(server, token, { origin: 'https://evil.example' }));
    const other = await server.seller();
    const foreign = await createLoginLink(server.handle, other.sellerId);
    const signedIn = { ...sameOrigin(server), cookie: await signIn(server, seller.sellerId) };
    const tooLarge = { switch_to: 'x'.repeat(2_000) };
    expectDocumented('POST', '/dashboard/login', 200, await postLogin(server, foreign.token, signedIn));
    expectDocumented('POST', '/dashboard/login', 413, await postLogin(server, foreign.token, sameOrigin(server), tooLarge));
    expectDocumented('POST', '/dashboard/login', 303, await postLogin(server, foreign.token, signedIn, { switch_to: other.sellerId }));

    const cookie = await signIn(server, seller.sellerId);
    const headers = { cookie, ...sameOrigin(server) };
    const call = (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
      server.call(method, path, { headers: { ...headers, ...extra }, body });

    await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() });
    expectDocumented('GET', '/dashboard/api/account', 200, await call('GET', '/dashboard/api/account'));
    const created = await call('POST', '/dashboard/api/keys', { name: 'Docs', expires_at: '2099-01-31' });
    expectDocumented('POST', '/dashboard/api/keys', 201, created);
    await server.call('GET', `/api/customers/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, { key: created.json.key });
    await server.app.drainKeyUsage();
    expectDocumented('GET', '/dashboard/api/keys', 200, await call('GET', '/dashboard/api/keys'));
    expectDocumented('POST', '/dashboard/api/keys', 400, await call('POST', '/dashboard/api/keys', { name: '' }));
    expectDocumented('POST', '/dashboard/api/keys', 403, await call('POST', '/dashboard/api/keys', { name: 'x' }, { origin: 'https://evil.example' }));
    expectDocumented(
      'POST',
      '/dashboard/api/keys', 415,
      await server.call('POST', '/dashboard/api/keys', { headers: { ...headers, 'content-type': 'text/plain' }, raw: 'x' }),
    );
    expectDocumented(
      'POST',
      '/dashboard/api/keys', 413,
      await call('POST', '/dashboard/api/keys', { name: 'x'.repeat(70_000) }),
    );
    const revokePath = '/dashboard/api/keys/{id}/revoke';
    expectDocumented('POST', revokePath, 200, await call('POST', `/dashboard/api/keys/${created.json.id}/revoke`));
    expectDocumented('POST', revokePath, 404, await call('POST', '/dashboard/api/keys/nope/revoke'));
    const rollPath = '/dashboard/api/keys/{id}/roll';
    const toRoll = await call('POST', '/dashboard/api/keys', { name: 'To roll' });
    expectDocumented('POST', rollPath, 201, await call('POST', `/dashboard/api/keys/${toRoll.json.id}/roll`, { overlap: '24h' }));
    expectDocumented('POST', rollPath, 400, await call('POST', `/dashboard/api/keys/${toRoll.json.id}/roll`, { overlap: '2d' }));
    expectDocumented('POST', rollPath, 404, await call('POST', '/dashboard/api/keys/nope/roll', { overlap: '1h' }));
    expectDocumented('POST', rollPath, 409, await call('POST', `/dashboard/api/keys/${created.json.id}/roll`, { overlap: '1h' }));
    expectDocumented('DELETE', '/dashboard/api/keys/{id}', 204, await call('DELETE', `/dashboard/api/keys/${created.json.id}`));
    expectDocumented('DELETE', '/dashboard/api/keys/{id}', 404, await call('DELETE', `/dashboard/api/keys/${created.json.id}`));
    expectDocumented('GET', '/dashboard/api/keys', 401, await call('GET', '/dashboard/api/keys', undefined, { 'x-api-key': seller.key }));

    const hooks = '/dashboard/api/webhooks';
    const endpoint = await call('POST', hooks, { url: 'https://shop.example.com/hooks', events: ['customer.created'] });
    expectDocumented('POST', hooks, 201, endpoint);
    expectDocumented('POST', hooks, 400, await call('POST', hooks, { url: 'http://127.0.0.1/hook' }));
    expectDocumented('POST', hooks, 403, await call('POST', hooks, { url: 'https://x.example' }, { origin: 'https://evil.example' }));
    expectDocumented('POST', hooks, 413, await call('POST', hooks, { url: `https://x.example/${'a'.repeat(70_000)}` }));
    expectDocumented('POST', hooks, 415, await server.call('POST', hooks, { headers: { ...headers, 'content-type': 'text/plain' }, raw: 'x' }));
    expectDocumented('GET', hooks, 200, await call('GET', hooks));
    await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() });
    const id = endpoint.json.id as string;
    const deliveries = `${hooks}/{id}/deliveries`;
    expectDocumented('POST', `${hooks}/{id}/test`, 202, await call('POST', `${hooks}/${id}/test`));
    expectDocumented('POST', `${hooks}/{id}/test`, 404, await call('POST', `${hooks}/nope/test`));
    const listed = await call('GET', `${hooks}/${id}/deliveries`);
    expectDocumented('GET', deliveries, 200, listed);
    expect(listed.json.deliveries).toHaveLength(2);
    expectDocumented('GET', deliveries, 404, await call('GET', `${hooks}/nope/deliveries`));
    const resend = `${hooks}/{id}/deliveries/{event_id}/resend`;
    expectDocumented('POST', resend, 204, await call('POST', `${hooks}/${id}/deliveries/${listed.json.deliveries[1].event_id}/resend`));
    expectDocumented('POST', resend, 404, await call('POST', `${hooks}/${id}/deliveries/evt_00000000000000000000000000000000/resend`));
    const one = `${hooks}/{id}`;
    expectDocumented('GET', one, 200, await call('GET', `${hooks}/${id}`));
    expectDocumented('GET', one, 404, await call('GET', `${hooks}/nope`));
    expectDocumented('PATCH', one, 200, await call('PATCH', `${hooks}/${id}`, { description: 'Docs' }));
    expectDocumented('PATCH', one, 400, await call('PATCH', `${hooks}/${id}`, { events: [] }));
    const second = await call('POST', hooks, { url: 'https://shop.example.com/other' });
    expectDocumented('PATCH', one, 409, await call('PATCH', `${hooks}/${second.json.id}`, { url: 'https://shop.example.com/hooks' }));
    expectDocumented('POST', hooks, 409, await call('POST', hooks, { url: 'https://shop.example.com/hooks' }));
    expectDocumented('PATCH', one, 404, await call('PATCH', `${hooks}/nope`, { description: 'x' }));
    expectDocumented('PATCH', one, 403, await call('PATCH', `${hooks}/${id}`, { description: 'x' }, { origin: 'https://evil.example' }));
    expectDocumented('PATCH', one, 413, await call('PATCH', `${hooks}/${id}`, { description: 'x'.repeat(70_000) }));
    expectDocumented('PATCH', one, 415, await server.call('PATCH', `${hooks}/${id}`, { headers: { ...headers, 'content-type': 'text/plain' }, raw: 'x' }));
    const eventId = listed.json.deliveries[1].event_id as string;
    expectDocumented('GET', `${deliveries}/{event_id}`, 200, await call('GET', `${hooks}/${id}/deliveries/${eventId}`));
    expectDocumented('GET', `${deliveries}/{event_id}`, 404, await call('GET', `${hooks}/${id}/deliveries/evt_00000000000000000000000000000000`));
    expectDocumented('GET', deliveries, 400, await call('GET', `${hooks}/${id}/deliveries?state=nope`));
    expectDocumented('GET', `${hooks}/{id}/test`, 200, await call('GET', `${hooks}/${id}/test`));
    expectDocumented('GET', `${hooks}/{id}/test`, 400, await call('GET', `${hooks}/${id}/test?event_type=customer.deleted`));
    expectDocumented('GET', `${hooks}/{id}/test`, 404, await call('GET', `${hooks}/nope/test`));
    expectDocumented('POST', `${hooks}/{id}/test`, 400, await call('POST', `${hooks}/${id}/test?event_type=customer.deleted`));
    expectDocumented('POST', `${hooks}/{id}/reveal-secret`, 200, await call('POST', `${hooks}/${id}/reveal-secret`));
    expectDocumented('POST', `${hooks}/{id}/reveal-secret`, 404, await call('POST', `${hooks}/nope/reveal-secret`));
    expectDocumented('POST', `${hooks}/{id}/reveal-secret`, 403, await call('POST', `${hooks}/${id}/reveal-secret`, undefined, { origin: 'https://evil.example' }));
    const resendFailed = `${hooks}/{id}/resend-failed`;
    expectDocumented('GET', resendFailed, 200, await call('GET', `${hooks}/${id}/resend-failed?since=2026-01-01T00:00:00Z`));
    expectDocumented('GET', resendFailed, 400, await call('GET', `${hooks}/${id}/resend-failed?since=soon`));
    expectDocumented('GET', resendFailed, 404, await call('GET', `${hooks}/nope/resend-failed?since=2026-01-01T00:00:00Z`));
    expectDocumented('POST', resendFailed, 200, await call('POST', `${hooks}/${id}/resend-failed`, { since: '2026-01-01T00:00:00Z' }));
    expectDocumented('POST', resendFailed, 400, await call('POST', `${hooks}/${id}/resend-failed`, { since: 'soon' }));
    expectDocumented('POST', resendFailed, 404, await call('POST', `${hooks}/nope/resend-failed`, { since: '2026-01-01T00:00:00Z' }));
    expectDocumented('POST', resendFailed, 415, await server.call('POST', `${hooks}/${id}/resend-failed`, { headers: { ...headers, 'content-type': 'text/plain' }, raw: 'x' }));
    const events = await call('GET', `/dashboard/api/events?event_id=${eventId.slice(0, 12)}`);
    expectDocumented('GET', '/dashboard/api/events', 200, events);
    expect(events.json.events[0].deliveries.length).toBeGreaterThan(0);
    expectDocumented('GET', '/dashboard/api/events', 400, await call('GET', '/dashboard/api/events?event_id=evt_1'));
    const resendEvent = '/dashboard/api/events/{event_id}/resend';
    expectDocumented('POST', resendEvent, 204, await call('POST', `/dashboard/api/events/${eventId}/resend`, { endpoint_id: id }));
    expectDocumented('POST', resendEvent, 400, await call('POST', `/dashboard/api/events/${eventId}/resend`, {}));
    expectDocumented('POST', resendEvent, 404, await call('POST', `/dashboard/api/events/${eventId}/resend`, { endpoint_id: second.json.id.replace(/.$/, '0') }));
    expectDocumented('POST', resendEvent, 403, await call('POST', `/dashboard/api/events/${eventId}/resend`, { endpoint_id: id }, { origin: 'https://evil.example' }));
    expectDocumented('POST', resendEvent, 415, await server.call('POST', `/dashboard/api/events/${eventId}/resend`, { headers: { ...headers, 'content-type': 'text/plain' }, raw: 'x' }));
    expectDocumented('POST', `${hooks}/{id}/disable`, 200, await call('POST', `${hooks}/${id}/disable`));
    expectDocumented('POST', `${hooks}/{id}/disable`, 404, await call('POST', `${hooks}/nope/disable`));
    expectDocumented('POST', `${hooks}/{id}/enable`, 200, await call('POST', `${hooks}/${id}/enable`));
    expectDocumented('POST', `${hooks}/{id}/rotate-secret`, 200, await call('POST', `${hooks}/${id}/rotate-secret`));
    expectDocumented('POST', `${hooks}/{id}/rotate-secret`, 404, await call('POST', `${hooks}/nope/rotate-secret`));
    expectDocumented('DELETE', `${hooks}/{id}`, 204, await call('DELETE', `${hooks}/${id}`));
    expectDocumented('DELETE', `${hooks}/{id}`, 404, await call('DELETE', `${hooks}/${id}`));
    expectDocumented('GET', hooks, 401, await call('GET', hooks, undefined, { 'x-api-key': seller.key }));

    const customers = '/dashboard/api/customers';
    const customerList = await call('GET', customers);
    expectDocumented('GET', customers, 200, customerList);
    expectDocumented('GET', customers, 400, await call('GET', `${customers}?limit=0`));
    const customerId = customerList.json.data[0].id as string;
    const oneCustomer = `${customers}/{id}`;
    expectDocumented('GET', oneCustomer, 200, await call('GET', `${customers}/${customerId}`));
    expectDocumented('GET', oneCustomer, 404, await call('GET', `${customers}/nope`));
    expectDocumented('PATCH', oneCustomer, 200, await call('PATCH', `${customers}/${customerId}`, { status: 'inactive' }));
    expectDocumented('PATCH', oneCustomer, 400, await call('PATCH', `${customers}/${customerId}`, { status: 'asleep' }));
    const otherCustomer = await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() });
    expectDocumented('PATCH', oneCustomer, 409, await call('PATCH', `${customers}/${customerId}`, { email: otherCustomer.json.email }));
    expectDocumented('PATCH', oneCustomer, 404, await call('PATCH', `${customers}/nope`, { status: 'inactive' }));
    expectDocumented('PATCH', oneCustomer, 403, await call('PATCH', `${customers}/${customerId}`, { status: 'inactive' }, { origin: 'https://evil.example' }));
    expectDocumented('PATCH', oneCustomer, 413, await call('PATCH', `${customers}/${customerId}`, { company_name: 'x'.repeat(70_000) }));
    expectDocumented('PATCH', oneCustomer, 415, await server.call('PATCH', `${customers}/${customerId}`, { headers: { ...headers, 'content-type': 'text/plain' }, raw: 'x' }));
    expectDocumented('DELETE', oneCustomer, 204, await call('DELETE', `${customers}/${customerId}`));
    expectDocumented('DELETE', oneCustomer, 404, await call('DELETE', `${customers}/${customerId}`));
    expectDocumented('DELETE', oneCustomer, 403, await call('DELETE', `${customers}/${otherCustomer.json.id}`, undefined, { origin: 'https://evil.example' }));

    await server.app.requestLogs!.flush();
    const requestLogs = await call('GET', '/dashboard/api/request-logs?status_class=4xx');
    expectDocumented('GET', '/dashboard/api/request-logs', 200, requestLogs);
    expectDocumented('GET', '/dashboard/api/request-logs', 400, await call('GET', '/dashboard/api/request-logs?status_class=9xx'));
    const logPath = '/dashboard/api/request-logs/{id}';
    expectDocumented('GET', logPath, 200, await call('GET', `/dashboard/api/request-logs/${requestLogs.json.request_logs[0].id}`));
    expectDocumented('GET', logPath, 404, await call('GET', '/dashboard/api/request-logs/999999'));
    expectDocumented('GET', '/dashboard/api/request-logs', 401, await call('GET', '/dashboard/api/request-logs', undefined, { 'x-api-key': seller.key }));

    const activity = await call('GET', '/dashboard/api/activity');
    expectDocumented('GET', '/dashboard/api/activity', 200, activity);
    expect(activity.json.entries.length).toBeGreaterThan(5);
    expectDocumented('GET', '/dashboard/api/activity', 401, await call('GET', '/dashboard/api/activity', undefined, { 'x-api-key': seller.key }));

    expectDocumented('DELETE', '/dashboard/api/session', 204, await call('DELETE', '/dashboard/api/session'));
    expectDocumented('DELETE', '/dashboard/api/session', 401, await call('DELETE', '/dashboard/api/session'));
    expectDocumented('GET', '/dashboard/api/account', 401, await call('GET', '/dashboard/api/account'));
  });
});

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { postLogin, sameOrigin, signIn } from '../dashboard/dashboard-test-helpers.js';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestServer } from '../test/test-server.js';
import { AUDIT_ACTIONS } from './audit-actions.js';
import { listAuditRows, pruneAuditLog, type AuditRecord } from './audit-log.js';

async function cli(env: NodeJS.ProcessEnv, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t), env });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

describe.each(DIALECTS)('audit log on %s', (dialect) => {
  let server: TestServer;
  let db: string[];
  const env = { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') };
  /** Every secret, key, token and cookie the actions below handled: none may appear in an audit row. */
  const secrets: string[] = [];
  let sellerId: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    db = ['--database', server.database.url];
  });
  afterAll(async () => {
    await server.close();
  });

  const rows = () => listAuditRows(server.handle, { sellerId, limit: 1000 });

  it('records every change made with the CLI, actor cli, in the order made', async () => {
    const seller = await cli(env, 'sellers', 'create', '--name', 'Audited', '--json', ...db);
    expect(seller.code).toBe(0);
    sellerId = seller.json().id;
    expect((await cli(env, 'sellers', 'update', sellerId, '--rate-limit', '50', ...db)).code).toBe(0);
    const key = (await cli(env, 'keys', 'create', '--seller', sellerId, '--name', 'ops', '--json', ...db)).json();
    secrets.push(key.key);
    expect((await cli(env, 'keys', 'revoke', key.id, ...db)).code).toBe(0);
    expect((await cli(env, 'keys', 'delete', key.id, ...db)).code).toBe(0);
    const endpoint = (await cli(env, 'webhooks', 'create', '--seller', sellerId, '--url', 'https://crm.example.com/hooks', '--json', ...db)).json();
    secrets.push(endpoint.secret);
    const rotated = (await cli(env, 'webhooks', 'rotate-secret', endpoint.id, '--json', ...db)).json();
    secrets.push(rotated.secret);
    expect((await cli(env, 'webhooks', 'delete', endpoint.id, ...db)).code).toBe(0);
    const link = (await cli(env, 'sellers', 'login-link', '--seller', sellerId, '--json', ...db)).json();
    secrets.push(new URL(link.url).searchParams.get('token')!);
    // Failed commands change nothing and record nothing.
    expect((await cli(env, 'keys', 'revoke', '00000000-0000-4000-8000-000000000000', ...db)).code).toBe(1);

    const recorded = (await rows()).reverse();
    expect(recorded.map((row) => [row.action, row.target_id])).toEqual([
      ['seller.created', sellerId],
      ['seller.updated', sellerId],
      ['api_key.created', key.id],
      ['api_key.revoked', key.id],
      ['api_key.deleted', key.id],
      ['webhook_endpoint.created', endpoint.id],
      ['webhook_endpoint.secret_rotated', endpoint.id],
      ['webhook_endpoint.deleted', endpoint.id],
      ['sign_in_link.issued', null],
    ]);
    // Who: the OS account and machine that ran the CLI, as the operating system says (not the environment).
    const who = `${userInfo().username}@${hostname()}`;
    for (const row of recorded) {
      expect(row).toMatchObject({ seller_id: sellerId, actor_type: 'cli', actor_id: null, actor_label: who, request_id: null, client_address: null });
    }
  });

  it('records every change made in the dashboard with its session, request id and client address', async () => {
    const before = (await rows()).length;
    const cookie = await signIn(server, sellerId);
    secrets.push(cookie.split('=')[1]!);
    const call = (method: string, path: string, body?: unknown) =>
      server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...sameOrigin(server) }, body });
    const key = (await call('POST', '/keys', { name: 'dashboard' })).json;
    secrets.push(key.key);
    expect((await call('POST', `/keys/${key.id}/revoke`)).status).toBe(200);
    expect((await call('DELETE', `/keys/${key.id}`)).status).toBe(204);
    const endpoint = (await call('POST', '/webhooks', { url: 'https://shop.example.com/hooks' })).json;
    secrets.push(endpoint.secret);
    const rotated = (await call('POST', `/webhooks/${endpoint.id}/rotate-secret`)).json;
    secrets.push(rotated.secret);
    const test = await call('POST', `/webhooks/${endpoint.id}/test`);
    expect(test.status).toBe(202);
    // A real change to resend: a customer created through the API with a key of this seller.
    const apiKey = (await cli(env, 'keys', 'create', '--seller', sellerId, '--name', 'api', '--json', ...db)).json();
    secrets.push(apiKey.key);
    expect((await server.call('POST', '/api/customers', { headers: { 'x-api-key': apiKey.key }, body: newCustomer() })).status).toBe(201);
    const deliveries = (await call('GET', `/webhooks/${endpoint.id}/deliveries`)).json.deliveries as { event_id: string }[];
    const eventId = deliveries[0]!.event_id;
    expect((await call('POST', `/webhooks/${endpoint.id}/deliveries/${eventId}/resend`)).status).toBe(204);
    expect((await call('DELETE', `/webhooks/${endpoint.id}`)).status).toBe(204);
    // Refused requests record nothing.
    expect((await call('DELETE', `/webhooks/${endpoint.id}`)).status).toBe(404);
    expect((await call('DELETE', '/session')).status).toBe(204);

    const recorded = (await rows()).slice(0, -before).reverse();
    expect(recorded.map((row) => [row.action, row.target_id])).toEqual([
      ['sign_in.used', null],
      ['api_key.created', key.id],
      ['api_key.revoked', key.id],
      ['api_key.deleted', key.id],
      ['webhook_endpoint.created', endpoint.id],
      ['webhook_endpoint.secret_rotated', endpoint.id],
      ['webhook_endpoint.test_sent', endpoint.id],
      ['api_key.created', apiKey.id],
      ['webhook_delivery.resent', eventId],
      ['webhook_endpoint.deleted', endpoint.id],
      ['signed_out', null],
    ]);
    const session = recorded[0]!.actor_id;
    expect(session).toMatch(/^[0-9a-f]{16}$/);
    for (const row of recorded.filter((r) => r.actor_type === 'dashboard')) {
      expect(row).toMatchObject({ actor_id: session, client_address: '127.0.0.1', request_id: expect.any(String) });
    }
    expect(new Set(recorded.filter((r) => r.actor_type === 'dashboard').map((r) => r.request_id)).size).toBe(10);
  });

  it('writes the row in the change\'s transaction: a sign-in link used up leaves one sign-in, a second use none', async () => {
    const before = (await rows()).length;
    const link = (await cli(env, 'sellers', 'login-link', '--seller', sellerId, '--json', ...db)).json();
    const token = new URL(link.url).searchParams.get('token')!;
    secrets.push(token);
    expect((await postLogin(server, token)).status).toBe(303);
    expect((await postLogin(server, token)).status).toBe(401);
    const recorded = (await rows()).slice(0, -before || undefined).map((row) => row.action);
    expect(recorded).toEqual(['sign_in.used', 'sign_in_link.issued']);
  });

  it('never holds a secret, key, token or session cookie', async () => {
    const text = JSON.stringify(await rows());
    expect(secrets.length).toBeGreaterThan(8);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/whsec_|cust_(live|test)_/);
  });

  it('lists rows with the CLI, filtered by seller, time, action and target, newest first, as JSON or a table', async () => {
    const all = await cli(env, 'audit', 'list', '--seller', sellerId, '--json', ...db);
    expect(all.code).toBe(0);
    const listed = all.json() as AuditRecord[];
    expect(listed.length).toBe((await rows()).length);
    expect(listed[0]!.action).toBe('sign_in.used');
    const limited = await cli(env, 'audit', 'list', '--seller', sellerId, '--limit', '2', '--json', ...db);
    expect(limited.json()).toEqual(listed.slice(0, 2));
    const later = await cli(env, 'audit', 'list', '--since', '2999-01-01', '--json', ...db);
    expect(later.json()).toEqual([]);
    const table = await cli(env, 'audit', 'list', '--seller', sellerId, ...db);
    expect(table.stdout).toMatch(/^TIME +SELLER +ACTOR +ACTION +TARGET +REQUEST +ADDRESS\n/);
    expect(table.stdout).toContain(`cli ${userInfo().username}@${hostname()} `);
    // By action, and by the object a row is about: "who revoked this key?"
    const revoked = (await cli(env, 'audit', 'list', '--seller', sellerId, '--action', 'api_key.revoked', '--json', ...db)).json() as AuditRecord[];
    expect(revoked.length).toBeGreaterThan(0);
    expect(new Set(revoked.map((row) => row.action))).toEqual(new Set(['api_key.revoked']));
    expect(revoked.length).toBe(listed.filter((row) => row.action === 'api_key.revoked').length);
    // The CLI's key (the first test): created, revoked, deleted.
    const cliRevoke = revoked.find((row) => row.actor_type === 'cli')!;
    const aboutKey = (await cli(env, 'audit', 'list', '--target', cliRevoke.target_id!, '--json', ...db)).json() as AuditRecord[];
    expect(aboutKey.map((row) => row.action)).toEqual(['api_key.deleted', 'api_key.revoked', 'api_key.created']);
    const badAction = await cli(env, 'audit', 'list', '--action', 'key.stolen', ...db);
    expect(badAction.code).not.toBe(0);
    expect(badAction.stderr).toContain('--action must be one of: seller.created,');
    expect((await cli(env, 'audit', 'list', '--since', 'yesterday', ...db)).stderr).toContain('--since must be an ISO 8601');
    expect((await cli(env, 'audit', 'list', '--limit', '0', ...db)).stderr).toContain('--limit must be a whole number');
    expect((await cli(env, 'audit', 'list', '--seller', 'nope', ...db)).stderr).toContain('--seller must be a seller id');
  });

  it('prunes rows past the retention, and only those', async () => {
    const count = (await rows()).length;
    expect(await pruneAuditLog(server.handle, { now: new Date(), retentionDays: 1 })).toBe(0);
    const future = new Date(Date.now() + 2 * 86_400_000);
    expect(await pruneAuditLog(server.handle, { now: future, retentionDays: 1, batchSize: 3 })).toBeGreaterThanOrEqual(count);
    expect(await rows()).toEqual([]);
  });

  it('names every action of the issue, the enabling of a disabled endpoint and resending all failed deliveries', () => {
    // The Activity page's contract lists exactly the actions the server writes (a new one is added to both).
    const spec = parse(readFileSync(new URL('../../../../openapi.dashboard.yaml', import.meta.url), 'utf8')) as {
      components: { schemas: Record<string, { properties?: { action?: { enum?: string[] } } }> };
    };
    const documented = Object.values(spec.components.schemas).find((schema) => schema.properties?.action?.enum)?.properties?.action?.enum;
    expect([...AUDIT_ACTIONS].sort()).toEqual([...(documented ?? [])].sort());
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
    expect(AUDIT_ACTIONS).toContain('webhook_endpoint.enabled');
    expect(AUDIT_ACTIONS).toContain('webhook_delivery.resent_failed');
  });
});

describe('audit log without client addresses', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { audit: { clientAddresses: false } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('records the request but not the address', async () => {
    const { sellerId } = await server.seller();
    const cookie = await signIn(server, sellerId);
    await server.call('POST', '/dashboard/api/keys', { headers: { cookie, ...sameOrigin(server) }, body: { name: 'x' } });
    const recorded = await listAuditRows(server.handle, { sellerId, limit: 10 });
    expect(recorded.map((row) => row.action)).toEqual(['api_key.created', 'sign_in.used']);
    for (const row of recorded) expect(row).toMatchObject({ client_address: null, request_id: expect.any(String) });
  });
});

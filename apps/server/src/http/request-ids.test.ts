import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditRows } from '../audit/audit-log.js';
import { runCli } from '../cli/run-cli.js';
import { sameOrigin, signIn } from '../dashboard/dashboard-test-helpers.js';
import { createLogger } from '../logger.js';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestServer } from '../test/test-server.js';

// Issue 35: the server's own id for every request, with a client's X-Request-Id kept beside it (marked as the
// client's), in log lines, audit rows and request-log rows; responses still echo the client's id; either finds them.

const SERVER_ID = /^req_[0-9a-f]{32}$/;

describe.each(DIALECTS)('request ids on %s', (dialect) => {
  const lines: Record<string, unknown>[] = [];
  let server: TestServer;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    server = await startTestServer(dialect, { logger: createLogger('info', sink) });
  });
  afterAll(async () => {
    await server.close();
  });

  async function auditList(...argv: string[]) {
    let stdout = '';
    const code = await runCli(['audit', 'list', '--json', '--database', server.database.url, ...argv], { out: (t) => (stdout += t), err: () => {}, env: {} });
    expect(code).toBe(0);
    return JSON.parse(stdout) as { action: string; request_id: string | null; client_request_id: string | null }[];
  }

  it("echoes a client's id, but logs and records the server's own beside it, and a forged id finds only the forger's rows", async () => {
    const seller = await server.seller();
    const victim = await server.seller();
    const cookie = await signIn(server, victim.sellerId);
    // The victim's own request, with no id of its own: the server's id is echoed and recorded.
    const victimCall = await server.call('POST', '/api/customers', { key: victim.key, body: newCustomer() });
    const victimId = victimCall.headers.get('x-request-id')!;
    expect(victimId).toMatch(SERVER_ID);

    // A seller sends another request's id as its own: echoed, but never taken as the server's id.
    lines.length = 0;
    const forged = await server.call('POST', '/api/webhook_endpoints', {
      key: seller.key,
      body: { url: 'https://crm.example.com/hooks' },
      headers: { 'x-request-id': victimId },
    });
    expect(forged.status).toBe(201);
    expect(forged.headers.get('x-request-id')).toBe(victimId);
    await server.app.requestLogs!.flush();

    // Its log line: the server's id as reqId, the client's marked as clientRequestId.
    const logged = lines.filter((line) => line.msg === 'request' && line.path === '/api/webhook_endpoints');
    expect(logged).toHaveLength(1);
    const serverId = logged[0]!.reqId as string;
    expect(serverId).toMatch(SERVER_ID);
    expect(serverId).not.toBe(victimId);
    expect(logged[0]!.clientRequestId).toBe(victimId);

    // Its audit row: both ids, found by either through the CLI.
    const [audit] = await listAuditRows(server.handle, { sellerId: seller.sellerId, limit: 1 });
    expect(audit).toMatchObject({ action: 'webhook_endpoint.created', request_id: serverId, client_request_id: victimId });
    expect((await auditList('--request-id', serverId)).map((row) => [row.action, row.request_id, row.client_request_id])).toEqual([
      ['webhook_endpoint.created', serverId, victimId],
    ]);
    expect((await auditList('--request-id', victimId)).map((row) => row.request_id)).toEqual([serverId]);

    // Its request-log row: both ids; the seller finds it by either, the victim's page by its id shows only its own.
    const sellerCookie = await signIn(server, seller.sellerId);
    for (const id of [serverId, victimId]) {
      const page = await server.call('GET', `/dashboard/api/request-logs?request_id=${id}`, { headers: { cookie: sellerCookie } });
      expect(page.status).toBe(200);
      expect(page.json.request_logs.map((row: Record<string, unknown>) => [row.path, row.request_id, row.client_request_id])).toEqual([
        ['/api/webhook_endpoints', serverId, victimId],
      ]);
    }
    const victims = await server.call('GET', `/dashboard/api/request-logs?request_id=${victimId}`, { headers: { cookie } });
    expect(victims.json.request_logs.map((row: Record<string, unknown>) => [row.path, row.request_id, row.client_request_id])).toEqual([
      ['/api/customers', victimId, null],
    ]);
  });

  it("records a dashboard change's ids, and the Activity page shows both", async () => {
    const seller = await server.seller();
    const cookie = await signIn(server, seller.sellerId);
    const created = await server.call('POST', '/dashboard/api/keys', {
      headers: { cookie, ...sameOrigin(server), 'x-request-id': 'support-ticket-42' },
      body: { name: 'ci' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe('support-ticket-42');
    const activity = await server.call('GET', '/dashboard/api/activity', { headers: { cookie } });
    expect(activity.status).toBe(200);
    const [entry] = activity.json.entries as Record<string, unknown>[];
    expect(entry).toMatchObject({ action: 'api_key.created', client_request_id: 'support-ticket-42', request_id: expect.stringMatching(SERVER_ID) });
    // A client id that is not acceptable is neither echoed nor kept.
    const refused = await server.call('POST', '/dashboard/api/keys', {
      headers: { cookie, ...sameOrigin(server), 'x-request-id': 'has spaces' },
      body: { name: 'ci2' },
    });
    expect(refused.headers.get('x-request-id')).toMatch(SERVER_ID);
    const [second] = await listAuditRows(server.handle, { sellerId: seller.sellerId, limit: 1 });
    expect(second).toMatchObject({ request_id: refused.headers.get('x-request-id'), client_request_id: null });
  });
});

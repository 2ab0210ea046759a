import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { sameOrigin, signIn } from './dashboard-test-helpers.js';

describe.each(DIALECTS)('the Activity API on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  it("shows a seller its own rows only, never another seller's", async () => {
    const mine = await server.seller();
    const theirs = await server.seller();
    const myCookie = await signIn(server, mine.sellerId);
    const theirCookie = await signIn(server, theirs.sellerId);
    const created = await server.call('POST', '/dashboard/api/keys', { headers: { cookie: theirCookie, ...sameOrigin(server) }, body: { name: 'theirs' } });
    expect(created.status).toBe(201);
    const activity = await server.call('GET', '/dashboard/api/activity', { headers: { cookie: myCookie } });
    expect(activity.status).toBe(200);
    expect(activity.json.entries.map((entry: { action: string }) => entry.action)).toEqual(['sign_in.used']);
    expect(activity.text).not.toContain(created.json.id);
    const their = await server.call('GET', '/dashboard/api/activity', { headers: { cookie: theirCookie } });
    expect(their.json.entries.map((entry: { action: string; target_id: string | null }) => [entry.action, entry.target_id])).toEqual([
      ['api_key.created', created.json.id],
      ['sign_in.used', null],
    ]);
  });

  it('needs a session: no cookie, or an API key, is 401', async () => {
    const seller = await server.seller();
    expect((await server.call('GET', '/dashboard/api/activity')).status).toBe(401);
    expect((await server.call('GET', '/dashboard/api/activity', { headers: { 'x-api-key': seller.key } })).status).toBe(401);
  });
});

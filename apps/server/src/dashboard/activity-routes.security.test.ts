import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAuditRow } from '../audit/audit-log.js';
import { CLI_ACTOR } from '../audit/audit-actions.js';
import { DIALECTS } from '../test/test-database.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { sameOrigin, signIn, fieldErrorBody } from './dashboard-test-helpers.js';

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

  it('pages through every row, newest first, 100 at a time, within the seller; a bad cursor is 400', async () => {
    const mine = await server.seller();
    const theirs = await server.seller();
    const cookie = await signIn(server, mine.sellerId);
    // 204 rows of mine (with the sign-in: 205) interleaved with 50 of theirs.
    for (let i = 0; i < 204; i++) {
      const at = new Date(Date.UTC(2026, 10, 1) + i * 1000);
      await writeAuditRow(server.handle.db, CLI_ACTOR, { sellerId: mine.sellerId, action: 'api_key.created', targetId: `mine-${i}` }, at);
      if (i % 4 === 0) await writeAuditRow(server.handle.db, CLI_ACTOR, { sellerId: theirs.sellerId, action: 'api_key.created', targetId: `theirs-${i}` }, at);
    }
    const pages = [];
    let query = '';
    for (;;) {
      const page = await server.call('GET', `/dashboard/api/activity${query}`, { headers: { cookie } });
      expect(page.status).toBe(200);
      pages.push(page.json.entries.map((entry: { target_id: string | null }) => entry.target_id));
      if (page.json.next_cursor === null) break;
      query = `?cursor=${page.json.next_cursor}`;
    }
    expect(pages.map((page) => page.length)).toEqual([100, 100, 5]);
    // Newest first: the 204 rows, then the sign-in (written before them); none of theirs.
    expect(pages.flat()).toEqual([...Array.from({ length: 204 }, (_, i) => `mine-${203 - i}`), null]);
    for (const cursor of ['0', 'abc', '-5', '1e3', `${'9'.repeat(17)}`]) {
      const refused = await server.call('GET', `/dashboard/api/activity?cursor=${cursor}`, { headers: { cookie } });
      expect(refused.status, cursor).toBe(400);
      expect(refused.json).toEqual(fieldErrorBody('Bad Request', "cursor must be a previous page's next_cursor"));
    }
    const twice = await server.call('GET', '/dashboard/api/activity?cursor=5&cursor=6', { headers: { cookie } });
    expect(twice.status).toBe(400);
  });

  it('needs a session: no cookie, or an API key, is 401', async () => {
    const seller = await server.seller();
    expect((await server.call('GET', '/dashboard/api/activity')).status).toBe(401);
    expect((await server.call('GET', '/dashboard/api/activity', { headers: { 'x-api-key': seller.key } })).status).toBe(401);
  });
});

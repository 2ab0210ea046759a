import { beforeAll, describe, expect, it } from 'vitest';
import { createSeller } from '../db/sellers.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { consumeLoginLink, createLoginLink, LOGIN_LINK_TTL_MS, loginLinkUrl } from './login-links.js';
import { hashSecretToken } from './secret-token.js';
import { createSession, endSession, findSession, SESSION_TTL_MS } from './sessions.js';

describe.each(DIALECTS)('login links and sessions stored on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  let sellerId: string;

  beforeAll(async () => {
    sellerId = (await createSeller(db.handle, { name: 'S', plan: 'starter' })).id;
  });

  it('stores only hashes, never the token or the session id', async () => {
    const link = await createLoginLink(db.handle, sellerId);
    const session = await createSession(db.handle, sellerId);
    const links = await db.handle.db.selectFrom('login_links').selectAll().execute();
    const sessions = await db.handle.db.selectFrom('dashboard_sessions').selectAll().execute();
    expect(JSON.stringify(links)).not.toContain(link.token);
    expect(links.map((l) => l.token_hash)).toContain(hashSecretToken(link.token));
    expect(JSON.stringify(sessions)).not.toContain(session.id);
    expect(sessions.map((s) => s.id_hash)).toContain(hashSecretToken(session.id));
  });

  it('a link works once, even when used twenty times at once', async () => {
    const { token } = await createLoginLink(db.handle, sellerId);
    const results = await Promise.all(Array.from({ length: 20 }, () => consumeLoginLink(db.handle, token)));
    expect(results.filter((r) => r === sellerId)).toHaveLength(1);
    expect(results.filter((r) => r === undefined)).toHaveLength(19);
  });

  it('a link expires after 15 minutes; a session after 12 hours, or when ended', async () => {
    const start = new Date();
    const { token, expiresAt } = await createLoginLink(db.handle, sellerId, start);
    expect(Date.parse(expiresAt) - start.getTime()).toBe(LOGIN_LINK_TTL_MS);
    expect(await consumeLoginLink(db.handle, token, new Date(start.getTime() + LOGIN_LINK_TTL_MS))).toBeUndefined();

    const session = await createSession(db.handle, sellerId, start);
    expect(await findSession(db.handle, session.id, new Date(start.getTime() + SESSION_TTL_MS - 1))).toEqual({
      sellerId,
      expiresAt: session.expiresAt,
    });
    expect(await findSession(db.handle, session.id, new Date(start.getTime() + SESSION_TTL_MS))).toBeUndefined();
    const other = await createSession(db.handle, sellerId);
    await endSession(db.handle, other.id);
    expect(await findSession(db.handle, other.id)).toBeUndefined();
    for (const bad of [undefined, '', 'x', 42, other.id.slice(1)]) expect(await findSession(db.handle, bad)).toBeUndefined();
  });

  it('builds the URL from a base URL', () => {
    expect(loginLinkUrl('https://api.example.com/', 'T')).toBe('https://api.example.com/dashboard/login?token=T');
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { createSeller } from '../db/sellers.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { consumeLoginLink, createLoginLink, LOGIN_LINK_TTL_MS, loginLinkUrl } from './login-links.js';
import { hashSecretToken } from './secret-token.js';
import { createSession, endSession, findSession, SESSION_IDLE_MS, SESSION_TTL_MS } from './sessions.js';

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
    expect(Date.parse(session.expiresAt) - start.getTime()).toBe(SESSION_TTL_MS);
    // Used every 29 minutes, a session lives its 12 hours, and not a millisecond longer.
    let at = start.getTime();
    while (at + 29 * 60_000 < start.getTime() + SESSION_TTL_MS) {
      at += 29 * 60_000;
      expect(await findSession(db.handle, session.id, new Date(at)), new Date(at).toISOString()).toEqual({
        sellerId,
        expiresAt: session.expiresAt,
      });
    }
    expect(await findSession(db.handle, session.id, new Date(start.getTime() + SESSION_TTL_MS - 1))).toBeDefined();
    expect(await findSession(db.handle, session.id, new Date(start.getTime() + SESSION_TTL_MS))).toBeUndefined();
    const other = await createSession(db.handle, sellerId);
    await endSession(db.handle, other.id);
    expect(await findSession(db.handle, other.id)).toBeUndefined();
    for (const bad of [undefined, '', 'x', 42, other.id.slice(1)]) expect(await findSession(db.handle, bad)).toBeUndefined();
  });

  it('a session unused for 30 minutes ends (idle timeout); each use moves that deadline', async () => {
    const start = new Date();
    const minutes = (m: number) => new Date(start.getTime() + m * 60_000);
    const session = await createSession(db.handle, sellerId, start);
    expect(await findSession(db.handle, session.id, minutes(29))).toBeDefined();
    expect(await findSession(db.handle, session.id, minutes(58))).toBeDefined();
    expect(await findSession(db.handle, session.id, minutes(58 + SESSION_IDLE_MS / 60_000))).toBeUndefined();
    const idle = await createSession(db.handle, sellerId, start);
    expect(await findSession(db.handle, idle.id, minutes(30))).toBeUndefined();
  });

  it('builds the URL from a base URL', () => {
    expect(loginLinkUrl('https://api.example.com/', 'T')).toBe('https://api.example.com/dashboard/login?token=T');
  });
});

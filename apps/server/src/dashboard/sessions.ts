import type { DatabaseHandle } from '../db/connect.js';
import { toIso } from '../db/rows.js';
import { hashSecretToken, isSecretTokenShape, newSecretToken } from './secret-token.js';

/** How long a dashboard session lasts from sign-in at most (absolute, however active the seller is). */
export const SESSION_TTL_MS = 12 * 3_600_000;

/** A session unused for this long ends (idle timeout); every use moves this deadline on. */
export const SESSION_IDLE_MS = 30 * 60_000;

/** The idle deadline is written at most once a minute per session, so a page's requests are not all writes. */
const IDLE_REFRESH_STEP_MS = 60_000;

export interface NewSession {
  /** The session id for the cookie; stored only as a hash. */
  id: string;
  /** The absolute end (sign-in + 12 hours). */
  expiresAt: string;
}

export interface ActiveSession {
  sellerId: string;
  /** The absolute end (sign-in + 12 hours); the session ends earlier after 30 idle minutes. */
  expiresAt: string;
}

/**
 * Starts a session for a seller; expired sessions are purged on the way. The row's `expires_at` is the idle
 * deadline (never past the absolute end, `created_at` + 12 hours), so the purge catches idle sessions too.
 */
export async function createSession(handle: DatabaseHandle, sellerId: string, now = new Date()): Promise<NewSession> {
  const id = newSecretToken();
  const cutoff = now.toISOString();
  await handle.db.deleteFrom('dashboard_sessions').where('expires_at', '<=', cutoff).execute();
  await handle.db
    .insertInto('dashboard_sessions')
    .values({
      id_hash: hashSecretToken(id),
      seller_id: sellerId,
      created_at: cutoff,
      expires_at: new Date(now.getTime() + SESSION_IDLE_MS).toISOString(),
    })
    .execute();
  return { id, expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString() };
}

/**
 * The session behind a cookie value if it exists, has been used within 30 minutes and is less than 12 hours
 * old. Finding it is a use: its idle deadline moves to 30 minutes from now (within the absolute end).
 */
export async function findSession(handle: DatabaseHandle, id: unknown, now = new Date()): Promise<ActiveSession | undefined> {
  if (!isSecretTokenShape(id)) return undefined;
  const idHash = hashSecretToken(id);
  const row = await handle.db
    .selectFrom('dashboard_sessions')
    .select(['seller_id', 'created_at', 'expires_at'])
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const end = Date.parse(toIso(row.created_at)) + SESSION_TTL_MS;
  const idleDeadline = Date.parse(toIso(row.expires_at));
  if (Math.min(end, idleDeadline) <= now.getTime()) return undefined;
  const nextDeadline = Math.min(end, now.getTime() + SESSION_IDLE_MS);
  if (nextDeadline - idleDeadline >= IDLE_REFRESH_STEP_MS) {
    await handle.db
      .updateTable('dashboard_sessions')
      .set({ expires_at: new Date(nextDeadline).toISOString() })
      .where('id_hash', '=', idHash)
      .execute();
  }
  return { sellerId: row.seller_id, expiresAt: new Date(end).toISOString() };
}

/** Signs a session out for good (nothing happens for an unknown id). */
export async function endSession(handle: DatabaseHandle, id: unknown): Promise<void> {
  if (!isSecretTokenShape(id)) return;
  await handle.db.deleteFrom('dashboard_sessions').where('id_hash', '=', hashSecretToken(id)).execute();
}

/** Why a browser has no live session: it never had one, or its session timed out (idle, 12-hour limit) or is gone. */
export type SessionEnd = 'none' | 'idle' | 'limit' | 'ended';

/**
 * Why the session behind a cookie value is not live (call it once {@link findSession} found none): `none` without
 * a cookie, `idle` or `limit` while its row is still there, `ended` once it is gone (signed out elsewhere, purged).
 */
export async function sessionEndReason(handle: DatabaseHandle, id: unknown, now = new Date()): Promise<SessionEnd> {
  if (!isSecretTokenShape(id)) return 'none';
  const row = await handle.db
    .selectFrom('dashboard_sessions')
    .select(['created_at'])
    .where('id_hash', '=', hashSecretToken(id))
    .executeTakeFirst();
  if (!row) return 'ended';
  return Date.parse(toIso(row.created_at)) + SESSION_TTL_MS <= now.getTime() ? 'limit' : 'idle';
}

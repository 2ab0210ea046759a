import type { DatabaseHandle } from '../db/connect.js';
import { toIso } from '../db/rows.js';
import { hashSecretToken, isSecretTokenShape, newSecretToken } from './secret-token.js';

/** How long a dashboard session lasts from sign-in (absolute, not sliding). */
export const SESSION_TTL_MS = 12 * 3_600_000;

export interface NewSession {
  /** The session id for the cookie; stored only as a hash. */
  id: string;
  expiresAt: string;
}

export interface ActiveSession {
  sellerId: string;
  expiresAt: string;
}

/** Starts a session for a seller; expired sessions and sign-in links are purged on the way. */
export async function createSession(handle: DatabaseHandle, sellerId: string, now = new Date()): Promise<NewSession> {
  const id = newSecretToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS).toISOString();
  const cutoff = now.toISOString();
  await handle.db.deleteFrom('dashboard_sessions').where('expires_at', '<=', cutoff).execute();
  await handle.db
    .insertInto('dashboard_sessions')
    .values({ id_hash: hashSecretToken(id), seller_id: sellerId, created_at: cutoff, expires_at: expiresAt })
    .execute();
  return { id, expiresAt };
}

/** The session behind a cookie value if it exists and has not expired. */
export async function findSession(handle: DatabaseHandle, id: unknown, now = new Date()): Promise<ActiveSession | undefined> {
  if (!isSecretTokenShape(id)) return undefined;
  const row = await handle.db
    .selectFrom('dashboard_sessions')
    .select(['seller_id', 'expires_at'])
    .where('id_hash', '=', hashSecretToken(id))
    .executeTakeFirst();
  if (!row) return undefined;
  const expiresAt = toIso(row.expires_at);
  return Date.parse(expiresAt) > now.getTime() ? { sellerId: row.seller_id, expiresAt } : undefined;
}

/** Signs a session out for good (nothing happens for an unknown id). */
export async function endSession(handle: DatabaseHandle, id: unknown): Promise<void> {
  if (!isSecretTokenShape(id)) return;
  await handle.db.deleteFrom('dashboard_sessions').where('id_hash', '=', hashSecretToken(id)).execute();
}

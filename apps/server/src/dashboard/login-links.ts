import type { DatabaseHandle } from '../db/connect.js';
import { toIso } from '../db/rows.js';
import { hashSecretToken, isSecretTokenShape, newSecretToken } from './secret-token.js';

/** How long a sign-in link stays usable. */
export const LOGIN_LINK_TTL_MS = 15 * 60_000;

export interface LoginLink {
  /** The token for the URL: returned once, stored only as a hash. */
  token: string;
  expiresAt: string;
}

/** A new one-time sign-in link for a seller (the caller checks that the seller exists). */
export async function createLoginLink(handle: DatabaseHandle, sellerId: string, now = new Date()): Promise<LoginLink> {
  const token = newSecretToken();
  const expiresAt = new Date(now.getTime() + LOGIN_LINK_TTL_MS).toISOString();
  await handle.db.deleteFrom('login_links').where('expires_at', '<=', now.toISOString()).execute();
  await handle.db
    .insertInto('login_links')
    .values({ token_hash: hashSecretToken(token), seller_id: sellerId, created_at: now.toISOString(), expires_at: expiresAt })
    .execute();
  return { token, expiresAt };
}

/**
 * Uses a sign-in link: the seller id when the token is known and unexpired, else undefined. The row is deleted
 * by the same statement that reads it, so of two concurrent uses only one can succeed.
 */
export async function consumeLoginLink(handle: DatabaseHandle, token: unknown, now = new Date()): Promise<string | undefined> {
  if (!isSecretTokenShape(token)) return undefined;
  const row = await handle.db
    .deleteFrom('login_links')
    .where('token_hash', '=', hashSecretToken(token))
    .returning(['seller_id', 'expires_at'])
    .executeTakeFirst();
  return liveSellerId(row, now);
}

/** The seller a sign-in link is for, when it is known and unexpired, without using it up. */
export async function peekLoginLink(handle: DatabaseHandle, token: unknown, now = new Date()): Promise<string | undefined> {
  if (!isSecretTokenShape(token)) return undefined;
  const row = await handle.db
    .selectFrom('login_links')
    .select(['seller_id', 'expires_at'])
    .where('token_hash', '=', hashSecretToken(token))
    .executeTakeFirst();
  return liveSellerId(row, now);
}

function liveSellerId(row: { seller_id: string; expires_at: Date | string } | undefined, now: Date): string | undefined {
  return row && Date.parse(toIso(row.expires_at)) > now.getTime() ? row.seller_id : undefined;
}

/** The URL an operator hands to a seller. */
export function loginLinkUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/dashboard/login?token=${token}`;
}

import { hostname, userInfo } from 'node:os';
import type { AuditDetails } from './audit-details.js';

/**
 * Every security-relevant change the audit log records, by name. Some have no writer yet (an endpoint disabled
 * after repeated failures, a key rolled, a secret revealed): their names are fixed here so the features that add
 * them only call the writer.
 */
export const AUDIT_ACTIONS = [
  'seller.created',
  'seller.updated',
  'api_key.created',
  'api_key.rolled',
  'api_key.revoked',
  'api_key.deleted',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.disabled',
  'webhook_endpoint.enabled',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.secret_revealed',
  'webhook_endpoint.test_sent',
  'webhook_delivery.resent',
  'webhook_delivery.resent_failed',
  'customer.updated',
  'customer.deleted',
  'test_data.deleted',
  'sign_in_link.issued',
  'sign_in.used',
  'signed_out',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who did it: the operator's CLI, a signed-in dashboard session, an API key, or the server itself (automatic changes). */
export type AuditActorType = 'cli' | 'dashboard' | 'api_key' | 'server';

export interface AuditActor {
  type: AuditActorType;
  /**
   * Dashboard: a reference to the session (a digest of its stored hash, never the cookie's value); API key: the
   * key's id. Null for the CLI and the server.
   */
  id: string | null;
  /** API key: its display prefix; the CLI: the OS user and host that ran it (`user@host`). */
  label?: string | null;
}

/** The request a change came with; the same for every row the request writes. */
export interface AuditContext {
  actor: AuditActor;
  /** The server's own id for the request. */
  requestId?: string | null;
  /** The caller's `X-Request-Id`, kept beside the server's (a client can send any value). */
  clientRequestId?: string | null;
  /** The client's address, or null when the operator turned addresses off (they are personal data). */
  clientAddress?: string | null;
}

/** What changed: the seller whose account it is, the action, and the id of the object it concerns. */
export interface AuditEntry {
  sellerId: string;
  /** The mode of the data changed: 'test' marks a change made with a test key (test mode, issue 38); live when omitted. */
  mode?: 'live' | 'test';
  action: AuditAction;
  targetId: string | null;
  /** Instead of the context's actor (a sign-in: the session it started). */
  actor?: AuditActor;
  /** A roll's keys, an update's changed fields (audit-details.ts); never a secret. */
  details?: AuditDetails | undefined;
}

/**
 * Who runs this process, as `user@host`: the OS account (its name, or `uid N` when the account has none) and the
 * machine. Never from the environment, which the caller could set to anything.
 */
export function operatorLabel(): string {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = `uid ${process.getuid?.() ?? 'unknown'}`;
  }
  return `${user}@${hostname()}`;
}

/** The operator's CLI as an actor, labelled with the OS user and host that ran it. */
export const CLI_ACTOR: AuditContext = { actor: { type: 'cli', id: null, label: operatorLabel() } };

/** The server itself (the demo account made on first start). */
export const SERVER_ACTOR: AuditContext = { actor: { type: 'server', id: null } };

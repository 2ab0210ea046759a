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
  /** API key: its display prefix. */
  label?: string | null;
}

/** The request a change came with; the same for every row the request writes. */
export interface AuditContext {
  actor: AuditActor;
  requestId?: string | null;
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
}

/** The operator's CLI as an actor. */
export const CLI_ACTOR: AuditContext = { actor: { type: 'cli', id: null } };

/** The server itself (the demo account made on first start). */
export const SERVER_ACTOR: AuditContext = { actor: { type: 'server', id: null } };

/**
 * What an audit row says beyond its action and target (migration 026's `details`, JSON): a roll's two keys, an
 * update's changed fields with their values before and after. Never a secret: fields whose names say secret,
 * hash, password or token are left out whatever the caller passes.
 */
export interface AuditDetails {
  /** An update: each field that changed, with its value before and after. */
  changes?: Record<string, { before: unknown; after: unknown }>;
  /** A roll (`api_key.rolled`): the key rolled and the key that replaces it. */
  previous_key_id?: string;
  new_key_id?: string;
  /** The new key of a roll (`api_key.created`): the key it replaces. */
  rolled_from?: string;
}

const SECRET_LIKE = /secret|hash|password|token/i;

/**
 * The `changes` of an update: the `fields` whose values differ between `before` and `after` (compared as JSON),
 * secret-like fields never included. Undefined when nothing changed.
 *
 * @example
 * fieldChanges({ name: 'a', rate_limit: 5 }, { name: 'a', rate_limit: 10 }, ['name', 'rate_limit']);
 * // { changes: { rate_limit: { before: 5, after: 10 } } }
 */
export function fieldChanges(
  before: object,
  after: object,
  fields: readonly string[],
): AuditDetails | undefined {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  const was = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  for (const field of fields) {
    if (SECRET_LIKE.test(field)) continue;
    const a = was[field] ?? null;
    const b = now[field] ?? null;
    if (JSON.stringify(a) !== JSON.stringify(b)) changes[field] = { before: a, after: b };
  }
  return Object.keys(changes).length > 0 ? { changes } : undefined;
}

/** Every field of `after` but the ones that change on any write (timestamps) and secret-like ones. */
export function changedFieldsOf(before: object, after: object, ignore: readonly string[] = ['updated_at']): AuditDetails | undefined {
  return fieldChanges(before, after, Object.keys(after).filter((field) => !ignore.includes(field)));
}

/** The details as stored (JSON text), or null. */
export function storedDetails(details: AuditDetails | undefined | null): string | null {
  return details ? JSON.stringify(details) : null;
}

/** The details as read back; null for none (and for rows written before migration 026). */
export function readDetails(text: string | null | undefined): AuditDetails | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as AuditDetails;
  } catch {
    return null;
  }
}

/** A roll's row (`api_key.rolled`): the key rolled and the key that replaces it. */
export function rollDetails({ previous, key }: { previous: { id: string }; key: { id: string } }): AuditDetails {
  return { previous_key_id: previous.id, new_key_id: key.id };
}

import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/connect.js';
import { toIsoOrNull } from '../db/rows.js';

// The endpoint's health in words (openapi.dashboard.yaml, `EndpointHealth`): one rule, read here only.
/** Failing as soon as this many attempts in a row failed... */
export const FAILING_AFTER_ATTEMPTS = 5;
/** ...or when failed attempts have gone on this long without a success. */
export const FAILING_AFTER_MS = 3_600_000;

export type EndpointHealth = 'healthy' | 'failing' | 'disabled';

export interface EndpointHealthReport {
  health: EndpointHealth;
  /** The last attempt a 2xx answered, as far as kept attempts tell. */
  last_succeeded_at: string | null;
  /** When its next waiting delivery is due. */
  next_retry_at: string | null;
}

/**
 * The health of one of the seller's endpoints now: `disabled` while disabled; `failing` when its last
 * {@link FAILING_AFTER_ATTEMPTS} attempts all failed, or its first failure since its last success is
 * {@link FAILING_AFTER_MS} old; else `healthy`. Three reads, each a few rows through an index: the endpoint's
 * newest attempts ((endpoint_id, attempted_at)), its last success before its failures began, and its earliest due
 * delivery ((endpoint_id, next_attempt_at)).
 *
 * @example
 * const { health, next_retry_at } = await endpointHealthReport(handle, endpoint.id, new Date());
 */
export async function endpointHealthReport(handle: DatabaseHandle, endpointId: string, now: Date): Promise<EndpointHealthReport> {
  const endpoint = await handle.db
    .selectFrom('webhook_endpoints')
    .select(['disabled_at', 'attempts_failing_since'])
    .where('id', '=', endpointId)
    .executeTakeFirst();
  const recent = await handle.db
    .selectFrom('webhook_delivery_attempts')
    .select('status_code')
    .where('endpoint_id', '=', endpointId)
    .orderBy('attempted_at', 'desc')
    .limit(FAILING_AFTER_ATTEMPTS)
    .execute();
  const failingSince = toIsoOrNull(endpoint?.attempts_failing_since ?? null);
  let successes = handle.db
    .selectFrom('webhook_delivery_attempts')
    .select('attempted_at')
    .where('endpoint_id', '=', endpointId)
    .where(sql<boolean>`status_code >= 200 and status_code < 300`);
  // The last success comes right before the run of failures (attempts_failing_since is its first failure).
  if (failingSince !== null) successes = successes.where('attempted_at', '<', failingSince);
  const success = await successes.orderBy('attempted_at', 'desc').limit(1).executeTakeFirst();
  const due = await handle.db
    .selectFrom('webhook_deliveries')
    .select('next_attempt_at')
    .where('endpoint_id', '=', endpointId)
    .where('next_attempt_at', 'is not', null)
    .orderBy('next_attempt_at')
    .limit(1)
    .executeTakeFirst();
  const ok = (status: number | null) => status !== null && status >= 200 && status < 300;
  const failedInARow = recent.length === FAILING_AFTER_ATTEMPTS && recent.every((attempt) => !ok(attempt.status_code));
  const failingLong = failingSince !== null && now.getTime() - Date.parse(failingSince) >= FAILING_AFTER_MS;
  const health: EndpointHealth = endpoint?.disabled_at ? 'disabled' : failedInARow || failingLong ? 'failing' : 'healthy';
  return {
    health,
    last_succeeded_at: toIsoOrNull(success?.attempted_at ?? null),
    next_retry_at: toIsoOrNull(due?.next_attempt_at ?? null),
  };
}

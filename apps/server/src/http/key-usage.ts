import type { FastifyBaseLogger } from 'fastify';
import { LAST_USED_PRECISION_MS, touchApiKey } from '../db/api-keys.js';
import type { DatabaseHandle } from '../db/connect.js';

/**
 * Records `last_used_at` off the request path: at most once a minute per key (skipped outright when the
 * looked-up value is recent, and conditional in the UPDATE for concurrent requests and other processes).
 * Failures are logged, never surfaced. `drain()` waits for pending writes before the database closes.
 */
export function createKeyUsageRecorder(handle: DatabaseHandle, log: FastifyBaseLogger, now: () => Date) {
  const pending = new Set<Promise<unknown>>();
  return {
    record(keyId: string, lastUsedAt: string | null): void {
      const at = now();
      if (lastUsedAt !== null && at.getTime() - Date.parse(lastUsedAt) < LAST_USED_PRECISION_MS) return;
      const write = touchApiKey(handle, keyId, at)
        .catch((error: unknown) => log.warn({ err: error, keyId }, 'could not record API key use'))
        .finally(() => pending.delete(write));
      pending.add(write);
    },
    async drain(): Promise<void> {
      await Promise.all([...pending]);
    },
  };
}

export type KeyUsageRecorder = ReturnType<typeof createKeyUsageRecorder>;

import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../db/connect.js';
import { DeliveryWorker } from './delivery-worker.js';
import { createSecretBox } from './secret-box.js';

// A database that refuses connections (nothing listens on port 9): the worker's claims fail with the typed
// DatabaseUnavailableError. It must back off (one failed claim, one log line), not retry on every nudge.

describe('the delivery worker while the database does not answer', () => {
  it('backs off after a failed claim: later nudges do not claim again, and the outage is logged once', async () => {
    const kinds: string[] = [];
    const database = connectDatabase('postgres://user:secret@127.0.0.1:9/none', { poolSize: 1, onUnavailable: (kind) => kinds.push(kind) });
    const warnings: string[] = [];
    const logger = { warn: (_: unknown, message: string) => warnings.push(message), info: () => {}, debug: () => {} } as unknown as FastifyBaseLogger;
    // A poll interval longer than the test: only the nudges below could claim.
    const worker = new DeliveryWorker({ database, secrets: createSecretBox(randomBytes(32)), logger, pollIntervalMs: 600_000 });
    try {
      for (let i = 0; i < 10; i++) await worker.drain();
      expect(kinds).toEqual(['refused']);
      expect(warnings).toEqual(['webhook delivery: the database does not answer; backing off']);
    } finally {
      await worker.stop();
      await database.close();
    }
  });
});

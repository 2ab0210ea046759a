import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_RETRY_DELAYS_MS } from '@customers-api/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEventChange } from '../dashboard/test-event.js';
import { newTestSeller } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { ENDPOINT_DELIVERY_SLOTS } from './delivery-fairness.js';
import { DeliveryWorker } from './delivery-worker.js';
import { createEndpoint, listDeliveries, queueChange } from './endpoints.js';
import { createSecretBox } from './secret-box.js';

// An endpoint that keeps timing out gets fewer slots (issue 23), end to end: a real receiver that accepts every
// request and never answers, the worker's real timeout (short here), and the number of its requests open at once.

const box = createSecretBox(randomBytes(32));

/** A receiver that never answers and notes, at each request, how many of its requests are open (this one included). */
async function hangingReceiver() {
  let open = 0;
  const openAtArrival: number[] = [];
  const server: Server = createServer((request) => {
    open++;
    openAtArrival.push(open);
    request.socket.once('close', () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    openAtArrival,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each(DIALECTS)('a timing-out endpoint on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  let receiver: Awaited<ReturnType<typeof hangingReceiver>>;
  beforeAll(async () => {
    receiver = await hangingReceiver();
  });
  afterAll(async () => receiver.close());

  it('gets one request at a time after its first timeouts, with the retry schedule unchanged', async () => {
    const seller = await newTestSeller(db.handle);
    const created = await createEndpoint(db.handle, box, seller, { url: receiver.url }, { allowPrivate: true });
    if (created.kind !== 'created') throw new Error(created.message);
    const start = Date.now();
    for (let i = 0; i < 8; i++) await queueChange(db.handle, created.endpoint.id, testEventChange(seller, new Date(start)), new Date(start));
    const ends: Array<[string, boolean | undefined]> = [];
    // The clock stands still, so no retry falls due: drain() ends once all 8 have had their first attempt.
    const worker = new DeliveryWorker({
      database: db.handle,
      secrets: box,
      allowPrivate: true,
      timeoutMs: 150,
      clock: { now: () => start },
      random: () => 0,
      observer: () => (end, outcome) => void ends.push([end, 'timedOut' in outcome && outcome.timedOut]),
    });
    try {
      expect((await worker.drain()).attempts).toBe(8);
    } finally {
      await worker.stop();
    }
    // The first wave fills the endpoint's 4 slots; four timeouts in a row leave it one.
    expect(receiver.openAtArrival).toEqual([1, 2, 3, 4, 1, 1, 1, 1]);
    expect(ends).toEqual(Array(8).fill(['retrying', true]));
    expect(Math.max(...receiver.openAtArrival)).toBe(ENDPOINT_DELIVERY_SLOTS);
    const deliveries = (await listDeliveries(db.handle, seller, created.endpoint.id))!;
    expect(deliveries.map((d) => [d.status, d.attempts, Date.parse(d.next_attempt_at!) - start])).toEqual(
      Array(8).fill(['retrying', 1, WEBHOOK_RETRY_DELAYS_MS[0]]),
    );
    expect(deliveries[0]!.last_error).toBe('Timed out after 150 ms');
  });
});

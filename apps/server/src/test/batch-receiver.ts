import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DatabaseHandle } from '../db/connect.js';
import { testEventChange } from '../dashboard/test-event.js';
import { createEndpoint, queueChange } from '../webhooks/endpoints.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import { newTestSeller } from './sellers-and-endpoints.js';

export interface BatchReceiver {
  /** http://127.0.0.1:PORT/hooks */
  url: string;
  /** How many attempts the coming drain sends: the last batch is answered when they have all arrived. */
  expect(count: number): void;
  close(): Promise<void>;
}

/**
 * A receiver that answers 204 to the attempts in flight together, once `batch` of them (or all that are left) have
 * arrived: the worker sees them end in one turn of its event loop, as it does at a fast receiver under load. The
 * drain tests count the worker's statements and round trips against it, never its time.
 */
export async function startBatchReceiver(batch = 16): Promise<BatchReceiver> {
  const held: ServerResponse[] = [];
  let expected = 0;
  let answered = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      held.push(response);
      if (held.length === Math.min(batch, expected - answered)) {
        answered += held.length;
        for (const r of held.splice(0)) r.writeHead(204).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    expect(count) {
      expected = count;
      answered = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The drain tests' backlog: 2 sellers x 2 endpoints at `url` (4 slots each: 16 in flight), 32 deliveries each,
 * due now. Returns how many deliveries wait (128).
 */
export async function seedDrainBacklog(handle: DatabaseHandle, box: SecretBox, url: string): Promise<number> {
  const now = new Date();
  for (let s = 0; s < 2; s++) {
    const seller = await newTestSeller(handle);
    for (let e = 0; e < 2; e++) {
      const created = await createEndpoint(handle, box, seller, { url: `${url}/${s}/${e}` }, { allowPrivate: true });
      if (created.kind !== 'created') throw new Error(created.message);
      for (let i = 0; i < 32; i++) await queueChange(handle, created.endpoint.id, testEventChange(seller, now), now);
    }
  }
  return 128;
}

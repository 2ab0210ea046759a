import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sdk from '@customers-api/sdk';
import { createSecretBox } from '@customers-api/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServerTarget } from '../targets/mock-server-target.js';
import { startServerTarget } from '../targets/server-target.js';
import type { Target } from '../targets/target.js';

// examples/seller-app/webhook-app.cjs, the receiver a seller deploys, on the server (SQLite, delivering from this
// process) and on the HTTP mock (delivering in real time): stopped while 100 customers change, it catches up
// through the events list on restart and handles exactly the 100 missed events, each once.
type WebhookApp = { start(port?: number): Promise<{ url: string; endpointId: string; caughtUp: number }>; stop(): Promise<void> };
const createWebhookApp = createRequire(import.meta.url)('../../../../examples/seller-app/webhook-app.cjs') as (
  module: typeof sdk,
  options: { client: sdk.CustomersClient; stateFile: string; handle: (event: sdk.CustomerEvent) => void },
) => WebhookApp;

const MISSED = 100;

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000; // deliveries on a loaded machine
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each([
  // The server's worker retries a failed delivery after 5 s, so some missed events may come by retry rather than
  // by the catch-up; the mock retries on its own clock, which this test never advances.
  ['server (SQLite)', () => startServerTarget('sqlite', undefined, { webhooks: { secrets: createSecretBox(randomBytes(32)), allowPrivate: true, pollIntervalMs: 100 } }), false],
  ['HTTP mock', () => startMockServerTarget(), true],
] as const)('the example seller app on the %s', (_name, start, allByCatchUp) => {
  let target: Target;
  let dir: string;
  beforeAll(async () => {
    target = await start();
    dir = mkdtempSync(join(tmpdir(), 'seller-app-'));
  });
  afterAll(async () => {
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`registers its endpoint, and after being down while ${MISSED} customers change handles exactly those events, each once`, async () => {
    const seller = await target.newSeller();
    const client = new sdk.CustomersClient({ apiKey: seller.key, baseUrl: target.baseUrl, maxRetries: 2 });
    const handled: string[] = [];
    const app = createWebhookApp(sdk, { client, stateFile: join(dir, 'state.json'), handle: (event) => void handled.push(event.id) });

    const first = await app.start();
    expect(first.caughtUp).toBe(0);
    expect((await client.webhookEndpoints.get(first.endpointId)).url).toBe(first.url);
    const before = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'before@example.com' });
    const [beforeEvent] = (await client.events.list({ customer_id: before.id })).data;
    await until(() => handled.includes(beforeEvent!.id), 'the delivery before the outage');

    await app.stop();
    for (let i = 0; i < MISSED; i++) {
      if (i % 2 === 0) await client.customers.create({ first_name: 'Missed', last_name: String(i), email: `missed${i}@example.com` });
      else await client.customers.update(before.id, { last_name: `Lovelace ${i}` });
    }
    const missed = (await client.events.list({ limit: 100 }).toArray({ limit: 1000 })).map((e) => e.id).filter((id) => id !== beforeEvent!.id);
    expect(missed).toHaveLength(MISSED);

    const second = await app.start(); // a new URL: the app points its endpoint there through the SDK
    try {
      expect(second.endpointId).toBe(first.endpointId);
      expect((await client.webhookEndpoints.get(second.endpointId)).url).toBe(second.url);
      if (allByCatchUp) expect(second.caughtUp).toBe(MISSED);
      else expect(second.caughtUp).toBeLessThanOrEqual(MISSED);
      // Retries still on their way are recognized by id; give them the time to arrive before counting.
      await until(() => handled.length === MISSED + 1, `the ${MISSED} missed events`);
      expect(handled.slice(1).sort()).toEqual([...missed].sort());
      expect(new Set(handled).size).toBe(handled.length);
    } finally {
      await app.stop();
    }
  });
});

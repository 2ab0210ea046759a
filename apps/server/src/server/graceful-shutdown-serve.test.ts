import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../db/api-keys.js';
import type { DatabaseHandle } from '../db/connect.js';
import { createSeller } from '../db/sellers.js';
import { serve, type ServeProcess } from '../test/serve-process.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { newCustomer } from '../test/test-server.js';

// Issue 35: SIGTERM under load, seen through a client that follows readiness as a load balancer does (it polls
// A's /readyz and sends to B once A is not ready). A keeps accepting for its --shutdown-delay, answers with
// `Connection: close`, then closes: the client must see no reset and no POST of unknown outcome.

describe('SIGTERM to one of two serve processes under load', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const running: ServeProcess[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    handle = await database.open();
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => (p.child.exitCode === null && p.child.signalCode === null ? p.stop() : undefined)));
    await handle?.close();
    await database?.dispose();
  });

  it('loses no request of a readiness-following client: 0 resets, every POST answered, exit 0, a log line per step', async () => {
    const seller = await createSeller(handle, { name: 'Deploy', plan: 'scale', rateLimit: 0 });
    const key = (await createApiKey(handle, { sellerId: seller.id, name: 'k' })).key;
    const [a, b] = await Promise.all([serve(database.url, ['--rate-limit', '0', '--shutdown-delay', '5000']), serve(database.url, ['--rate-limit', '0'])]);
    running.push(a!, b!);

    let aReady = true;
    let stopped = false;
    const answers: { to: 'a' | 'b'; status?: number; error?: string }[] = [];
    const follower = (async () => {
      while (!stopped && aReady) {
        const ready = await fetch(`${a!.url}/readyz`).then((r) => r.status, () => 0);
        if (ready !== 200) aReady = false;
        else await sleep(20);
      }
    })();
    const client = async () => {
      while (!stopped) {
        const to: 'a' | 'b' = aReady ? 'a' : 'b';
        const answer = await fetch(`${(to === 'a' ? a! : b!).url}/api/customers`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify(newCustomer()),
        }).then(
          async (response) => {
            await response.arrayBuffer();
            return { to, status: response.status };
          },
          (error: { cause?: { code?: string } }) => ({ to, error: error.cause?.code ?? String(error) }),
        );
        answers.push(answer);
        await sleep(10);
      }
    };
    const clients = Promise.all([client(), client(), client()]);
    const fromA = () => answers.filter((x) => x.to === 'a').length;
    for (let check = 0; check < 600 && fromA() < 20; check++) await sleep(100);

    const exitCode = await a!.stop();
    const seenWhenAExited = answers.length;
    for (let check = 0; check < 600 && answers.length < seenWhenAExited + 20; check++) await sleep(100);
    stopped = true;
    await Promise.all([clients, follower]);

    const errors = answers.filter((x) => x.error !== undefined);
    const steps = a!.stdout().split('\n').filter((line) => /"msg":"(shutdown: |stopped)/.test(line)).map((line) => JSON.parse(line).msg as string);
    console.log(
      `[sigterm] ${answers.length} POSTs (${fromA()} to A, ${answers.length - fromA()} to B): statuses ${JSON.stringify([...new Set(answers.map((x) => x.status ?? x.error))])}, ` +
        `${errors.length} errors/resets; A exited ${exitCode}; steps ${JSON.stringify(steps)}`,
    );
    expect(exitCode).toBe(0);
    expect(errors).toEqual([]);
    expect(answers.every((x) => x.status === 201)).toBe(true);
    expect(aReady).toBe(false);
    expect(steps).toEqual([
      'shutdown: begun; /readyz answers 503, still accepting until the delay is over',
      'shutdown: delay over; no longer accepting connections, finishing in-flight requests',
      'stopped',
    ]);
  }, 120_000);
});
